// The page's small set of building blocks: headings that take focus on navigation, tables that scroll on a phone,
// lists as the API loaded them, statuses, errors, secrets shown once, and buttons that ask before doing something final.
import type { ComponentChildren, VNode } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { formatTime } from './format.js';
import { type Action, describeError } from './hooks.js';

/** A view: its heading takes the focus when it opens, so keyboard and screen-reader users start at the top. */
export function Page(props: { title: string; intro?: ComponentChildren; children: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus({ preventScroll: false }), []);
  return (
    <section class="page" aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1} ref={heading}>
        {props.title}
      </h1>
      {props.intro && <p class="intro">{props.intro}</p>}
      {props.children}
    </section>
  );
}

export function Section(props: { title: string; id: string; children: ComponentChildren; actions?: ComponentChildren }) {
  return (
    <section class="panel" aria-labelledby={props.id}>
      <div class="panel-head">
        <h2 id={props.id}>{props.title}</h2>
        {props.actions}
      </div>
      {props.children}
    </section>
  );
}

/** A table in a region that scrolls sideways on a narrow screen, reachable with the keyboard. */
function TableWrap(props: { label: string; children: ComponentChildren }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be focusable to scroll by keyboard.
    <section class="table-wrap" aria-label={props.label} tabIndex={0}>
      <table>{props.children}</table>
    </section>
  );
}

const TONES: Record<string, string> = {
  active: 'good',
  succeeded: 'good',
  completed: 'good',
  matched: 'good',
  approved: 'good',
  approve: 'good',
  review: 'warn',
  decline: 'bad',
  pending: 'info',
  pending_approval: 'warn',
  open: 'warn',
  frozen: 'warn',
  suspended: 'warn',
  paused: 'warn',
  needsInformation: 'warn',
  declined: 'bad',
  rejected: 'bad',
  failed: 'bad',
  mismatched: 'bad',
  denied: 'bad',
  closed: 'muted',
  expired: 'muted',
  reversed: 'muted',
  revoked: 'muted',
  disabled: 'muted',
  deleted: 'muted',
};

export function Status(props: { value: string }) {
  return <span class={`status tone-${TONES[props.value] ?? 'info'}`}>{props.value.replace(/_/g, ' ')}</span>;
}

/**
 * An intent's status as a person reads it: a `pending` intent a person approved reads `approved` (it may be spent),
 * one that needed nobody `pending`.
 */
export function IntentStatus(props: { intent: { status: string; approvedAt: string | null } }) {
  const { status, approvedAt } = props.intent;
  return <Status value={status === 'pending' && approvedAt ? 'approved' : status} />;
}

/**
 * An object's id: secondary to its name, on one line (never wrapped mid-id), copied whole by its button (none with
 * `copy={false}`, inside a control such as a `<summary>`, which may hold no other).
 */
export function Id(props: { value: string | null | undefined; copy?: boolean }) {
  if (!props.value) return <span class="muted">—</span>;
  return (
    <span class="id-line">
      <code class="id">{props.value}</code>
      {props.copy !== false && <CopyButton value={props.value} />}
    </span>
  );
}

// Drawn in the page: no font on the machine has to hold a copy glyph.
const CopyIcon = () => (
  <svg class="icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
    <rect x="5" y="5" width="8.5" height="8.5" rx="1.5" />
    <path d="M10.5 5V3.5A1.5 1.5 0 0 0 9 2H3.5A1.5 1.5 0 0 0 2 3.5V9a1.5 1.5 0 0 0 1.5 1.5H5" />
  </svg>
);
const CheckIcon = () => (
  <svg class="icon" viewBox="0 0 16 16" aria-hidden="true" focusable="false">
    <path d="M3 8.5l3 3 7-7" />
  </svg>
);

