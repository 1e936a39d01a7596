import type { FunctionComponent } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { DashboardApi, type Session } from './api.js';
import { ApiContext, describeError, FeedContext, useQuery } from './hooks.js';
import { EventFeed } from './live.js';
import { href, useRoute } from './router.js';
import { AgentsView } from './views/agents.js';
import { ApiKeysView } from './views/api-keys.js';
import { ApprovalView } from './views/approval.js';
import { ApprovalsView } from './views/approvals.js';
import { CardsView } from './views/cards.js';
import { ClockView } from './views/clock.js';
import { EventsView } from './views/events.js';
import { OverviewView } from './views/overview.js';
import { OwnersView } from './views/owners.js';
import { TransactionsView } from './views/transactions.js';
import { WebhooksView } from './views/webhooks.js';

interface Route {
  path: string;
  label: (api: DashboardApi) => string;
  view: FunctionComponent;
}

const ROUTES: Route[] = [
  { path: 'overview', label: () => 'Overview', view: OverviewView },
  { path: 'owners', label: (api) => (api.ownerNoun === 'user' ? 'Users' : 'Customers'), view: OwnersView },
  { path: 'agents', label: () => 'Agents', view: AgentsView },
  { path: 'cards', label: () => 'Cards', view: CardsView },
  { path: 'approvals', label: () => 'Approvals', view: ApprovalsView },
  { path: 'transactions', label: () => 'Transactions', view: TransactionsView },
  { path: 'events', label: () => 'Events', view: EventsView },
  { path: 'webhooks', label: () => 'Webhooks', view: WebhooksView },
  { path: 'clock', label: () => 'Test clock', view: ClockView },
  { path: 'api-keys', label: () => 'API keys', view: ApiKeysView },
];

/** The number of intents waiting for a person, beside the Approvals link. */
function PendingCount() {
  const pending = useQuery((api) => api.intents('pending_approval'), [], ['intent.']);
  const count = pending.data?.length ?? 0;
  if (count === 0) return null;
  return (
    <span class="count">
      {count}
      <span class="visually-hidden"> waiting</span>
    </span>
  );
}

/** A failing poll (a revoked key, a stopped server) is said once, above every view. */
function FeedProblem(props: { feed: EventFeed }) {
  const [error, setError] = useState<unknown>(props.feed.error);
  useEffect(() => props.feed.subscribe(() => setError(props.feed.error)), [props.feed]);
  if (error === undefined) return null;
  return (
    <p class="notice notice-error banner" role="alert">
      Live updates stopped: {describeError(error)}
    </p>
  );
}

/** Everything a signed-in key sees. Signing in with another key mounts a new shell: nothing of the old one is kept. */
export function Shell(props: { session: Session; onSignOut(): void }) {
  const api = useMemo(() => new DashboardApi(props.session), [props.session]);
  const feed = useMemo(() => new EventFeed(api), [api]);
  useEffect(() => {
    feed.start();
    return () => feed.stop();
  }, [feed]);
  const address = useRoute();
  const route = ROUTES.find((candidate) => candidate.path === address.view) ?? ROUTES[0];
  const View = route?.view ?? OverviewView;
  // An intent's own page (its approvalUrl): `#/approvals/int_...`.
  const intentId = route?.path === 'approvals' ? address.id : undefined;

  return (
    <ApiContext.Provider value={api}>
      <FeedContext.Provider value={feed}>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <div class="brand">
            <span class="logo" aria-hidden="true">
              ◆
            </span>{' '}
            Cardrail mock
          </div>
          <div class="who">
            <span class={`mode mode-${api.mode}`}>{api.mode === 'live' ? 'Live mode' : 'Test mode'}</span>
            <span class="variant">{api.variant === 'user' ? 'User variant' : 'Customer variant'}</span>
            <code class="id" title="The signed-in key">
              {api.signedInAs}
            </code>
            <button type="button" class="secondary" onClick={props.onSignOut}>
              Sign out
            </button>
          </div>
        </header>
        <nav class="side" aria-label="Views">
          <ul>
            {ROUTES.map((candidate) => (
              <li key={candidate.path}>
                <a href={href(candidate.path)} aria-current={candidate === route ? 'page' : undefined}>
                  {candidate.label(api)}
                  {candidate.path === 'approvals' && <PendingCount />}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          <FeedProblem feed={feed} />
          {intentId ? <ApprovalView key={`approval:${intentId}`} intentId={intentId} /> : <View key={route?.path} />}
        </main>
      </FeedContext.Provider>
    </ApiContext.Provider>
  );
}
