import type { FlattenedJWSInput, JWSHeaderParameters, JWTVerifyGetKey, RemoteJWKSet } from 'jose';
import { AccessTokenError } from './access-token-error.js';
import { fetchBounded } from './bounded-fetch.js';
import { discoverJwksUrl } from './issuer-metadata.js';
import { loadJose } from './jose-module.js';
import type { HttpAuthSettings } from './settings.js';

/** The issuer's public keys, as `jose` asks for them, read from its JWKS and kept (`jose`'s cache). */
export interface SigningKeys {
  /** The key that verifies a token with this header; throws `AccessTokenError` `unverifiable` when keys cannot be read. */
  getKey: JWTVerifyGetKey;
  /** Finds the JWKS and reads it now (the issuer's metadata first, when no JWKS URL was given); resolves with its URL. */
  prepare(): Promise<string>;
}

/** After the metadata or the keys could not be read, tokens are answered 503 at once for this long, then it tries again. */
const RETRY_AFTER_MS = 10_000;
// jose's errors that mean "this token does not match the keys", not "the keys could not be read".
const TOKEN_FAULTS = new Set(['ERR_JWKS_NO_MATCHING_KEY', 'ERR_JWKS_MULTIPLE_MATCHING_KEYS', 'ERR_JOSE_NOT_SUPPORTED']);

const reasonOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function createSigningKeys(settings: HttpAuthSettings): SigningKeys {
  let remote: Promise<{ url: URL; jwks: RemoteJWKSet }> | undefined;
  let failure: { at: number; reason: string } | undefined;

  const fail = (error: unknown): never => {
    const reason = reasonOf(error);
    if (failure === undefined || Date.now() - failure.at >= RETRY_AFTER_MS) {
      settings.onProblem(`OAuth: the signing keys of ${settings.issuer} could not be read: ${reason}`);
    }
    failure = { at: Date.now(), reason };
    throw new AccessTokenError('unverifiable', `The authorization server's signing keys could not be read: ${reason}`, {
      cause: error,
    });
  };

  const load = () => {
    remote ??= (async () => {
      const jose = await loadJose();
      const url = settings.jwksUrl ?? (await discoverJwksUrl(settings.issuer, settings.fetch));
      const jwks = jose.createRemoteJWKSet(url, {
        timeoutDuration: settings.fetch.timeoutMs,
        [jose.customFetch]: (href: string, init: { headers: Headers; signal: AbortSignal }) =>
          fetchBounded(href, settings.fetch, init),
      });
      return { url, jwks };
    })();
    // A failed discovery is forgotten, so that a later token tries again.
    remote.catch(() => (remote = undefined));
    return remote;
  };

  const current = async () => {
    if (failure !== undefined && Date.now() - failure.at < RETRY_AFTER_MS) {
      throw new AccessTokenError('unverifiable', `The authorization server's signing keys could not be read: ${failure.reason}`);
    }
    return load().catch(fail);
  };

  return {
    async getKey(header: JWSHeaderParameters, token: FlattenedJWSInput) {
      const { jwks } = await current();
      try {
        const key = await jwks(header, token);
        failure = undefined;
        return key;
      } catch (error) {
        if (TOKEN_FAULTS.has((error as { code?: string }).code ?? '')) throw error;
        return fail(error);
      }
    },
    async prepare() {
      const { url, jwks } = await current();
      await jwks.reload().catch(fail);
      failure = undefined;
      return url.href;
    },
  };
}
