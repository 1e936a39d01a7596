import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createOAuthResourceServer, type HttpAuthOptions } from '../src/mcp/node.js';
import {
  type AuthorizationServerOptions,
  startAuthorizationServer,
  type TestAuthorizationServer,
} from './support/authorization-server.js';
import { freePort } from './support/free-port.js';

const audience = 'http://127.0.0.1:4020/mcp';
const claims = { cardrail_agent_id: 'agt_test', scope: 'cardrail:read cardrail:spend' };
const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((server) => server.close()));
});

async function authorizationServer(options: AuthorizationServerOptions = {}): Promise<TestAuthorizationServer> {
  const server = await startAuthorizationServer(audience, options);
  opened.push(server);
  return server;
}

/** A resource server, what it told the operator, and a way to present a token to it. */
function resourceServer(options: Omit<HttpAuthOptions, 'audience'>) {
  const problems: string[] = [];
  const server = createOAuthResourceServer({ audience, onProblem: (message) => problems.push(message), ...options });
  const present = async (token: string) => {
    const checked = await server.authenticate(
      new Request(audience, { method: 'POST', headers: { authorization: `Bearer ${token}` } }),
    );
    if (checked.ok) return { status: 200, description: '', principal: checked.principal };
    const body = (await checked.response.json()) as { error_description: string };
    return {
      status: checked.response.status,
      description: body.error_description,
      retryAfter: checked.response.headers.get('retry-after'),
    };
  };
  return { server, problems, present };
}

