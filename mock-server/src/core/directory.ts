import type { BaseClock } from './clock.js';
import type { EventVisibility, Mode } from './event-log.js';
import type { IdFactory } from './ids.js';
import type { Variant } from './variant.js';
import type { ApiSchemas, Stored } from './stored.js';
import { keyDigest, redactKey } from './key-digest.js';
import { defineCollection, Tenant, type TenantHooks } from './tenant.js';
import { getOrCreate } from './get-or-create.js';

/**
 * An API key as the mock knows it: its SHA-256 digest and redacted form, never the key itself (that is shown once,
 * in the create answer).
 */
export type ApiKeyRecord = Omit<Stored<ApiSchemas['ApiKey']>, 'status'> & {
  /** SHA-256 of the key string (hex): what the key is looked up by. */
  digest: string;
  organizationId: string;
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

/**
 * Organizations, their keys and their tenants (one per mode). A syntactically valid key never seen before
 * creates a new organization; a revoked key stays known, so it is refused rather than recreated.
 */
export class Directory {
  /** By SHA-256 digest of the key string. */
  readonly #keys = new Map<string, ApiKeyRecord>();
  readonly #tenants = new Map<string, Tenant>();
  /** Each key's tenant, so authenticating a known key is two lookups. */
  readonly #tenantOfKey = new WeakMap<ApiKeyRecord, Tenant>();
  /**
   * The variant each organization was first used through: the in-process control (events.list, the test kit)
   * speaks that variant's names and envelope, as its `GET /events` does.
   */
  readonly #variantOf = new Map<string, Variant>();
  /** Clock advances made through the server-wide clock, inherited by tenants created later. */
  sharedOffsetMs = 0;

  constructor(
    private readonly ids: IdFactory,
    private readonly baseClock: BaseClock,
    private readonly hooks: TenantHooks,
    private readonly naming: EventVisibility,
  ) {}

  /**
   * The key's organization and mode, or undefined when the key is malformed or revoked. A new key creates its
   * organization, first used through `variant`.
   */
  authenticate(keyString: string, variant: Variant = 'customer'): Authenticated | undefined {
    const known = this.#keys.get(keyDigest(keyString));
    if (known) {
      if (known.revokedAt !== null) return undefined;
      let tenant = this.#tenantOfKey.get(known);
      if (tenant === undefined) {
        tenant = this.tenant(known.organizationId, known.mode);
        this.#tenantOfKey.set(known, tenant);
      }
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
    const id = `${organizationId}:${mode}`;
    return getOrCreate(
      this.#tenants,
      id,
      () => new Tenant(organizationId, mode, this.ids, this.baseClock, this.sharedOffsetMs, this.hooks, this.naming),
    );
  }

  /** The variant the organization was first used through. */
  variantOf(organizationId: string): Variant {
    return this.#variantOf.get(organizationId) ?? 'customer';
  }

  tenants(): IterableIterator<Tenant> {
    return this.#tenants.values();
  }

  dispose(): void {
    for (const tenant of this.#tenants.values()) tenant.dispose();
    this.#tenants.clear();
    this.#keys.clear();
    this.#variantOf.clear();
  }

  #register(organizationId: string, mode: Mode, keyString: string, name: string | null): ApiKeyRecord {
    const tenant = this.tenant(organizationId, mode);
    const record: ApiKeyRecord = {
      id: this.ids.next('apiKey'),
      digest: keyDigest(keyString),
      redactedKey: redactKey(keyString, mode),
      name,
      organizationId,
      mode,
      createdAt: tenant.now(),
      revokedAt: null,
    };
    apiKeys.of(tenant).insert(record);
    this.#keys.set(record.digest, record);
    return record;
  }
}
