import { useState } from 'preact/hooks';
import type { Card, Intent } from '../api.js';
import { formatMoney } from '../format.js';
import { type Action, useAction, useQuery } from '../hooks.js';
import { cardName, Named, type Names, useNames } from '../names.js';
import { href } from '../router.js';
import { ActionStatus, Id, IntentStatus, ListStates, Page, ResourceTable, Section, Time } from '../ui.js';
import { IntentAnswers } from './intent-answers.js';

const STATUSES: Intent['status'][] = ['pending_approval', 'pending', 'matched', 'mismatched', 'rejected', 'expired'];

/** One intent waiting for a person: what the agent wants to buy, and the two answers. */
function WaitingIntent(props: { intent: Intent; card: Card | undefined; names: Names; action: Action; onAnswered(): void }) {
  const { intent, card, names, action } = props;
  const headingId = `intent-${intent.id}`;
  return (
    <li>
      <article class="intent" aria-labelledby={headingId}>
        <h3 id={headingId}>
          <a href={href(`approvals/${intent.id}`)}>{intent.summary}</a>{' '}
          <span class="amount">{formatMoney(intent.expectedAmount, intent.currency)}</span>
        </h3>
        <dl class="facts">
          <dt>Merchant</dt>
          <dd>{intent.expectedMerchant ?? 'any'}</dd>
          <dt>Agent</dt>
          <dd>
            <Named name={names.agent(intent.agentId)} id={intent.agentId} />
          </dd>
          <dt>Card</dt>
          <dd>
            <Named name={card && cardName(card)} id={intent.cardId} />
          </dd>
          <dt>Intent</dt>
          <dd>
            <Id value={intent.id} />
          </dd>
          <dt>Expires</dt>
          <dd>
            <Time value={intent.expiresAt} />
          </dd>
        </dl>
        <IntentAnswers intent={intent} action={action} onAnswered={props.onAnswered} />
      </article>
    </li>
  );
}

export function ApprovalsView() {
  const waiting = useQuery((api) => api.intents('pending_approval'), [], ['intent.']);
  // Who wants to buy, by name: a person knows their agents by the names they gave them, and cards by their digits.
  const names = useNames();
  const cards = useQuery((api) => api.cards(), [], ['card.']);
  const cardOf = (cardId: string) => cards.data?.find((card) => card.id === cardId);
  const [filter, setFilter] = useState<Intent['status'] | ''>('');
  const all = useQuery((api) => api.intents(filter || undefined), [filter], ['intent.', 'transaction.']);
  const action = useAction();
  const answered = () => {
    waiting.reload();
    all.reload();
  };

  return (
    <Page
      title="Approvals"
      intro="Intents an agent declared on a card whose policy requires approval wait here for a person. New ones appear as they arrive."
    >
      <ActionStatus action={action} />
      <Section title={`Waiting for approval (${waiting.data?.length ?? 0})`} id="waiting">
        <ListStates
          list={waiting}
          what="intents"
          empty={
            <>
              Nothing is waiting. An intent waits here when its card's policy has <code>requireApproval</code> (and the amount is
              not below <code>autoApproveBelow</code>).
            </>
          }
          render={(intents) => (
            <ul class="intents">
              {intents.map((intent) => (
                <WaitingIntent
                  key={intent.id}
                  intent={intent}
                  card={cardOf(intent.cardId)}
                  names={names}
                  action={action}
                  onAnswered={answered}
                />
              ))}
            </ul>
          )}
        />
      </Section>
      <Section
        title="All intents"
        id="all-intents"
        actions={
          <label class="inline">
            Status{' '}
            <select
              value={filter}
              onChange={(event) => setFilter((event.target as HTMLSelectElement).value as Intent['status'] | '')}
            >
              <option value="">any</option>
              {STATUSES.map((status) => (
                <option key={status} value={status}>
                  {status.replace(/_/g, ' ')}
                </option>
              ))}
            </select>
          </label>
        }
      >
        <ResourceTable
          list={all}
          empty={`No intents${filter ? ` in status ${filter.replace(/_/g, ' ')}` : ''}.`}
          label="All intents"
          columns={['Summary', { heading: 'Amount', numeric: true }, 'Status', 'Agent and card', 'Created', 'Answer']}
          row={(intent) => (
            <tr key={intent.id}>
              <th scope="row">
                <a href={href(`approvals/${intent.id}`)}>{intent.summary}</a>
                <span class="sub">
                  <Id value={intent.id} />
                </span>
              </th>
              <td class="num">{formatMoney(intent.expectedAmount, intent.currency)}</td>
              <td>
                <IntentStatus intent={intent} />
              </td>
              <td>
                {names.agent(intent.agentId) ?? <span class="muted">an agent</span>}
                <span class="sub">{cardOf(intent.cardId) ? cardName(cardOf(intent.cardId) as Card) : 'a card'}</span>
                <span class="sub">
                  <Id value={intent.cardId} />
                </span>
              </td>
              <td>
                <Time value={intent.createdAt} />
              </td>
              <td>
                {intent.rejectionReason ??
                  (intent.approvedAt ? (
                    <>
                      approved <Time value={intent.approvedAt} />
                    </>
                  ) : (
                    <span class="muted">—</span>
                  ))}
              </td>
            </tr>
          )}
        />
      </Section>
    </Page>
  );
}
