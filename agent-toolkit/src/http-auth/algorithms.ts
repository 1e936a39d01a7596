/**
 * The signature algorithms an access token may use: asymmetric ones only. `none` would accept an unsigned token, and
 * an HMAC (`HS256`...) key is a shared secret a JWKS never publishes; both are refused whatever the settings say.
 */

/** Every algorithm the allow-list may name (RFC 7518, RFC 8037, RFC 9864); the default allows them all. */
export const ASYMMETRIC_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
] as const;

/** An algorithm the allow-list may name. */
export type AsymmetricAlgorithm = (typeof ASYMMETRIC_ALGORITHMS)[number];

const isAsymmetric = (name: string): name is AsymmetricAlgorithm => (ASYMMETRIC_ALGORITHMS as readonly string[]).includes(name);

/** The allow-list, or why it is refused. */
export function algorithmAllowList(names: readonly string[]): AsymmetricAlgorithm[] | string {
  if (names.length === 0) return 'must name at least one algorithm';
  for (const name of names) {
    if (name.toLowerCase() === 'none') return 'must not allow "none": it accepts unsigned tokens';
    if (/^HS(256|384|512)$/i.test(name))
      return `must not allow ${name}: an HMAC key is a shared secret, never published in a JWKS`;
    if (!isAsymmetric(name)) return `names an unknown algorithm ${JSON.stringify(name)}; use ${ASYMMETRIC_ALGORITHMS.join(', ')}`;
  }
  return [...new Set(names)] as AsymmetricAlgorithm[];
}
