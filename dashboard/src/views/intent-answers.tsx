// The two answers to an intent waiting for a person, Approve and Reject (with an optional reason): on the Approvals
// view for each waiting intent, and on an intent's own page.
import { useState } from 'preact/hooks';
import type { Intent } from '../api.js';
import { type Action, useApi } from '../hooks.js';

export function IntentAnswers(props: { intent: Intent; action: Action; onAnswered(): void }) {
  const api = useApi();
  const { intent, action } = props;
  const [reason, setReason] = useState('');
  const busy = action.busy !== undefined;
  const reasonId = `reason-${intent.id}`;
  return (
    <div class="decide">
      <button
        type="button"
        disabled={busy}
        onClick={() =>
          action
            .run(`approving ${intent.summary}`, () => api.approveIntent(intent.id), `Approved: ${intent.summary}.`)
            .then(props.onAnswered)
        }
      >
        Approve
      </button>
      <div class="reject">
        <label for={reasonId}>Reason for rejection (optional)</label>
        <input
          id={reasonId}
          type="text"
          maxLength={500}
          value={reason}
          onInput={(event) => setReason((event.target as HTMLInputElement).value)}
        />
        <button
          type="button"
          class="danger"
          disabled={busy}
          onClick={() =>
            action
              .run(
                `rejecting ${intent.summary}`,
                () => api.rejectIntent(intent.id, reason.trim()),
                `Rejected: ${intent.summary}.`,
              )
              .then(props.onAnswered)
          }
        >
          Reject
        </button>
      </div>
    </div>
  );
}
