import canonicalize from 'canonicalize';
import { bytesToHex } from '../hex.js';

/** An open mandate's hash: `"sha256:"` and 64 lowercase hex digits. */
export type OpenMandateHash = `sha256:${string}`;

/**
 * The hash of unsigned AP2 mandate claims: `"sha256:"` and the lowercase hex SHA-256 of the claims canonicalized by
 * JCS (RFC 8785), on Web Crypto. It is the `open_mandate_hash` derivation proposed for AP2 (google-agentic-commerce/AP2
 * pull request #279, still open, where it is defined for open checkout mandates and published with conformance
 * vectors); Cardrail applies it to open payment mandates (`POST /intents/{id}/mandate`'s `openMandateHash`). The
 * claims are hashed, never a JWS or SD-JWT around them; array order counts, key order does not. Refuses what JCS
 * excludes (a lone surrogate, a number that is not finite) with a `TypeError`.
 *
 * @example
 * ```ts
 * const { claims, openMandateHash: hash } = await cardrail.intents.mandate(intent.id, { agentKey });
 * (await openMandateHash(claims)) === hash; // true
 * ```
 */
export async function openMandateHash(claims: object): Promise<OpenMandateHash> {
  let text: string | undefined;
  try {
    text = canonicalize(claims);
  } catch (error) {
    throw new TypeError(`The claims cannot be canonicalized (RFC 8785): ${error instanceof Error ? error.message : error}`);
  }
  if (text === undefined) throw new TypeError('The claims cannot be canonicalized (RFC 8785).');
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return `sha256:${bytesToHex(new Uint8Array(digest))}`;
}
