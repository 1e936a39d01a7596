import type { Mode } from '../core/event-types.js';
import type { Directory } from '../core/directory.js';
import type { Tenant } from '../core/tenant.js';
import type { Variant } from '../core/variant.js';
import { eventNaming } from '../core/event-naming.js';
import { codecs } from '../variants/index.js';
import type { WireEvent, WireEventOfType, WireEventType } from '../operations/wire-event.js';

/** An event as each variant sends it (a contract of operations/), for the remote test kit (adapters/connect-mock.ts). */
export type { WireEvent };

/** Which events `mock.events.list` returns: those that meet every condition given. */
export interface EventQuery<Type extends WireEventType = WireEventType> {
  /** Only events of the organization and mode of this key. */
  apiKey?: string;
  /** Only events of this organization (`org_...`), in both modes unless `mode` is given. */
  organizationId?: string;
  /** Only events caused by keys of this mode. */
  mode?: Mode;
  /** The event type as the organization's variant names it (`transaction.created` in the customer variant). */
  type?: Type;
  /**
   * The variant whose names and envelope to answer in. Default: each organization's own, the variant it was first
   * used through (what its `GET /events` answers).
   */
  variant?: Variant;
}

/** Where an event observed in-process belongs. */
export interface EventSource {
  /** The organization (`org_...`) whose request or due work caused the event. */
  organizationId: string;
  /** The mode of that organization's keys the event belongs to. */
  mode: Mode;
  /** The organization's variant: the names and envelope the event was rendered in. */
  variant: Variant;
}

/** Every event of the mock, as each organization's variant sends it: for assertions in tests. */
export interface ServerEvents {
  /** Matching events, oldest first, in each organization's variant (or `variant`) envelope and names. */
  list<Type extends WireEventType = WireEventType>(query?: EventQuery<Type>): WireEventOfType<Type>[];
  /** Called with every event as it is stored, in its organization's variant; returns the unsubscribe function. */
  subscribe(listener: (event: WireEvent, source: EventSource) => void): () => void;
}

/**
 * The rendered envelope of a stored event whose type the variant has (the stored data was typed by its type when it
 * was emitted): a member of WireEvent by construction, which TypeScript cannot follow through the name lookup.
 */
function asWireEvent(envelope: unknown): WireEvent {
  return envelope as WireEvent;
}

/** The in-process view of events, in the names and envelope of each organization's variant. */
export function createServerEvents(
  directory: () => Directory,
): ServerEvents & { notify(tenant: Tenant, event: Parameters<typeof codecs.customer.renderEvent>[0]): void } {
  const observers = new Set<(event: WireEvent, source: EventSource) => void>();
  return {
    list<Type extends WireEventType>(query: EventQuery<Type> = {}) {
      let tenants = [...directory().tenants()];
      if (query.apiKey !== undefined) {
        const tenant = directory().authenticate(query.apiKey)?.tenant;
        tenants = tenant ? [tenant] : [];
      }
      const found: { at: number; event: WireEvent }[] = [];
      for (const tenant of tenants) {
        if (query.organizationId !== undefined && tenant.organizationId !== query.organizationId) continue;
        if (query.mode !== undefined && tenant.mode !== query.mode) continue;
        const variant = query.variant ?? directory().variantOf(tenant.organizationId);
        let where: Record<string, string> = { [variant]: 'visible' };
        if (query.type !== undefined) {
          const stored = eventNaming.storedTypeOf(variant, query.type);
          if (stored === undefined) continue;
          where = { type: stored };
        }
        const newestFirst = [...tenant.events.events.values(where)];
        for (let i = newestFirst.length - 1; i >= 0; i--) {
          const stored = newestFirst[i];
          const rendered = stored && codecs[variant].renderEvent(stored);
          if (stored && rendered) found.push({ at: stored.createdAt, event: asWireEvent(rendered.envelope) });
        }
      }
      // Oldest first; a stable sort keeps each organization's own order for events at the same instant.
      found.sort((a, b) => a.at - b.at);
      // Filtered by the type name above, so each event is one of that type.
      return found.map(({ event }) => event as WireEventOfType<Type>);
    },
    subscribe(observer) {
      observers.add(observer);
      return () => observers.delete(observer);
    },
    notify(tenant, stored) {
      if (observers.size === 0) return;
      const variant = directory().variantOf(tenant.organizationId);
      const rendered = codecs[variant].renderEvent(stored);
      if (!rendered) return;
      const source = { organizationId: tenant.organizationId, mode: tenant.mode, variant };
      for (const observer of observers) observer(asWireEvent(rendered.envelope), source);
    },
  };
}
