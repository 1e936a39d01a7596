import type { Directory } from '../core/directory.js';
import { KEY_SYNTAX, MAX_KEY_LENGTH } from '../core/key-syntax.js';
import type { Variant } from '../core/variant.js';
import type { Tenant } from '../core/tenant.js';
import { HINT_HEADER, type HttpError } from '../core/errors.js';
import { tenantKey } from '../core/state/model.js';

/**
 * The mock's guesses at why a request was refused, sent in the `Cardrail-Hint` header (HINT_HEADER, core/errors.ts)
 * beside the body the service defines, and written to the request's log line. Each says what to do; none repeats a
 * key. Only the failure paths call these: a request that succeeds never pays for them.
 */

/** How a valid key looks, for the hints that explain a refused one. */
const KEY_FORMAT = 'sk_test_ or sk_live_ followed by 8 to 248 letters, digits or underscores';

/** The longest part of a request path repeated in a hint (a header value stays short). */
const MAX_PATH_IN_HINT = 120;

/** Why this key string is refused before it is looked up, or undefined when it has the syntax of a key. */
export function keySyntaxHint(key: string): string | undefined {
  if (KEY_SYNTAX.test(key)) return undefined;
  if (key.startsWith('pk_')) {
    return `A pk_ (publishable) key cannot call the API: use a secret key, ${KEY_FORMAT}.`;
  }
  if (/^bearer\s/i.test(key)) return 'The Api-Key header takes the bare key, without "Bearer ".';
  if (key.length > MAX_KEY_LENGTH) return `The key is longer than ${MAX_KEY_LENGTH} characters: a key is ${KEY_FORMAT}.`;
  const body = /^sk_(test|live)_(.*)$/.exec(key)?.[2];
  if (body !== undefined && body.length < 8) return `The key is too short: a key is ${KEY_FORMAT}.`;
  if (body !== undefined) return `The key has a character outside letters, digits and underscores: a key is ${KEY_FORMAT}.`;
  return `This is not a Cardrail API key: a key is ${KEY_FORMAT} (test mode: sk_test_).`;
}

/** Why an `Authorization` header that is not `Bearer <token>` was refused. */
export function authorizationHint(authorization: string): string {
  const scheme = /^\s*([A-Za-z][A-Za-z0-9-]{0,20})\s+\S/.exec(authorization)?.[1];
  if (scheme !== undefined && scheme.toLowerCase() !== 'bearer') {
    return `Authorization uses the ${scheme} scheme; the API takes "Authorization: Bearer <key>" (customer variant) or "Api-Key: <key>" (user variant).`;
  }
  return 'Authorization needs the Bearer scheme and a key: "Authorization: Bearer sk_test_..." (customer variant), or send "Api-Key: <key>" (user variant).';
}

/** Why a request with no key header, or with both, was refused. */
export function keyHeaderHint(both: boolean): string {
  return both
    ? 'Send one key header, not both: "Authorization: Bearer <key>" (customer variant) or "Api-Key: <key>" (user variant).'
    : 'No API key: send "Authorization: Bearer sk_test_..." (customer variant, /v1/customers) or "Api-Key: sk_test_..." (user variant, /v1/users).';
}

/** Why a key with a key's syntax was refused after its lookup: revoked (the only such refusal the mock has). */
export function unknownKeyHint(key: string, directory: Directory): string | undefined {
  return directory.isRevoked(key)
    ? 'This key was revoked: use another key of the organization (GET /v1/api-keys lists them) or create one.'
    : undefined;
}

/** A path of the other variant, asked for with this variant's key header. */
export function otherVariantHint(variant: Variant, path: string): string {
  return variant === 'user'
    ? `${shortPath(path)} belongs to the customer variant: send the key as "Authorization: Bearer <key>" instead of Api-Key (the user variant's paths are under /v1/users).`
    : `${shortPath(path)} belongs to the user variant: send the key as "Api-Key: <key>" instead of Authorization (the customer variant's paths are under /v1/customers).`;
}

/**
 * A path no route has, when its likely cause is the base URL: `/v1` missing (the route exists below `/v1`), or there
 * twice (a base URL ending in `/v1` joined with a path that starts with `/v1`, as a fixture path may).
 */
export function basePathHint(path: string, routed: (path: string) => boolean): string | undefined {
  if (path.startsWith('/v1/v1/') && routed(path.slice(3))) {
    return `The path starts with /v1/v1: the base URL already ends in /v1, so request ${shortPath(path.slice(3))} (paths relative to the base URL, such as /customers).`;
  }
  if (path !== '/v1' && !path.startsWith('/v1/') && routed(`/v1${path}`)) {
    return `The API's paths start with /v1: request /v1${shortPath(path)} (a base URL ending in /v1, such as http://127.0.0.1:4010/v1).`;
  }
  return undefined;
}

/**
 * A 404 for an id that exists in the other mode of the caller's organization (a test id with a live key, or the
 * reverse): the other mode's tenant is looked at only when it is in memory or stored, never created; one map lookup
 * per collection.
 */
function otherModeHint(tenant: Tenant, directory: Directory, ids: Iterable<string>): string | undefined {
  const otherMode = tenant.mode === 'test' ? 'live' : 'test';
  const other = directory.load(tenantKey(tenant.organizationId, otherMode));
  if (!other) return undefined;
  for (const id of ids) {
    if (id.length > MAX_PATH_IN_HINT) continue;
    for (const [, collection] of other.collections()) {
      if (collection.get(id) === undefined) continue;
      return `${id} exists in ${otherMode} mode, and this is a ${tenant.mode} key: use an sk_${otherMode}_ key of the same organization to reach it.`;
    }
  }
  return undefined;
}

/** The headers of a refusal after authentication: a 404 without a hint gets the other mode's, when that is the cause. */
export function refusalHeaders(
  failure: HttpError,
  tenant: Tenant,
  directory: Directory,
  params: Record<string, string>,
): Record<string, string> {
  if (failure.status !== 404 || HINT_HEADER in failure.headers) return failure.headers;
  const hint = otherModeHint(tenant, directory, Object.values(params));
  return hint === undefined ? failure.headers : { ...failure.headers, [HINT_HEADER]: hint };
}

/** The path as a hint repeats it: cut short, and only the characters a header value may carry. */
function shortPath(path: string): string {
  const cut = path.length > MAX_PATH_IN_HINT ? `${path.slice(0, MAX_PATH_IN_HINT)}...` : path;
  return cut.replace(/[^\x21-\x7e]/g, '?');
}
