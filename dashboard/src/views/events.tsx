import { useState } from 'preact/hooks';
import { POLL_INTERVAL_MS } from '../live.js';
import { useApi, useQuery } from '../hooks.js';
import { Id, Json, ListStates, Page, Time } from '../ui.js';

/** How many events the view lists: the newest. */
const SHOWN = 50;

export function EventsView() {
  const api = useApi();
  const [type, setType] = useState('');
  // Reloaded whenever the feed brings any event; filtered by the API (`GET /events?type=`), so older ones show too.
  const events = useQuery((client) => client.events(type || undefined, SHOWN), [type], ['*']);

  return (
    <Page
      title="Events"
      intro={`Everything that happens, newest first, as GET /events answers in this variant's envelope (checked every ${POLL_INTERVAL_MS / 1000} s). Open an event to see its payload.`}
    >
      <div class="toolbar">
        <label for="event-type">Type</label>
        <select id="event-type" value={type} onChange={(event) => setType((event.target as HTMLSelectElement).value)}>
          <option value="">every type</option>
          {api.eventTypes.map((name) => (
            <option key={name} value={name}>
              {name}
            </option>
          ))}
        </select>
      </div>
      <ListStates
        list={events}
        what="events"
        empty={<>No {type ? <code>{type}</code> : ''} events yet.</>}
        render={(items) => (
          <ol class="events" aria-label={type ? `${type} events` : 'Events'}>
            {items.map((event) => (
              <li key={event.id}>
                <details>
                  <summary>
                    <code class="event-type">{event.type}</code> <Time value={event.createdAt} />{' '}
                    <Id value={event.id} copy={false} />
                  </summary>
                  <Json value={event.data} label={`Payload of ${event.type} ${event.id}`} />
                </details>
              </li>
            ))}
          </ol>
        )}
      />
    </Page>
  );
}
