import { compactDecrypt, exportJWK, type JWK } from 'jose';

/** A merchant's RSA key for MPP card credentials: its public JWK (as a challenge carries it) and its private key. */
export interface MerchantKey {
  publicJwk: JWK & { kid: string; use: 'enc'; alg: 'RSA-OAEP-256' };
  privateKey: CryptoKey;
}

/**
 * A new RSA-OAEP-256 key of `bits` (2048 by default) with its `kid`. Made with Web Crypto itself, since jose refuses
 * to make a key under 2048 bits, which the refusals need.
 */
export async function merchantKey(kid = 'enc-2026-11', bits = 2048): Promise<MerchantKey> {
  const algorithm = { name: 'RSA-OAEP', modulusLength: bits, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' };
  const { publicKey, privateKey } = await crypto.subtle.generateKey(algorithm, true, ['encrypt', 'decrypt']);
  const { kty, n, e } = await exportJWK(publicKey);
  return { publicJwk: { kty, n, e, kid, use: 'enc', alg: 'RSA-OAEP-256' }, privateKey };
}

export interface ChallengeOptions {
  id?: string;
  realm?: string;
  amount?: unknown;
  currency?: unknown;
  recipient?: string;
  merchantName?: string;
  description?: string;
  /** RFC 3339, or omitted. */
  expires?: string;
  acceptedNetworks?: unknown;
  /** Replaces the key the challenge carries (a bad key, another key). */
  encryptionJwk?: unknown;
  /** Added to `methodDetails` (jwksUri, kid, version). */
  methodDetails?: Record<string, unknown>;
}

/** base64url without padding of a JSON value, as the draft writes `request`. */
export function b64json(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

/** A `WWW-Authenticate: Payment ... method="card", intent="charge"` value for `key`, as a merchant would send it. */
export function cardChallenge(key: MerchantKey, options: ChallengeOptions = {}): string {
  const request: Record<string, unknown> = {
    amount: options.amount ?? '2500',
    currency: options.currency ?? 'usd',
    ...(options.recipient === undefined ? {} : { recipient: options.recipient }),
    ...(options.description === undefined ? {} : { description: options.description }),
    methodDetails: {
      acceptedNetworks: options.acceptedNetworks ?? ['visa', 'mastercard'],
      merchantName: options.merchantName ?? 'Example GPU Cloud',
      encryptionJwk: options.encryptionJwk ?? key.publicJwk,
      ...options.methodDetails,
    },
  };
  const params = [
    `id="${options.id ?? `ch_${crypto.randomUUID().replaceAll('-', '')}`}"`,
    `realm="${options.realm ?? 'gpu.example.com'}"`,
    'method="card"',
    'intent="charge"',
    ...(options.expires === undefined ? [] : [`expires="${options.expires}"`]),
    `request="${b64json(request)}"`,
  ];
  return `Payment ${params.join(', ')}`;
}

/** What the merchant reads from an `Authorization: Payment` value: the echoed challenge, the payload, the JWE opened. */
export interface OpenedCredential {
  challenge: Record<string, string>;
  payload: Record<string, unknown> & { encryptedPayload: string };
  protectedHeader: Record<string, unknown>;
  plaintext: {
    token: { paymentToken: string; tokenExpirationMonth: string; tokenExpirationYear: string; eci: string };
    dynamicData: { dynamicDataValue: string; dynamicDataType: string; dynamicDataExpiration: number };
  };
}

/** Decodes the credential and decrypts its JWE with jose and the merchant's private key (RSA-OAEP-256 + A256GCM only). */
export async function openCredential(authorization: string, key: MerchantKey): Promise<OpenedCredential> {
  const match = /^Payment ([A-Za-z0-9_-]+)$/.exec(authorization);
  if (!match?.[1]) throw new Error(`not a Payment credential: ${authorization.slice(0, 40)}`);
  const { challenge, payload } = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8'));
  const { plaintext, protectedHeader } = await compactDecrypt(payload.encryptedPayload, key.privateKey, {
    keyManagementAlgorithms: ['RSA-OAEP-256'],
    contentEncryptionAlgorithms: ['A256GCM'],
  });
  return { challenge, payload, protectedHeader, plaintext: JSON.parse(new TextDecoder().decode(plaintext)) };
}
