// One intent on a page of its own (`#/approvals/int_...`, the intent's `approvalUrl`): what a person needs to decide
// whether an agent may make this purchase, and the two answers.
import {
  evaluationWords,
  FACT_LABELS,
  outcomeWords,
  spendableWords,
  toleranceWords,
} from '../../../agent-toolkit/src/mcp/apps/intent-words.js';
import type { Agent, Balance, Card, DashboardApi, Intent, Owner, PolicySummary, SpendEvaluation, Transaction } from '../api.js';
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
  /** The owner's balance: what the card's limits leave aside, the most the agent can spend. */
  balance: Balance | null;
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
  const [owner, balance] = ownerId ? await Promise.all([orNull(api.owner(ownerId)), orNull(api.balance(ownerId))]) : [null, null];
  return { intent, agent, owner, balance, card, policy, evaluation, spends };
}

/** What the API says about paying this amount at this merchant now. */
function EvaluationFacts(props: { evaluation: SpendEvaluation | null }) {
  const { evaluation } = props;
  if (!evaluation) return <dd class="muted">could not be evaluated</dd>;
  const words = evaluationWords(evaluation);
  return (
    <dd>
      <Status value={evaluation.decision} /> {words.verdict}
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
  const { intent, agent, owner, balance, card, policy, evaluation } = props.decision;
  return (
    <dl class="facts">
      <dt>{FACT_LABELS.amount}</dt>
      <dd>
        <strong>{formatMoney(intent.expectedAmount, intent.currency)}</strong> <span class="help">{toleranceWords(intent)}</span>
      </dd>
      <dt>{FACT_LABELS.merchant}</dt>
      <dd>{intent.expectedMerchant ?? 'any merchant (none was declared)'}</dd>
      <dt>{FACT_LABELS.agent}</dt>
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
      <dt>{FACT_LABELS.owner}</dt>
      <dd>
        {owner ? ownerName(owner) : 'unknown'}
        {owner && ownerName(owner) !== owner.email && ` (${owner.email})`} <Id value={owner?.id ?? card?.ownerId} />
      </dd>
      <dt>{FACT_LABELS.card}</dt>
      <dd>
        {card ? cardName(card) : 'unknown'} {card && <Status value={card.status} />} <Id value={intent.cardId} />
      </dd>
      <dt>{FACT_LABELS.spendable}</dt>
      <dd>
        {policy
          ? spendableWords(
              {
                remainingDay: policy.limits.remainingDay,
                remainingMonth: policy.limits.remainingMonth,
                available: balance?.available ?? null,
              },
              intent.currency,
            )
          : 'unknown'}
      </dd>
      <dt>{FACT_LABELS.ifPaidNow}</dt>
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
      <dt>{FACT_LABELS.expires}</dt>
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

/** What was decided, for an intent that no longer waits: in the words the approval card uses too. */
function Outcome(props: { intent: Intent }) {
  const words = outcomeWords(props.intent);
  if (words === undefined) return null;
  const kind = props.intent.approvedAt ? ' notice-ok' : props.intent.status === 'rejected' ? ' notice-error' : '';
  return <p class={`notice${kind}`}>{words}</p>;
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
