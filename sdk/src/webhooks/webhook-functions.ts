// The webhook functions, written once and made for each build from the HMAC provider it hands them (index.ts: Web
// Crypto, index.node.ts: node:crypto), as stripe-node's webhooks are handed a CryptoProvider. Each function is an
// operation (what it signs, then what it makes of the digests) run on the provider, asynchronously or synchronously.
import { CardrailError } from '../errors.js';
import type { CardrailEvent } from '../events/cardrail-event.js';
import * as delivery from './delivery.js';
import { SIGNATURE_HEADER } from './schemes.js';
import { type CheckedDelivery, type SignedContent, verifiedPayload } from './signature-checks.js';
import type * as types from './types.js';

/** HMAC-SHA256 as one runtime computes it: each secret's digest of the content, written as its scheme writes them. */
export interface HmacProvider {
  /** What every runtime has (Web Crypto's `crypto.subtle` has nothing else). */
  readonly digests: (content: SignedContent) => Promise<readonly string[]>;
  /** On the calling thread, where the runtime can (node:crypto); without it the `*Sync` functions throw. */
  readonly digestsSync?: (content: SignedContent) => readonly string[];
}

/** What a webhook function does besides the HMAC: what it signs, then what it makes of each content's digests. */
interface Operation<Params, Content extends SignedContent, Result> {
  prepare(params: Params): readonly Content[];
  finish(contents: readonly Content[], digests: readonly (readonly string[])[]): Result;
}

/** An operation on the provider's asynchronous HMAC, every content's digests at once. */
export function asyncOn<Params, Content extends SignedContent, Result>(
  hmac: HmacProvider,
  { prepare, finish }: Operation<Params, Content, Result>,
): (params: Params) => Promise<Result> {
  return async (params) => {
    const contents = prepare(params);
    return finish(contents, await Promise.all(contents.map((content) => hmac.digests(content))));
  };
}

/**
 * An operation on the provider's synchronous HMAC. Without one, a function that throws whatever its input (it never
 * reads it, so it cannot answer wrongly) a `CardrailError`, not a `WebhookVerificationError`: the delivery may be
 * genuine, and a receiver that answers those with 400 must not turn a deployment mistake into rejected webhooks.
 */
export function syncOn<Params, Content extends SignedContent, Result>(
  { digestsSync }: HmacProvider,
  name: `${string}Sync`,
  { prepare, finish }: Operation<Params, Content, Result>,
): (params: Params) => Result {
  if (digestsSync) {
    return (params) => {
      const contents = prepare(params);
      return finish(contents, contents.map(digestsSync));
    };
  }
  return () => {
    throw new CardrailError({
      code: 'webhook_sync_unavailable',
      message:
        `${name}() needs node:crypto (Node, Bun, Deno). This build, for browsers, edge runtimes and workers, has only ` +
        `Web Crypto, which is async: use \`await ${name.slice(0, -4)}(...)\` instead.`,
    });
  };
}

export const verification: Operation<types.VerifySignatureParams, CheckedDelivery, void> = {
  prepare: delivery.checkedDeliveries,
  finish: (deliveries, digests) => {
    verifiedPayload(deliveries, digests);
  },
};

export const construction: Operation<types.VerifySignatureParams, CheckedDelivery, CardrailEvent> = {
  prepare: delivery.checkedDeliveries,
  finish: (deliveries, digests) => delivery.parseEvent(verifiedPayload(deliveries, digests)),
};

export const signatureHeader: Operation<types.GenerateSignatureHeaderParams, delivery.SigningContent, string> = {
  prepare: (params) => delivery.signing(params, false),
  finish: (contents, digests) => delivery.signatureHeaders(contents, digests)[SIGNATURE_HEADER],
};

export const webhookHeaders: Operation<types.GenerateWebhookHeadersParams, delivery.SigningContent, Record<string, string>> = {
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
