import { type Balance, type DashboardApi, LIST_LIMIT, type Owner } from '../api.js';
import { BALANCE_COLUMNS, BalanceCells } from '../balances.js';
import { formatDuration } from '../format.js';
import { useAction, useApi, useQuery } from '../hooks.js';
import { href } from '../router.js';
import { ownerName } from '../names.js';
import { ActionStatus, ErrorNotice, Loading, Page, ResourceTable, Section, Time } from '../ui.js';

/** Balances are read per owner: the newest ones only, so the overview stays one screen of requests. */
const BALANCES_SHOWN = 25;

interface Overview {
  owners: Owner[];
  balances: { owner: Owner; balance: Balance }[];
  counts: { label: string; value: number; detail: string; link: string }[];
}

function countBy<T>(items: T[], key: (item: T) => string): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(key(item), (counts.get(key(item)) ?? 0) + 1);
  return [...counts].map(([name, count]) => `${count} ${name.replace(/_/g, ' ')}`).join(', ') || 'none';
}

const shown = (items: unknown[]) => (items.length >= LIST_LIMIT ? LIST_LIMIT : items.length);

async function loadOverview(api: DashboardApi): Promise<Overview> {
  const [owners, agents, cards, intents, transactions] = await Promise.all([
    api.owners(),
    api.agents(),
    api.cards(),
    api.intents(),
    api.transactions(),
  ]);
  const balances = await Promise.all(
    owners.slice(0, BALANCES_SHOWN).map(async (owner) => ({ owner, balance: await api.balance(owner.id) })),
  );
  const ownerLabel = api.ownerNoun === 'user' ? 'Users' : 'Customers';
  return {
    owners,
    balances,
    counts: [
      { label: ownerLabel, value: shown(owners), detail: countBy(owners, (owner) => owner.status), link: 'owners' },
      { label: 'Agents', value: shown(agents), detail: countBy(agents, (agent) => agent.status), link: 'agents' },
      { label: 'Cards', value: shown(cards), detail: countBy(cards, (card) => card.status), link: 'cards' },
      {
        label: 'Waiting for approval',
        value: intents.filter((intent) => intent.status === 'pending_approval').length,
        detail: `of ${shown(intents)} intents`,
        link: 'approvals',
      },
      {
        label: 'Transactions',
        value: shown(transactions),
        detail: countBy(transactions, (transaction) => transaction.status),
        link: 'transactions',
      },
    ],
  };
}

function ClockSummary() {
  const api = useApi();
  const clock = useQuery((client) => client.clock(), [], ['*']);
  if (api.mode === 'live') return <p>Live mode has no test clock: time is real time.</p>;
  if (clock.error) return <ErrorNotice error={clock.error} />;
  if (!clock.data) return <Loading what="the test clock" />;
  return (
    <dl class="facts">
      <dt>Now</dt>
      <dd>
        <Time value={clock.data.now} />
      </dd>
      <dt>Runs</dt>
      <dd>{clock.data.frozen ? 'frozen: only advances move it' : 'with wall time'}</dd>
      <dt>Advanced so far</dt>
      <dd>{formatDuration(clock.data.offsetSeconds)}</dd>
    </dl>
  );
}

export function OverviewView() {
  const api = useApi();
  const overview = useQuery(loadOverview, [], ['*']);
  const example = useAction();
  const data = overview.data;
  const totals = (data?.balances ?? []).reduce(
    (sum, { balance }) => ({
      available: sum.available + balance.available,
      pending: sum.pending + balance.pending,
      posted: sum.posted + balance.posted,
    }),
    { available: 0, pending: 0, posted: 0 },
  );
  const ownerNoun = api.ownerNoun;

  return (
    <Page title="Overview" intro="What this key's organization holds in this mode, updated as events arrive.">
      <ErrorNotice error={overview.error} />
      {!data && !overview.error && <Loading what="the overview" />}
      {data && (
        <ul class="tiles">
          {data.counts.map((count) => (
            <li key={count.label}>
              <a href={href(count.link)} class="tile">
                <span class="tile-value">
                  {count.value}
                  {count.value === LIST_LIMIT ? '+' : ''}
                </span>
                <span class="tile-label">{count.label}</span>
                <span class="tile-detail">{count.detail}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {data && data.owners.length === 0 && api.mode === 'test' && (
        <Section title="Nothing here yet" id="getting-started">
          <p>
            Create objects with the SDK or the API using this key, or add an example: a funded {ownerNoun}, an agent, a card whose
            intents need approval, one approved payment and one intent waiting for you in Approvals.
          </p>
          <button
            type="button"
            disabled={example.busy !== undefined}
            onClick={() => example.run('adding example data', () => api.createExample(), 'Example data added: see Approvals.')}
          >
            Add example data
          </button>
          <ActionStatus action={example} />
        </Section>
      )}
      <div class="columns">
        <Section title="Balances" id="balances">
          {data && (
            <ResourceTable
              list={{ data: data.balances, error: undefined }}
              empty={`No ${ownerNoun}s yet.`}
              label="Balances"
              caption={`Balances of the ${data.balances.length} newest ${ownerNoun}s, in dollars`}
              columns={[ownerNoun === 'user' ? 'User' : 'Customer', ...BALANCE_COLUMNS]}
              row={({ owner, balance }) => (
                <tr key={owner.id}>
                  <th scope="row">
                    {ownerName(owner)}
                    {ownerName(owner) !== owner.email && <span class="sub">{owner.email}</span>}
                  </th>
                  <BalanceCells balance={balance} />
                </tr>
              )}
              footer={
                <tr>
                  <th scope="row">Total</th>
                  <BalanceCells balance={totals} />
                </tr>
              }
            />
          )}
        </Section>
        <Section title="Test clock" id="clock-summary" actions={<a href={href('clock')}>Advance it</a>}>
          <ClockSummary />
        </Section>
      </div>
    </Page>
  );
}
