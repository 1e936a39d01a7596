import type { Client } from 'openapi-fetch';
import type { Mode } from './core/api-key.js';
import { ClientCore } from './core/client-core.js';
import type { ClientOptions } from './core/client-options.js';
import { Agents } from './resources/agents.js';
import { ApiKeys } from './resources/api-keys.js';
import { Cards } from './resources/cards.js';
import { Events } from './resources/events.js';
import { Intents } from './resources/intents.js';
import { Settings } from './resources/settings.js';
import { Simulate } from './resources/simulate.js';
import { Spend } from './resources/spend.js';
import { Transactions } from './resources/transactions.js';
import { Users } from './resources/users.js';
import type { UserPaths } from './resources/variant-paths.js';
import { Webhooks } from './resources/webhooks.js';
import { Withdrawals } from './resources/withdrawals.js';

/**
 * Client of the user variant (`Api-Key: <key>`): users instead of customers, user-variant cards (`createdAt` in epoch
 * ms, `purpose`), and webhooks in the event-catalog envelope.
 */
export class CardrailUsers {
  /** The openapi-fetch client underneath, typed by the spec, for anything the namespaces do not cover. */
  readonly raw: Client<UserPaths>;
  /** `'test'` for `sk_test_` keys, `'live'` for `sk_live_` keys. */
  readonly mode: Mode;
  readonly baseUrl: string;

  readonly users: Users;
  readonly agents: Agents<UserPaths>;
  readonly cards: Cards<UserPaths>;
  readonly intents: Intents<UserPaths>;
  readonly transactions: Transactions<UserPaths>;
  readonly spend: Spend<UserPaths>;
  readonly settings: Settings<UserPaths>;
  readonly webhooks: Webhooks<UserPaths>;
  readonly events: Events<UserPaths>;
  readonly apiKeys: ApiKeys<UserPaths>;
  readonly withdrawals: Withdrawals<UserPaths>;
  readonly simulate: Simulate<UserPaths>;

  constructor(options: ClientOptions = {}) {
    const core = new ClientCore<UserPaths>(options, (apiKey) => ({ 'Api-Key': apiKey }));
    this.raw = core.raw;
    this.mode = core.mode;
    this.baseUrl = core.baseUrl;
    this.users = new Users(core);
    this.agents = new Agents(core);
    this.cards = new Cards(core);
    this.intents = new Intents(core);
    this.transactions = new Transactions(core);
    this.spend = new Spend(core);
    this.settings = new Settings(core);
    this.webhooks = new Webhooks(core);
    this.events = new Events(core);
    this.apiKeys = new ApiKeys(core);
    this.withdrawals = new Withdrawals(core, { path: '/users/{userId}/withdrawals', param: 'userId' });
    this.simulate = new Simulate(core);
  }
}
