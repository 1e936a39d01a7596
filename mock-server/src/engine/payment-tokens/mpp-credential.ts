import { textToBase64url } from '../../core/base64url.js';
import type { RsaEncryptionJwk } from './encryption-key.js';
import { TOKEN_NETWORK } from './mpp-request.js';
import { paymentAccountReference, TOKEN_ECI } from './network-token.js';
import type { MppChallengeEcho, PaymentTokenRecord } from './token-record.js';

/** The MPP card credential of an active token (`MppCredential`): what the agent retries the merchant's request with. */
export interface MppCredential {
  challenge: MppChallengeEcho;
  payload: {
    encryptedPayload: string;
    network: typeof TOKEN_NETWORK;
    panLastFour: string;
    panExpirationMonth: string;
    panExpirationYear: string;
    paymentAccountReference: string;
  };
  authorization: string;
}

/** The token and cryptogram an MPP credential carries, known once the token is issued. */
export interface IssuedToken {
  number: string;
  cryptogram: string;
}

/**
 * The JWE's plaintext (draft-card-charge-00 "Token Data", "Dynamic Data"): the token with its expiry and ECI, and the
 * cryptogram as the dynamic data, valid until the token expires; minified UTF-8 JSON.
 */
function plaintextOf(token: PaymentTokenRecord, issued: IssuedToken): string {
  return JSON.stringify({
    token: {
      paymentToken: issued.number,
      tokenExpirationMonth: token.expMonth,
      tokenExpirationYear: token.expYear,
      eci: TOKEN_ECI,
    },
    dynamicData: {
      dynamicDataValue: issued.cryptogram,
      dynamicDataType: 'CARD_APPLICATION_CRYPTOGRAM_SHORT_FORM',
      dynamicDataExpiration: Math.floor(token.expiresAt / 1000),
    },
  });
}

/**
 * Encrypts to the merchant's key with jose (JWE compact serialization: `alg` RSA-OAEP-256, `enc` A256GCM, the key's
 * `kid` in the protected header, no compression), on Web Crypto. jose is loaded on the first MPP credential.
 */
async function encryptToMerchant(jwk: RsaEncryptionJwk, plaintext: string): Promise<string> {
  const { CompactEncrypt, importJWK } = await import('jose');
  const key = await importJWK(jwk, 'RSA-OAEP-256');
  return new CompactEncrypt(new TextEncoder().encode(plaintext))
    .setProtectedHeader({ alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: jwk.kid })
    .encrypt(key);
}

/** Whether jose accepts the key for RSA-OAEP-256 (its own checks, behind encryption-key.ts's). */
export async function importsAsEncryptionKey(jwk: RsaEncryptionJwk): Promise<boolean> {
  const { importJWK } = await import('jose');
  return importJWK(jwk, 'RSA-OAEP-256').then(
    () => true,
    () => false,
  );
}

/**
 * The credential of an active MPP token: the challenge echoed as the merchant sent it, the payload with the JWE and
 * the card's display fields (the card's last four and expiry), and the `Authorization` value. The token's own expiry
 * is the card's too.
 */
export async function mppCredentialOf(token: PaymentTokenRecord, issued: IssuedToken): Promise<MppCredential | null> {
  if (token.mpp === null) return null;
  const encryptedPayload = await encryptToMerchant(token.mpp.encryptionJwk, plaintextOf(token, issued));
  const challenge = token.mpp.challenge;
  const payload = {
    encryptedPayload,
    network: TOKEN_NETWORK,
    panLastFour: token.panLastFour,
    panExpirationMonth: token.expMonth,
    panExpirationYear: token.expYear,
    paymentAccountReference: paymentAccountReference(token.cardId),
  } as const;
  return { challenge, payload, authorization: `Payment ${textToBase64url(JSON.stringify({ challenge, payload }))}` };
}
