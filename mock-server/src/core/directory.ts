import type { BaseClock } from './clock.js';
import type { EventVisibility, Mode } from './event-log.js';
import type { IdFactory } from './ids.js';
import type { Variant } from './variant.js';
import type { ApiSchemas, Stored } from './stored.js';
import { type KeyDigestSource, keyDigest, redactKey } from './key-digest.js';
import { MAX_KEY_LENGTH, modeOfKey } from './key-syntax.js';
import { defineCollection, Tenant, type TenantHooks } from './tenant.js';
import { tenantKey, type TenantSnapshot } from './state/model.js';
import { updateOf } from './state/shared-gate.js';

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

export interface Authenticated {
  key: ApiKeyRecord;
  tenant: Tenant;
}

/**
 * A durable store that keeps every tenant, seen from the directory: tenants are read from it when first needed and
 * may leave memory when idle (docs/standalone-server.md#organizations-load-on-demand).
 */
export interface TenantStore {
  /** The tenant (`org_...:test`) a stored API key belongs to, by the key's SHA-256 digest; undefined when none. */
  ownerOfKey(digest: string): string | undefined;
  /**
   * Reads a stored tenant and puts it in memory through `restore` (the directory's), or undefined when the store has
   * none of that key. `sharedOffsetMs` is the server-wide advance its clock was saved at.
   */
  load(tenantKey: string, restore: (snapshot: TenantSnapshot, sharedOffsetMs: number) => Tenant): Tenant | undefined;
  /** Makes sure everything the tenant holds is stored before it leaves memory; false when that failed (it stays). */
  release(tenant: Tenant): boolean;
}

/**
 * Organizations, their keys and their tenants (one per mode). A syntactically valid key never seen before
 * creates a new organization; a revoked key stays known, so it is refused rather than recreated. With a store that
 * keeps every tenant, a tenant is read from it on the first request that needs it, and may leave memory when idle
 * (evictIdle); without one, an idle tenant that leaves memory is forgotten.
 */
