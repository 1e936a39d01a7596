// One intent on a page of its own (`#/approvals/int_...`, the intent's `approvalUrl`): what a person needs to decide
// whether an agent may make this purchase, and the two answers.
import type { Agent, Card, DashboardApi, Intent, Owner, PolicySummary, SpendEvaluation, Transaction } from '../api.js';
import { formatMoney } from '../format.js';
import { useAction, useQuery } from '../hooks.js';
import { cardName, ownerName } from '../names.js';
import { href } from '../router.js';
import { ActionStatus, ErrorNotice, Id, IntentStatus, Loading, Page, Section, Status, Time } from '../ui.js';
import { IntentAnswers } from './intent-answers.js';

/** The agent's spends shown beside the purchase. */
const RECENT_SPENDS = 5;

/** Everything the page shows, loaded together; what cannot be read (a deleted agent) is null rather than an error. */
interface Decision {
  intent: Intent;
  agent: Agent | null;
  owner: Owner | null;
  card: Card | null;
  policy: PolicySummary | null;
  evaluation: SpendEvaluation | null;
  spends: Transaction[];
}

const orNull = <T,>(promise: Promise<T>): Promise<T | null> => promise.catch(() => null);

async function loadDecision(api: DashboardApi, intentId: string): Promise<Decision> {
  const intent = await api.intent(intentId);
  const [agent, card, policy, evaluation, spends] = await Promise.all([
    intent.agentId ? orNull(api.agent(intent.agentId)) : null,
    orNull(api.card(intent.cardId)),
    orNull(api.policy(intent.cardId)),
    orNull(api.evaluateIntent(intent)),
    intent.agentId ? api.agentTransactions(intent.agentId, RECENT_SPENDS).catch(() => []) : [],
  ]);
  const ownerId = agent?.ownerId ?? card?.ownerId ?? null;
  const owner = ownerId ? await orNull(api.owner(ownerId)) : null;
  return { intent, agent, owner, card, policy, evaluation, spends };
}

/** The amounts a payment may have and still match the intent (docs/intents.md#matching). */
function tolerance(intent: Intent): string {
  const percent = intent.tolerance.percent ?? 10;
  const amount = intent.tolerance.amount ?? 500;
  const slack = Math.max(Math.floor((intent.expectedAmount * percent) / 100), amount);
  const low = Math.max(intent.expectedAmount - slack, 0);
  const money = (cents: number) => formatMoney(cents, intent.currency);
  return `A payment from ${money(low)} to ${money(intent.expectedAmount + slack)} matches it (the larger of ${percent} % and ${money(amount)}).`;
}

const cap = (value: number | null, currency: string) => (value === null ? 'no limit' : formatMoney(value, currency));

/** What the API says about paying this amount at this merchant now. */
function EvaluationFacts(props: { evaluation: SpendEvaluation | null }) {
  const { evaluation } = props;
  if (!evaluation) return <dd class="muted">could not be evaluated</dd>;
  return (
    <dd>
      <Status value={evaluation.decision} />
      {evaluation.reasons.length > 0 && (
        <ul class="reasons">
          {evaluation.reasons.map((reason) => (
            <li key={reason.code}>
              {reason.message} <code>{reason.code}</code>
            </li>
          ))}
        </ul>
      )}
    </dd>
  );
}

