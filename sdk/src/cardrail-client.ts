import type { Client } from 'openapi-fetch';
import type { Mode } from './core/api-key.js';
import type { ClientCore } from './core/client-core.js';
import type { ClientOptions } from './core/client-options.js';
import { Payments } from './payments/payments.js';
import { Agents } from './resources/agents.js';
import { ApiKeys } from './resources/api-keys.js';
import { Cards } from './resources/cards.js';
import { Events } from './resources/events.js';
import { Intents } from './resources/intents.js';
import { Mandates } from './resources/mandates.js';
import { PaymentTokens } from './resources/payment-tokens.js';
import { Settings } from './resources/settings.js';
import { Simulate } from './resources/simulate.js';
import { Spend } from './resources/spend.js';
import { Transactions } from './resources/transactions.js';
import type { VariantPaths } from './resources/variant-paths.js';
import { type BuildClientOptions, WEBHOOK_HMAC, Webhooks } from './resources/webhooks.js';
import { Withdrawals } from './resources/withdrawals.js';

/**
 * What `Cardrail` and `CardrailUsers` have in common: every namespace at the same path in both specs. The two
 * subclasses add only their auth header and their `customers` or `users` namespace. Type code against this class to
 * accept either client: `CardrailClient` alone takes either variant's parameters and returns either's results.
 */
export abstract class CardrailClient<Paths extends VariantPaths = VariantPaths> {
  /**
   * An openapi-fetch client typed by the spec, for anything the namespaces do not cover: same base URL, headers,
   * retries and timeout as the namespaces, with openapi-fetch's own results (`{ data, error, response }`).
   */
  readonly raw: Client<Paths>;
  /** `'test'` for `sk_test_` keys, `'live'` for `sk_live_` keys. */
  readonly mode: Mode;
  /** The API's base URL requests go to, e.g. `https://api.cardrail.dev/v1`. */
  readonly baseUrl: string;

  /** Agents, which spend on behalf of a customer (user) under their own policy. */
  readonly agents: Agents<Paths>;
  /** Virtual cards: issue, freeze, close, their policy and credentials. */
  readonly cards: Cards<Paths>;
  /** Purchases declared before they happen, with their approvals. */
  readonly intents: Intents<Paths>;
  /** One-time network tokens of a card for an MPP card challenge or an ACP allowance. */
  readonly paymentTokens: PaymentTokens<Paths>;
  /** `fetch` that pays a merchant's MPP card 402 with a token minted under the card's policy. */
  readonly payments: Payments<Paths>;
  /** AP2 mandates: an intent's open mandate claims, the signing keys of payment receipts, their verification. */
  readonly mandates: Mandates<Paths>;
  /** Card transactions: authorizations and what became of them. */
  readonly transactions: Transactions<Paths>;
  /** Spend decisions as a dry run. */
  readonly spend: Spend<Paths>;
  /** Organization settings (`settings.risk`). */
  readonly settings: Settings<Paths>;
  /** Webhook subscriptions and their deliveries. */
  readonly webhooks: Webhooks<Paths>;
  /** Stored events, in this variant's envelope. */
  readonly events: Events<Paths>;
  /** API keys of the organization. */
  readonly apiKeys: ApiKeys<Paths>;
  /** On-chain withdrawals from a balance. */
  readonly withdrawals: Withdrawals<Paths>;
  /** Test-mode helpers: authorizations, settlements, deposits, KYC outcomes, the test clock. */
  readonly simulate: Simulate<Paths>;
  readonly #options: ClientOptions;

  protected constructor(options: BuildClientOptions, core: ClientCore<Paths>) {
    this.#options = options;
    this.raw = core.raw;
    this.mode = core.mode;
    this.baseUrl = core.baseUrl;
    this.agents = new Agents(core);
    this.cards = new Cards(core);
    this.intents = new Intents(core);
    this.paymentTokens = new PaymentTokens(core);
    this.payments = new Payments(this.paymentTokens, this.intents);
    this.mandates = new Mandates(core);
    this.transactions = new Transactions(core);
    this.spend = new Spend(core);
    this.settings = new Settings(core);
    this.webhooks = new Webhooks(core, options[WEBHOOK_HMAC]);
    this.events = new Events(core);
    this.apiKeys = new ApiKeys(core);
    this.withdrawals = new Withdrawals(core);
    this.simulate = new Simulate(core);
  }

  /**
   * A new client of the same variant with `options` over this client's (e.g. another key, a shorter timeout for one
   * job); this client is unchanged.
   */
  withOptions(options: ClientOptions): this {
    const Variant = this.constructor as new (options: ClientOptions) => this;
    return new Variant({ ...this.#options, ...options });
  }
}
