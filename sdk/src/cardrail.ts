import { CardrailClient } from './cardrail-client.js';
import { ClientCore } from './core/client-core.js';
import type { ClientOptions } from './core/client-options.js';
import { Owners, type Customers } from './resources/owners.js';
import type { CustomerPaths } from './resources/variant-paths.js';

/**
 * Client of the customer variant (`Authorization: Bearer <key>`): customers own agents, agents spend with cards.
 *
 * @example
 * const cardrail = new Cardrail({ apiKey: process.env.CARDRAIL_API_KEY });
 * const card = await cardrail.cards.create({ customerId, agentId, type: 'virtual', usage: 'multi' });
 */
export class Cardrail extends CardrailClient<CustomerPaths> {
  /** Customers: the account holders that own agents and cards and hold balances. */
  readonly customers: Customers;

  constructor(options: ClientOptions = {}) {
    const core = new ClientCore<CustomerPaths>(options, {
      variant: 'customer',
      authHeaders: (apiKey) => ({ Authorization: `Bearer ${apiKey}` }),
    });
    super(options, core);
    this.customers = new Owners(core);
  }
}
