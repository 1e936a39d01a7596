import type { RequestOptions } from '../core/client-options.js';
import { APIError } from '../errors.js';
import type { PaymentToken, UserPaymentToken } from '../generated/api-names.js';
import type { WaitForDecisionOptions } from '../resources/intent-decision.js';
import type { Intents } from '../resources/intents.js';
import type { PaymentTokens } from '../resources/payment-tokens.js';
import type { ByVariant, VariantPaths } from '../resources/variant-paths.js';
import { type CardChallenge, readCardChallenge } from './card-challenge.js';
import { type MandateForPayment, paymentOf } from './mandate-for-payment.js';
import { PaymentChallengeError } from './payment-errors.js';
import { type PaymentReceipt, readPaymentReceipt } from './payment-receipt.js';

/** Options of `payments.fetch` and `payments.pay`. */
export interface PaymentFetchOptions {
  /** The card that pays: a token is minted on it under its policy. */
  cardId: string;
  /** The intent the payment carries out (else Cardrail matches the card's open intents, or declares one). */
  intentId?: string | undefined;
  /** The merchant's category code, for the policy's category rules. */
  mcc?: string | undefined;
  /**
   * The AP2 mandate to mint the token under (docs/mandates.md#payment-tokens): called with the payment the
   * challenge asks for, once it is read, it answers the presentation (`agentMandate`) whose closed mandate names that
   * payment. Where the card's policy has `requireMandate`, a token is minted only with one.
   */
  agentMandate?: MandateForPayment | undefined;
  /**
   * When the token waits on a person's approval: wait for the decision with these options (`true`: the defaults),
   * then pay. Without it, `PaymentChallengeError` `approval_required` is thrown with `details.approvalUrl`.
   */
  waitForApproval?: boolean | WaitForDecisionOptions | undefined;
  /** The fetch that reaches the merchant (default: `globalThis.fetch`, looked up at each call). */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
  /**
   * Options of the request that mints the token (an `idempotencyKey`, so that a retried payment mints once; a
   * `signal`).
   */
  mintOptions?: RequestOptions | undefined;
}

/** What `payments.pay` did: the merchant's last answer, the token that paid it, and the receipt it sent. */
export interface PaymentResult<Token> {
  /** The merchant's answer: the first one when it was not a card 402, else the answer to the retry. */
  response: Response;
  /** The card challenge answered, or null when there was none. */
  challenge: CardChallenge | null;
  /** The token minted for the challenge, or null when none was needed. */
  paymentToken: Token | null;
  /** The merchant's `Payment-Receipt`, decoded, when its answer had a valid one. */
  receipt: PaymentReceipt | null;
}

/** Cardrail's refusals that mean "this card may not pay this challenge"; nothing was minted. */
const DECLINES = new Set([
  'payment_token_declined',
  'intent_required',
  'currency_not_supported',
  'card_not_active',
  'invalid_state',
]);

/**
 * Paying merchants that ask for payment the way agents are asked in 2026: an MPP `card` challenge in a `402`
 * (draft-card-charge-00), answered with a one-time token minted under the card's policy; the card's number never
 * leaves Cardrail.
 */
export class Payments<Paths extends VariantPaths> {
  readonly #tokens: PaymentTokens<Paths>;
  readonly #intents: Intents<Paths>;

  constructor(tokens: PaymentTokens<Paths>, intents: Intents<Paths>) {
    this.#tokens = tokens;
    this.#intents = intents;
    this.fetch = this.fetch.bind(this);
    this.pay = this.pay.bind(this);
  }

  /**
   * `fetch`, paying the merchant's MPP card challenge: a `402` with `WWW-Authenticate: Payment ... method="card",
   * intent="charge"` is read (an expired or malformed challenge throws `PaymentChallengeError` before anything is
   * minted), a token is minted on the card for it (a challenge outside the card's policy throws
   * `payment_declined`), and the request is sent once more with `Authorization: Payment <credential>`. Any other
   * answer is returned as it is. The request's body is sent twice, so it must be replayable (no one-shot stream).
   *
   * @example
   * ```ts
   * const answer = await cardrail.payments.fetch('https://gpu.example.com/v1/jobs', { method: 'POST', body }, { cardId });
   * ```
   */
  async fetch(input: RequestInfo | URL, init: RequestInit | undefined, options: PaymentFetchOptions): Promise<Response> {
    return (await this.pay(input, init, options)).response;
  }

