import canonicalize from 'canonicalize';

/**
 * `"sha256:"` and the lowercase hex SHA-256 of the claims canonicalized by JCS (RFC 8785, `canonicalize`, which
 * refuses what JCS excludes, such as a lone surrogate): the `open_mandate_hash` derivation proposed for AP2 (open
 * pull request #279, for open checkout mandates), applied by Cardrail to open payment mandates.
 */
export async function openMandateHash(claims: Record<string, unknown>): Promise<string> {
  const text = canonicalize(claims);
  if (text === undefined) throw new TypeError('The claims cannot be canonicalized.');
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
  return `sha256:${Array.from(digest, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
