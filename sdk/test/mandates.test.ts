// The mandate helpers: openMandateHash against AP2's open_mandate_hash conformance vectors, unchanged, through the
// sources and both builds; and verifyPaymentReceipt against a key set, with jose on the signing side.
import { readFileSync } from 'node:fs';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import * as distCjs from '../dist/index.cjs';
import * as distEsm from '../dist/index.mjs';
import { openMandateHash } from '../src/mandates/open-mandate-hash.js';
import { verifyPaymentReceipt } from '../src/mandates/payment-receipt.js';

interface Vector {
  vector_id: string;
  expectation: string;
  mandate_body: object;
  expected_jcs_bytes_b64: string;
  expected_open_mandate_hash: string;
}
const { vectors } = JSON.parse(
  readFileSync(new URL('./fixtures/ap2-open-mandate-hash/vectors-v0.json', import.meta.url), 'utf8'),
) as { vectors: Vector[] };

const IMPLEMENTATIONS = { sources: openMandateHash, esm: distEsm.openMandateHash, cjs: distCjs.openMandateHash };

describe('openMandateHash: AP2 open_mandate_hash vectors v0', () => {
  it('has the twelve vectors', () => expect(vectors).toHaveLength(12));

  for (const [name, hash] of Object.entries(IMPLEMENTATIONS)) {
    it.each(vectors.map((vector) => [vector.vector_id, vector] as const))(`%s (${name})`, async (_id, vector) => {
      expect(await hash(vector.mandate_body)).toBe(vector.expected_open_mandate_hash);
    });
  }

  it('holds every pair expectation (same_hash_as, different_hash_from)', async () => {
    const byId = new Map(vectors.map((vector) => [vector.vector_id, vector]));
    let pairs = 0;
    for (const vector of vectors) {
      const [relation, other] = vector.expectation.split(':');
      const partner = other === undefined ? undefined : byId.get(other);
      if (!partner) continue;
      pairs += 1;
      const [a, b] = [await openMandateHash(vector.mandate_body), await openMandateHash(partner.mandate_body)];
      if (relation === 'same_hash_as') expect(a).toBe(b);
      else expect(a).not.toBe(b);
    }
    expect(pairs).toBe(7);
  });

  it('refuses what JCS excludes, with a TypeError', async () => {
    await expect(openMandateHash({ text: '\ud800' })).rejects.toThrow(TypeError);
    await expect(openMandateHash({ amount: Number.NaN })).rejects.toThrow(TypeError);
  });
});

describe('verifyPaymentReceipt', () => {
  async function signer(kid: string) {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };
    const sign = (claims: Record<string, unknown>, header: { alg: string; kid?: string } = { alg: 'ES256', kid }) =>
      new SignJWT(claims).setProtectedHeader({ ...header, typ: 'JWT' }).sign(privateKey);
    return { jwk, sign };
  }
  const claims = {
    status: 'Success',
    iss: 'urn:cardrail:issuer',
    iat: 1_777_342_400,
    reference: 'wS1mjZomc9ofFgSgpPHmcQZ9QqtJLpP_YysOVroxgog',
    payment_id: 'txn_1',
    psp_confirmation_id: 'txn_1',
    network_confirmation_id: 'txn_1',
  };

  it('verifies a receipt signed by a published key, its reference and issuer', async () => {
    const current = await signer('rcpt_2');
    const previous = await signer('rcpt_1');
    const keys = { keys: [current.jwk, previous.jwk] };
    const verified = await verifyPaymentReceipt(await previous.sign(claims), keys, {
      reference: claims.reference,
      issuer: 'urn:cardrail:issuer',
    });
    expect(verified).toEqual({ receipt: claims, kid: 'rcpt_1' });
  });

  it('refuses another key, another reference or issuer, and an algorithm other than ES256', async () => {
    const published = await signer('rcpt_1');
    const stranger = await signer('rcpt_1');
    const keys = { keys: [published.jwk] };
    await expect(verifyPaymentReceipt(await stranger.sign(claims), keys)).rejects.toThrow();
    const jws = await published.sign(claims);
    await expect(verifyPaymentReceipt(jws, keys, { reference: 'another' })).rejects.toThrow(/not another/);
    await expect(verifyPaymentReceipt(jws, keys, { issuer: 'https://elsewhere.example' })).rejects.toThrow();
    const [, payload] = jws.split('.');
    const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', kid: 'rcpt_1' })).toString('base64url')}.${payload}.`;
    await expect(verifyPaymentReceipt(unsigned, keys)).rejects.toThrow();
  });

  it('refuses signed claims that are not a payment_receipt, naming what is wrong', async () => {
    const published = await signer('rcpt_1');
    const keys = { keys: [published.jwk] };
    const { network_confirmation_id: _dropped, ...withoutConfirmation } = claims;
    await expect(verifyPaymentReceipt(await published.sign(withoutConfirmation), keys)).rejects.toThrow(
      /not an AP2 payment_receipt: `network_confirmation_id` must be a string/,
    );
    await expect(verifyPaymentReceipt(await published.sign({ ...claims, status: 'Settled' }), keys)).rejects.toThrow(
      /`status` must be "Success" or "Error"/,
    );
    await expect(verifyPaymentReceipt(await published.sign({ ...claims, reference: 42 }), keys)).rejects.toThrow(
      /`reference` must be a string/,
    );
    // `iat` is an integer in AP2's schema: a fraction is refused as a string would be.
    await expect(verifyPaymentReceipt(await published.sign({ ...claims, iat: 1.5 }), keys)).rejects.toThrow(
      /`iat` must be a whole number/,
    );
    const failed = { ...claims, status: 'Error', error: 'declined', error_description: 'The issuer declined.' };
    expect((await verifyPaymentReceipt(await published.sign(failed), keys)).receipt).toEqual(failed);
  });
});
