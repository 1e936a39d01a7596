// The approval card as a person sees it: the purchase and what they need to decide on it, in the words the dashboard's
// page of an intent uses too (intent-words.ts), then Approve and Reject while the intent waits, or what became of it.
import type { Intent } from '@cardrail/sdk';
import type { ApprovalCardFacts } from '../card-facts.js';
import {
  evaluationWords,
  FACT_LABELS,
  formatMoney,
  formatTime,
  outcomeWords,
  spendableWords,
  statusWords,
  toleranceWords,
} from '../intent-words.js';
import { fill, h } from './dom.js';

/** What the card knows: the intent from the tool's result, then the rest from the card's reads. */
export interface CardState {
  /** Until the host relays the tool's result. */
  intent: Intent | undefined;
  facts: ApprovalCardFacts | undefined;
  /** Whether the card may decide (the server gave it this intent's capability). */
  canDecide: boolean;
  /** What is being sent, while it is. */
  busy: 'approve' | 'reject' | undefined;
  /** Something went wrong that the person should know (role="alert"). */
  error: string | undefined;
  /** The tool failed: what it said. */
  failure: string | undefined;
}

export interface CardActions {
  approve(): void;
  reject(reason: string): void;
  /** Asks the host to open the intent's approval page (a card that cannot decide itself). */
  openPage(url: string): void;
}

function headingOf(state: CardState): string {
  const intent = state.intent;
  if (state.failure !== undefined) return 'The purchase could not be declared';
  if (intent === undefined) return 'Loading the purchase…';
  if (intent.status === 'pending_approval') return 'Approve this purchase?';
  if (intent.approvedAt) return 'Purchase approved';
  if (intent.status === 'rejected') return 'Purchase rejected';
  if (intent.status === 'expired') return 'Purchase expired';
  return 'Purchase';
}

function fact(label: string, ...value: (Node | string | null)[]): Node[] {
  return [h('dt', {}, label), h('dd', {}, ...value)];
}

function facts(intent: Intent, known: ApprovalCardFacts | undefined): Node {
  const list = h('dl', { class: 'facts' });
  const money = (cents: number) => formatMoney(cents, intent.currency);
  const loading = known === undefined ? 'loading…' : 'unknown';
  const evaluation = known?.evaluation ? evaluationWords(known.evaluation) : undefined;
  list.append(
    ...fact(
      FACT_LABELS.amount,
      h('strong', {}, money(intent.expectedAmount)),
      ' ',
      h('span', { class: 'help' }, toleranceWords(intent)),
    ),
    ...fact(FACT_LABELS.merchant, intent.expectedMerchant ?? 'any merchant (none was declared)'),
    ...fact(FACT_LABELS.agent, known?.agent ? known.agent.name : (intent.agentId ?? loading)),
    ...fact(
      FACT_LABELS.owner,
      known?.owner
        ? known.owner.name === known.owner.email
          ? known.owner.email
          : `${known.owner.name} (${known.owner.email})`
        : loading,
    ),
    ...fact(FACT_LABELS.card, known?.card ? `•••• ${known.card.last4 ?? '????'}` : loading),
    ...fact(FACT_LABELS.spendable, known?.spendable ? spendableWords(known.spendable, intent.currency) : loading),
    ...fact(
      FACT_LABELS.ifPaidNow,
      evaluation ? evaluation.verdict : loading,
      evaluation && evaluation.reasons.length > 0
        ? h('ul', { class: 'reasons' }, ...evaluation.reasons.map((reason) => h('li', {}, reason)))
        : null,
    ),
    ...fact(FACT_LABELS.expires, formatTime(intent.expiresAt)),
  );
  return list;
}

/** The answers, built once and kept while the intent waits, so that a reason being typed survives every update. */
function answers(actions: CardActions): HTMLElement {
  const reason = h('input', { id: 'reason', type: 'text', autocomplete: 'off', 'aria-describedby': 'reason-help' });
  const approve = h('button', { type: 'button', class: 'approve' }, 'Approve');
  const reject = h('button', { type: 'button', class: 'reject' }, 'Reject');
  approve.addEventListener('click', () => actions.approve());
  reject.addEventListener('click', () => actions.reject(reason.value.trim()));
  return h(
    'div',
    { class: 'answers' },
    approve,
    h(
      'div',
      { class: 'reject-with-reason' },
      h('label', { for: 'reason' }, 'Reason for rejection (optional)'),
      reason,
      reject,
      h('span', { id: 'reason-help', class: 'help' }, 'Shown to the agent with the rejection.'),
    ),
  );
}

/** The card's regions, made once; `update` fills them from each new state. */
export function mountCard(root: HTMLElement, actions: CardActions): (state: CardState) => void {
  const title = h('h1', { id: 'card-title' });
  const summary = h('p', { class: 'summary' });
  const details = h('div', { class: 'details' });
  const outcome = h('p', { class: 'outcome', role: 'status' });
  const error = h('p', { class: 'error', role: 'alert' });
  const slot = h('div', { class: 'answer-slot' });
  let answering: HTMLElement | undefined;
  fill(root, h('main', { class: 'card', 'aria-labelledby': 'card-title' }, title, summary, details, outcome, slot, error));

  return (state) => {
    title.textContent = headingOf(state);
    const intent = state.intent;
    fill(
      summary,
      intent ? h('strong', {}, intent.summary) : null,
      intent ? h('span', { class: `status status-${intent.status}` }, statusWords(intent)) : null,
    );
    fill(details, intent ? facts(intent, state.facts) : null);
    outcome.textContent = state.failure ?? (intent ? (outcomeWords(intent) ?? '') : '');
    outcome.hidden = outcome.textContent === '';
    error.textContent = state.error ?? '';
    error.hidden = state.error === undefined;
    const waits = intent?.status === 'pending_approval' && state.canDecide && state.facts !== undefined;
    if (waits && answering === undefined) {
      answering = answers(actions);
      fill(slot, answering);
    } else if (!waits && answering !== undefined) {
      answering = undefined;
      fill(slot);
    }
    if (!waits && intent?.status === 'pending_approval' && !state.canDecide && intent.approvalUrl) {
      const page = intent.approvalUrl;
      const open = h('button', { type: 'button' }, 'Open the approval page');
      open.addEventListener('click', () => actions.openPage(page));
      fill(slot, h('p', { class: 'help' }, 'This card cannot decide here: a person decides on the approval page.'), open);
    }
    for (const button of answering?.querySelectorAll('button') ?? []) {
      button.disabled = state.busy !== undefined;
      button.textContent = button.classList.contains('approve')
        ? state.busy === 'approve'
          ? 'Approving…'
          : 'Approve'
        : state.busy === 'reject'
          ? 'Rejecting…'
          : 'Reject';
    }
  };
}
