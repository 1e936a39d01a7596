import { normalizeName } from '../policy/merge-policies.js';
import type { Merchant } from '../types.js';
import { toMinorUnits } from './currency-exponent.js';
import { type MandateRefusal, rejected, unverifiable } from './mandate-refusal.js';

/** The spend as the acquirer presents it: what every constraint is checked against, never the mandate's figures. */
export interface MandateSpend {
  amount: number;
  /** Lowercase ISO 4217. */
  currency: string;
  merchant: Merchant;
  cardId: string;
  /** Epoch ms. */
  now: number;
}

/** The spends this open mandate already paid (for its budget and recurrence). */
export interface MandateUses {
  count: number;
  spent: number;
}

type Claims = Record<string, unknown>;
type Check = (constraint: Claims, spend: MandateSpend, uses: MandateUses, all: Claims[]) => MandateRefusal | null;

const FREQUENCIES = new Set(['ON_DEMAND', 'DAILY', 'WEEKLY', 'BIWEEKLY', 'MONTHLY', 'QUARTERLY', 'ANNUALLY']);

const isInteger = (value: unknown): value is number => Number.isSafeInteger(value);
const sameCurrency = (value: unknown, spend: MandateSpend) => typeof value === 'string' && value.toLowerCase() === spend.currency;

/**
 * A payee (`merchant.json`: id and name) is the spend's merchant by id when both have one, or else by name. A payee
 * whose id is its name is known by name only: AP2 requires an id, and a mandate exported from an intent, which names
 * its merchant only, gives the name as both; it is matched by name, whatever id the merchant has at its acquirer.
 */
export function payeeMatches(payee: unknown, merchant: Merchant): boolean {
  if (payee === null || typeof payee !== 'object') return false;
  const { id, name } = payee as { id?: unknown; name?: unknown };
  const knownById = typeof id === 'string' && id !== name;
  if (merchant.id !== undefined && knownById) return id === merchant.id;
  return typeof name === 'string' && normalizeName(name) === normalizeName(merchant.name);
}

function allowedList(constraint: Claims): unknown[] | MandateRefusal {
  const { allowed } = constraint;
  if (!Array.isArray(allowed)) return unverifiable(`${String(constraint.type)} has no allowed list`);
  // Entries still hidden ({"...": digest}) were not disclosed: they allow nothing.
  return allowed.filter((entry) => entry !== null && typeof entry === 'object' && !('...' in entry));
}

