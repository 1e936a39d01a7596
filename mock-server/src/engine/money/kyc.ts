import type { Tenant } from '../../core/tenant.js';
import { recordKycOutcome, type DepositAddress } from '../../domain/customers.js';
import { depositAddressFor, requireCustomer } from './onchain.js';

export interface KycOutcome {
  customerId: string;
  status: 'approved' | 'denied' | 'needsInformation';
  reason: string | null;
  requiredFields: string[];
  depositAddress: DepositAddress | null;
  updatedAt: number;
}

/**
 * `POST /simulate/kyc`: records the outcome on the customer. Approved: `user.application.approved`, then a deposit
 * address is assigned (`deposit.address_ready`). Denied: `user.application.denied` with a reason. Needs information:
 * `user.application.needs_info` with the required fields.
 */
export function simulateKyc(
  tenant: Tenant,
  request: {
    customerId: string;
    status: KycOutcome['status'];
    reason?: string | undefined;
    requiredFields?: string[] | undefined;
  },
): KycOutcome {
  const customer = requireCustomer(tenant, request.customerId);
  const base = { userId: customer.id, email: customer.email, applicationStatus: request.status };
  const outcome: KycOutcome = {
    customerId: customer.id,
    status: request.status,
    reason: null,
    requiredFields: [],
    depositAddress: null,
    updatedAt: tenant.now(),
  };
  if (request.status === 'approved') {
    outcome.depositAddress = depositAddressFor(customer.id);
    recordKycOutcome(tenant, customer, 'approved', outcome.depositAddress);
    tenant.emit('user.application.approved', base);
    tenant.emit('deposit.address_ready', { userId: customer.id, ...outcome.depositAddress });
  } else if (request.status === 'denied') {
    outcome.reason = request.reason ?? 'identity_not_verified';
    recordKycOutcome(tenant, customer, 'denied', null);
    tenant.emit('user.application.denied', { ...base, reason: outcome.reason });
  } else {
    outcome.requiredFields = request.requiredFields ?? ['address'];
    outcome.reason = request.reason ?? null;
    recordKycOutcome(tenant, customer, 'needsInformation', null);
    tenant.emit('user.application.needs_info', { ...base, requiredFields: outcome.requiredFields });
  }
  return outcome;
}
