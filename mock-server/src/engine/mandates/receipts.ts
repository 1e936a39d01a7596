import { moduleExports } from '../../core/cjs-interop.js';
import { defineCollection, type Tenant } from '../../core/tenant.js';
import { transactions } from '../records.js';
import type { MandateJwk } from './mandate-types.js';

/** What jose-module.ts exports for receipts. */
interface ReceiptCrypto {
  generateReceiptKey(kid: string): Promise<{ privateJwk: MandateJwk; publicJwk: MandateJwk }>;
  signReceipt(privateJwk: MandateJwk, claims: Record<string, unknown>): Promise<string>;
}
let crypto: Promise<ReceiptCrypto> | undefined;
function loadCrypto(): Promise<ReceiptCrypto> {
  crypto ??= import('../jose-module.js').then((module) => moduleExports<ReceiptCrypto>(module));
  return crypto;
}

/** The organization's receipt signing keys, the current first; each kept with its private half (the mock's own). */
interface ReceiptKeysRecord {
  id: 'receipt-keys';
  keys: { privateJwk: MandateJwk; publicJwk: MandateJwk }[];
  /** The number of the next key's `kid` (`rcpt_<n>`). */
  next: number;
}
const receiptKeys = defineCollection<ReceiptKeysRecord>('engine.receiptKeys');
const KEYS_ID = 'receipt-keys';
/** How many keys stay published: the current one and the last nine it replaced. */
const KEPT_KEYS = 10;
/** The `iss` of Cardrail's receipts. */
const RECEIPT_ISSUER = 'urn:cardrail:issuer';

async function addKey(tenant: Tenant): Promise<ReceiptKeysRecord> {
  const collection = receiptKeys.of(tenant);
  const number = collection.get(KEYS_ID)?.next ?? 1;
  const key = await (await loadCrypto()).generateReceiptKey(`rcpt_${number}`);
  // Another request may have made one meanwhile: the newest record wins, nothing is lost.
  const current = collection.get(KEYS_ID);
  if (!current) return collection.insert({ id: KEYS_ID, keys: [key], next: number + 1 });
  return (
    collection.update(KEYS_ID, (record) => {
      record.keys = [key, ...record.keys].slice(0, KEPT_KEYS);
      record.next = Math.max(record.next, number) + 1;
    }) ?? current
  );
}

async function currentKeys(tenant: Tenant): Promise<ReceiptKeysRecord> {
  return receiptKeys.of(tenant).get(KEYS_ID) ?? (await addKey(tenant));
}

/** `GET /mandate-receipts/keys`: the public keys, the current first (made on first use). */
export async function getReceiptKeys(tenant: Tenant) {
  return { keys: (await currentKeys(tenant)).keys.map((key) => ({ ...key.publicJwk })) };
}

/** `POST /mandate-receipts/keys/rotate`: a new current key; the replaced ones stay published. */
export async function rotateReceiptKeys(tenant: Tenant) {
  await currentKeys(tenant);
  const record = await addKey(tenant);
  return { keys: record.keys.map((key) => ({ ...key.publicJwk })) };
}

/**
 * The AP2 `payment_receipt` (v0.2 payment_receipt.json) of a pending transaction that presented a mandate, about to
 * settle, signed with the current key; undefined for any other. `reference` is the closed mandate's (AP2's SDK:
 * base64url SHA-256 of its JWT); both confirmation ids are the transaction's, which the issuer itself settled, so
 * `rail_confirmation_verified` (AP2 open pull request #335) is true.
 */
export async function receiptForSettlement(tenant: Tenant, transactionId: string): Promise<string | undefined> {
  const txn = transactions.of(tenant).get(transactionId);
  if (!txn?.mandate || txn.status !== 'pending') return undefined;
  const [key] = (await currentKeys(tenant)).keys;
  if (!key) return undefined;
  return (await loadCrypto()).signReceipt(key.privateJwk, {
    status: 'Success',
    iss: RECEIPT_ISSUER,
    iat: Math.floor(tenant.now() / 1000),
    reference: txn.mandate.reference,
    payment_id: txn.id,
    psp_confirmation_id: txn.id,
    network_confirmation_id: txn.id,
    rail_confirmation_verified: true,
    open_mandate_hash: txn.mandate.openMandateHash,
  });
}
