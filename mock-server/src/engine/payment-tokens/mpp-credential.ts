import { textToBase64url } from '../../core/base64url.js';
import { moduleExports } from '../../core/cjs-interop.js';
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

/** What jwe-encrypt.ts exports. */
interface Jwe {
  encryptCompact(jwk: RsaEncryptionJwk, plaintext: string): Promise<string>;
  importsAsEncryptionKey(jwk: RsaEncryptionJwk): Promise<boolean>;
}
let jwe: Promise<Jwe> | undefined;

/** The JWE module, loaded once on first use (ES module from the sources, CommonJS from the published package). */
function loadJwe(): Promise<Jwe> {
  jwe ??= import('../jose-module.js').then((module) => moduleExports<Jwe>(module));
  return jwe;
}

/** Whether jose accepts the key for RSA-OAEP-256 (its own checks, behind encryption-key.ts's). */
export async function importsAsEncryptionKey(jwk: RsaEncryptionJwk): Promise<boolean> {
  return (await loadJwe()).importsAsEncryptionKey(jwk);
}

/**
 * The credential of an active MPP token: the challenge echoed as the merchant sent it, the payload with the JWE and
 * the card's display fields (the card's last four and expiry), and the `Authorization` value. The token's own expiry
 * is the card's too.
 */
export async function mppCredentialOf(token: PaymentTokenRecord, issued: IssuedToken): Promise<MppCredential | null> {
  if (token.mpp === null) return null;
  const encryptedPayload = await (await loadJwe()).encryptCompact(token.mpp.encryptionJwk, plaintextOf(token, issued));
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
