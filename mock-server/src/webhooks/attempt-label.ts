import type { WorkLabel } from '../core/scheduler.js';

const PREFIX = 'webhook delivery ';

/** The label of a delivery's attempt as scheduled work and as tracked I/O (core/scheduler.ts's `WorkLabel`). */
export function attemptLabel(deliveryId: string): WorkLabel {
  return `${PREFIX}${deliveryId}`;
}

/** The deliveries among labels of unfinished work (what an advance that stopped waiting reports), each once. */
export function deliveriesAmong(labels: readonly WorkLabel[]): string[] {
  return [...new Set(labels.filter((label) => label.startsWith(PREFIX)).map((label) => label.slice(PREFIX.length)))];
}
