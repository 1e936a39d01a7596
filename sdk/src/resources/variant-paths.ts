import type { CustomerApi, UserApi } from '@cardrail/spec';

export type CustomerPaths = CustomerApi.paths;
export type UserPaths = UserApi.paths;

/** Resources shared by both variants are generic over this; the paths they call exist in both specs. */
export type VariantPaths = CustomerPaths | UserPaths;
