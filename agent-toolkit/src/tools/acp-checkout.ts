import { delegatePaymentRequest, type PaymentToken, type UserPaymentToken } from '@cardrail/sdk';
import { bodyForModel, type MerchantGate } from '../merchant-access.js';
import { ToolError } from '../tool-error.js';
import type { ToolContext } from './tool-handler.js';

/** The ACP version the tool speaks. */
const ACP_VERSION = '2026-04-17';
/** How long a delegated payment may wait to be used: the allowance's life (Cardrail caps a token at 7 days). */
const ALLOWANCE_MS = 15 * 60_000;

interface Session {
  id: string;
  currency: string;
  total: number;
  merchantId: string;
  pspUrl: string;
  handlerId: string;
}

function malformed(reason: string): ToolError {
  return new ToolError({ code: 'malformed_checkout', message: `The checkout session cannot be paid: ${reason}.` });
}

/** The parts of an ACP checkout session (2026-04-17) a payment needs, checked. */
function readSession(body: unknown): Session {
  const session = body as {
    id?: unknown;
    status?: unknown;
    currency?: unknown;
    totals?: { type?: unknown; amount?: unknown }[];
    capabilities?: { payment?: { handlers?: { id?: unknown; name?: unknown; config?: Record<string, unknown> }[] } };
  } | null;
  if (typeof session?.id !== 'string') throw malformed('the answer is not a checkout session');
  if (session.status !== 'ready_for_payment') throw malformed(`its status is ${String(session.status)}, not ready_for_payment`);
  if (typeof session.currency !== 'string') throw malformed('it has no currency');
  const total = Array.isArray(session.totals) ? session.totals.find((line) => line?.type === 'total')?.amount : undefined;
  if (!Number.isSafeInteger(total) || (total as number) <= 0) throw malformed('it has no total in minor units');
  const handler = session.capabilities?.payment?.handlers?.find((entry) => entry?.name === 'dev.acp.tokenized.card');
  const merchantId = handler?.config?.merchant_id;
  const pspUrl = handler?.config?.psp_url;
  if (typeof handler?.id !== 'string' || typeof merchantId !== 'string' || typeof pspUrl !== 'string')
    throw malformed('it offers no dev.acp.tokenized.card handler with merchant_id and psp_url');
  return { id: session.id, currency: session.currency, total: total as number, merchantId, pspUrl, handlerId: handler.id };
}

async function expectOk(response: Response, what: string): Promise<unknown> {
  const body = await bodyForModel(response);
  if (response.ok) return body;
  throw new ToolError({
    code: 'merchant_error',
    message: `${what} answered ${response.status}.`,
    details: { status: response.status, body },
  });
}

/**
 * Pays an ACP checkout session (ACP 2026-04-17): reads it, mints an ACP token on the card for its total, merchant
 * id and session, sends the PSP the `delegate_payment` request, and completes the session with the vault token.
 * Every URL (the session's, the PSP's from the session) passes the allow-list.
 */
export async function payAcpCheckout(
  url: string,
  gate: MerchantGate,
  mint: (acp: { allowance: Record<string, unknown>; merchantName: string }) => Promise<PaymentToken | UserPaymentToken>,
  context: ToolContext,
) {
  const seller = gate.allowed(url);
  if (!seller.name)
    throw new ToolError({ code: 'merchant_not_allowed', message: `${url}: the developer gave this seller no name.` });
  const session = readSession(await expectOk(await gate.fetch(new Request(url)), 'The seller'));
  const psp = gate.allowed(session.pspUrl);
  if (!psp.pspApiKey)
    throw new ToolError({ code: 'merchant_not_allowed', message: `${session.pspUrl}: no PSP key was configured.` });
  const allowance = {
    reason: 'one_time',
    max_amount: session.total,
    currency: session.currency,
    checkout_session_id: session.id,
    merchant_id: session.merchantId,
    expires_at: new Date(Date.now() + ALLOWANCE_MS).toISOString(),
  };
  const token = await mint({ allowance, merchantName: seller.name });
  const delegated = await gate.fetch(
    new Request(session.pspUrl, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${psp.pspApiKey}`,
        'Content-Type': 'application/json',
        'API-Version': ACP_VERSION,
        'Idempotency-Key': token.id,
      },
      body: JSON.stringify(delegatePaymentRequest(token)),
      ...(context.call.signal === undefined ? {} : { signal: context.call.signal }),
    }),
  );
  const vault = (await expectOk(delegated, 'The PSP')) as { id?: unknown };
  if (typeof vault?.id !== 'string') throw malformed('the PSP answered no vault token');
  const completion = await gate.fetch(
    new Request(`${url.replace(/\/$/, '')}/complete`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'API-Version': ACP_VERSION },
      body: JSON.stringify({
        payment_data: {
          handler_id: session.handlerId,
          instrument: { type: 'card', credential: { type: 'spt', token: vault.id } },
        },
      }),
    }),
  );
  return { token, merchantResponse: { status: completion.status, body: await bodyForModel(completion), receipt: null } };
}
