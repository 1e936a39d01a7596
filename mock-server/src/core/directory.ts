import type { BaseClock, EpochMs } from './clock.js';
import type { EventVisibility, Mode } from './event-log.js';
import type { IdFactory } from './ids.js';
import { defineCollection, Tenant, type EventListener } from './tenant.js';

/** An API key as the mock knows it. The key string itself is only shown when the key is created. */
export interface ApiKeyRecord {
  id: string;
  key: string;
  name: string | null;
  organizationId: string;
  mode: Mode;
  createdAt: EpochMs;
  revokedAt: EpochMs | null;
}

/** The keys of one organization and mode, for `GET /api-keys`. */
export const apiKeys = defineCollection<ApiKeyRecord>('apiKeys');

/** `sk_test_` or `sk_live_` and at least 8 characters of `[A-Za-z0-9_]` (api-surface.md, "Two variants"). */
const KEY_SYNTAX = /^sk_(test|live)_[A-Za-z0-9_]{8,}$/;

export function modeOfKey(key: string): Mode | undefined {
  const match = KEY_SYNTAX.exec(key);
  return match ? (match[1] as Mode) : undefined;
}

export interface Authenticated {
  key: ApiKeyRecord;
  tenant: Tenant;
}

/**
 * Organizations, their keys and their tenants (one per mode). A syntactically valid key never seen before
 * creates a new organization; a revoked key stays known, so it is refused rather than recreated.
 */
export class Directory {
  readonly #keys = new Map<string, ApiKeyRecord>();
  readonly #tenants = new Map<string, Tenant>();
  /** Clock advances made through the server-wide clock, inherited by tenants created later. */
  sharedOffsetMs = 0;

  constructor(
    private readonly ids: IdFactory,
    private readonly baseClock: BaseClock,
    private readonly listeners: ReadonlySet<EventListener>,
    private readonly naming: EventVisibility,
  ) {}

  /** The key's organization and mode, or undefined when the key is malformed or revoked. */
  authenticate(keyString: string): Authenticated | undefined {
    const known = this.#keys.get(keyString);
    if (known) {
      return known.revokedAt === null ? { key: known, tenant: this.tenant(known.organizationId, known.mode) } : undefined;
    }
    const mode = modeOfKey(keyString);
    if (!mode) return undefined;
    const organizationId = this.ids.next('organization');
    const key = this.#register(organizationId, mode, keyString, null);
    return { key, tenant: this.tenant(organizationId, mode) };
  }

  /** Issues a new key of the same organization and mode. */
  createKey(tenant: Tenant, name: string | null): ApiKeyRecord {
    return this.#register(tenant.organizationId, tenant.mode, this.ids.apiKey(tenant.mode), name);
  }

  /** Revokes a key; it is refused from the next request on. */
  revokeKey(tenant: Tenant, keyId: string): ApiKeyRecord | undefined {
    return apiKeys.of(tenant).update(keyId, (record) => {
      record.revokedAt ??= tenant.now();
    });
  }

  tenant(organizationId: string, mode: Mode): Tenant {
    const id = `${organizationId}:${mode}`;
    let tenant = this.#tenants.get(id);
    if (!tenant) {
      tenant = new Tenant(organizationId, mode, this.ids, this.baseClock, this.sharedOffsetMs, this.listeners, this.naming);
      this.#tenants.set(id, tenant);
    }
    return tenant;
  }

  tenants(): IterableIterator<Tenant> {
    return this.#tenants.values();
  }

  /** Every key known, for fixtures and the CLI. */
  keys(): IterableIterator<ApiKeyRecord> {
    return this.#keys.values();
  }

  dispose(): void {
    for (const tenant of this.#tenants.values()) tenant.dispose();
    this.#tenants.clear();
    this.#keys.clear();
  }

  #register(organizationId: string, mode: Mode, keyString: string, name: string | null): ApiKeyRecord {
    const tenant = this.tenant(organizationId, mode);
    const record: ApiKeyRecord = {
      id: this.ids.next('apiKey'),
      key: keyString,
      name,
      organizationId,
      mode,
      createdAt: tenant.now(),
      revokedAt: null,
    };
    apiKeys.of(tenant).insert(record);
    this.#keys.set(keyString, record);
    return record;
  }
}