function Facts(props: { decision: Decision }) {
  const { intent, agent, owner, card, policy, evaluation } = props.decision;
  return (
    <dl class="facts">
      <dt>Amount</dt>
      <dd>
        <strong>{formatMoney(intent.expectedAmount, intent.currency)}</strong> <span class="help">{tolerance(intent)}</span>
      </dd>
      <dt>Merchant</dt>
      <dd>{intent.expectedMerchant ?? 'any merchant (none was declared)'}</dd>
      <dt>Agent</dt>
      <dd>
        {agent ? (
          <>
            {agent.name} <Status value={agent.status} />
          </>
        ) : (
          'none'
        )}{' '}
        <Id value={intent.agentId} />
      </dd>
      <dt>Owner</dt>
      <dd>
        {owner ? ownerName(owner) : 'unknown'}
        {owner && ownerName(owner) !== owner.email && ` (${owner.email})`} <Id value={owner?.id ?? card?.ownerId} />
      </dd>
      <dt>Card</dt>
      <dd>
        {card ? cardName(card) : 'unknown'} {card && <Status value={card.status} />} <Id value={intent.cardId} />
      </dd>
      <dt>Card may still spend</dt>
      <dd>
        {policy
          ? `${cap(policy.limits.remainingDay, intent.currency)} today, ${cap(policy.limits.remainingMonth, intent.currency)} this month`
          : 'unknown'}
      </dd>
      <dt>If paid now</dt>
      <EvaluationFacts evaluation={evaluation} />
      <dt>Declared</dt>
      <dd>
        <Time value={intent.createdAt} />
        {intent.customerIntentId && (
          <>
            {' '}
            as <code>{intent.customerIntentId}</code>
          </>
        )}
      </dd>
      <dt>Expires</dt>
      <dd>
        <Time value={intent.expiresAt} />
      </dd>
    </dl>
  );
}

function RecentSpends(props: { spends: Transaction[] }) {
  if (props.spends.length === 0) return <p class="empty">No spends by this agent yet.</p>;
  return (
    <ul class="spends">
      {props.spends.map((spend) => (
        <li key={spend.id}>
          {formatMoney(spend.amount, spend.currency)} at {spend.merchant.name} <Status value={spend.status} />
          {spend.declinedReason && <code>{spend.declinedReason}</code>} <Time value={spend.createdAt} />
        </li>
      ))}
    </ul>
  );
}

/** What was decided, for an intent that no longer waits. */
function Outcome(props: { intent: Intent }) {
  const { intent } = props;
  if (intent.status === 'pending_approval') return null;
  if (intent.approvedAt) {
    return (
      <p class="notice notice-ok">
        Approved <Time value={intent.approvedAt} /> by {intent.approvedBy}.{' '}
        {intent.status === 'pending' ? 'The agent may now pay.' : `It is now ${intent.status.replace(/_/g, ' ')}.`}
      </p>
    );
  }
  if (intent.status === 'rejected') {
    return (
      <p class="notice notice-error">
        Rejected <Time value={intent.rejectedAt} /> by {intent.rejectedBy}
        {intent.rejectionReason ? `: ${intent.rejectionReason}` : '.'}
      </p>
    );
  }
  return <p class="notice">This intent is {intent.status.replace(/_/g, ' ')}: there is nothing left to decide.</p>;
}

export function ApprovalView(props: { intentId: string }) {
  const decision = useQuery((api) => loadDecision(api, props.intentId), [props.intentId], ['intent.', 'transaction.', 'card.']);
  const action = useAction();
  const data = decision.data;
  const title = data ? `Approve a purchase: ${data.intent.summary}` : 'Approve a purchase';
  return (
    <Page
      title={title}
      intro={
        <>
          An agent declared this purchase on a card whose policy asks a person to approve it. Approving lets the agent retrieve
          the card's details and pay; rejecting keeps them closed. <a href={href('approvals')}>Every intent</a>
        </>
      }
    >
      <ActionStatus action={action} />
      <ErrorNotice error={decision.error} />
      {!data && !decision.error && <Loading what="the intent" />}
      {data && (
        <>
          <Section title="The purchase" id="purchase">
            <p class="status-line">
              <IntentStatus intent={data.intent} /> <Id value={data.intent.id} />
            </p>
            <Facts decision={data} />
            <Outcome intent={data.intent} />
            {data.intent.status === 'pending_approval' && (
              <IntentAnswers intent={data.intent} action={action} onAnswered={decision.reload} />
            )}
          </Section>
          <Section title={`Recent spends of ${data.agent?.name ?? 'the agent'}`} id="recent-spends">
            <RecentSpends spends={data.spends} />
          </Section>
        </>
      )}
    </Page>
  );
}
