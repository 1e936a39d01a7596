import type { MandateForPayment } from '@cardrail/sdk';
import { ToolError } from './tool-error.js';

/** A merchant, seller or PSP the `pay_merchant` tool may reach. */
export interface MerchantAccess {
  /** Its origin (`https://shop.example.com`); plain `http:` only on loopback (127.0.0.1, localhost, [::1]). */
  origin: string;
  /** ACP sellers: the name the card's policy knows the seller by (`allowedMerchants`, intents); required for ACP. */
  name?: string | undefined;
  /** ACP PSPs: the key their `delegate_payment` expects as `Authorization: Bearer`. */
  pspApiKey?: string | undefined;
}

/** What bounds the `pay_merchant` tool's requests. */
export interface MerchantOptions {
  /** The only origins the tool reaches (none by default: every payment is refused until the developer lists some). */
  merchants?: readonly MerchantAccess[] | undefined;
  /** The fetch that reaches them (default: `globalThis.fetch`, looked up at each call). */
  fetch?: ((request: Request) => Promise<Response>) | undefined;
}

/** What `pay_merchant` may reach, and the AP2 mandate it pays under when the agent has one. */
export interface PaymentOptions extends MerchantOptions {
  /**
   * Makes the AP2 mandate presentation each payment token is minted under (docs/mandates.md#payment-tokens): called
   * with the payment the merchant's challenge or checkout asks for (card, amount, currency, merchant), it answers the
   * agent's presentation for it. Optional; where the card's policy has `requireMandate`, tokens are minted only with
   * one. The model never sees it.
   */
  agentMandate?: MandateForPayment | undefined;
}

const LOOPBACK = /^(127(?:\.\d{1,3}){3}|localhost|\[::1\])$/;
/** The most of a merchant's body the model is given. */
const MAX_BODY_CHARS = 16_384;

function configurationError(message: string): TypeError {
  return new TypeError(`@cardrail/agent-toolkit: ${message}`);
}

/**
 * The allow-list of the `pay_merchant` tool, against server-side request forgery: a model (or a page it read) must
 * not steer the toolkit to an address of its choosing, such as a cloud metadata service or an internal API. Every
 * request the tool sends, the ACP PSP's (whose URL comes from the seller's answer) included, goes to an origin the
 * developer listed; redirects are not followed.
 */
export class MerchantGate {
  readonly #byOrigin: ReadonlyMap<string, MerchantAccess>;
  readonly #fetch: ((request: Request) => Promise<Response>) | undefined;

  constructor(options: MerchantOptions) {
    this.#fetch = options.fetch;
    this.#byOrigin = new Map(
      (options.merchants ?? []).map((merchant) => {
        let url: URL;
        try {
          url = new URL(merchant.origin);
        } catch {
          throw configurationError(`merchants: ${JSON.stringify(merchant.origin)} is not an origin.`);
        }
        const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.test(url.hostname));
        if (!secure) throw configurationError(`merchants: ${url.origin} must be https (plain http only on loopback).`);
        return [url.origin, merchant];
      }),
    );
  }

  /** The listed merchant of `url`; otherwise `merchant_not_allowed`, and nothing is sent. */
  allowed(url: string): MerchantAccess {
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      throw new ToolError({ code: 'invalid_input', message: `${JSON.stringify(url)} is not an absolute URL.` });
    }
    const merchant = this.#byOrigin.get(origin);
    if (!merchant)
      throw new ToolError({
        code: 'merchant_not_allowed',
        message: `${origin} is not a merchant this toolkit may pay: the developer allows ${[...this.#byOrigin.keys()].join(', ') || 'none'}.`,
      });
    return merchant;
  }

  /** Sends `request` to a listed origin, without following redirects. */
  readonly fetch = async (request: Request): Promise<Response> => {
    this.allowed(request.url);
    const guarded = new Request(request, { redirect: 'manual' });
    return (this.#fetch ?? ((sent: Request) => globalThis.fetch(sent)))(guarded);
  };
}

/** A merchant's body for the model: JSON when it is JSON, else text; at most 16 kB of either. */
export async function bodyForModel(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text.length > MAX_BODY_CHARS) return `${text.slice(0, MAX_BODY_CHARS)}...`;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
