import { invalidRequest } from '../../core/errors.js';
import { defineCollection, type Tenant } from '../../core/tenant.js';
import { requireCustomer } from '../../domain/customers.js';
import type { EpochMs } from '../types.js';
import type { MandateJwk } from './mandate-types.js';

/** A customer's trusted mandate issuers (`MandateIssuers`), by the customer's id. */
interface MandateIssuersRecord {
  id: string;
  keys: MandateJwk[];
  updatedAt: EpochMs;
}

const mandateIssuers = defineCollection<MandateIssuersRecord>('engine.mandateIssuers');

/** JWK members that carry private or secret key material (RFC 7518 section 6): never accepted as a trusted key. */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k'];
/** Members that point at key material elsewhere: no key is ever fetched or taken from a certificate. */
const REMOTE_MEMBERS = ['x5u', 'x5c', 'jku'];

/**
 * A key refused unless it is a public P-256 key (AP2 mandates are ES256): its private members named, so that a
 * caller who pasted a private key learns it at once.
 */
export function checkPublicKey(key: MandateJwk, field: string): void {
  const secret = PRIVATE_MEMBERS.filter((member) => member in key);
  if (secret.length > 0)
    throw invalidRequest(field, `holds private key material (${secret.join(', ')}); give the public key only`);
  const remote = REMOTE_MEMBERS.filter((member) => member in key);
  if (remote.length > 0) throw invalidRequest(field, `names key material elsewhere (${remote.join(', ')})`);
  if (key.kty !== 'EC' || key.crv !== 'P-256' || typeof key.x !== 'string' || typeof key.y !== 'string')
    throw invalidRequest(field, 'must be a P-256 key (kty EC, crv P-256, x, y): mandates are verified with ES256');
  if (key.alg !== undefined && key.alg !== 'ES256') throw invalidRequest(field, `alg ${key.alg} is not ES256`);
}

/** The view of a customer's trusted issuers (`MandateIssuers`). */
export function getMandateIssuers(tenant: Tenant, customerId: string) {
  requireCustomer(tenant, customerId);
  const record = mandateIssuers.of(tenant).get(customerId);
  return { customerId, keys: record?.keys ?? [], updatedAt: record?.updatedAt ?? null };
}

/** Replaces a customer's trusted issuers; a key refused refuses the set and nothing changes. */
export function setMandateIssuers(tenant: Tenant, customerId: string, keys: MandateJwk[]) {
  requireCustomer(tenant, customerId);
  const kids = new Set<string>();
  keys.forEach((key, index) => {
    const field = `/body/keys/${index}`;
    checkPublicKey(key, field);
    if (typeof key.kid !== 'string') throw invalidRequest(field, 'needs a kid: a mandate names its issuer key by kid');
    if (kids.has(key.kid)) throw invalidRequest(`${field}/kid`, `repeats ${key.kid}`);
    kids.add(key.kid);
  });
  const copy = keys.map((key) => ({ ...key }));
  const collection = mandateIssuers.of(tenant);
  const updatedAt = tenant.now();
  if (collection.get(customerId)) {
    collection.update(customerId, (record) => {
      record.keys = copy;
      record.updatedAt = updatedAt;
    });
  } else collection.insert({ id: customerId, keys: copy, updatedAt });
  return getMandateIssuers(tenant, customerId);
}

/** The trusted key of a customer with this `kid`, or undefined. */
export function trustedIssuerKey(tenant: Tenant, customerId: string, kid: string): MandateJwk | undefined {
  return mandateIssuers
    .of(tenant)
    .get(customerId)
    ?.keys.find((key) => key.kid === kid);
}
