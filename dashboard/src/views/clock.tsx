import { useEffect, useState } from 'preact/hooks';
import type { Clock, DashboardEvent } from '../api.js';
import { formatDuration } from '../format.js';
import { useAction, useApi, useFeed, useQuery } from '../hooks.js';
import { ActionStatus, Empty, ErrorNotice, Id, Loading, Page, Section, SelectField, TextField, Time } from '../ui.js';

const UNITS = [
  { name: 'minutes', seconds: 60 },
  { name: 'hours', seconds: 3_600 },
  { name: 'days', seconds: 86_400 },
] as const;

const QUICK = [
  { label: '+5 minutes', seconds: 300 },
  { label: '+1 hour', seconds: 3_600 },
  { label: '+1 day', seconds: 86_400 },
  { label: '+30 days', seconds: 30 * 86_400 },
];

/** The largest advance the API takes (ten years). */
const MAX_SECONDS = 315_360_000;

/** The clock's time now: it runs with wall time unless frozen, so the page counts on between reads. */
function useTicking(clock: Clock | undefined, readAt: number): number | undefined {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!clock || clock.frozen) return;
    const timer = setInterval(() => setNow(Date.now()), 1_000);
    return () => clearInterval(timer);
  }, [clock]);
  if (!clock) return undefined;
  return Date.parse(clock.now) + (clock.frozen ? 0 : Math.max(0, now - readAt));
}

interface Advanced {
  from: string;
  to: string;
  seconds: number;
  /** The events the due work produced during the advance, oldest first. */
  ran: DashboardEvent[];
}

export function ClockView() {
  const api = useApi();
  const feed = useFeed();
  const [readAt, setReadAt] = useState(() => Date.now());
  const clock = useQuery(
    async (client) => {
      const read = await client.clock();
      setReadAt(Date.now());
      return read;
    },
    [],
    // Due work that ran (or another client's advance) shows as events.
    ['*'],
  );
  const now = useTicking(clock.data, readAt);
  const action = useAction();
  const [amount, setAmount] = useState('1');
  const [unit, setUnit] = useState<(typeof UNITS)[number]['name']>('hours');
  const [problem, setProblem] = useState<string | undefined>();
  const [advanced, setAdvanced] = useState<Advanced | undefined>();

  const advance = async (seconds: number) => {
    if (!Number.isInteger(seconds) || seconds < 1 || seconds > MAX_SECONDS) {
      setProblem('Advance by a whole number of seconds from 1 to ten years.');
      return;
    }
    setProblem(undefined);
    // The newest event before the advance: everything after it is what the advance ran.
    await feed.poll();
    const before = feed.events[0]?.id ?? null;
    const from = clock.data?.now;
    const after = await action.run(
      `advancing by ${formatDuration(seconds)}`,
      async () => {
        const moved = await api.advanceClock(seconds);
        return { moved, ran: (await api.eventsSince(before)).reverse() };
      },
      ({ ran }) => `Advanced by ${formatDuration(seconds)}: ${ran.length === 0 ? 'nothing was due' : `${ran.length} events`}.`,
    );
    if (after) {
      setAdvanced({ from: from ?? after.moved.now, to: after.moved.now, seconds, ran: after.ran });
      clock.reload();
    }
  };

  if (api.mode === 'live') {
    return (
      <Page title="Test clock">
        <p>Live mode has no test clock: time is real time. Sign in with a test key to move time.</p>
      </Page>
    );
  }

  return (
    <Page
      title="Test clock"
      intro="This organization's own clock. Advancing it runs everything that falls due on the way, in time order: card time-to-live, intent expiry, webhook retries."
    >
      <Section title="Now" id="clock-now">
        <ErrorNotice error={clock.error} />
        {!clock.data && !clock.error && <Loading what="the clock" />}
        {clock.data && now !== undefined && (
          <dl class="facts">
            <dt>Test clock</dt>
            <dd class="big">
              <Time value={now} />
            </dd>
            <dt>Runs</dt>
            <dd>{clock.data.frozen ? 'frozen: only advances move it' : 'with wall time, plus what was advanced'}</dd>
            <dt>Advanced so far</dt>
            <dd>{formatDuration(clock.data.offsetSeconds)}</dd>
          </dl>
        )}
      </Section>
      <Section title="Advance" id="clock-advance">
        <div class="row quick">
          {QUICK.map((choice) => (
            <button
              key={choice.label}
              type="button"
              class="secondary"
              disabled={action.busy !== undefined}
              onClick={() => advance(choice.seconds)}
            >
              {choice.label}
            </button>
          ))}
        </div>
        <form
          class="grid-form"
          onSubmit={(event) => {
            event.preventDefault();
            const size = UNITS.find((candidate) => candidate.name === unit)?.seconds ?? 1;
            void advance(Math.round(Number(amount) * size));
          }}
          noValidate
        >
          <TextField id="advance-amount" label="Advance by" inputMode="decimal" value={amount} onValue={setAmount} />
          <SelectField id="advance-unit" label="Unit" value={unit} onValue={setUnit}>
            {UNITS.map((choice) => (
              <option key={choice.name} value={choice.name}>
                {choice.name}
              </option>
            ))}
          </SelectField>
          {problem && (
            <p class="notice notice-error" role="alert">
              {problem}
            </p>
          )}
          <button type="submit" disabled={action.busy !== undefined}>
            Advance the clock
          </button>
        </form>
        <ActionStatus action={action} />
      </Section>
      {advanced && (
        <Section title="What ran during the last advance" id="clock-ran">
          <p>
            From <Time value={advanced.from} /> to <Time value={advanced.to} /> ({formatDuration(advanced.seconds)}).
          </p>
          {advanced.ran.length === 0 ? (
            <Empty>Nothing fell due.</Empty>
          ) : (
            <ol class="events" aria-label="Events of the advance">
              {advanced.ran.map((event) => (
                <li key={event.id}>
                  <code class="event-type">{event.type}</code> <Time value={event.createdAt} /> {describeSubject(event)}
                </li>
              ))}
            </ol>
          )}
        </Section>
      )}
    </Page>
  );
}

/** The object an event is about, from the ids its data carries. */
function describeSubject(event: DashboardEvent) {
  for (const field of ['intentId', 'cardId', 'transactionId', 'agentId', 'userId']) {
    const value = event.data[field];
    if (typeof value === 'string') return <Id value={value} />;
  }
  return null;
}
