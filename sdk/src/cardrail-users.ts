import { CardrailClient } from './cardrail-client.js';
import { ClientCore } from './core/client-core.js';
import type { ClientOptions } from './core/client-options.js';
import { Owners, type Users } from './resources/owners.js';
import type { UserPaths } from './resources/variant-paths.js';

/**
 * Client of the user variant (`Api-Key: <key>`): users instead of customers, user-variant cards (`createdAt` in epoch
 * ms, `purpose`), and webhooks in the event-catalog envelope.
 *
 * @example
 * const client = new CardrailUsers({ apiKey: process.env.CARDRAIL_API_KEY });
 * const user = await client.users.create({ type: 'consumer', email: 'ada@example.com' });
 */
export class CardrailUsers extends CardrailClient<UserPaths> {
  /** Users: the account holders that own agents and cards and hold balances. */
  readonly users: Users;

  constructor(options: ClientOptions = {}) {
    const core = new ClientCore<UserPaths>(options, { variant: 'user', authHeaders: (apiKey) => ({ 'Api-Key': apiKey }) });
    super(options, core);
    this.users = new Owners(core);
  }
}
