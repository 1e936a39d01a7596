import type { CustomerApi, UserApi } from '@cardrail/spec';

/** The generated `paths` of the customer variant (`Cardrail`). */
export type CustomerPaths = CustomerApi.paths;
/** The generated `paths` of the user variant (`CardrailUsers`). */
export type UserPaths = UserApi.paths;

/** Resources shared by both variants are generic over this; the paths they call exist in both specs. */
export type VariantPaths = CustomerPaths | UserPaths;
