import type { CardrailClient } from '@cardrail/sdk';
import { ACP_VERSION, createPspVault, type VaultEntry } from './acp-psp-vault.js';
import { loopbackOrigin } from './loopback.js';
import { json } from './merchant-answers.js';

/** What the ACP merchant fake can be told to get wrong. */
export type AcpMerchantFault =
  /** The seller charges one minor unit more than the allowance: the token is declined `token_amount_exceeded`. */
  'allowance-exceeded';

/** Options of `createAcpMerchant`. */
export interface AcpMerchantOptions {
  /** A client of the mock: the PSP's acquirer, which authorizes the vaulted token. */
  acquirer: CardrailClient;
  /** The seller's checkout API, on loopback. */
  sellerUrl: string;
  /** The PSP's API (its `delegate_payment`), on loopback; another origin than the seller's. */
  pspUrl: string;
  /** The key the PSP expects as `Authorization: Bearer` (default `psp_test_key`). */
  pspApiKey?: string;
  /** The seller's name, as the card's policy knows it. */
  merchantName: string;
  /** The seller's id at its PSP: the payment handler's `config.merchant_id`, the allowance's `merchant_id`. */
  merchantId: string;
  /** The checkout total, in minor units. */
  amount: number;
  /** Lowercase ISO 4217 (default `usd`). */
  currency?: string;
  /** A fault to make (none by default). */
  fault?: AcpMerchantFault;
}

/** A checkout session as the seller answers it (a subset of ACP 2026-04-17 `CheckoutSession`). */
export interface AcpCheckoutSession {
  /** The session's id (`cs_...`). */
  id: string;
  /** The ACP version (`2026-04-17`). */
  protocol: { version: string };
  /** `ready_for_payment` until a payment is authorized, then `completed`. */
  status: 'ready_for_payment' | 'completed';
  /** Lowercase ISO 4217. */
  currency: string;
  /** The session's total, in minor units. */
  totals: { type: 'total'; display_text: string; amount: number }[];
  /** The payment handler: `dev.acp.tokenized.card`, with the PSP's `merchant_id` and `psp_url`. */
  capabilities: {
    payment: {
      handlers: { id: string; name: string; version: string; psp: string; config: { merchant_id: string; psp_url: string } }[];
    };
  };
  /** ACP's messages: `payment_declined` after a declined authorization. */
  messages: { type: 'error'; code: string; content_type: 'plain'; content: string }[];
  /** The order, once completed. */
  order?: { id: string; checkout_session_id: string };
}

/** The ACP seller and its PSP, in process: `handle` answers requests to either. */
export interface AcpMerchant {
  handle(request: Request): Promise<Response>;
  /** The vault tokens the PSP issued, with what it keeps for each. */
  readonly vault: ReadonlyMap<string, VaultEntry>;
  /** Every authorization the PSP made: the session, the transaction and its outcome. */
  readonly payments: readonly {
    checkoutSessionId: string;
    transaction: { id: string; status: string; declinedReason?: string | null | undefined };
  }[];
}

const HANDLER_ID = 'card_tokenized';

/**
 * A seller speaking ACP's checkout (`POST /checkout_sessions`, `GET` and `POST .../complete` with a vault token as
 * `payment_data.instrument.credential`) and its PSP with the `delegate_payment` vault (ACP 2026-04-17). Completing a
 * session authorizes the vaulted network token through the mock, at the session's total, as the allowance's
 * merchant; the session is `completed` with an order, or stays `ready_for_payment` with ACP's `payment_declined`
 * message. Loopback only.
 */
