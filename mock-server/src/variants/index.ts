import type { Variant } from '../core/variant.js';
import { customerCodec } from './customer.js';
import { userCodec } from './user.js';

/** Each variant's codec: everything that differs between the variants, by variant. */
export const codecs = { customer: customerCodec, user: userCodec } as const satisfies Record<Variant, { variant: Variant }>;
