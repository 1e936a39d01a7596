import type { Tenant } from '../../core/tenant.js';
import { balanceOf } from '../../domain/balances.js';
import { cards } from '../../domain/cards.js';
import { findByNumber } from '../payment-tokens/network-token.js';
import type { Merchant } from '../types.js';
import type { MandateInput } from './mandate-gate.js';
import { presentMandate } from './mandate-presentation.js';
import { unverifiable } from './mandate-refusal.js';

/** The parts of `POST /simulate/authorize` a mandate is checked against. */
interface MandateAuthorization {
  amount: number;
  currency?: string | undefined;
  merchant: Merchant;
  cardId?: string | undefined;
  token?: { number: string } | undefined;
}

/**
 * Verifies the `agentMandate` of an authorization before it is decided (the signature work is asynchronous; the
 * decision is not): undefined when none was presented, or the card (or token) is unknown, which the authorization
 * answers with 404 itself.
 */
export async function presentAgentMandate(
  tenant: Tenant,
  request: MandateAuthorization,
  agentMandate: string | undefined,
): Promise<MandateInput> {
  if (agentMandate === undefined) return undefined;
  const cardId = request.token ? findByNumber(tenant, request.token.number)?.cardId : request.cardId;
  const card = cardId === undefined ? undefined : cards.of(tenant).get(cardId);
  if (!card) return undefined;
  const currency = (request.currency ?? balanceOf(tenant, card.customerId).currency).toLowerCase();
  return presentMandate(tenant, card.customerId, agentMandate, {
    amount: request.amount,
    currency,
    merchant: request.merchant,
    cardId: card.id,
    now: tenant.now(),
  });
}

/** The parts of `POST /spend/evaluate` a mandate is checked against: the merchant may be named by category only. */
interface MandateEvaluation extends Omit<MandateAuthorization, 'merchant' | 'token'> {
  cardId: string;
  merchant?: Partial<Merchant> | undefined;
}

/**
 * Verifies the `agentMandate` of an evaluation as an authorization's (it is used up only where the gate's use is
 * recorded, which an evaluation never does). The closed mandate's payee is checked against the merchant's name: an
 * evaluation that names none cannot tell whether the mandate allows the spend (`mandate_unverifiable`, once its
 * signatures and times verified).
 */
export async function presentEvaluationMandate(
  tenant: Tenant,
  request: MandateEvaluation,
  agentMandate: string | undefined,
): Promise<MandateInput> {
  if (agentMandate === undefined) return undefined;
  const name = request.merchant?.name;
  const merchant = { ...request.merchant, name: name ?? '' };
  const presented = await presentAgentMandate(tenant, { ...request, merchant }, agentMandate);
  if (name !== undefined || presented === undefined || !('presentation' in presented)) return presented;
  return {
    ...presented,
    closedRefusal: unverifiable(
      "payee: the evaluation names no merchant (merchant.name) to check the closed mandate's payee against",
    ),
  };
}
