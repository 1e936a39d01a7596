// The webhook functions, written once and made for each build from the HMAC provider it hands them, as stripe-node's
// are handed a CryptoProvider: each is an operation (what it signs, then what it makes of the digests) run on one.
import { CardrailError } from '../errors.js';
import type { CardrailEvent } from '../events/cardrail-event.js';
import * as delivery from './delivery.js';
import { SIGNATURE_HEADER } from './schemes.js';
import { type DeliveryPart, type SignedContent, verifiedPayload } from './signature-checks.js';
import type * as api from './types.js';

/** HMAC-SHA256 as one runtime computes it: each secret's digest of the content, written as its scheme writes them. */
export interface HmacProvider {
  /** What every runtime has (Web Crypto's `crypto.subtle` has nothing else). */
  readonly digests: (content: SignedContent) => Promise<readonly string[]>;
  /** On the calling thread, where the runtime can (node:crypto): used by every function then; else `*Sync` ones throw. */
  readonly digestsSync?: (content: SignedContent) => readonly string[];
}

/** A webhook function apart from its HMAC: the parts it signs, then what it makes of their digests. */
interface Operation<Params, Result> {
  prepare(params: Params): readonly DeliveryPart[];
  finish(parts: readonly DeliveryPart[], digests: readonly (readonly string[])[]): Result;
}

export const asyncOn =
  <Params, Result>(hmac: HmacProvider, { prepare, finish }: Operation<Params, Result>) =>
  async (params: Params): Promise<Result> => {
    const parts = prepare(params);
    const { digestsSync: sync } = hmac;
    return finish(parts, sync ? parts.map(sync) : await Promise.all(parts.map((part) => hmac.digests(part))));
  };

/**
 * Without a synchronous HMAC, a function that throws whatever its input (so it cannot answer wrongly) a `CardrailError`:
 * not a `WebhookVerificationError`, which a receiver may answer with 400 though the delivery may be genuine.
 */
export function syncOn<Params, Result>(hmac: HmacProvider, name: `${string}Sync`, operation: Operation<Params, Result>) {
  const { digestsSync } = hmac;
  if (digestsSync) {
    return (params: Params): Result => {
      const parts = operation.prepare(params);
      return operation.finish(parts, parts.map(digestsSync));
    };
  }
  const message =
    `${name}() needs node:crypto (Node, Bun, Deno). This build, for browsers, edge runtimes and workers, has only ` +
    `Web Crypto, which is async: use \`await ${name.slice(0, -4)}(...)\` instead.`;
  return (_params: Params): Result => {
    throw new CardrailError({ code: 'webhook_sync_unavailable', message });
  };
}

export const verification: Operation<api.VerifySignatureParams, void> = {
  prepare: delivery.checkedParts,
  finish: (parts, digests) => void verifiedPayload(parts, digests),
};
export const construction: Operation<api.VerifySignatureParams, CardrailEvent> = {
  prepare: delivery.checkedParts,
  finish: (parts, digests) => delivery.parseEvent(verifiedPayload(parts, digests)),
};
export const signatureHeader: Operation<api.GenerateSignatureHeaderParams, string> = {
  prepare: (params) => delivery.signing(params, false),
  finish: (parts, digests) => delivery.signatureHeaders(parts, digests)[SIGNATURE_HEADER],
};
export const webhookHeaders: Operation<api.GenerateWebhookHeadersParams, Record<string, string>> = {
  prepare: (params) => delivery.signing(params, true),
  finish: delivery.signatureHeaders,
};

/** `constructEvent` with the request's body, headers and the secret as arguments. */
export function unwrapOn(hmac: HmacProvider) {
  const constructEvent = asyncOn(hmac, construction);
  return (body: api.RawPayload, headers: api.WebhookHeaders, secret: api.WebhookSecret, options?: api.VerificationTimeOptions) =>
    constructEvent({ ...options, payload: body, headers, secret });
}
