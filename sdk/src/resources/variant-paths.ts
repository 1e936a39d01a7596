import type { paths as CustomerPaths } from '../generated/customer.js';
import type { paths as UserPaths } from '../generated/user.js';

export type { CustomerPaths, UserPaths };

/** Resources shared by both variants are generic over this; the paths they call exist in both specs. */
export type VariantPaths = CustomerPaths | UserPaths;
