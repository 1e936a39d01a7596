/**
 * The merchant's encryption key of an MPP card challenge (`methodDetails.encryptionJwk`, draft-card-charge-00
 * "Encryption Key"): an RSA public JWK for RSA-OAEP-256 of 2048 bits or more. Only the members the credential is
 * encrypted with are kept; a key that names where to fetch it or its certificate (`jku`, `x5u`) is refused, since a
 * key is never fetched, and so is one that carries private members.
 */
export interface RsaEncryptionJwk {
  kty: 'RSA';
  n: string;
  e: string;
  kid: string;
  use: 'enc';
  alg: 'RSA-OAEP-256';
}

/** Why a JWK is refused: the member at fault (`n`, `kty`, ...) and what is wrong with it. */
export interface KeyProblem {
  member: string;
  reason: string;
}

const MIN_MODULUS_BITS = 2048;
/** Larger keys buy nothing and cost every encryption: no merchant key of the draft's sizes comes near. */
const MAX_MODULUS_BITS = 8192;
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
const KEY_URL_MEMBERS = ['jku', 'x5u'];
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The key, or the first problem found with it. */
export function checkEncryptionJwk(value: unknown): RsaEncryptionJwk | KeyProblem {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return { member: '', reason: 'must be a JWK object' };
  const jwk = value as Record<string, unknown>;
  if (jwk.kty !== 'RSA') return { member: 'kty', reason: `must be "RSA" (got ${describe(jwk.kty)})` };
  if (jwk.alg !== 'RSA-OAEP-256') return { member: 'alg', reason: `must be "RSA-OAEP-256" (got ${describe(jwk.alg)})` };
  if (jwk.use !== 'enc') return { member: 'use', reason: `must be "enc" (got ${describe(jwk.use)})` };
  if (typeof jwk.kid !== 'string' || jwk.kid.length === 0 || jwk.kid.length > 256)
    return { member: 'kid', reason: 'must be a string of 1 to 256 characters' };
  for (const member of KEY_URL_MEMBERS) {
    if (member in jwk) return { member, reason: 'names a URL to fetch; keys are never fetched, send the key itself' };
  }
  for (const member of PRIVATE_MEMBERS) {
    if (member in jwk) return { member, reason: 'is private key material: send the public key only' };
  }
  if (
    jwk.key_ops !== undefined &&
    !(Array.isArray(jwk.key_ops) && jwk.key_ops.some((op) => op === 'encrypt' || op === 'wrapKey'))
  )
    return { member: 'key_ops', reason: 'does not allow "wrapKey" or "encrypt"' };
  if (typeof jwk.e !== 'string' || jwk.e !== 'AQAB') return { member: 'e', reason: 'must be "AQAB" (the exponent 65537)' };
  if (typeof jwk.n !== 'string' || !BASE64URL.test(jwk.n) || jwk.n.length % 4 === 1)
    return { member: 'n', reason: 'must be base64url (no padding)' };
  const bits = modulusBits(jwk.n);
  if (bits < MIN_MODULUS_BITS)
    return { member: 'n', reason: `is a ${bits}-bit modulus; at least ${MIN_MODULUS_BITS} bits are required` };
  if (bits > MAX_MODULUS_BITS)
    return { member: 'n', reason: `is a ${bits}-bit modulus; at most ${MAX_MODULUS_BITS} bits are accepted` };
  return { kty: 'RSA', n: jwk.n, e: jwk.e, kid: jwk.kid, use: 'enc', alg: 'RSA-OAEP-256' };
}

/** The size of a base64url big-endian modulus, leading zero bits not counted. */
function modulusBits(n: string): number {
  // Past the largest accepted size the exact count does not matter: the key is refused either way.
  if (n.length > Math.ceil((MAX_MODULUS_BITS + 64) / 6)) return Math.floor((n.length * 6) / 8) * 8;
  const binary = atob(n.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (n.length % 4)) % 4));
  let at = 0;
  while (at < binary.length && binary.charCodeAt(at) === 0) at++;
  if (at === binary.length) return 0;
  return (binary.length - at - 1) * 8 + (32 - Math.clz32(binary.charCodeAt(at)));
}

function describe(value: unknown): string {
  return value === undefined ? 'nothing' : JSON.stringify(value).slice(0, 40);
}

/** Whether the check refused the key. */
export function isKeyProblem(result: RsaEncryptionJwk | KeyProblem): result is KeyProblem {
  return 'reason' in result;
}
