import { Cardrail, CardrailUsers, type ClientOptions } from '@cardrail/sdk';
import type { ApiVariant } from './api-variant.js';

/** Either variant's client: `Cardrail` (customer variant, Bearer key) or `CardrailUsers` (user variant, Api-Key). */
export type CardrailApiClient = Cardrail | CardrailUsers;

export function createClient(variant: ApiVariant, options: ClientOptions): CardrailApiClient {
  return variant === 'user' ? new CardrailUsers(options) : new Cardrail(options);
}

/**
 * The variant of a client passed in. Told by its owner namespace rather than `instanceof`, which fails for a client
 * built from the SDK's other module format.
 */
export function variantOf(client: CardrailApiClient): ApiVariant {
  return 'users' in client ? 'user' : 'customer';
}
