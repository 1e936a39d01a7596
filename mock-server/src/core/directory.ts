import type { BaseClock } from './clock.js';
import type { EventVisibility, Mode } from './event-log.js';
import type { IdFactory } from './ids.js';
import type { Variant } from './variant.js';
import type { ApiSchemas, Stored } from './stored.js';
import { keyDigest, redactKey } from './key-digest.js';
import { collectionSlot, defineCollection, Tenant, type TenantHooks } from './tenant.js';
import { tenantKey, type EvictedTenant, type TenantSnapshot } from './state/model.js';

/**
 * An API key as the mock knows it: its SHA-256 digest and redacted form, never the key itself (that is shown once,
 * in the create answer).
 */
export type ApiKeyRecord = Omit<Stored<ApiSchemas['ApiKey']>, 'status'> & {
  /** SHA-256 of the key string (hex): what the key is looked up by. */
  digest: string;
  organizationId: string;
  /**
   * The variant the organization was first used through, copied to each of its keys so it survives a restore: the
   * in-process control (events.list, the test kit) speaks that variant's names and envelope, as its `GET /events` does.
   */
  variant: Variant;
};

/** The keys of one organization and mode, for `GET /api-keys`. */
export const apiKeys = defineCollection<ApiKeyRecord>('apiKeys');

/** `sk_test_` or `sk_live_` and at least 8 characters of `[A-Za-z0-9_]` (docs/ids-and-keys.md#api-keys). */
const KEY_SYNTAX = /^sk_(test|live)_[A-Za-z0-9_]{8,}$/;

function modeOfKey(key: string): Mode | undefined {
  const match = KEY_SYNTAX.exec(key);
  // The group is `test` or `live`.
  return match ? (match[1] as Mode) : undefined;
}

export interface Authenticated {
  key: ApiKeyRecord;
  tenant: Tenant;
}

/** Where tenants that leave memory go (the durable store), and how they come back. */
export interface TenantStore {
  /** Keeps a tenant leaving memory and says how to find it again; undefined when nothing keeps it (it is forgotten). */
  keep(tenant: Tenant): EvictedTenant | undefined;
  /** The saved state of a kept tenant, noting that it is back in memory. */
  bringBack(stub: EvictedTenant): TenantSnapshot;
}

/**
 * Organizations, their keys and their tenants (one per mode). A syntactically valid key never seen before
 * creates a new organization; a revoked key stays known, so it is refused rather than recreated. A tenant idle for
 * long may leave memory (evictIdle); one a durable store keeps comes back on the first request that needs it.
 */
export class Directory {
  /** By SHA-256 digest of the key string. */
  readonly #keys = new Map<string, ApiKeyRecord>();
  readonly #tenants = new Map<string, Tenant>();
  /** Each key's tenant, so authenticating a known key is two lookups. */
  readonly #tenantOfKey = new WeakMap<ApiKeyRecord, Tenant>();
  /** Tenants kept out of memory by the store, by tenant key, and their keys' digests. */
  readonly #evicted = new Map<string, EvictedTenant>();
  readonly #evictedKeys = new Map<string, string>();
  #sharedOffsetMs = 0;
  /** Each organization's variant (derived from its keys' records, so rebuilt on restore). */
  readonly #variantOf = new Map<string, Variant>();

  constructor(
    private readonly ids: IdFactory,
    private readonly baseClock: BaseClock,
    private readonly hooks: TenantHooks,
    private readonly naming: EventVisibility,
    private readonly store?: TenantStore,
  ) {}

  /** Clock advances made through the server-wide clock, inherited by tenants created later. */
  get sharedOffsetMs(): number {
    return this.#sharedOffsetMs;
  }

  set sharedOffsetMs(value: number) {
    this.#sharedOffsetMs = value;
    this.hooks.changes?.server();
  }

  /**
   * The key's organization and mode, or undefined when the key is malformed or revoked. A new key creates its
   * organization, first used through `variant`.
   */
  authenticate(keyString: string, variant: Variant = 'customer'): Authenticated | undefined {
    const digest = keyDigest(keyString);
    let known = this.#keys.get(digest);
    if (!known) {
      const away = this.#evictedKeys.get(digest);
      if (away !== undefined) {
        this.#bringBack(away);
        known = this.#keys.get(digest);
      }
    }
    if (known) {
      if (known.revokedAt !== null) return undefined;
      let tenant = this.#tenantOfKey.get(known);
      if (tenant === undefined) {
        tenant = this.tenant(known.organizationId, known.mode);
        this.#tenantOfKey.set(known, tenant);
      }
      tenant.lastActiveAt = Date.now();
      return { key: known, tenant };
    }
    const mode = modeOfKey(keyString);
    if (!mode) return undefined;
    const organizationId = this.ids.next('organization');
    this.#variantOf.set(organizationId, variant);
    const key = this.#register(organizationId, mode, keyString, null);
    return { key, tenant: this.tenant(organizationId, mode) };
  }

