import { SDJwtInstance } from '@sd-jwt/core';
import { base64url, compactVerify, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, SignJWT } from 'jose';
import type { MandateJwk, PresentationCheck, VerifiedPresentation } from './mandate-types.js';

/**
 * The signature work of AP2 mandates and receipts, with jose on Web Crypto and @sd-jwt/core for the SD-JWTs (their
 * disclosures and digests): loaded on the first mandate or receipt, with jose, as one module (jose-module.ts).
 * A presentation is `<root SD-JWT>~<disclosures>~~<KB-SD-JWT>~<disclosure>~` (AP2 v0.2 code/sdk/python/ap2/sdk/
 * sdjwt/chain.py `verify_chain`); every failure throws `Unverifiable` with what failed.
 */
class Unverifiable extends Error {
  readonly unverifiable = true;
}

const encoder = new TextEncoder();
/** AP2 signs with ES256 only (every example, and the SDK's default); nothing else is accepted. */
const ALGORITHMS = ['ES256'];

async function sha256(data: string | ArrayBuffer | Uint8Array, alg = 'sha-256'): Promise<Uint8Array> {
  if (alg !== 'sha-256') throw new Unverifiable(`the _sd_alg ${alg} is not supported`);
  const bytes = typeof data === 'string' ? encoder.encode(data) : new Uint8Array(data);
  return new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
}

/** base64url(SHA-256(text)): AP2's `sd_hash` and its receipt `reference`. */
export async function sha256Base64url(text: string): Promise<string> {
  return base64url.encode(await sha256(text));
}

/** A verifier for @sd-jwt/core that pins the algorithm: jose refuses a header whose `alg` is not ES256. */
function pinnedVerifier(jwk: MandateJwk) {
  return async (data: string, signature: string) => {
    try {
      await compactVerify(`${data}.${signature}`, await importJWK(jwk, 'ES256'), { algorithms: ALGORITHMS });
      return true;
    } catch {
      return false;
    }
  };
}

function headerOf(jwt: string, which: string): Record<string, unknown> {
  try {
    return decodeProtectedHeader(jwt) as Record<string, unknown>;
  } catch {
    throw new Unverifiable(`the ${which} is not a JWT`);
  }
}

async function verifySdJwt(segment: string, jwk: MandateJwk, which: string): Promise<Record<string, unknown>> {
  const sdJwt = new SDJwtInstance({ hasher: sha256, verifier: pinnedVerifier(jwk) });
  try {
    // Times are checked by the caller, on the claims AP2 puts them in (inside the delegate payload).
    const { payload } = await sdJwt.verify(segment, { currentDate: 0, skewSeconds: Number.MAX_SAFE_INTEGER });
    return payload as Record<string, unknown>;
  } catch (error) {
    throw new Unverifiable(`the ${which} does not verify (${error instanceof Error ? error.message : 'invalid'})`);
  }
}

function onlyDelegate(payload: Record<string, unknown>, which: string): Record<string, unknown> {
  const items = payload.delegate_payload;
  if (!Array.isArray(items) || items.length !== 1) throw new Unverifiable(`the ${which} must disclose one mandate`);
  const item: unknown = items[0];
  if (item === null || typeof item !== 'object' || Array.isArray(item) || '...' in item)
    throw new Unverifiable(`the ${which} must disclose one mandate`);
  return item as Record<string, unknown>;
}

/**
 * Verifies a presentation's signatures and binding: the root with the trusted key its `kid` names, exactly one open
 * mandate disclosed with a public P-256 `cnf` key, the leaf (`typ` `kb+sd-jwt`) with that key, its `sd_hash` over
 * the root as sent, its `aud`, and a `nonce` and `iat`. Times, replay and constraints are the caller's.
 */
