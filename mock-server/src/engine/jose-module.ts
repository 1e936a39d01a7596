/**
 * Everything of the engine that uses jose, as one module loaded on first use: the JWE of an MPP card credential and
 * the AP2 mandates' and receipts' signatures. The published package ships it once, as a CommonJS file both builds
 * load (tsdown.config.ts), so jose ships once; the merchant fakes decrypt with jose's own `compactDecrypt` from it.
 */
export { compactDecrypt, encryptCompact, importsAsEncryptionKey } from './payment-tokens/jwe-encrypt.js';
export {
  generateReceiptKey,
  isUnverifiable,
  sha256Base64url,
  signReceipt,
  verifyPresentation,
} from './mandates/mandate-crypto.js';
// The test kit's credential-provider fake signs with the same libraries: they ship once.
export { generateMandateKey, issueOpenMandate, presentClosedMandate } from './mandates/mandate-issuing.js';
