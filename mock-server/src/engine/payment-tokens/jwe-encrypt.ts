import { CompactEncrypt, importJWK } from 'jose';
import type { RsaEncryptionJwk } from './encryption-key.js';

// jose's own decryption, for the merchant fakes of `@cardrail/mock-server/merchants` (which decrypt credentials with
// jose, not with the mock's code): exported from this module so that the package ships jose once.
export { compactDecrypt } from 'jose';

/**
 * The JWE of an MPP card credential, with jose on Web Crypto: compact serialization, `alg` RSA-OAEP-256, `enc`
 * A256GCM, the key's `kid` in the protected header, no compression. This module (and jose with it) is loaded on the
 * first MPP credential; the published package ships it once, as a CommonJS file both builds load (tsdown.config.ts).
 */
export async function encryptCompact(jwk: RsaEncryptionJwk, plaintext: string): Promise<string> {
  const key = await importJWK(jwk, 'RSA-OAEP-256');
  return new CompactEncrypt(new TextEncoder().encode(plaintext))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: jwk.kid })
    .encrypt(key);
}

/** Whether jose imports the key for RSA-OAEP-256: its own checks, behind encryption-key.ts's. */
export function importsAsEncryptionKey(jwk: RsaEncryptionJwk): Promise<boolean> {
  return importJWK(jwk, 'RSA-OAEP-256').then(
    () => true,
    () => false,
  );
}