describe('the issuer keys', () => {
  it("finds the JWKS through the issuer's metadata, reads it once and keeps it", async () => {
    const as = await authorizationServer();
    const { server, present } = resourceServer({ issuer: as.issuer });
    for (let i = 0; i < 5; i += 1) expect((await present(await as.sign({ claims }))).status).toBe(200);
    expect((await present(await as.sign({ claims, key: 'rs256' }))).principal).toMatchObject({
      agentId: 'agt_test',
      cardId: undefined,
      scopes: ['cardrail:read', 'cardrail:spend'],
    });
    expect(as.hits.get('/.well-known/oauth-authorization-server')).toBe(1);
    expect(as.hits.get('/jwks.json')).toBe(1);
    expect(await server.prepare()).toBe(as.jwksUrl);
  });

  it('falls back to OpenID Connect discovery, and takes an explicit JWKS URL without any metadata', async () => {
    const oidc = await authorizationServer({ metadata: 'oidc' });
    expect((await resourceServer({ issuer: oidc.issuer }).present(await oidc.sign({ claims }))).status).toBe(200);
    const bare = await authorizationServer({ metadata: 'none' });
    const discovered = resourceServer({ issuer: bare.issuer });
    expect(await discovered.present(await bare.sign({ claims }))).toMatchObject({
      status: 503,
      description: /No metadata found/,
    });
    const explicit = resourceServer({ issuer: bare.issuer, jwksUrl: bare.jwksUrl });
    expect((await explicit.present(await bare.sign({ claims }))).status).toBe(200);
  });

  it("never fetches a JWKS the metadata puts off the issuer's origin, unless it is configured", async () => {
    const elsewhere = await authorizationServer();
    const as = await authorizationServer({ jwksUri: elsewhere.jwksUrl });
    const discovered = resourceServer({ issuer: as.issuer });
    const refused = await discovered.present(await as.sign({ claims }));
    expect(refused).toMatchObject({ status: 503, description: /not on the issuer's origin/ });
    expect(elsewhere.hits.get('/jwks.json')).toBeUndefined();
    expect(discovered.problems).toEqual([expect.stringMatching(/not on the issuer's origin/)]);
    // Configured, it is trusted: the token is signed with the key published there.
    const configured = resourceServer({ issuer: as.issuer, jwksUrl: elsewhere.jwksUrl });
    expect((await configured.present(await elsewhere.sign({ claims, issuer: as.issuer }))).status).toBe(200);
  });

  it('refuses metadata that speaks for another issuer, a redirect, and a key set too large', async () => {
    const impostor = await authorizationServer({ claimedIssuer: 'https://auth.example.com/' });
    expect(await resourceServer({ issuer: impostor.issuer }).present(await impostor.sign({ claims }))).toMatchObject({
      status: 503,
      description: /is for issuer "https:\/\/auth\.example\.com\/"/,
    });
    const target = await authorizationServer();
    const redirecting = createServer((_request, response) => response.writeHead(302, { Location: target.jwksUrl }).end());
    await new Promise<void>((resolve) => redirecting.listen(0, '127.0.0.1', resolve));
    opened.push({ close: () => new Promise((resolve) => redirecting.close(() => resolve())) });
    const redirectUrl = `http://127.0.0.1:${(redirecting.address() as AddressInfo).port}/jwks.json`;
    expect(
      await resourceServer({ issuer: target.issuer, jwksUrl: redirectUrl }).present(await target.sign({ claims })),
    ).toMatchObject({
      status: 503,
      description: /could not be read/,
    });
    expect(target.hits.get('/jwks.json')).toBeUndefined();
    const bloated = await authorizationServer({ jwksPaddingBytes: 300 * 1024 });
    expect(await resourceServer({ issuer: bloated.issuer }).present(await bloated.sign({ claims }))).toMatchObject({
      status: 503,
      description: /more than the 262144 bytes allowed/,
    });
  });

  it('gives up on metadata or keys that never come, after the fetch timeout', async () => {
    const hanging = createServer(() => undefined); // accepts, never answers
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    opened.push({
      close: () =>
        new Promise((resolve) => {
          hanging.closeAllConnections();
          hanging.close(() => resolve());
        }),
    });
    const slow = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const as = await authorizationServer();
    const viaMetadata = resourceServer({ issuer: slow, fetchTimeoutMs: 300 });
    expect(await viaMetadata.present(await as.sign({ claims, issuer: slow }))).toMatchObject({ status: 503 });
    const viaKeys = resourceServer({ issuer: as.issuer, jwksUrl: `${slow}/jwks.json`, fetchTimeoutMs: 300 });
    expect(await viaKeys.present(await as.sign({ claims }))).toMatchObject({ status: 503, description: /could not be read/ });
  });

  it('answers 503 with Retry-After while the issuer is out of reach, tells the operator once, and recovers', async () => {
    const port = await freePort();
    const issuer = `http://127.0.0.1:${port}`;
    const { present, problems } = resourceServer({ issuer, fetchTimeoutMs: 2000 });
    const signer = await authorizationServer();
    const early = await signer.sign({ claims, issuer });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      expect(await present(early)).toMatchObject({
        status: 503,
        retryAfter: '10',
        description: /signing keys could not be read/,
      });
      const as = await authorizationServer({ port });
      const token = await as.sign({ claims });
      // Within the next 10 seconds the answer comes at once, without asking the issuer again.
      expect((await present(token)).status).toBe(503);
      expect(as.hits.size).toBe(0);
      expect(problems).toHaveLength(1);
      vi.setSystemTime(Date.now() + 11_000);
      expect((await present(token)).status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('accepts only the allowed algorithms: never none or an HMAC, and not RS256 when only ES256 is allowed', async () => {
    const as = await authorizationServer();
    const esOnly = resourceServer({ issuer: as.issuer, algorithms: ['ES256'] });
    expect((await esOnly.present(await as.sign({ claims }))).status).toBe(200);
    expect(await esOnly.present(await as.sign({ claims, key: 'rs256' }))).toMatchObject({
      status: 401,
      description: /algorithm \(alg\)/,
    });
    const hmac = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', kid: 'es' })
      .setIssuer(as.issuer)
      .setAudience(audience)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a shared secret an attacker guessed'));
    expect(await resourceServer({ issuer: as.issuer }).present(hmac)).toMatchObject({
      status: 401,
      description: /algorithm \(alg\)/,
    });
  });
});
