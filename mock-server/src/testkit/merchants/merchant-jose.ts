import { moduleExports } from '../../core/cjs-interop.js';

/** jose's own functions the merchant fakes use: loaded on first use, from the module that ships jose once. */
interface MerchantJose {
  compactDecrypt: typeof import('jose').compactDecrypt;
}

let jose: Promise<MerchantJose> | undefined;

/** jose, as the published package ships it once (dist/jose/jose-module.cjs, beside the mock's own JWE encryption). */
export function merchantJose(): Promise<MerchantJose> {
  jose ??= import('../../engine/jose-module.js').then((module) => moduleExports<MerchantJose>(module));
  return jose;
}

/** A merchant's RSA-OAEP-256 key pair (2048 bits, Web Crypto) and its public JWK as a challenge carries it. */
export interface MerchantKey {
  /** The key's id, in the JWK and in every JWE's protected header. */
  kid: string;
  /** The public key, as a challenge carries it. */
  publicJwk: { kty: 'RSA'; n: string; e: string; kid: string; use: 'enc'; alg: 'RSA-OAEP-256' };
  /** The private key, which decrypts the credentials. */
  privateKey: CryptoKey;
}

export async function generateMerchantKey(kid: string): Promise<MerchantKey> {
  const algorithm = { name: 'RSA-OAEP', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
  const pair = (await crypto.subtle.generateKey(algorithm, true, ['encrypt', 'decrypt'])) as CryptoKeyPair;
  const { n, e } = await crypto.subtle.exportKey('jwk', pair.publicKey);
  if (!n || !e) throw new Error('Web Crypto exported an RSA key without n or e');
  return { kid, publicJwk: { kty: 'RSA', n, e, kid, use: 'enc', alg: 'RSA-OAEP-256' }, privateKey: pair.privateKey };
}