export class Directory {
  /** By SHA-256 digest of the key string. */
  readonly #keys = new Map<string, ApiKeyRecord>();
  readonly #tenants = new Map<string, Tenant>();
  /** Each key's tenant, so authenticating a known key is two lookups. */
  readonly #tenantOfKey = new WeakMap<ApiKeyRecord, Tenant>();
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
   * organization, first used through `variant`. `digests` may know the key's digest already (KeyDigestSource).
   */
  authenticate(keyString: string, variant: Variant = 'customer', digests?: KeyDigestSource): Authenticated | undefined {
    // Longer than any key the mock issues or accepts: refused before it is hashed or looked up.
    if (keyString.length > MAX_KEY_LENGTH) return undefined;
    const digest = digests?.digestOfKey ? digests.digestOfKey(keyString) : keyDigest(keyString);
    let known = this.#keys.get(digest);
    if (!known && this.store) {
      const owner = this.store.ownerOfKey(digest);
      if (owner !== undefined) {
        this.load(owner);
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

  /** Whether this key string is one the mock knows and has revoked (for the hint of a 401; never on a success). */
  isRevoked(keyString: string): boolean {
    if (keyString.length > MAX_KEY_LENGTH) return false;
    return (this.#keys.get(keyDigest(keyString))?.revokedAt ?? null) !== null;
  }

  /**
   * The record of a key already known, by its digest (read from the store when it keeps every tenant), without
   * creating anything: a key never used is undefined. Faults scoped to a key use it.
   */
  knownKey(digest: string): ApiKeyRecord | undefined {
    const known = this.#keys.get(digest);
    if (known || !this.store) return known;
    const owner = this.store.ownerOfKey(digest);
    if (owner === undefined) return undefined;
    this.load(owner);
    return this.#keys.get(digest);
  }

  /** The organization and mode of a key already known and not revoked, with its variant, without creating anything. */
  known(keyString: string): (Authenticated & { variant: Variant }) | undefined {
    const key = keyString.length > MAX_KEY_LENGTH ? undefined : this.knownKey(keyDigest(keyString));
    if (!key || key.revokedAt !== null) return undefined;
    return { key, tenant: this.tenant(key.organizationId, key.mode), variant: key.variant };
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
    const existing = this.load(id);
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

  /** Whether a tenant (`org_...:test`) is in memory. */
  has(tenantKeyText: string): boolean {
    return this.#tenants.has(tenantKeyText);
  }

  /** The tenant of that key (`org_...:test`): in memory, or read from the store; undefined when neither has it. */
  load(tenantKeyText: string): Tenant | undefined {
    return (
      this.#tenants.get(tenantKeyText) ?? this.store?.load(tenantKeyText, (snapshot, saved) => this.#comeBack(snapshot, saved))
    );
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
    tenant.adopt(updateOf(snapshot));
    this.#tenants.set(tenant.key, tenant);
    this.#indexKeys(tenant);
    return tenant;
  }

  /** A tenant a shared store's copy refreshed in place (state/copy-refresh.ts): its keys indexed, its work armed again. */
  refreshed(tenant: Tenant): void {
    if (this.#tenants.get(tenant.key) !== tenant) this.#tenants.set(tenant.key, tenant);
    this.#indexKeys(tenant);
    for (const hook of this.hooks.onRestore ?? []) hook(tenant);
  }

  #indexKeys(tenant: Tenant): void {
    for (const record of apiKeys.of(tenant).values()) {
      this.#keys.set(record.digest, record);
      // States saved before keys carried their variant were customer-variant organizations.
      this.#variantOf.set(record.organizationId, record.variant ?? 'customer');
    }
  }

  /**
   * Takes out of memory every tenant without a request for `idleMs` of wall time. With a store that keeps every
   * tenant, a tenant goes once no webhook attempt of it is in flight and no work of it is due now; its later work
   * (a retry, a time-to-live) brings it back when due, as its next request does. Without one it is forgotten, so only
   * a tenant with no scheduled work at all goes. Returns how many left.
   */
  evictIdle(idleMs: number, now = Date.now()): number {
    let count = 0;
    for (const tenant of [...this.#tenants.values()]) {
      if (now - tenant.lastActiveAt < idleMs || tenant.requestsInFlight > 0) continue;
      if (this.store ? this.release(tenant) : !tenant.scheduler.busy && this.#forget(tenant)) count++;
    }
    return count;
  }

  /** Takes a tenant out of memory once the store has all it holds (not while its work runs or is due): whether it left. */
  release(tenant: Tenant): boolean {
    if (!this.store || tenant.requestsInFlight > 0 || tenant.scheduler.working || tenant.scheduler.dueNow) return false;
    if (!this.store.release(tenant)) return false;
    return this.#forget(tenant);
  }

  /**
   * Takes a tenant out of memory without storing anything: what it changed since its last stored commit is lost (a
   * commit of it was refused), and with a store it is read again, as it was stored, when next needed.
   */
  drop(tenant: Tenant): void {
    this.#forget(tenant);
  }

  dispose(): void {
    for (const tenant of this.#tenants.values()) tenant.dispose();
    this.#tenants.clear();
    this.#keys.clear();
    this.#variantOf.clear();
  }

  #forget(tenant: Tenant): boolean {
    if (this.#tenants.get(tenant.key) !== tenant) return false;
    this.#tenants.delete(tenant.key);
    for (const record of apiKeys.of(tenant).values()) {
      if (this.#keys.get(record.digest) === record) this.#keys.delete(record.digest);
    }
    tenant.dispose();
    return true;
  }

  /** A stored tenant back in memory: its records, its clock caught up with later server-wide advances, its due work. */
  #comeBack(snapshot: TenantSnapshot, savedSharedOffsetMs: number): Tenant {
    const tenant = this.restoreTenant(snapshot);
    tenant.clock.shift(this.#sharedOffsetMs - savedSharedOffsetMs);
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
