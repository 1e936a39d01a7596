import type { NeutralHandlers } from '../operations/neutral.js';
import { exportIntentMandate } from '../engine/mandates/intent-mandate.js';
import { getMandateIssuers, setMandateIssuers } from '../engine/mandates/mandate-issuers.js';
import { getReceiptKeys, rotateReceiptKeys } from '../engine/mandates/receipts.js';

/** AP2 mandates (docs/mandates.md): an intent's export, a customer's trusted issuers, the receipt signing keys. */
export const mandateHandlers = {
  createIntentMandate: (ctx) => exportIntentMandate(ctx.tenant, ctx.params.intentId, ctx.body),
  getCustomerMandateIssuers: (ctx) => getMandateIssuers(ctx.tenant, ctx.params.customerId),
  updateCustomerMandateIssuers: (ctx) => setMandateIssuers(ctx.tenant, ctx.params.customerId, ctx.body.keys),
  getReceiptKeys: (ctx) => getReceiptKeys(ctx.tenant),
  rotateReceiptKeys: (ctx) => rotateReceiptKeys(ctx.tenant),
} satisfies Partial<NeutralHandlers>;
