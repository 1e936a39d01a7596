// `@cardrail/sdk/webhooks` on node:crypto (the package's `node` export condition: Node, Bun, Deno): index.ts, its
// functions made the same way but handed node:crypto's HMAC (a module's own exports win over `export *`'s names).
import { nodeCryptoHmac as hmac } from './node-crypto.js';
import * as make from './webhook-functions.js';

export * from './index.js';
export const unwrap = /* @__PURE__ */ make.unwrapOn(hmac);
export const verifySignature = /* @__PURE__ */ make.asyncOn(hmac, make.verification);
export const verifySignatureSync = /* @__PURE__ */ make.syncOn(hmac, 'verifySignatureSync', make.verification);
export const constructEvent = /* @__PURE__ */ make.asyncOn(hmac, make.construction);
export const constructEventSync = /* @__PURE__ */ make.syncOn(hmac, 'constructEventSync', make.construction);
export const generateSignatureHeader = /* @__PURE__ */ make.asyncOn(hmac, make.signatureHeader);
export const generateSignatureHeaderSync = /* @__PURE__ */ make.syncOn(hmac, 'generateSignatureHeaderSync', make.signatureHeader);
export const generateWebhookHeaders = /* @__PURE__ */ make.asyncOn(hmac, make.webhookHeaders);
export const generateWebhookHeadersSync = /* @__PURE__ */ make.syncOn(hmac, 'generateWebhookHeadersSync', make.webhookHeaders);
