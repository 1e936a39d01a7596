import { AccessTokenError, invalidToken } from './access-token-error.js';
import { principalFromClaims, type TokenPrincipal } from './claims.js';
import { loadJose } from './jose-module.js';
import type { HttpAuthSettings } from './settings.js';
import type { SigningKeys } from './signing-keys.js';

/** Checks an access token and says whom it speaks for. */
export interface AccessTokenVerifier {
  /** The token's principal; throws `AccessTokenError` (`invalid`: 401, `unverifiable`: 503). */
  verify(token: string): Promise<TokenPrincipal>;
}

/**
 * `typ` values accepted: RFC 9068's `at+jwt` (with or without `application/`), and, for authorization servers that do
 * not use that profile, `JWT` or none. Any other type (an ID token's `id_token+jwt`, a `dpop+jwt` proof, a logout
 * token...) is refused: it is not an access token.
 */
const ACCESS_TOKEN_TYPES = new Set(['at+jwt', 'jwt']);
const normalizedType = (typ: string) => typ.toLowerCase().replace(/^application\//, '');

/** What a jose error says, in words for the client. */
function describe(error: { code?: string; claim?: string; message: string }): string {
  switch (error.code) {
    case 'ERR_JWT_EXPIRED':
      return 'The access token has expired (exp).';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (error.claim === 'aud') return 'The access token was issued for another resource (aud), not this MCP endpoint.';
      if (error.claim === 'iss') return 'The access token was issued by another authorization server (iss).';
      if (error.claim === 'nbf') return 'The access token is not valid yet (nbf).';
      return `The access token's ${error.claim ?? 'claims'} claim is not acceptable: ${error.message}.`;
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return "The access token's signature algorithm (alg) is not one this server accepts.";
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return "The access token's signature does not verify with the authorization server's keys.";
    case 'ERR_JWKS_NO_MATCHING_KEY':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return "No single key of the authorization server's key set matches the access token (kid, alg).";
    default:
      return 'The access token is not a well-formed signed JWT.';
  }
}

export function createAccessTokenVerifier(settings: HttpAuthSettings, keys: SigningKeys): AccessTokenVerifier {
  return {
    async verify(token) {
      const jose = await loadJose();
      let verified: Awaited<ReturnType<typeof jose.jwtVerify>>;
      try {
        verified = await jose.jwtVerify(token, keys.getKey, {
          issuer: settings.issuer,
          audience: settings.audience,
          algorithms: settings.algorithms,
          clockTolerance: settings.clockToleranceSeconds,
          requiredClaims: ['exp'],
        });
      } catch (error) {
        if (error instanceof AccessTokenError) throw error;
        if (error instanceof jose.errors.JOSEError)
          throw invalidToken(describe(error as { code?: string; claim?: string; message: string }));
        // A token that breaks parsing in a way jose does not name (it should not happen) is still the token's fault.
        throw invalidToken('The access token could not be read.');
      }
      const { typ } = verified.protectedHeader;
      if (typ !== undefined && !ACCESS_TOKEN_TYPES.has(normalizedType(typ)))
        throw invalidToken(`The token's type (typ ${JSON.stringify(typ)}) is not an access token's (at+jwt).`);
      return principalFromClaims(verified.payload as Record<string, unknown>, token, settings.claims);
    },
  };
}
