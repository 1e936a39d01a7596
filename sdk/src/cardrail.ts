import type { Client } from 'openapi-fetch';
import type { Mode } from './core/api-key.js';
import { ClientCore } from './core/client-core.js';
import type { ClientOptions } from './core/client-options.js';
import { Agents } from './resources/agents.js';
import { ApiKeys } from './resources/api-keys.js';
import { Cards } from './resources/cards.js';
import { Customers } from './resources/customers.js';
import { Events } from './resources/events.js';
import { Intents } from './resources/intents.js';
import { Settings } from './resources/settings.js';
import { Simulate } from './resources/simulate.js';
import { Spend } from './resources/spend.js';
import { Transactions } from './resources/transactions.js';
import type { CustomerPaths } from './resources/variant-paths.js';
import { Webhooks } from './resources/webhooks.js';
import { Withdrawals } from './resources/withdrawals.js';

/**
 * Client of the customer variant (`Authorization: Bearer <key>`): customers own agents, agents spend with cards.
 *
 * @example
 * const cardrail = new Cardrail({ apiKey: process.env.CARDRAIL_API_KEY });
 * const card = await cardrail.cards.create({ agentId, type: 'multi_use' });
 */
export class Cardrail {
  /** The openapi-fetch client underneath, typed by the spec, for anything the namespaces do not cover. */
  readonly raw: Client<CustomerPaths>;
  /** `'test'` for `sk_test_` keys, `'live'` for `sk_live_` keys. */
  readonly mode: Mode;
  readonly baseUrl: string;

  readonly customers: Customers;
  readonly agents: Agents<CustomerPaths>;
  readonly cards: Cards<CustomerPaths>;
  readonly intents: Intents<CustomerPaths>;
  readonly transactions: Transactions<CustomerPaths>;
  readonly spend: Spend<CustomerPaths>;
  readonly settings: Settings<CustomerPaths>;
  readonly webhooks: Webhooks<CustomerPaths>;
  readonly events: Events<CustomerPaths>;
  readonly apiKeys: ApiKeys<CustomerPaths>;
  readonly withdrawals: Withdrawals<CustomerPaths>;
  readonly simulate: Simulate<CustomerPaths>;

  constructor(options: ClientOptions = {}) {
    const core = new ClientCore<CustomerPaths>(options, (apiKey) => ({ Authorization: `Bearer ${apiKey}` }));
    this.raw = core.raw;
    this.mode = core.mode;
    this.baseUrl = core.baseUrl;
    this.customers = new Customers(core);
    this.agents = new Agents(core);
    this.cards = new Cards(core);
    this.intents = new Intents(core);
    this.transactions = new Transactions(core);
    this.spend = new Spend(core);
    this.settings = new Settings(core);
    this.webhooks = new Webhooks(core);
    this.events = new Events(core);
    this.apiKeys = new ApiKeys(core);
    this.withdrawals = new Withdrawals(core, { path: '/customers/{customerId}/withdrawals', param: 'customerId' });
    this.simulate = new Simulate(core);
  }
}
