// verifySignature and generateSignatureHeader import each secret's HMAC key once and keep it in a small cache; these
// tests pin what that cache must never change: which secret verifies what.
import { createHmac } from 'node:crypto';
import { describe, expect, it, vi } from 'vitest';
import { cachedHmacKeyCount } from '../src/webhooks/web-crypto.js';
import { generateSignatureHeader, verifySignature, WebhookVerificationError } from '../src/webhooks/index.js';

const t = 1_795_000_000;
const payload = '{"id":"evt_cache","type":"card.frozen","data":{"cardId":"card_1"}}';

function header(secret: string, body: string = payload): string {
  return `t=${t},v1=${createHmac('sha256', secret).update(`${t}.${body}`).digest('hex')}`;
}

async function outcome(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => 'verified',
    (error: unknown) => (error instanceof WebhookVerificationError ? error.code : `unexpected ${String(error)}`),
  );
}

describe('HMAC key cache', () => {
  it('never lets one cached secret verify a signature made with another', async () => {
    const first = 'whsec_cacheFirstSecret_0000000000';
    const second = 'whsec_cacheSecondSecret_111111111';
    for (let round = 0; round < 3; round += 1) {
      expect(await outcome(verifySignature({ payload, header: header(first), secret: first, now: t }))).toBe('verified');
      expect(await outcome(verifySignature({ payload, header: header(second), secret: first, now: t }))).toBe(
        'signature_mismatch',
      );
      expect(await outcome(verifySignature({ payload, header: header(second), secret: second, now: t }))).toBe('verified');
      expect(await outcome(verifySignature({ payload, header: header(first), secret: second, now: t }))).toBe(
        'signature_mismatch',
      );
    }
  });

  it('verifies correctly when many deliveries for different secrets are in flight at once', async () => {
    const secrets = Array.from({ length: 8 }, (_, index) => `whsec_inFlight_${index}_abcdefghijklmnop`);
    const results = await Promise.all(
      secrets.flatMap((secret, index) => [
        outcome(verifySignature({ payload, header: header(secret), secret, now: t })),
        outcome(verifySignature({ payload, header: header(secrets[(index + 1) % secrets.length] as string), secret, now: t })),
      ]),
    );
    expect(results).toEqual(secrets.flatMap(() => ['verified', 'signature_mismatch']));
  });

  it('stays bounded when an application verifies for many endpoints, and still verifies evicted secrets', async () => {
    const secrets = Array.from({ length: 40 }, (_, index) => `whsec_endpoint_${index}_qrstuvwxyz012345`);
    for (const secret of secrets) await verifySignature({ payload, header: header(secret), secret, now: t });
    expect(cachedHmacKeyCount()).toBeLessThanOrEqual(16);
    // The first secrets were evicted long ago: they are imported again, and still verify only their own signatures.
    expect(
      await outcome(verifySignature({ payload, header: header(secrets[0] as string), secret: secrets[0] as string, now: t })),
    ).toBe('verified');
    expect(
      await outcome(verifySignature({ payload, header: header(secrets[1] as string), secret: secrets[0] as string, now: t })),
    ).toBe('signature_mismatch');
  });

  it('does not remember a failed key import', async () => {
    const secret = 'whsec_importFailsOnce_zzzzzzzzzzzz';
    vi.spyOn(crypto.subtle, 'importKey').mockRejectedValueOnce(new Error('Web Crypto unavailable'));
    await expect(verifySignature({ payload, header: header(secret), secret, now: t })).rejects.toThrow('Web Crypto unavailable');
    await expect(verifySignature({ payload, header: header(secret), secret, now: t })).resolves.toBeUndefined();
  });

  it('signs with the cached key exactly as node:crypto does, for string and byte bodies', async () => {
    const secret = 'whsec_signCached_0123456789abcdef';
    const body = '{"note":"Zoë paid 12 € for 🍕"}';
    for (let round = 0; round < 2; round += 1) {
      expect(await generateSignatureHeader({ payload: body, secret, timestamp: t })).toBe(header(secret, body));
      expect(await generateSignatureHeader({ payload: new TextEncoder().encode(body), secret, timestamp: t })).toBe(
        header(secret, body),
      );
    }
    await expect(verifySignature({ payload: body, header: header(secret, body), secret, now: t })).resolves.toBeUndefined();
  });
});