export async function verifyPresentation(presentation: string, check: PresentationCheck): Promise<VerifiedPresentation> {
  const segments = presentation.split('~~');
  if (segments.length !== 2) throw new Unverifiable('the presentation is not an AP2 mandate chain (root~~leaf)');
  const [rootSegment = '', leafSegment = ''] = segments;
  if (!leafSegment.endsWith('~')) throw new Unverifiable('the closed mandate must end with ~ (no trailing KB-JWT)');
  const rootHeader = headerOf(rootSegment.split('~')[0] ?? '', 'open mandate');
  if (rootHeader.alg !== 'ES256') throw new Unverifiable(`the open mandate's algorithm ${String(rootHeader.alg)} is not allowed`);
  for (const member of ['jwk', 'jku', 'x5c', 'x5u'])
    if (member in rootHeader) throw new Unverifiable(`the open mandate's header names key material (${member})`);
  const issuerKey = typeof rootHeader.kid === 'string' ? check.issuerKey(rootHeader.kid) : undefined;
  if (!issuerKey) throw new Unverifiable(`the open mandate's key ${String(rootHeader.kid)} is not a trusted issuer's`);
  const open = onlyDelegate(await verifySdJwt(`${rootSegment}~`, issuerKey, 'open mandate'), 'open mandate');
  const holder = (open.cnf as { jwk?: MandateJwk } | undefined)?.jwk;
  if (holder?.kty !== 'EC' || holder.crv !== 'P-256' || 'd' in holder)
    throw new Unverifiable("the open mandate's cnf must be a public P-256 key");

  const leafJwt = leafSegment.split('~')[0] ?? '';
  const leafHeader = headerOf(leafJwt, 'closed mandate');
  if (leafHeader.typ !== 'kb+sd-jwt' || leafHeader.alg !== 'ES256')
    throw new Unverifiable(`the closed mandate's typ/alg ${String(leafHeader.typ)}/${String(leafHeader.alg)} is not allowed`);
  const binding = await verifySdJwt(leafSegment, holder, 'closed mandate');
  if (binding.sd_hash !== (await sha256Base64url(`${rootSegment}~`)))
    throw new Unverifiable("the closed mandate's sd_hash does not bind it to this open mandate");
  if (binding.aud !== check.audience) throw new Unverifiable(`the audience ${String(binding.aud)} is not ${check.audience}`);
  if (typeof binding.nonce !== 'string' || binding.nonce.length === 0) throw new Unverifiable('the nonce is missing');
  if (typeof binding.iat !== 'number') throw new Unverifiable("the closed mandate's iat is missing");
  const closed = onlyDelegate(binding, 'closed mandate');
  if ('cnf' in closed) throw new Unverifiable('the closed mandate must not carry cnf');
  return {
    open,
    closed,
    nonce: binding.nonce,
    presentedAt: binding.iat,
    reference: await sha256Base64url(leafJwt),
  };
}

/** A new ES256 key pair for receipts: the private JWK (kept by the mock) and its public half. */
export async function generateReceiptKey(kid: string): Promise<{ privateJwk: MandateJwk; publicJwk: MandateJwk }> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const base = { kid, alg: 'ES256', use: 'sig' };
  const publicJwk = { ...(await exportJWK(publicKey)), ...base } as MandateJwk;
  const privateJwk = { ...(await exportJWK(privateKey)), ...base } as MandateJwk;
  return { privateJwk, publicJwk };
}

/** A payment receipt as a compact JWS, header `{alg: ES256, typ: JWT, kid}` (AP2's merchant payment processor's). */
export async function signReceipt(privateJwk: MandateJwk, claims: Record<string, unknown>): Promise<string> {
  const key = await importJWK(privateJwk, 'ES256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', typ: 'JWT', kid: String(privateJwk.kid) }).sign(key);
}

/** Whether an error is a presentation that could not be verified (not a fault of the mock). */
export function isUnverifiable(error: unknown): error is Error {
  return error instanceof Error && (error as { unverifiable?: boolean }).unverifiable === true;
}