  /** As `fetch`, with what was paid: the challenge, the token and the merchant's decoded `Payment-Receipt`. */
  async pay(
    input: RequestInfo | URL,
    init: RequestInit | undefined,
    options: PaymentFetchOptions,
  ): Promise<PaymentResult<ByVariant<Paths, PaymentToken, UserPaymentToken>>> {
    const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
    const request = new Request(input, init);
    const first = await send(request.clone());
    const header = first.status === 402 ? first.headers.get('www-authenticate') : null;
    let challenge: CardChallenge | null = null;
    try {
      challenge = header === null ? null : readCardChallenge(header);
    } catch (error) {
      discard(first);
      throw error;
    }
    if (header === null || challenge === null) return { response: first, challenge: null, paymentToken: null, receipt: null };
    discard(first);
    const agentMandate = await options.agentMandate?.(paymentOf(options.cardId, challenge));
    const token = await this.#mint(header, challenge, options, agentMandate);
    const authorization = token.mppCredential?.authorization;
    if (authorization === undefined) throw new Error(`payment token ${token.id} is active without its MPP credential`);
    const retry = new Request(request, { headers: new Headers(request.headers) });
    retry.headers.set('Authorization', authorization);
    const response = await send(retry);
    return { response, challenge, paymentToken: token, receipt: readPaymentReceipt(response.headers) };
  }

  async #mint(header: string, challenge: CardChallenge, options: PaymentFetchOptions, agentMandate: string | undefined) {
    let token: ByVariant<Paths, PaymentToken, UserPaymentToken>;
    try {
      token = await this.#tokens.create(
        options.cardId,
        {
          mpp: { challenge: header },
          ...(options.intentId === undefined ? {} : { intentId: options.intentId }),
          ...(options.mcc === undefined ? {} : { mcc: options.mcc }),
          ...(agentMandate === undefined ? {} : { agentMandate }),
        },
        options.mintOptions,
      );
    } catch (error) {
      throw refusal(error, challenge);
    }
    if (token.status === 'pending_approval' && options.waitForApproval && token.intentId !== null) {
      const waitOptions = options.waitForApproval === true ? {} : options.waitForApproval;
      await this.#intents.waitForDecision(token.intentId, waitOptions);
      token = await this.#tokens.retrieve(token.id);
    }
    if (token.status === 'active') return token;
    const details = { paymentTokenId: token.id, status: token.status, intentId: token.intentId, approvalUrl: token.approvalUrl };
    if (token.status === 'pending_approval')
      throw new PaymentChallengeError({
        code: 'approval_required',
        message: `Payment token ${token.id} waits on a person's approval${token.approvalUrl ? ` at ${token.approvalUrl}` : ''}.`,
        details,
      });
    throw new PaymentChallengeError({
      code: 'payment_declined',
      message: `Payment token ${token.id} was not issued (${token.status}${token.rejectionReason ? `: ${token.rejectionReason}` : ''}).`,
      details: { ...details, rejectionReason: token.rejectionReason },
    });
  }
}

/**
 * Lets the 402's body go, freeing its connection. Not awaited: a cancel may settle only when the body's source
 * ends (seen with msw 2's interceptor on Node 20), and nothing depends on it.
 */
function discard(response: Response): void {
  response.body?.cancel().catch(() => undefined);
}

/** Cardrail's refusal to mint, as the typed error of `payments.fetch` (other errors, such as a 401, pass unchanged). */
function refusal(error: unknown, challenge: CardChallenge): unknown {
  // A reused idempotency key is the caller's mistake, not the challenge's: it keeps its own error.
  if (!(error instanceof APIError) || error.status !== 400 || error.code === 'idempotency_key_reused') return error;
  const code =
    error.code === 'payment_request_expired'
      ? 'challenge_expired'
      : DECLINES.has(error.code)
        ? 'payment_declined'
        : 'malformed_challenge';
  return new PaymentChallengeError({
    code,
    message: `Cardrail did not mint a token for challenge ${challenge.id}: ${error.message}`,
    details: { challengeId: challenge.id, apiCode: error.code, ...error.details },
    status: error.status,
    requestId: error.requestId,
    cause: error,
  });
}
