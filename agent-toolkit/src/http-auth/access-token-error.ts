/**
 * Why a request's access token was not accepted: `invalid` is the client's (the token is malformed, forged, expired,
 * for another issuer or audience, or lacks a claim: 401 `invalid_token`); `unverifiable` is the server's side (the
 * issuer's metadata or keys could not be read: 503, the client may try again).
 */
export class AccessTokenError extends Error {
  override readonly name = 'AccessTokenError';
  readonly kind: 'invalid' | 'unverifiable';

  constructor(kind: 'invalid' | 'unverifiable', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
  }
}

export const invalidToken = (message: string): AccessTokenError => new AccessTokenError('invalid', message);
