import type { Client } from 'openapi-fetch';
import type { Mode } from './core/api-key.js';
import type { ClientCore } from './core/client-core.js';
import type { ClientOptions } from './core/client-options.js';
import { Agents } from './resources/agents.js';
import { ApiKeys } from './resources/api-keys.js';
import { Cards } from './resources/cards.js';
import { Events } from './resources/events.js';
import { Intents } from './resources/intents.js';
import type { OwnerRoutes } from './resources/owner-routes.js';
import { Settings } from './resources/settings.js';
import { Simulate } from './resources/simulate.js';
import { Spend } from './resources/spend.js';
import { Transactions } from './resources/transactions.js';
import type { VariantPaths } from './resources/variant-paths.js';
import { Webhooks } from './resources/webhooks.js';
import { Withdrawals } from './resources/withdrawals.js';

/**
 * What `Cardrail` and `CardrailUsers` have in common: every namespace at the same path in both specs. The two
 * subclasses add only their auth header and their `customers` or `users` namespace. Type code against this class to
 * accept either client.
 */
export abstract class CardrailClient<Paths extends VariantPaths> {
  /** The openapi-fetch client underneath, typed by the spec, for anything the namespaces do not cover. */
  readonly raw: Client<Paths>;
  /** `'test'` for `sk_test_` keys, `'live'` for `sk_live_` keys. */
  readonly mode: Mode;
  readonly baseUrl: string;

  readonly agents: Agents<Paths>;
  readonly cards: Cards<Paths>;
  readonly intents: Intents<Paths>;
  readonly transactions: Transactions<Paths>;
  readonly spend: Spend<Paths>;
  readonly settings: Settings<Paths>;
  readonly webhooks: Webhooks<Paths>;
  readonly events: Events<Paths>;
  readonly apiKeys: ApiKeys<Paths>;
  readonly withdrawals: Withdrawals<Paths>;
  readonly simulate: Simulate<Paths>;
  readonly #options: ClientOptions;

  protected constructor(options: ClientOptions, core: ClientCore<Paths>, ownerRoutes: OwnerRoutes<Paths>) {
    this.#options = options;
    this.raw = core.raw;
    this.mode = core.mode;
    this.baseUrl = core.baseUrl;
    this.agents = new Agents(core);
    this.cards = new Cards(core);
    this.intents = new Intents(core);
    this.transactions = new Transactions(core);
    this.spend = new Spend(core);
    this.settings = new Settings(core);
    this.webhooks = new Webhooks(core);
    this.events = new Events(core);
    this.apiKeys = new ApiKeys(core);
    this.withdrawals = new Withdrawals(core, ownerRoutes);
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
