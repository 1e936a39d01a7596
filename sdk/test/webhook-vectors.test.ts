// The same vectors through every implementation of the webhook functions: node:crypto and Web Crypto, synchronous and
// asynchronous, sources and built files (ESM and CommonJS). For each vector, every implementation must give the same
// outcome (result, or error name, code, message and details) and that outcome must be the vector's expectation.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import * as distRootCjs from '../dist/index.cjs';
import * as distRootEsm from '../dist/index.mjs';
import { CardrailError, WebhookVerificationError } from '../src/errors.js';
import {
  asyncOutcome,
  IMPLEMENTATIONS,
  syncOutcome,
  WITH_SYNC,
  WITHOUT_SYNC,
  type Outcome,
  type WebhookImplementation,
} from './support/webhook-implementations.js';
import {
  EVENT_VECTORS,
  KNOWN_ANSWERS,
  PAYLOAD,
  SECRET,
  sign,
  SIGN_VECTORS,
  signStandard,
  STANDARD_KNOWN_ANSWERS,
  STANDARD_SECRET,
  T,
  VERIFY_VECTORS,
  WEBHOOK_HEADERS_VECTORS,
  type Expected,
} from './support/webhook-vectors.js';

/** The vector's expectation as the outcome every implementation must produce (message and details compared across them). */
function matchesExpectation(
  outcome: Outcome | undefined,
  expected: Expected | object | string,
  success: (returned: unknown) => boolean,
): boolean {
  if (outcome === undefined) return false;
  if ('returned' in outcome) return success(outcome.returned);
  if (expected === 'TypeError') return outcome.threw === 'TypeError';
  return outcome.threw === 'WebhookVerificationError' && outcome.code === expected;
}

/** Runs `asyncCall` on every implementation and `syncCall` on those with a synchronous HMAC. */
async function outcomes(
  asyncCall: (implementation: WebhookImplementation) => unknown,
  syncCall: (implementation: WebhookImplementation) => unknown,
): Promise<Record<string, Outcome>> {
  const results: Record<string, Outcome> = {};
  for (const implementation of IMPLEMENTATIONS)
    results[`${implementation.name}, async`] = await asyncOutcome(() => asyncCall(implementation));
  for (const implementation of WITH_SYNC) results[`${implementation.name}, sync`] = syncOutcome(() => syncCall(implementation));
  return results;
}

/** Every implementation gave the reference's outcome. */
function expectAgreement(results: Record<string, Outcome>): Outcome {
  const reference = Object.values(results)[0] as Outcome;
  expect(results).toEqual(Object.fromEntries(Object.keys(results).map((name) => [name, reference])));
  return reference;
}

