import type { CustomerApi, UserApi } from '@cardrail/spec';

/** The generated `paths` of the customer variant (`Cardrail`). */
export type CustomerPaths = CustomerApi.paths;
/** The generated `paths` of the user variant (`CardrailUsers`). */
export type UserPaths = UserApi.paths;

/** Resources shared by both variants are generic over this; the paths they call exist in both specs. */
export type VariantPaths = CustomerPaths | UserPaths;

/**
 * `Customer` for a client of the customer variant, `User` for one of the user variant: a method's type where the
 * two variants' types differ (`ByVariant<Paths, Card, UserCard>`).
 */
export type ByVariant<Paths extends VariantPaths, Customer, User> = Paths extends UserPaths ? User : Customer;