export function createAcpMerchant(options: AcpMerchantOptions): AcpMerchant {
  const seller = loopbackOrigin(options.sellerUrl, 'createAcpMerchant: sellerUrl');
  const psp = loopbackOrigin(options.pspUrl, 'createAcpMerchant: pspUrl');
  if (seller === psp) throw new TypeError('createAcpMerchant: the PSP is reached at another origin than the seller');
  const currency = options.currency ?? 'usd';
  let clock = 0;
  const { vault, delegatePayment } = createPspVault({ apiKey: options.pspApiKey ?? 'psp_test_key', now: () => clock });
  const sessions = new Map<string, AcpCheckoutSession>();
  const payments: AcpMerchant['payments'][number][] = [];
  const syncClock = async () => {
    clock = Date.parse((await options.acquirer.simulate.clock.retrieve()).now);
  };

  function createSession(): Response {
    const id = `cs_${crypto.randomUUID().replaceAll('-', '').slice(0, 20)}`;
    const session: AcpCheckoutSession = {
      id,
      protocol: { version: ACP_VERSION },
      status: 'ready_for_payment',
      currency,
      totals: [{ type: 'total', display_text: 'Total', amount: options.amount }],
      capabilities: {
        payment: {
          handlers: [
            {
              id: HANDLER_ID,
              name: 'dev.acp.tokenized.card',
              version: ACP_VERSION,
              psp: 'cardrail-mock',
              config: { merchant_id: options.merchantId, psp_url: `${psp}/agentic_commerce/delegate_payment` },
            },
          ],
        },
      },
      messages: [],
    };
    sessions.set(id, session);
    return json(201, session);
  }

  async function complete(session: AcpCheckoutSession, request: Request): Promise<Response> {
    if (session.status === 'completed') return json(200, session);
    const body = (await request.json().catch(() => null)) as {
      payment_data?: { handler_id?: unknown; instrument?: { credential?: { type?: unknown; token?: unknown } } };
    } | null;
    const credential = body?.payment_data?.instrument?.credential;
    const entry = typeof credential?.token === 'string' ? vault.get(credential.token) : undefined;
    if (body?.payment_data?.handler_id !== HANDLER_ID || credential?.type !== 'spt' || !entry)
      return json(400, {
        type: 'invalid_request',
        code: 'invalid_card',
        message: 'payment_data must name a vault token of this PSP',
        param: '$.payment_data',
      });
    if (entry.allowance.checkout_session_id !== session.id || entry.allowance.merchant_id !== options.merchantId)
      return json(400, {
        type: 'invalid_request',
        code: 'invalid_card',
        message: 'the vault token was delegated for another checkout',
        param: '$.payment_data.instrument.credential.token',
      });
    const amount = options.amount + (options.fault === 'allowance-exceeded' ? 1 : 0);
    const transaction = await options.acquirer.simulate.authorize({
      token: { number: entry.paymentMethod.number, cryptogram: entry.paymentMethod.cryptogram ?? '' },
      amount,
      currency,
      merchant: { name: options.merchantName, id: options.merchantId },
    });
    payments.push({
      checkoutSessionId: session.id,
      transaction: { id: transaction.id, status: transaction.status, declinedReason: transaction.declinedReason },
    });
    if (transaction.status === 'declined') {
      const content = `Your payment was declined (${transaction.declinedReason ?? 'declined'}).`;
      session.messages = [{ type: 'error', code: 'payment_declined', content_type: 'plain', content }];
      return json(200, session);
    }
    session.status = 'completed';
    session.messages = [];
    session.order = { id: `ord_${transaction.id}`, checkout_session_id: session.id };
    return json(200, session);
  }

  return {
    vault,
    payments,
    async handle(request) {
      const url = new URL(request.url);
      await syncClock();
      if (url.origin === psp && request.method === 'POST' && url.pathname === '/agentic_commerce/delegate_payment')
        return delegatePayment(request);
      if (url.origin !== seller) return json(404, { type: 'invalid_request', code: 'invalid_card', message: 'no such resource' });
      if (request.method === 'POST' && url.pathname === '/checkout_sessions') return createSession();
      const match = /^\/checkout_sessions\/([A-Za-z0-9_]+)(\/complete)?$/.exec(url.pathname);
      const session = match?.[1] ? sessions.get(match[1]) : undefined;
      if (!session) return json(404, { type: 'invalid_request', code: 'invalid_card', message: 'no such checkout session' });
      if (match?.[2] && request.method === 'POST') return complete(session, request);
      if (!match?.[2] && request.method === 'GET') return json(200, session);
      return json(405, { type: 'invalid_request', code: 'invalid_card', message: 'method not allowed' });
    },
  };
}
