import type { Intent } from '@cardrail/sdk';
import type { CardrailApiClient } from '../../client.js';
import type { CardrailToolkit } from '../../toolkit.js';
import type { EvaluationFacts, SpendableFacts } from './intent-words.js';

/**
 * What the approval card shows: the intent, who asks (the agent, its owner), with what (the card), what the card and
 * the owner may still spend, and what Cardrail would decide if the payment came now. A fact that cannot be read (a
 * deleted agent) is null rather than a failure: the card still shows the purchase and its answers.
 */
export interface ApprovalCardFacts {
  intent: Intent;
  agent: { id: string; name: string; status: string } | null;
  owner: { id: string; name: string; email: string } | null;
  card: { id: string; last4: string | null; status: string } | null;
  spendable: SpendableFacts | null;
  evaluation: EvaluationFacts | null;
  /** The longest reason for a rejection the API takes (its spec's `maxLength`), for the card to say before sending. */
  reasonMaxLength: number;
}

/** A read that may fail (a deleted agent): null instead. Typed by what the card takes of either variant's answer. */
const orNull = <T>(promise: PromiseLike<T>): Promise<T | null> => Promise.resolve(promise).catch(() => null);

type AgentRead = { id: string; name: string; status: string };
type CardRead = { id: string; last4: string | null; status: string };
type EvaluationRead = { decision: string; reasons: { code: string; message: string }[] };

/** An owner as a person knows them: the name the API holds, else the e-mail address. */
function ownerOf(owner: { id: string; email: string; name?: { first?: string | null; last?: string | null } | null }) {
  const name = [owner.name?.first, owner.name?.last].filter(Boolean).join(' ');
  return { id: owner.id, name: name || owner.email, email: owner.email };
}

/** The card's owner, whichever variant's field names it. */
const ownerIdOf = (card: object): string | null =>
  ((card as { customerId?: string | null }).customerId ?? (card as { userId?: string | null }).userId) || null;

async function ownerFacts(client: CardrailApiClient, ownerId: string) {
  if ('users' in client) {
    return Promise.all([orNull(client.users.retrieve(ownerId).then(ownerOf)), orNull(client.users.balances(ownerId))]);
  }
  return Promise.all([orNull(client.customers.retrieve(ownerId).then(ownerOf)), orNull(client.customers.balances(ownerId))]);
}

/** Everything the card shows about `intent`, read in two rounds of requests run side by side. */
export async function approvalCardFacts(
  toolkit: CardrailToolkit,
  intent: Intent,
  reasonMaxLength: number,
): Promise<ApprovalCardFacts> {
  const { client } = toolkit;
  const [agent, card, policy, evaluation] = await Promise.all([
    intent.agentId ? orNull<AgentRead>(client.agents.retrieve(intent.agentId)) : null,
    orNull<CardRead>(client.cards.retrieve(intent.cardId)),
    orNull(client.cards.policy(intent.cardId)),
    orNull<EvaluationRead>(
      client.spend.evaluate({
        cardId: intent.cardId,
        amount: intent.expectedAmount,
        currency: intent.currency,
        ...(intent.agentId ? { agentId: intent.agentId } : {}),
        ...(intent.expectedMerchant ? { merchant: { name: intent.expectedMerchant } } : {}),
      }),
    ),
  ]);
  const ownerId = card === null ? null : ownerIdOf(card);
  const [owner, balance] = ownerId === null ? [null, null] : await ownerFacts(client, ownerId);
  return {
    intent,
    agent: agent === null ? null : { id: agent.id, name: agent.name, status: agent.status },
    owner,
    card: card === null ? null : { id: card.id, last4: card.last4, status: card.status },
    spendable:
      policy === null
        ? null
        : {
            remainingDay: policy.limits.remainingDay,
            remainingMonth: policy.limits.remainingMonth,
            available: balance?.available ?? null,
          },
    evaluation:
      evaluation === null
        ? null
        : { decision: evaluation.decision, reasons: evaluation.reasons.map(({ code, message }) => ({ code, message })) },
    reasonMaxLength,
  };
}
