import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { WebhookVerificationError, type WebhookVerificationErrorCode } from '../src/webhooks/index.js';
import { CardrailError } from '../src/errors.js';
import { IMPLEMENTATIONS } from './support/webhook-implementations.js';

// Vectors are computed here with node:crypto, independently of the SDK's code. Both builds of the sources run these
// tests (webhook-vectors.test.ts runs the shared vectors through every build, dist included).
const secret = 'whsec_9TyI1uOwv1DdE-ExAmPlEkEy_Abc12345';
const payload = '{"id":"evt_123","type":"card.frozen","createdAt":"2026-11-21T19:00:00.000Z","data":{"cardId":"card_1"}}';
const t = 1_795_000_000;

function nodeSignature(key: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', Buffer.from(key, 'utf8')).update(`${timestamp}.`).update(body).digest('hex');
}

async function rejection(promise: Promise<unknown>): Promise<WebhookVerificationError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return error as WebhookVerificationError;
}

const sources = IMPLEMENTATIONS.filter((implementation) => implementation.name.endsWith('source'));

describe.each(sources)('$name', ({ module: { generateSignatureHeader, verifySignature } }) => {
  async function expectCode(params: Parameters<typeof verifySignature>[0], code: WebhookVerificationErrorCode) {
    const error = await rejection(verifySignature(params));
    expect(error.code).toBe(code);
    return error;
  }

  describe('generateSignatureHeader', () => {
    it('signs `<t>.<payload>` with the whole secret (whsec_ included) as the HMAC key', async () => {
      const header = await generateSignatureHeader({ payload, secret, timestamp: t });
      expect(header).toBe(`t=${t},v1=${nodeSignature(secret, t, payload)}`);
    });

    it('gives the same signature for string, Uint8Array, Buffer and ArrayBuffer payloads', async () => {
      const bytes = new TextEncoder().encode(payload);
      const expected = `t=${t},v1=${nodeSignature(secret, t, payload)}`;
      for (const form of [bytes, Buffer.from(payload), bytes.buffer.slice(0)]) {
        expect(await generateSignatureHeader({ payload: form, secret, timestamp: t })).toBe(expected);
      }
    });

    it('signs non-UTF-8 bytes exactly as received', async () => {
      const body = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
      const header = await generateSignatureHeader({ payload: body, secret, timestamp: t });
      expect(header).toBe(`t=${t},v1=${nodeSignature(secret, t, body)}`);
    });

    it('writes one v1 entry per secret, in order, when rotating', async () => {
      const next = 'whsec_newSecretAfterRotation_0123456789';
      const header = await generateSignatureHeader({ payload, secret: [next, secret], timestamp: t });
      expect(header).toBe(`t=${t},v1=${nodeSignature(next, t, payload)},v1=${nodeSignature(secret, t, payload)}`);
    });

    it('accepts a Date and defaults the timestamp to now', async () => {
      const at = new Date((t + 42) * 1000 + 999);
      expect(await generateSignatureHeader({ payload, secret, timestamp: at })).toMatch(new RegExp(`^t=${t + 42},`));
      const before = Math.floor(Date.now() / 1000);
      const stamp = Number(/^t=(\d+),/.exec(await generateSignatureHeader({ payload, secret }))?.[1]);
      expect(stamp).toBeGreaterThanOrEqual(before);
      expect(stamp).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    });

    it('refuses an empty secret list', async () => {
      const error = await rejection(generateSignatureHeader({ payload, secret: [], timestamp: t }));
      expect(error.code).toBe('invalid_secret');
    });
  });

  describe('verifySignature', () => {
    const valid = `t=${t},v1=${nodeSignature(secret, t, payload)}`;

    it('accepts a valid signature computed by node:crypto', async () => {
      await expect(verifySignature({ payload, header: valid, secret, now: t })).resolves.toBeUndefined();
      await expect(verifySignature({ payload: Buffer.from(payload), header: valid, secret, now: t })).resolves.toBeUndefined();
    });

    it('accepts the header of generateSignatureHeader (round trip)', async () => {
      const header = await generateSignatureHeader({ payload, secret });
      await expect(verifySignature({ payload, header, secret })).resolves.toBeUndefined();
    });

    it('rejects a tampered payload', async () => {
      await expectCode({ payload: payload.replace('card_1', 'card_2'), header: valid, secret, now: t }, 'signature_mismatch');
    });

    it('rejects a tampered timestamp', async () => {
      await expectCode({ payload, header: valid.replace(`t=${t}`, `t=${t + 1}`), secret, now: t }, 'signature_mismatch');
    });

    it('rejects the wrong secret, and a secret without its whsec_ prefix', async () => {
      await expectCode({ payload, header: valid, secret: 'whsec_other', now: t }, 'signature_mismatch');
      await expectCode({ payload, header: valid, secret: secret.slice('whsec_'.length), now: t }, 'signature_mismatch');
    });

    it('rejects a re-serialized body (the raw bytes are what is signed)', async () => {
      const reserialized = JSON.stringify(JSON.parse(payload), null, 2);
      await expectCode({ payload: reserialized, header: valid, secret, now: t }, 'signature_mismatch');
    });

    it('accepts timestamps exactly at the 300 s tolerance in both directions', async () => {
      await expect(verifySignature({ payload, header: valid, secret, now: t + 300 })).resolves.toBeUndefined();
      await expect(verifySignature({ payload, header: valid, secret, now: t - 300 })).resolves.toBeUndefined();
    });

    it('rejects an expired timestamp', async () => {
      const error = await expectCode({ payload, header: valid, secret, now: t + 301 }, 'timestamp_out_of_tolerance');
      expect(error.message).toContain('old');
    });

    it('rejects a timestamp from the future', async () => {
      const error = await expectCode(
        { payload, header: valid, secret, now: new Date((t - 301) * 1000) },
        'timestamp_out_of_tolerance',
      );
      expect(error.message).toContain('future');
    });

    it('honours a custom tolerance', async () => {
      await expectCode({ payload, header: valid, secret, now: t + 11, toleranceSeconds: 10 }, 'timestamp_out_of_tolerance');
      await expect(
        verifySignature({ payload, header: valid, secret, now: t + 3600, toleranceSeconds: 3600 }),
      ).resolves.toBeUndefined();
    });

    it('refuses an invalid now or tolerance instead of skipping the timestamp check', async () => {
      await expect(verifySignature({ payload, header: valid, secret, now: new Date('not a date') })).rejects.toThrow(TypeError);
      await expect(verifySignature({ payload, header: valid, secret, now: Number.NaN })).rejects.toThrow(TypeError);
      await expect(
        verifySignature({ payload, header: valid, secret, now: t + 10_000, toleranceSeconds: Number.NaN }),
      ).rejects.toThrow(TypeError);
      await expect(verifySignature({ payload, header: valid, secret, now: t, toleranceSeconds: -1 })).rejects.toThrow(TypeError);
    });

    it('accepts any typed-array view of the body, e.g. a slice of a larger buffer', async () => {
      const framed = new TextEncoder().encode(`xx${payload}yy`);
      const view = new DataView(framed.buffer, 2, framed.length - 4);
      await expect(verifySignature({ payload: view, header: valid, secret, now: t })).resolves.toBeUndefined();
      await expect(
        verifySignature({ payload: framed.subarray(2, framed.length - 2), header: valid, secret, now: t }),
      ).resolves.toBeUndefined();
    });

    it('uses the system clock when now is not given', async () => {
      await expectCode({ payload, header: valid, secret }, 'timestamp_out_of_tolerance');
    });

    describe('rotated secrets', () => {
      const oldSecret = secret;
      const newSecret = 'whsec_rotatedSecret_ZZZZZZZZZZZZZZZZZZ';
      const both = `t=${t},v1=${nodeSignature(newSecret, t, payload)},v1=${nodeSignature(oldSecret, t, payload)}`;

      it('accepts a header with two v1 entries when the receiver knows either secret', async () => {
        await expect(verifySignature({ payload, header: both, secret: oldSecret, now: t })).resolves.toBeUndefined();
        await expect(verifySignature({ payload, header: both, secret: newSecret, now: t })).resolves.toBeUndefined();
      });

      it('accepts a list of secrets when any one matches', async () => {
        await expect(
          verifySignature({ payload, header: valid, secret: [newSecret, oldSecret], now: t }),
        ).resolves.toBeUndefined();
      });

      it('rejects when no secret of the list matches any v1', async () => {
        await expectCode({ payload, header: both, secret: ['whsec_a', 'whsec_b'], now: t }, 'signature_mismatch');
      });
    });

    describe('header parsing', () => {
      const digest = nodeSignature(secret, t, payload);

      it('ignores whitespace around separators, hex case, unknown schemes and empty v1', async () => {
        for (const header of [
          ` t = ${t} , v1 = ${digest} `,
          `t=${t},v1=${digest.toUpperCase()}`,
          `v0=abc,t=${t},v2=${'0'.repeat(64)},v1=,v1=${digest}`,
          `t=${t},,v1=${'0'.repeat(64)},v1=${digest}`,
        ]) {
          await expect(verifySignature({ payload, header, secret, now: t }), header).resolves.toBeUndefined();
        }
      });

      it('reports a missing header', async () => {
        for (const header of [undefined, null, '', '   ']) {
          await expectCode({ payload, header, secret, now: t }, 'missing_header');
        }
      });

      it('reports a malformed header', async () => {
        for (const header of [
          `v1=${digest}`,
          `t=abc,v1=${digest}`,
          `t=-${t},v1=${digest}`,
          `t=1.5,v1=${digest}`,
          `t=,v1=${digest}`,
          `t=${t},t=${t},v1=${digest}`,
          `t=${t},v1=${digest.slice(1)}`,
          `t=${t},v1=${'g'.repeat(64)}`,
          `t=${t};v1=${digest}`,
          `${t},v1=${digest}`,
          'garbage',
        ]) {
          await expectCode({ payload, header, secret, now: t }, 'malformed_header');
        }
      });

      it('reports a header without any v1 signature', async () => {
        for (const header of [`t=${t}`, `t=${t},v1=`, `t=${t},v0=${digest}`]) {
          await expectCode({ payload, header, secret, now: t }, 'missing_signature');
        }
      });
    });

    describe('raw body requirement', () => {
      it('refuses an already-parsed object with an explanation of how to get the raw body', async () => {
        const error = await expectCode(
          { payload: JSON.parse(payload) as never, header: valid, secret, now: t },
          'invalid_payload',
        );
        expect(error.message).toMatch(/raw request body/);
        for (const framework of ['node:http', 'Express', 'Next.js', 'Hono']) expect(error.message).toContain(framework);
      });

      it('refuses null, numbers and arrays', async () => {
        for (const bad of [null, 42, [1, 2]]) {
          await expectCode({ payload: bad as never, header: valid, secret, now: t }, 'invalid_payload');
        }
      });
    });

    it('throws errors that are CardrailErrors', async () => {
      const error = await expectCode({ payload, header: 'garbage', secret, now: t }, 'malformed_header');
      expect(error).toBeInstanceOf(CardrailError);
      expect(error.name).toBe('WebhookVerificationError');
    });
  });
});
