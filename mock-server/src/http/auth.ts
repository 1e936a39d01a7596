import type { ApiRequest } from './api-request.js';
import type { Authenticated, Directory } from '../core/directory.js';
import type { Variant } from '../core/variant.js';
import { unauthorized } from '../core/errors.js';

export interface RequestIdentity extends Authenticated {
  variant: Variant;
}

/**
 * `Authorization: Bearer <key>` selects the customer variant, `Api-Key: <key>` the user variant; both headers or
 * neither is 401, as is a malformed, unknown-syntax or revoked key (docs/variants.md#how-a-request-picks-its-variant).
 */
export function authenticate(request: ApiRequest, directory: Directory): RequestIdentity {
  const authorization = request.headers.get('authorization');
  const apiKey = request.headers.get('api-key');
  if ((authorization === null) === (apiKey === null)) throw unauthorized();
  let variant: Variant;
  let key: string;
  if (authorization !== null) {
    const match = /^Bearer[ ]+(\S+)\s*$/i.exec(authorization);
    if (!match) throw unauthorized();
    variant = 'customer';
    // The pattern's one group always matches when the pattern does.
    key = match[1] as string;
  } else {
    variant = 'user';
    // Exactly one of the two headers is present (checked above), and it is not Authorization.
    key = (apiKey as string).trim();
  }
  const identity = directory.authenticate(key, variant);
  if (!identity) throw unauthorized();
  return { key: identity.key, tenant: identity.tenant, variant };
}
