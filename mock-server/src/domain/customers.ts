import type { ApiSchemas, Stored } from '../core/stored.js';
import { defineCollection, type Tenant } from '../core/tenant.js';
import { notFound } from '../core/errors.js';
import { createBalance } from './balances.js';
import type { Metadata, Policy } from './types.js';

export type DepositAddress = ApiSchemas['DepositAddress'];

/** A customer; the user variant calls the same object a user (same id, same fields). */
export type CustomerRecord = Stored<ApiSchemas['Customer']> & {
  /** The customer's identifier at the card issuer, sent in `verification.initiated`. */
  issuerUserId: string;
};

export const customers = defineCollection<CustomerRecord>('customers');

/** The customer, or 404 (also for another organization's or mode's id). */
export function requireCustomer(tenant: Tenant, id: string): CustomerRecord {
  const customer = customers.of(tenant).get(id);
  if (!customer) throw notFound();
  return customer;
}

export interface CustomerInput {
  type?: 'consumer' | 'corporate';
  email: string;
  phone?: string;
  name?: { first?: string; last?: string };
  policy?: Policy;
  metadata?: Metadata;
}

/** Creates a customer (KYC starts: `pending`), its zero balance, and `user.created` + `verification.initiated`. */
export function createCustomer(tenant: Tenant, input: CustomerInput): CustomerRecord {
  const customer = customers.of(tenant).insert({
    id: tenant.ids.next('customer'),
    type: input.type ?? 'consumer',
    status: 'pending',
    email: input.email,
    phone: input.phone ?? null,
    name: input.name ?? {},
    policy: input.policy ?? {},
    metadata: input.metadata ?? {},
    kycStatus: 'pending',
    depositAddress: null,
    issuerUserId: `iu_${tenant.ids.text(12).toLowerCase()}`,
    createdAt: tenant.now(),
  });
  createBalance(tenant, customer.id);
  tenant.emit('user.created', {
    userId: customer.id,
    email: customer.email,
    firstName: customer.name.first ?? null,
    lastName: customer.name.last ?? null,
  });
  tenant.emit('verification.initiated', {
    userId: customer.id,
    issuerUserId: customer.issuerUserId,
    applicationStatus: customer.kycStatus,
  });
  return customer;
}

/** Records a KYC outcome: approval assigns the deposit address and activates a pending customer. */
export function recordKycOutcome(
  tenant: Tenant,
  customer: CustomerRecord,
  status: 'approved' | 'denied' | 'needsInformation',
  address: DepositAddress | null,
): void {
  customers.of(tenant).update(customer.id, (record) => {
    record.kycStatus = status;
    if (address) record.depositAddress = address;
    if (status === 'approved' && record.status === 'pending') record.status = 'active';
  });
}

/**
 * Applies an update; emits `user.updated` with the fields whose values changed (none changed: no event), and
 * tells the tenant's policy-change listeners when the policy is one of them.
 */
export function updateCustomer(tenant: Tenant, customer: CustomerRecord, patch: Partial<CustomerInput>): CustomerRecord {
  const changed: string[] = [];
  customers.of(tenant).update(customer.id, (record) => {
    const apply = <Field extends 'email' | 'phone' | 'name' | 'policy' | 'metadata'>(
      field: Field,
      value: CustomerRecord[Field] | undefined,
    ) => {
      if (value === undefined) return;
      if (JSON.stringify(record[field]) !== JSON.stringify(value)) changed.push(field);
      record[field] = value;
    };
    apply('email', patch.email);
    apply('phone', patch.phone);
    apply('name', patch.name);
    apply('policy', patch.policy);
    apply('metadata', patch.metadata);
  });
  if (changed.length > 0) {
    tenant.emit('user.updated', { userId: customer.id, email: customer.email, updatedFields: changed });
  }
  if (changed.includes('policy')) tenant.policyChanged({ owner: 'customer', id: customer.id });
  return customer;
}
