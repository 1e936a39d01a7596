import { useState } from 'preact/hooks';
import type { Card, PolicySummary } from '../api.js';
import { formatMoney } from '../format.js';
import { useAction, useApi, useQuery } from '../hooks.js';
import { cardName, Named, useNames } from '../names.js';
import {
  ActionStatus,
  ConfirmButton,
  DisclosureButton,
  ErrorNotice,
  Id,
  Loading,
  Page,
  ResourceTable,
  Section,
  Status,
  Time,
} from '../ui.js';

/** Policy switches worth a glance, as words. */
function policyFlags(policy: PolicySummary['policy']): string[] {
  const flags: string[] = [];
  if (policy.requireApproval) {
    flags.push(
      policy.autoApproveBelow === undefined
        ? 'intents need approval'
        : `intents from ${formatMoney(policy.autoApproveBelow)} need approval`,
    );
  }
  if (policy.requireIntent) flags.push('an intent before credentials');
  if (policy.requireAttestation) flags.push('attested spending only');
  if (policy.lockToFirstMerchant) flags.push('locked to its first merchant');
  if (policy.allowedMccs?.length) flags.push(`categories ${policy.allowedMccs.join(', ')} only`);
  if (policy.blockedMccs?.length) flags.push(`categories ${policy.blockedMccs.join(', ')} blocked`);
  if (policy.allowedMerchants?.length) flags.push(`merchants ${policy.allowedMerchants.join(', ')} only`);
  if (policy.onDrift === 'freeze') flags.push('frozen on merchant drift');
  return flags;
}

const cap = (value: number | null) => (value === null ? 'no cap' : formatMoney(value));

/** The card's live policy summary: effective limits with spent and remaining amounts, time-to-live and cooldown. */
function PolicyPanel(props: { card: Card }) {
  const summary = useQuery((api) => api.policy(props.card.id), [props.card.id], ['card.', 'transaction.', 'spend.', 'intent.']);
  const data = summary.data;
  return (
    <Section title={`Live policy of card ${cardName(props.card)}`} id="policy-title">
      <ErrorNotice error={summary.error} />
      {!data && !summary.error && <Loading what="the policy" />}
      {data && (
        <div class="policy">
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <Status value={data.status} />
            </dd>
            <dt>Per authorization</dt>
            <dd>{cap(data.limits.perAuth)}</dd>
            <dt>Today</dt>
            <dd>
              {formatMoney(data.limits.spentDay)} spent of {cap(data.limits.perDay)}
              {data.limits.remainingDay !== null && `, ${formatMoney(data.limits.remainingDay)} remaining`}
            </dd>
            <dt>This month</dt>
            <dd>
              {formatMoney(data.limits.spentMonth)} spent of {cap(data.limits.perMonth)}
              {data.limits.remainingMonth !== null && `, ${formatMoney(data.limits.remainingMonth)} remaining`}
            </dd>
            <dt>Time-to-live</dt>
            <dd>
              {data.ttl.expiresAt === null ? (
                'none'
              ) : (
                <>
                  {data.ttl.isExpired ? 'expired at ' : 'expires at '}
                  <Time value={data.ttl.expiresAt} />
                </>
              )}
            </dd>
            <dt>Cooldown</dt>
            <dd>
              {data.cooldown.minutes === null || data.cooldown.minutes === 0 ? (
                'none'
              ) : data.cooldown.isInCooldown && data.cooldown.cooldownEndsAt ? (
                <>
                  {data.cooldown.minutes} min between spends; in cooldown until <Time value={data.cooldown.cooldownEndsAt} />
                </>
              ) : (
                `${data.cooldown.minutes} min between spends; ready now`
              )}
            </dd>
            <dt>Rules</dt>
            <dd>{policyFlags(data.policy).join('; ') || 'none beyond the limits'}</dd>
          </dl>
        </div>
      )}
    </Section>
  );
}

export function CardsView() {
  const api = useApi();
  const cards = useQuery((client) => client.cards(), [], ['card.', 'agent.']);
  const names = useNames();
  const action = useAction();
  const [selected, setSelected] = useState<string | undefined>();
  const busy = action.busy !== undefined;
  const act = (verb: string, card: Card, work: () => Promise<void>, done: string) =>
    action.run(`${verb} card ${cardName(card)}`, work, done).then(cards.reload);
  const selectedCard = cards.data?.find((card) => card.id === selected);

  return (
    <Page
      title="Cards"
      intro="Virtual cards and their status. Freeze a card to decline every authorization until it is unfrozen; closing is final."
    >
      <ActionStatus action={action} />
      <ResourceTable
        list={cards}
        what="cards"
        empty="No cards yet."
        label="Cards"
        columns={['Card', 'Agent', 'Owner', 'Status', 'Created', 'Actions']}
        row={(card) => (
          <tr key={card.id} class={card.id === selected ? 'selected' : undefined}>
            <th scope="row">
              {cardName(card)}
              <span class="sub">
                {card.usage === 'single' ? 'single use' : 'multi use'}
                {card.purpose && `: ${card.purpose}`}
              </span>
              <span class="sub">
                <Id value={card.id} />
              </span>
            </th>
            <td>
              <Named name={names.agent(card.agentId)} id={card.agentId} />
            </td>
            <td>
              <Named name={names.owner(card.ownerId)} id={card.ownerId} />
            </td>
            <td>
              <Status value={card.status} />
            </td>
            <td>
              <Time value={card.createdAt} />
            </td>
            <td class="actions">
              <DisclosureButton
                open={card.id === selected}
                controls="policy-panel"
                onToggle={() => setSelected(card.id === selected ? undefined : card.id)}
              >
                Policy<span class="visually-hidden"> of card {cardName(card)}</span>
              </DisclosureButton>
              {(card.status === 'active' || card.status === 'notActivated') && (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() => act('freezing', card, () => api.freezeCard(card.id), `Card ${cardName(card)} is frozen.`)}
                >
                  Freeze<span class="visually-hidden"> card {cardName(card)}</span>
                </button>
              )}
              {card.status === 'frozen' && (
                <button
                  type="button"
                  disabled={busy}
                  onClick={() =>
                    act('unfreezing', card, () => api.unfreezeCard(card.id), `Card ${cardName(card)} is active again.`)
                  }
                >
                  Unfreeze<span class="visually-hidden"> card {cardName(card)}</span>
                </button>
              )}
              {card.status !== 'closed' && (
                <ConfirmButton
                  label="Close"
                  context={`card ${cardName(card)}`}
                  confirm="Close for good"
                  disabled={busy}
                  onConfirm={() => act('closing', card, () => api.closeCard(card.id), `Card ${cardName(card)} is closed.`)}
                />
              )}
            </td>
          </tr>
        )}
      />
      <div id="policy-panel">{selectedCard && <PolicyPanel card={selectedCard} />}</div>
    </Page>
  );
}
