// The webhook functions, written once and made for each build from the HMAC provider it hands them, as stripe-node's
// are handed a CryptoProvider: each is an operation (what it signs, then what it makes of the digests) run on one.
import { CardrailError } from '../errors.js';
import type { CardrailEvent } from '../events/cardrail-event.js';
import * as delivery from './delivery.js';
import { SIGNATURE_HEADER } from './schemes.js';
import { type DeliveryPart, type SignedContent, verifiedPayload } from './signature-checks.js';
import type * as types from './types.js';

/** HMAC-SHA256 as one runtime computes it: each secret's digest of the content, written as its scheme writes them. */
export interface HmacProvider {
  /** What every runtime has (Web Crypto's `crypto.subtle` has nothing else). */
  readonly digests: (content: SignedContent) => Promise<readonly string[]>;
  /** On the calling thread, where the runtime can (node:crypto); without it the `*Sync` functions throw. */
  readonly digestsSync?: (content: SignedContent) => readonly string[];
}

interface Operation<Params, Result> {
  prepare(params: Params): readonly DeliveryPart[];
  finish(parts: readonly DeliveryPart[], digests: readonly (readonly string[])[]): Result;
}

export const asyncOn =
  <Params, Result>(hmac: HmacProvider, { prepare, finish }: Operation<Params, Result>) =>
  async (params: Params): Promise<Result> => {
    const parts = prepare(params);
    return finish(parts, await Promise.all(parts.map((part) => hmac.digests(part))));
  };

/**
 * Without a synchronous HMAC, a function that throws whatever its input (it never reads it, so it cannot answer
 * wrongly) a `CardrailError`, not a `WebhookVerificationError`: the delivery may be genuine, and a receiver that
 * answers those with 400 must not turn a deployment mistake into rejected webhooks.
 */
export function syncOn<Params, Result>(hmac: HmacProvider, name: `${string}Sync`, operation: Operation<Params, Result>) {
  const { digestsSync } = hmac;
  if (digestsSync) {
    return (params: Params): Result => {
      const parts = operation.prepare(params);
      return operation.finish(parts, parts.map(digestsSync));
    };
  }
  const instead = `use \`await ${name.slice(0, -4)}(...)\` instead`;
  const message = `${name}() needs node:crypto (Node, Bun, Deno). This build, for browsers, edge runtimes and workers, has only Web Crypto, which is async: ${instead}.`;
  return (_params: Params): Result => {
    throw new CardrailError({ code: 'webhook_sync_unavailable', message });
  };
}

export const verification: Operation<types.VerifySignatureParams, void> = {
  prepare: delivery.checkedDeliveries,
  finish: (deliveries, digests) => void verifiedPayload(deliveries, digests),
};
export const construction: Operation<types.VerifySignatureParams, CardrailEvent> = {
  prepare: delivery.checkedDeliveries,
  finish: (deliveries, digests) => delivery.parseEvent(verifiedPayload(deliveries, digests)),
};
export const signatureHeader: Operation<types.GenerateSignatureHeaderParams, string> = {
  prepare: (params) => delivery.signing(params, false),
  finish: (contents, digests) => delivery.signatureHeaders(contents, digests)[SIGNATURE_HEADER],
};
export const webhookHeaders: Operation<types.GenerateWebhookHeadersParams, Record<string, string>> = {
  prepare: (params) => delivery.signing(params, true),
  finish: delivery.signatureHeaders,
};

/** `constructEvent` with the request's body, headers and the secret as arguments. */
export function unwrapOn(hmac: HmacProvider) {
  const constructEvent = asyncOn(hmac, construction);
  return (
    body: types.RawPayload,
    headers: types.WebhookHeaders,
    secret: types.WebhookSecret,
    options: types.VerificationTimeOptions = {},
  ) => constructEvent({ ...options, payload: body, headers, secret });
}
