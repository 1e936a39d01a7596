import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

/** Which key signs: the ES256 or RS256 key the key set publishes, or an ES256 key it does not (a forger's). */
export type SigningKeyName = 'es256' | 'rs256' | 'stranger';

export interface TokenRequest {
  /** `aud`; default the audience the server was started for. */
  audience?: string | string[];
  /** `iss`; default this server's issuer. */
  issuer?: string;
  /** Claims beside iss, aud, iat, nbf, exp; a claim set to undefined is left out. */
  claims?: Record<string, unknown>;
  /** Seconds from now until `exp` (negative: already expired); default 300. Null: no exp. */
  expiresIn?: number | null;
  /** Seconds from now of `nbf`; default -5. */
  notBefore?: number;
  key?: SigningKeyName;
  /** Protected header fields over the key's `alg` and `kid` (`typ`, another `alg`...). */
  header?: Record<string, unknown>;
}

/** How the server publishes its metadata, for the discovery tests. */
export interface AuthorizationServerOptions {
  /** `oauth`: RFC 8414 only (default); `oidc`: OpenID Connect discovery only; `none`: no metadata. */
  metadata?: 'oauth' | 'oidc' | 'none';
  /** The metadata's `jwks_uri`; default this server's own `/jwks.json`. */
  jwksUri?: string;
  /** The metadata's `issuer`; default the real one. */
  claimedIssuer?: string;
  /** The size of the key set document, padded with spaces; default unpadded. */
  jwksPaddingBytes?: number;
  /** The port to listen on; default a free one. */
  port?: number;
}

/**
 * A small authorization server on 127.0.0.1: its metadata and its key set (throwaway ES256 and RS256 keys made by
 * `jose`), and tokens signed in-process for the tests. Counts what it served.
 */
export interface TestAuthorizationServer {
  issuer: string;
  jwksUrl: string;
  /** Requests received, by path. */
  hits: Map<string, number>;
  sign(request?: TokenRequest): Promise<string>;
  close(): Promise<void>;
}

async function keyPair(alg: 'ES256' | 'RS256', kid: string) {
  const { publicKey, privateKey } = await generateKeyPair(alg);
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' };
  return { privateKey, jwk, alg };
}

export async function startAuthorizationServer(
  audience: string,
  options: AuthorizationServerOptions = {},
): Promise<TestAuthorizationServer> {
  const keys = {
    es256: await keyPair('ES256', 'es'),
    rs256: await keyPair('RS256', 'rs'),
    stranger: await keyPair('ES256', 'es'),
  };
  const hits = new Map<string, number>();
  let issuer = '';
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const json = (body: unknown) => response.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
    const metadataPath = {
      oauth: '/.well-known/oauth-authorization-server',
      oidc: '/.well-known/openid-configuration',
      none: undefined,
    }[options.metadata ?? 'oauth'];
    if (path === metadataPath) {
      return json(
        JSON.stringify({
          issuer: options.claimedIssuer ?? issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: options.jwksUri ?? `${issuer}/jwks.json`,
          response_types_supported: ['code'],
          code_challenge_methods_supported: ['S256'],
        }),
      );
    }
    if (path === '/jwks.json') {
      return json(JSON.stringify({ keys: [keys.es256.jwk, keys.rs256.jwk] }) + ' '.repeat(options.jwksPaddingBytes ?? 0));
    }
    response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"error":"not_found"}');
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    jwksUrl: `${issuer}/jwks.json`,
    hits,
    async sign(request = {}) {
      const key = keys[request.key ?? 'es256'];
      const now = Math.floor(Date.now() / 1000);
      const claims = Object.fromEntries(Object.entries(request.claims ?? {}).filter(([, value]) => value !== undefined));
      let jwt = new SignJWT(claims)
        .setProtectedHeader({ alg: key.alg, kid: key.jwk.kid, typ: 'at+jwt', ...request.header })
        .setIssuer(request.issuer ?? issuer)
        .setAudience(request.audience ?? audience)
        .setIssuedAt(now)
        .setNotBefore(now + (request.notBefore ?? -5));
      if (request.expiresIn !== null) jwt = jwt.setExpirationTime(now + (request.expiresIn ?? 300));
      return jwt.sign(key.privateKey);
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** A JWT that is not signed at all (`alg: none`), which no verifier may accept. */
export function unsignedToken(claims: Record<string, unknown>): string {
  const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'none', typ: 'at+jwt' })}.${part(claims)}.`;
}