describe('webhook test vectors, through every implementation', () => {
  // The system clock is read by the "no now" vector and by every error message built from it: frozen, so that two
  // implementations called a second apart still agree to the letter.
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date(1_800_000_000_123));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('covers six implementations: node:crypto and Web Crypto, from the sources and from dist (ESM and CJS)', () => {
    expect(IMPLEMENTATIONS.map((implementation) => implementation.name)).toHaveLength(6);
    expect(WITH_SYNC).toHaveLength(3);
    expect(WITHOUT_SYNC).toHaveLength(3);
  });

  it('signs with the scheme pinned by known answers', () => {
    for (const { secret, timestamp, body, hex } of KNOWN_ANSWERS) expect(sign(secret, timestamp, body)).toBe(hex);
    for (const { secret, id, timestamp, body, base64 } of STANDARD_KNOWN_ANSWERS) {
      expect(signStandard(secret, id, timestamp, body)).toBe(base64);
    }
  });

  it('has valid vectors and vectors for every failure kind', () => {
    const kinds = new Set(VERIFY_VECTORS.map((vector) => vector.expected));
    for (const kind of [
      'valid',
      'missing_header',
      'malformed_header',
      'missing_signature',
      'timestamp_out_of_tolerance',
      'signature_mismatch',
      'conflicting_headers',
      'invalid_payload',
      'invalid_secret',
      'TypeError',
    ]) {
      expect(kinds).toContain(kind);
    }
    expect(new Set(EVENT_VECTORS.map((vector) => (typeof vector.expected === 'string' ? vector.expected : 'event')))).toEqual(
      new Set(['event', 'invalid_json', 'signature_mismatch']),
    );
  });

  it.each(VERIFY_VECTORS)('verifySignature(Sync): $name -> $expected', async ({ params, expected }) => {
    const results = await outcomes(
      ({ module }) => module.verifySignature(params),
      ({ module }) => module.verifySignatureSync(params),
    );
    const reference = expectAgreement(results);
    expect(
      matchesExpectation(reference, expected, (returned) => expected === 'valid' && returned === undefined),
      JSON.stringify(reference),
    ).toBe(true);
  });

  it.each(SIGN_VECTORS)('generateSignatureHeader(Sync): $name', async ({ params, expected }) => {
    const results = await outcomes(
      ({ module }) => module.generateSignatureHeader(params),
      ({ module }) => module.generateSignatureHeaderSync(params),
    );
    const reference = expectAgreement(results);
    expect(
      matchesExpectation(reference, expected, (returned) => returned === expected),
      JSON.stringify(reference),
    ).toBe(true);
  });

  it.each(WEBHOOK_HEADERS_VECTORS)('generateWebhookHeaders(Sync): $name', async ({ params, expected }) => {
    const results = await outcomes(
      ({ module }) => module.generateWebhookHeaders(params),
      ({ module }) => module.generateWebhookHeadersSync(params),
    );
    const reference = expectAgreement(results);
    expect(
      matchesExpectation(reference, expected, (returned) => JSON.stringify(returned) === JSON.stringify(expected)),
      JSON.stringify(reference),
    ).toBe(true);
  });

  it('generateWebhookHeaders makes a new msg_ id for each call when none is given', async () => {
    for (const { module } of IMPLEMENTATIONS) {
      const first = await module.generateWebhookHeaders({ payload: PAYLOAD, secret: STANDARD_SECRET });
      const second = await module.generateWebhookHeaders({ payload: PAYLOAD, secret: STANDARD_SECRET });
      expect(first['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
      expect(second['webhook-id']).not.toBe(first['webhook-id']);
    }
  });

  it.each(VERIFY_VECTORS.filter((vector) => vector.params.headers !== undefined))(
    'unwrap: $name -> $expected',
    async ({ params, expected }) => {
      const { payload, headers, secret, ...options } = params;
      const results: Record<string, Outcome> = {};
      for (const { name, module } of IMPLEMENTATIONS) {
        results[name] = await asyncOutcome(() => module.unwrap(payload, headers as never, secret, options as never));
      }
      const reference = expectAgreement(results);
      expect(
        matchesExpectation(reference, expected, (returned) => JSON.stringify(returned) === JSON.stringify(JSON.parse(PAYLOAD))),
        JSON.stringify(reference),
      ).toBe(true);
    },
  );

  it.each(EVENT_VECTORS)('constructEvent(Sync): $name', async ({ params, expected }) => {
    const results = await outcomes(
      ({ module }) => module.constructEvent(params),
      ({ module }) => module.constructEventSync(params),
    );
    const reference = expectAgreement(results);
    expect(
      matchesExpectation(
        reference,
        expected,
        (returned) => typeof expected === 'object' && JSON.stringify(returned) === JSON.stringify(expected.event),
      ),
      JSON.stringify(reference),
    ).toBe(true);
  });

  it('verifies what each implementation signs, in every pairing', async () => {
    const body = '{"id":"evt_pair","type":"card.created","data":{"note":"naïve 🍕"}}';
    for (const signer of IMPLEMENTATIONS) {
      const header = await signer.module.generateSignatureHeader({
        payload: body,
        secret: [SECRET, 'whsec_second'],
        timestamp: T,
      });
      for (const verifier of IMPLEMENTATIONS) {
        await expect(
          verifier.module.verifySignature({ payload: body, header, secret: 'whsec_second', now: T }),
          `${signer.name} -> ${verifier.name}`,
        ).resolves.toBeUndefined();
      }
    }
  });

  it('verifies the headers each implementation makes, in every pairing, by headers and by header', async () => {
    const body = '{"id":"evt_pair","type":"card.created","data":{"note":"naïve 🍕"}}';
    const second = 'whsec_c2Vjb25kU2VjcmV0Rm9yUGFpcmluZ1Rlc3Q';
    for (const signer of IMPLEMENTATIONS) {
      const headers = await signer.module.generateWebhookHeaders({
        payload: body,
        secret: [STANDARD_SECRET, second],
        timestamp: T,
      });
      for (const verifier of IMPLEMENTATIONS) {
        const label = `${signer.name} -> ${verifier.name}`;
        await expect(
          verifier.module.verifySignature({ payload: body, headers, secret: second, now: T }),
          label,
        ).resolves.toBeUndefined();
        await expect(
          verifier.module.verifySignature({ payload: body, header: headers['Cardrail-Signature'], secret: second, now: T }),
          label,
        ).resolves.toBeUndefined();
      }
    }
  });
});

describe('errors are the same classes on every build', () => {
  const failing = { payload: PAYLOAD, header: 'garbage', secret: SECRET, now: T };

  it('throws a WebhookVerificationError, a CardrailError, of the entry point it was imported from', async () => {
    const roots: Record<string, { CardrailError: unknown }> = {
      source: { CardrailError },
      'dist ESM': distRootEsm,
      'dist CJS': distRootCjs,
    };
    for (const implementation of IMPLEMENTATIONS) {
      const error = await implementation.module.verifySignature(failing).catch((caught: unknown) => caught);
      const root = roots[implementation.name.split(', ')[1] as string];
      expect(error, implementation.name).toBeInstanceOf(implementation.module.WebhookVerificationError);
      expect(error, implementation.name).toBeInstanceOf(root?.CardrailError as new () => unknown);
      expect(error).toMatchObject({ name: 'WebhookVerificationError', code: 'malformed_header' });
    }
  });

  it('shares one class between the node:crypto and Web Crypto builds of a module system', () => {
    const byName = Object.fromEntries(IMPLEMENTATIONS.map((implementation) => [implementation.name, implementation.module]));
    expect(byName['node:crypto, source']?.WebhookVerificationError).toBe(WebhookVerificationError);
    expect(byName['Web Crypto, source']?.WebhookVerificationError).toBe(WebhookVerificationError);
    expect(byName['node:crypto, dist ESM']?.WebhookVerificationError).toBe(
      byName['Web Crypto, dist ESM']?.WebhookVerificationError,
    );
    expect(byName['node:crypto, dist CJS']?.WebhookVerificationError).toBe(
      byName['Web Crypto, dist CJS']?.WebhookVerificationError,
    );
  });
});

describe('synchronous functions on the Web Crypto build', () => {
  const calls = [
    {
      name: 'verifySignatureSync',
      asyncName: 'verifySignature',
      call: (module: WebhookImplementation['module']) =>
        module.verifySignatureSync({ payload: PAYLOAD, header: `t=${T},v1=${sign(SECRET, T, PAYLOAD)}`, secret: SECRET, now: T }),
    },
    {
      name: 'constructEventSync',
      asyncName: 'constructEvent',
      call: (module: WebhookImplementation['module']) =>
        module.constructEventSync({ payload: PAYLOAD, header: `t=${T},v1=${sign(SECRET, T, PAYLOAD)}`, secret: SECRET, now: T }),
    },
    {
      name: 'generateSignatureHeaderSync',
      asyncName: 'generateSignatureHeader',
      call: (module: WebhookImplementation['module']) =>
        module.generateSignatureHeaderSync({ payload: PAYLOAD, secret: SECRET, timestamp: T }),
    },
    // Bad input gets the same answer: the function never looks at its input, so it can never answer wrongly.
    {
      name: 'verifySignatureSync',
      asyncName: 'verifySignature',
      call: (module: WebhookImplementation['module']) =>
        module.verifySignatureSync({ payload: PAYLOAD, header: 'garbage', secret: SECRET }),
    },
  ];

  it.each(
    WITHOUT_SYNC.flatMap((implementation) =>
      calls.map((call) => ({ ...call, implementation, label: `${implementation.name}: ${call.name}` })),
    ),
  )('$label throws an error that names the asynchronous function to use', ({ implementation, name, asyncName, call }) => {
    const outcome = syncOutcome(() => call(implementation.module));
    expect(outcome).toMatchObject({ threw: 'CardrailError', code: 'webhook_sync_unavailable' });
    const message = (outcome as { message: string }).message;
    expect(message).toContain(`${name}()`);
    expect(message).toContain(`await ${asyncName}(...)`);
    for (const runtime of ['Node', 'Bun', 'Deno', 'browsers', 'edge runtimes', 'workers']) expect(message).toContain(runtime);
  });

  it('throws a CardrailError that is not a WebhookVerificationError (a receiver must not answer it with a 400)', () => {
    for (const implementation of WITHOUT_SYNC) {
      const error = (() => {
        try {
          implementation.module.verifySignatureSync({ payload: PAYLOAD, header: 'x', secret: SECRET });
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error).toBeInstanceOf(Error);
      expect(error).not.toBeInstanceOf(implementation.module.WebhookVerificationError);
    }
  });
});
