import { SDJwtInstance } from '@sd-jwt/core';
import { base64url, exportJWK, generateKeyPair, importJWK } from 'jose';
import { sha256Base64url } from './mandate-crypto.js';
import type { MandateJwk } from './mandate-types.js';

/**
 * The other side of a mandate, for tests (the test kit's credential-provider fake): an open payment mandate issued
 * as an AP2 root SD-JWT, and its presentation by the agent as a KB-SD-JWT, the shapes of AP2 v0.2's Python SDK
 * (code/sdk/python/ap2/sdk/mandate.py). Web Crypto ES256 keys, made for the test and thrown away.
 */
const encoder = new TextEncoder();

async function hasher(data: string | ArrayBuffer, alg: string): Promise<Uint8Array> {
  if (alg !== 'sha-256') throw new Error(`Unsupported _sd_alg ${alg}.`);
  const bytes = typeof data === 'string' ? encoder.encode(data) : new Uint8Array(data);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
}

const saltGenerator = (length: number) => base64url.encode(crypto.getRandomValues(new Uint8Array(length)));

async function sdJwtSigner(privateJwk: MandateJwk) {
  const key = (await importJWK(privateJwk, 'ES256')) as CryptoKey;
  const sign = async (data: string) =>
    base64url.encode(new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, key, encoder.encode(data))));
  return new SDJwtInstance({ hasher, hashAlg: 'sha-256', saltGenerator, signer: sign, signAlg: 'ES256' });
}

/** A new ES256 key pair as JWKs, with `kid` when given. */
export async function generateMandateKey(kid?: string): Promise<{ privateJwk: MandateJwk; publicJwk: MandateJwk }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const named = kid === undefined ? {} : { kid };
  return {
    privateJwk: { ...(await exportJWK(privateKey)), ...named } as MandateJwk,
    publicJwk: { ...(await exportJWK(publicKey)), ...named } as MandateJwk,
  };
}

/**
 * Issues open mandate claims as an AP2 root SD-JWT: `{delegate_payload: [<disclosed mandate>]}`, the allowed payees
 * and instruments each selectively disclosable (and disclosed), header `{alg: ES256, kid}`.
 */
export async function issueOpenMandate(privateJwk: MandateJwk, claims: Record<string, unknown>): Promise<string> {
  const constraints = Array.isArray(claims.constraints) ? (claims.constraints as Record<string, unknown>[]) : [];
  const inner: Record<number, unknown> = {};
  constraints.forEach((constraint, index) => {
    const allowed = constraint?.allowed;
    if (Array.isArray(allowed) && allowed.length > 0) inner[index] = { allowed: { _sd: allowed.map((_, i) => i) } };
  });
  const frame = { delegate_payload: { _sd: [0], 0: { constraints: inner } } };
  const sdJwt = await sdJwtSigner(privateJwk);
  // @sd-jwt/core's frame type does not describe array-element frames, which AP2's delegate payload needs.
  return sdJwt.issue({ delegate_payload: [claims] }, frame as never, {
    header: { typ: 'example+sd-jwt', kid: String(privateJwk.kid) },
  });
}

/** What the agent's presentation binds to. */
export interface PresentationOptions {
  aud: string;
  nonce: string;
  /** Epoch seconds. */
  iat: number;
}

/** Presents an open mandate with the closed mandate, signed with the agent's (the `cnf`) key: `root~~leaf~`. */
export async function presentClosedMandate(
  agentPrivateJwk: MandateJwk,
  openMandate: string,
  closedMandate: Record<string, unknown>,
  options: PresentationOptions,
): Promise<string> {
  const previous = openMandate.endsWith('~') ? openMandate : `${openMandate}~`;
  const sdJwt = await sdJwtSigner(agentPrivateJwk);
  const leaf = await sdJwt.issue(
    { delegate_payload: [closedMandate], ...options, sd_hash: await sha256Base64url(previous) },
    { delegate_payload: { _sd: [0] } } as never,
    { header: { typ: 'kb+sd-jwt' } },
  );
  return `${previous.slice(0, -1)}~~${leaf}`;
}
