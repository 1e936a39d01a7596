import type { PaymentToken, UserPaymentToken } from '@cardrail/sdk';
import { bodyForModel } from '../merchant-access.js';
import { readId } from '../tool-input.js';
import { ToolError } from '../tool-error.js';
import { payAcpCheckout } from './acp-checkout.js';
import { cardOf, type ToolContext, type ToolHandler, writeOptions } from './tool-handler.js';

/** The token as the model sees it: its status and bounds, never its number, cryptogram or credential. */
function forModel(token: PaymentToken | UserPaymentToken) {
  return { ...token, networkToken: null, mppCredential: null };
}

/** The AP2 mandate an ACP token is minted under: made for the allowance the seller's checkout asks for. */
async function mandateFor(
  cardId: string,
  acp: { allowance: Record<string, unknown>; merchantName: string },
  context: ToolContext,
): Promise<{ agentMandate?: string }> {
  if (context.agentMandate === undefined) return {};
  const { max_amount: amount, currency, merchant_id: id } = acp.allowance;
  const payment = {
    cardId,
    amount: Number(amount),
    currency: String(currency),
    merchant: { name: acp.merchantName, id: typeof id === 'string' ? id : null },
  };
  return { agentMandate: await context.agentMandate(payment) };
}

/**
 * `pay_merchant`: pays an MPP card 402 (through the SDK's `payments.pay`) or an ACP checkout session with a
 * one-time token minted on the card under its policy. Only the developer's allowed origins are reached
 * (merchant-access.ts); the model gets the token without its number and the merchant's answer.
 */
export const payMerchant: ToolHandler = async (input, context) => {
  const cardId = cardOf(input);
  const intentId = readId(input, 'intentId');
  if (intentId !== undefined) await context.scope.assertIntent(intentId);
  const mcc = typeof input.mcc === 'string' ? input.mcc : undefined;
  const url = String(input.url ?? '');
  const extra = { ...(intentId === undefined ? {} : { intentId }), ...(mcc === undefined ? {} : { mcc }) };
  const gate = context.merchants;
  if (input.protocol === 'acp') {
    const mint = async (acp: { allowance: Record<string, unknown>; merchantName: string }) => {
      const mandate = await mandateFor(cardId, acp, context);
      const token = await context.client.paymentTokens.create(
        cardId,
        { acp, ...extra, ...mandate } as never,
        writeOptions(context),
      );
      if (token.status !== 'active')
        throw new ToolError({
          code: token.status === 'pending_approval' ? 'approval_required' : 'payment_declined',
          message: `Payment token ${token.id} is ${token.status}${token.approvalUrl ? `: a person decides at ${token.approvalUrl}` : ''}.`,
          details: { paymentTokenId: token.id, intentId: token.intentId, approvalUrl: token.approvalUrl },
        });
      return token;
    };
    const paid = await payAcpCheckout(url, gate, mint, context);
    return { ...forModel(await context.client.paymentTokens.retrieve(paid.token.id)), merchantResponse: paid.merchantResponse };
  }
  gate.allowed(url);
  const method = input.method === 'POST' ? 'POST' : 'GET';
  const body = typeof input.body === 'string' && method === 'POST' ? input.body : undefined;
  const init: RequestInit = {
    method,
    ...(body === undefined ? {} : { body, headers: { 'Content-Type': 'application/json' } }),
    ...(context.call.signal === undefined ? {} : { signal: context.call.signal }),
  };
  const paid = await context.client.payments.pay(url, init, {
    cardId,
    ...extra,
    fetch: gate.fetch,
    mintOptions: writeOptions(context),
    ...(context.agentMandate === undefined ? {} : { agentMandate: context.agentMandate }),
  });
  if (!paid.paymentToken)
    throw new ToolError({
      code: 'no_payment_requested',
      message: `${url} answered ${paid.response.status} without a Payment card challenge: nothing was paid.`,
      details: { status: paid.response.status, body: await bodyForModel(paid.response) },
    });
  const token = await context.client.paymentTokens.retrieve(paid.paymentToken.id);
  return {
    ...forModel(token),
    merchantResponse: { status: paid.response.status, body: await bodyForModel(paid.response), receipt: paid.receipt },
  };
};