  /**
   * Issues a new key of the caller's organization, in the caller's mode or the other one (`mode`): a key of the
   * other mode is the same organization but another tenant, so it sees none of this mode's objects. `key` is the
   * only copy of the key string.
   */
  createKey(tenant: Tenant, name: string | null, mode: Mode = tenant.mode): { record: ApiKeyRecord; key: string } {
    const key = this.ids.apiKey(mode);
    return { record: this.#register(tenant.organizationId, mode, key, name), key };
  }

  /** Revokes a key of the tenant's own mode (a key of the other mode is not found); refused from the next request on. */
  revokeKey(tenant: Tenant, keyId: string): ApiKeyRecord | undefined {
    return apiKeys.of(tenant).update(keyId, (record) => {
      record.revokedAt ??= tenant.now();
    });
  }

  tenant(organizationId: string, mode: Mode): Tenant {
    const id = tenantKey(organizationId, mode);
    const existing = this.#tenants.get(id) ?? (this.#evicted.has(id) ? this.#bringBack(id) : undefined);
    if (existing) return existing;
    const tenant = new Tenant(organizationId, mode, this.ids, this.baseClock, this.#sharedOffsetMs, this.hooks, this.naming);
    this.#tenants.set(id, tenant);
    return tenant;
  }

  /** The variant the organization was first used through. */
  variantOf(organizationId: string): Variant {
    return this.#variantOf.get(organizationId) ?? 'customer';
  }

  /** The tenants in memory. */
  tenants(): IterableIterator<Tenant> {
    return this.#tenants.values();
  }

  /** The tenants the store keeps out of memory. */
  evicted(): IterableIterator<EvictedTenant> {
    return this.#evicted.values();
  }

  /** Puts a saved tenant back in memory: its records, its keys, then its due work (the restore hooks). */
  restoreTenant(snapshot: TenantSnapshot): Tenant {
    const tenant = new Tenant(
      snapshot.organizationId,
      snapshot.mode,
      this.ids,
      this.baseClock,
      snapshot.clockOffsetMs,
      this.hooks,
      this.naming,
    );
    tenant.restore(snapshot, collectionSlot);
    this.#tenants.set(tenant.key, tenant);
    for (const record of apiKeys.of(tenant).values()) {
      this.#keys.set(record.digest, record);
      // States saved before keys carried their variant were customer-variant organizations.
      this.#variantOf.set(record.organizationId, record.variant ?? 'customer');
    }
    return tenant;
  }

  /** Registers a tenant the store keeps out of memory (from a saved state). */
  addEvicted(stub: EvictedTenant): void {
    const id = tenantKey(stub.organizationId, stub.mode);
    this.#evicted.set(id, stub);
    for (const digest of stub.keyDigests) this.#evictedKeys.set(digest, id);
  }

  /**
   * Takes out of memory every tenant without a request for `idleMs` of wall time and with no due work left (a
   * pending webhook retry, a card's time-to-live or an intent's expiry keeps it). With a store it is kept there and
   * comes back on its next request; without one it is forgotten. Returns how many left.
   */
  evictIdle(idleMs: number, now = Date.now()): number {
    let count = 0;
    for (const [id, tenant] of [...this.#tenants]) {
      if (now - tenant.lastActiveAt < idleMs || tenant.scheduler.busy) continue;
      const stub = this.store?.keep(tenant);
      this.#tenants.delete(id);
      for (const record of apiKeys.of(tenant).values()) this.#keys.delete(record.digest);
      tenant.dispose();
      if (stub) this.addEvicted(stub);
      count++;
    }
    return count;
  }

  dispose(): void {
    for (const tenant of this.#tenants.values()) tenant.dispose();
    this.#tenants.clear();
    this.#keys.clear();
    this.#evicted.clear();
    this.#evictedKeys.clear();
    this.#variantOf.clear();
  }

  #bringBack(id: string): Tenant | undefined {
    const stub = this.#evicted.get(id);
    if (!stub || !this.store) return undefined;
    const snapshot = this.store.bringBack(stub);
    this.#evicted.delete(id);
    for (const digest of stub.keyDigests) this.#evictedKeys.delete(digest);
    const tenant = this.restoreTenant(snapshot);
    // Server-wide advances made while it was away apply to it too.
    tenant.clock.shift(this.#sharedOffsetMs - stub.sharedOffsetMs);
    for (const hook of this.hooks.onRestore ?? []) hook(tenant);
    return tenant;
  }

  #register(organizationId: string, mode: Mode, keyString: string, name: string | null): ApiKeyRecord {
    const tenant = this.tenant(organizationId, mode);
    const record: ApiKeyRecord = {
      id: this.ids.next('apiKey'),
      digest: keyDigest(keyString),
      redactedKey: redactKey(keyString, mode),
      name,
      organizationId,
      variant: this.variantOf(organizationId),
      mode,
      createdAt: tenant.now(),
      revokedAt: null,
    };
    apiKeys.of(tenant).insert(record);
    this.#keys.set(record.digest, record);
    return record;
  }
}