/** Each AP2 v0.2 payment constraint (open_payment_mandate.json `$defs`) Cardrail evaluates. */
const CHECKS: Record<string, Check> = {
  'payment.reference': (constraint) =>
    typeof constraint.conditional_transaction_id === 'string' && constraint.conditional_transaction_id.length > 0
      ? null
      : unverifiable('payment.reference has no conditional_transaction_id'),
  'payment.amount_range': (constraint, spend) => {
    const { min, max, currency } = constraint;
    if (!isInteger(max) || (min !== undefined && !isInteger(min)) || typeof currency !== 'string')
      return unverifiable('payment.amount_range must give integer min/max in minor units and a currency');
    if (!sameCurrency(currency, spend))
      return rejected('payment.amount_range', `the mandate is in ${currency}, the spend in ${spend.currency.toUpperCase()}`);
    if (spend.amount > max) return rejected('payment.amount_range', `${spend.amount} is above the maximum ${max}`);
    if (min !== undefined && spend.amount < min)
      return rejected('payment.amount_range', `${spend.amount} is below the minimum ${min}`);
    return null;
  },
  'payment.budget': (constraint, spend, uses, all) => {
    const { max, currency } = constraint;
    if (typeof max !== 'number' || typeof currency !== 'string')
      return unverifiable('payment.budget must give max (major units) and a currency');
    if (!sameCurrency(currency, spend))
      return rejected('payment.budget', `the budget is in ${currency}, the spend in ${spend.currency.toUpperCase()}`);
    const budget = toMinorUnits(max, currency);
    if (budget === null) return unverifiable(`payment.budget ${max} has more decimals than ${currency} has`);
    // A budget the spends it allows can never reach is a budget written in minor units (100 times too large).
    const range = all.find((c) => c.type === 'payment.amount_range');
    const recurrence = all.find((c) => c.type === 'payment.agent_recurrence');
    const occurrences = recurrence?.max_occurrences;
    if (range && isInteger(range.max) && isInteger(occurrences) && budget > range.max * occurrences)
      return unverifiable(
        `payment.budget ${max} ${currency} is more than ${occurrences} spend(s) of at most ${range.max} minor units can reach: is it in minor units? AP2 gives budgets in major units`,
      );
    if (uses.spent + spend.amount > budget)
      return rejected('payment.budget', `${uses.spent} already spent and ${spend.amount} more exceed ${max} ${currency}`);
    return null;
  },
  'payment.agent_recurrence': (constraint, _spend, uses) => {
    const { frequency, max_occurrences: occurrences } = constraint;
    if (typeof frequency !== 'string' || !FREQUENCIES.has(frequency) || (occurrences !== undefined && !isInteger(occurrences)))
      return unverifiable('payment.agent_recurrence has an unknown frequency or a bad max_occurrences');
    if (isInteger(occurrences) && uses.count >= occurrences)
      return rejected('payment.agent_recurrence', `the mandate allows ${occurrences} spend(s), all made`);
    return null;
  },
  'payment.allowed_payees': (constraint, spend) => {
    const allowed = allowedList(constraint);
    if (!Array.isArray(allowed)) return allowed;
    return allowed.some((payee) => payeeMatches(payee, spend.merchant))
      ? null
      : rejected('payment.allowed_payees', `${spend.merchant.name} is not an allowed payee`);
  },
  'payment.allowed_payment_instruments': (constraint, spend) => {
    const allowed = allowedList(constraint);
    if (!Array.isArray(allowed)) return allowed;
    return allowed.some((instrument) => (instrument as { id?: unknown }).id === spend.cardId)
      ? null
      : rejected('payment.allowed_payment_instruments', `the card ${spend.cardId} is not an allowed instrument`);
  },
  'payment.execution_date': (constraint, spend) => {
    const bounds = (['not_before', 'not_after'] as const).map((key) => {
      const value = constraint[key];
      return value === undefined ? undefined : typeof value === 'string' ? Date.parse(value) : Number.NaN;
    });
    const [notBefore, notAfter] = bounds;
    if (bounds.some((bound) => Number.isNaN(bound)))
      return unverifiable('payment.execution_date has a date that is not ISO 8601');
    if (notBefore !== undefined && spend.now < notBefore)
      return rejected('payment.execution_date', `the spend is before ${String(constraint.not_before)}`);
    if (notAfter !== undefined && spend.now > notAfter)
      return rejected('payment.execution_date', `the spend is after ${String(constraint.not_after)}`);
    return null;
  },
};

/**
 * Checks every constraint of an open mandate against the spend, in their order. A constraint Cardrail cannot
 * evaluate (an unknown type, or `payment.allowed_pisps`: a card has no payment initiation service provider) fails
 * as unverifiable, never ignored (AP2 agent_authorization.md: "Any unknown Constraints MUST be treated as failing
 * evaluation"). `payment.reference` is required (open_payment_mandate.json `contains`).
 */
export function checkConstraints(constraints: unknown, spend: MandateSpend, uses: MandateUses): MandateRefusal | null {
  if (!Array.isArray(constraints) || constraints.length === 0) return unverifiable('the open mandate has no constraints');
  const all = constraints.filter((c): c is Claims => c !== null && typeof c === 'object' && !Array.isArray(c));
  if (all.length !== constraints.length) return unverifiable('a constraint is not an object');
  if (!all.some((c) => c.type === 'payment.reference'))
    return unverifiable('the open mandate has no payment.reference constraint (AP2 requires one)');
  for (const constraint of all) {
    const check =
      typeof constraint.type === 'string' && Object.hasOwn(CHECKS, constraint.type) ? CHECKS[constraint.type] : undefined;
    if (!check) return unverifiable(`the constraint ${String(constraint.type)} is not one Cardrail can evaluate`);
    const refusal = check(constraint, spend, uses, all);
    if (refusal) return refusal;
  }
  return null;
}