function CopyButton(props: { value: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () =>
    navigator.clipboard.writeText(props.value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  return (
    <button type="button" class="copy" onClick={copy} onBlur={() => setCopied(false)}>
      {copied ? <CheckIcon /> : <CopyIcon />}
      <span class="visually-hidden">{copied ? `Copied ${props.value}` : `Copy ${props.value}`}</span>
    </button>
  );
}

export function Time(props: { value: string | number | null | undefined }) {
  if (props.value === null || props.value === undefined) return <span class="muted">—</span>;
  const iso = new Date(props.value).toISOString();
  return <time dateTime={iso}>{formatTime(props.value)}</time>;
}

export function ErrorNotice(props: { error: unknown }) {
  if (props.error === undefined || props.error === null) return null;
  return (
    <p class="notice notice-error" role="alert">
      {describeError(props.error)}
    </p>
  );
}

/** What an action did or why it failed, announced to screen readers. */
export function ActionStatus(props: { action: Action }) {
  const { error, done, busy } = props.action;
  return (
    <div class="action-status" role="status" aria-live="polite">
      {busy && <p class="notice">Working: {busy}…</p>}
      {done && <p class="notice notice-ok">{done}</p>}
      <ErrorNotice error={error} />
    </div>
  );
}

export function Loading(props: { what: string }) {
  return <p class="muted">Loading {props.what}…</p>;
}

export function Empty(props: { children: ComponentChildren }) {
  return <p class="empty">{props.children}</p>;
}

/** A list as the API loaded it: what a `useQuery` answers (or a part of it), nothing until the first load ends. */
export interface LoadedList<T> {
  data: readonly T[] | undefined;
  error: unknown;
}

/**
 * The states of a loaded list: its error, a loading line until it arrives ("Loading `what`…"; none without `what`,
 * where the page says so itself), the empty text when it came back empty, else what `render` makes of the items.
 */
export function ListStates<T>(props: {
  list: LoadedList<T>;
  what?: string;
  empty: ComponentChildren;
  render(items: readonly T[]): ComponentChildren;
}) {
  const { data, error } = props.list;
  return (
    <>
      <ErrorNotice error={error} />
      {!data && !error && props.what && <Loading what={props.what} />}
      {data?.length === 0 && <Empty>{props.empty}</Empty>}
      {data && data.length > 0 && props.render(data)}
    </>
  );
}

/** A column of a table: its heading, and whether it holds amounts (aligned right, as its cells must be). */
export type Column = string | { heading: string; numeric: true };

/**
 * A loaded list as a table (see ListStates for the states around it): a heading per column, `row` for each item
 * (a `<tr>` with its key, whose first cell is the row's `<th scope="row">`), and optionally a caption for screen
 * readers (hidden on screen) and the rows of a footer.
 */
export function ResourceTable<T>(props: {
  list: LoadedList<T>;
  what?: string;
  empty: ComponentChildren;
  /** The table's name for screen readers (its scrolling region's label). */
  label: string;
  columns: readonly Column[];
  row(item: T): VNode;
  caption?: ComponentChildren;
  footer?: ComponentChildren;
}) {
  return (
    <ListStates
      list={props.list}
      what={props.what}
      empty={props.empty}
      render={(items) => (
        <TableWrap label={props.label}>
          {props.caption && <caption class="visually-hidden">{props.caption}</caption>}
          <thead>
            <tr>
              {props.columns.map((column) =>
                typeof column === 'string' ? (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ) : (
                  <th key={column.heading} scope="col" class="num">
                    {column.heading}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody>{items.map(props.row)}</tbody>
          {props.footer && <tfoot>{props.footer}</tfoot>}
        </TableWrap>
      )}
    />
  );
}

export function Json(props: { value: unknown; label: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a long payload scrolls, and must be reachable by keyboard.
    <pre class="json" tabIndex={0} title={props.label}>
      {JSON.stringify(props.value, null, 2)}
    </pre>
  );
}

/** A labelled text box of a form; `help`, shown under it, is read along with it. */
export function TextField(props: {
  id: string;
  label: string;
  value: string;
  onValue(value: string): void;
  help?: ComponentChildren;
  type?: 'text' | 'url';
  inputMode?: 'decimal' | 'numeric';
  maxLength?: number;
  placeholder?: string;
  required?: boolean;
}) {
  const { id, label, value, onValue, help, ...input } = props;
  const helpId = help ? `${id}-help` : undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input
        id={id}
        {...input}
        aria-describedby={helpId}
        value={value}
        onInput={(event) => onValue((event.target as HTMLInputElement).value)}
      />
      {help && (
        <span id={helpId} class="help">
          {help}
        </span>
      )}
    </div>
  );
}

/** A labelled choice of a form among its `<option>` children. */
export function SelectField<V extends string>(props: {
  id: string;
  label: string;
  value: V;
  onValue(value: NoInfer<V>): void;
  /** Two columns of a form's grid wide, for options that name things (a card and its agent). */
  wide?: boolean;
  children: ComponentChildren;
}) {
  return (
    <div class={props.wide ? 'field field-wide' : 'field'}>
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value}
        onChange={(event) => props.onValue((event.target as HTMLSelectElement).value as V)}
      >
        {props.children}
      </select>
    </div>
  );
}

/** A secret the API shows once (a key, a signing secret): visible here until dismissed, never stored. */
export function OneTimeSecret(props: { label: string; value: string; onDismiss(): void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  return (
    <section class="secret" aria-label={props.label}>
      <p>
        <strong>{props.label}</strong>: shown once, copy it now. The API will not show it again.
      </p>
      <code class="secret-value">{props.value}</code>
      <div class="row">
        <button type="button" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" class="secondary" onClick={props.onDismiss}>
          Done
        </button>
      </div>
    </section>
  );
}

/** A button that shows or hides the panel `controls` (by its id), telling screen readers which it is. */
export function DisclosureButton(props: { open: boolean; controls: string; onToggle(): void; children: ComponentChildren }) {
  return (
    <button type="button" class="secondary" aria-expanded={props.open} aria-controls={props.controls} onClick={props.onToggle}>
      {props.children}
    </button>
  );
}

/** A button for something that cannot be undone: the first press asks, the second does it. */
export function ConfirmButton(props: {
  label: string;
  confirm: string;
  /** What the button acts on, for screen readers (the row's visible name). */
  context?: string;
  disabled?: boolean;
  onConfirm(): void;
}) {
  const [asking, setAsking] = useState(false);
  const confirmButton = useRef<HTMLButtonElement>(null);
  // The first button is replaced by the question: the focus follows, so the keyboard stays where it was.
  useEffect(() => {
    if (asking) confirmButton.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" class="danger" disabled={props.disabled} onClick={() => setAsking(true)}>
        {props.label}
        {props.context && <span class="visually-hidden"> {props.context}</span>}
      </button>
    );
  }
  return (
    <span class="confirm">
      <button
        type="button"
        class="danger"
        ref={confirmButton}
        disabled={props.disabled}
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {props.confirm}
        {props.context && <span class="visually-hidden"> {props.context}</span>}
      </button>
      <button type="button" class="secondary" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
