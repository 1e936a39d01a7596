import type { Tenant } from '../core/tenant.js';
import { agents, deleteAgent } from './agents.js';
import { cards, closeCard } from './cards.js';
import { customers, type CustomerRecord } from './customers.js';

/**
 * DELETE of a customer or user (docs/resources.md#customer-user): its agents are
 * deleted the way DELETE /agents does it (their cards closed with reason `agent_deleted`), cards without an agent
 * are closed with reason `manual`, `user.deleted` is sent, and the customer is gone: 404 afterwards, like any
 * deleted object. The answer still shows the record with status `deleted`.
 */
export function deleteCustomer(tenant: Tenant, customer: CustomerRecord): CustomerRecord {
  for (const agent of [...agents.of(tenant).values({ customerId: customer.id })]) deleteAgent(tenant, agent, 'api');
  for (const card of [...cards.of(tenant).values({ customerId: customer.id })]) {
    if (card.status !== 'closed') closeCard(tenant, card, 'manual', 'api');
  }
  customers.of(tenant).update(customer.id, (record) => {
    record.status = 'deleted';
  });
  tenant.emit('user.deleted', { userId: customer.id, email: customer.email });
  customers.of(tenant).delete(customer.id);
  return customer;
}
