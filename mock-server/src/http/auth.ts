import type { ApiRequest } from '../operations/api-request.js';
import type { Authenticated, Directory } from '../core/directory.js';
import type { Variant } from '../core/variant.js';
import { unauthorized } from '../core/errors.js';
import { authorizationHint, keyHeaderHint, keySyntaxHint, unknownKeyHint } from './hints.js';

export interface RequestIdentity extends Authenticated {
  variant: Variant;
}

/**
 * `Authorization: Bearer <key>` selects the customer variant, `Api-Key: <key>` the user variant; both headers or
 * neither is 401, as is a malformed, unknown-syntax or revoked key (docs/variants.md#how-a-request-picks-its-variant).
 * Each 401 carries a hint (hints.ts) saying which of these it was.
 */
export function authenticate(request: ApiRequest, directory: Directory): RequestIdentity {
  const authorization = request.headers.get('authorization');
  const apiKey = request.headers.get('api-key');
  if ((authorization === null) === (apiKey === null)) throw unauthorized(keyHeaderHint(authorization !== null));
  let variant: Variant;
  let key: string;
  if (authorization !== null) {
    variant = 'customer';
    key = bearerToken(authorization) ?? '';
    if (key === '') throw unauthorized(authorizationHint(authorization));
  } else {
    variant = 'user';
    // Exactly one of the two headers is present (checked above), and it is not Authorization.
    key = (apiKey as string).trim();
  }
  const identity = directory.authenticate(key, variant, request);
  if (!identity) throw unauthorized(keySyntaxHint(key) ?? unknownKeyHint(key, directory));
  return { key: identity.key, tenant: identity.tenant, variant };
}

/**
 * The key a request presents and the variant its header selects, without looking anything up (undefined when the
 * headers are not exactly one of the two): what a fault scoped to a key matches before the request runs.
 */
export function presentedKey(request: ApiRequest): { variant: Variant; key: string } | undefined {
  const authorization = request.headers.get('authorization');
  const apiKey = request.headers.get('api-key');
  if ((authorization === null) === (apiKey === null)) return undefined;
  if (authorization !== null) {
    const key = bearerToken(authorization);
    return key === undefined ? undefined : { variant: 'customer', key };
  }
  return { variant: 'user', key: (apiKey as string).trim() };
}

/** The token of `Bearer <token>` (the scheme in any case, then spaces; trailing whitespace allowed), or undefined. */
function bearerToken(authorization: string): string | undefined {
  // The usual exact `Bearer <printable ASCII>` is read without the pattern's match array.
  if (authorization.startsWith('Bearer ') && authorization.length > 7 && isPrintableAscii(authorization, 7)) {
    return authorization.slice(7);
  }
  return /^Bearer[ ]+(\S+)\s*$/i.exec(authorization)?.[1];
}

/** Whether every character from `start` on is printable ASCII other than space (so `\S`, with no whitespace). */
function isPrintableAscii(text: string, start: number): boolean {
  for (let i = start; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code <= 0x20 || code >= 0x7f) return false;
  }
  return true;
}
