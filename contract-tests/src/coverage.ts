import { ENVELOPE_OF, VARIANTS, type SpecIndex, type Variant } from './spec.js';

export type Envelope = 'general' | 'catalog';

/** What one suite saw, in a form that survives being written to JSON and merged with other suites. */
export interface CoverageData {
  suite: string;
  /** `${variant} ${operationId}` -> statuses seen. */
  operations: Record<string, string[]>;
  events: Record<Envelope, string[]>;
  /** Named totals a suite reports, e.g. how many fuzz cases it ran. */
  counters: Record<string, number>;
}

/** Operations x status codes and event types per envelope seen in one suite. */
export class Coverage {
  readonly #operations = new Map<string, Set<string>>();
  readonly #events: Record<Envelope, Set<string>> = { general: new Set(), catalog: new Set() };
  readonly #counters = new Map<string, number>();

  constructor(readonly suite: string) {}

  addResponse(variant: Variant, operationId: string, status: number): void {
    const key = `${variant} ${operationId}`;
    let seen = this.#operations.get(key);
    if (!seen) {
      seen = new Set();
      this.#operations.set(key, seen);
    }
    seen.add(String(status));
  }

  addEvent(envelope: Envelope, type: string): void {
    this.#events[envelope].add(type);
  }

  count(name: string, by = 1): void {
    this.#counters.set(name, (this.#counters.get(name) ?? 0) + by);
  }

  counter(name: string): number {
    return this.#counters.get(name) ?? 0;
  }

  statusesSeen(variant: Variant, operationId: string): Set<string> {
    return this.#operations.get(`${variant} ${operationId}`) ?? new Set();
  }

  eventsSeen(envelope: Envelope): Set<string> {
    return this.#events[envelope];
  }

  /** Operations never answered and event types never delivered, for the given variants of the spec. */
  missing(
    specs: Record<Variant, SpecIndex>,
    variants: readonly Variant[] = VARIANTS,
  ): { operations: string[]; events: string[] } {
    const operations: string[] = [];
    const events: string[] = [];
    for (const variant of variants) {
      for (const op of specs[variant].operations) {
        if (!this.#operations.has(`${variant} ${op.operationId}`))
          operations.push(`${variant} ${op.operationId} (${op.method.toUpperCase()} ${op.path})`);
      }
      const envelope = ENVELOPE_OF[variant];
      for (const type of specs[variant].events.keys()) {
        if (!this.#events[envelope].has(type)) events.push(`${envelope} ${type}`);
      }
    }
    return { operations, events };
  }

  toJSON(): CoverageData {
    return {
      suite: this.suite,
      operations: Object.fromEntries([...this.#operations].map(([key, statuses]) => [key, [...statuses].sort()])),
      events: { general: [...this.#events.general].sort(), catalog: [...this.#events.catalog].sort() },
      counters: Object.fromEntries(this.#counters),
    };
  }
}
