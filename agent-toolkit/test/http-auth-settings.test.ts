import type { AuthInfo } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { bearerChallengeHeader } from '../src/http-auth/challenge.js';
import { issuerMetadataUrls } from '../src/http-auth/issuer-metadata.js';
import { createOAuthResourceServer, HttpAuthOptionError, type HttpAuthOptions, requiredScopes } from '../src/mcp/node.js';
import { bearerChallenge } from './support/bearer-challenge.js';

const base: HttpAuthOptions = { issuer: 'https://auth.example.com/', audience: 'https://mcp.example.com/mcp' };

function refusal(options: Partial<HttpAuthOptions>): { option: string; problem: string } {
  try {
    createOAuthResourceServer({ ...base, ...options });
  } catch (error) {
    if (error instanceof HttpAuthOptionError) return { option: error.option, problem: error.problem };
    throw error;
  }
  throw new Error(`accepted ${JSON.stringify(options)}`);
}

describe('OAuth settings', () => {
  it('refuses options that would weaken the checks, naming the option', () => {
    const cases: [Partial<HttpAuthOptions>, string, RegExp][] = [
      [{ issuer: 'http://auth.example.com/' }, 'issuer', /https URL \(http only on a loopback host\)/],
      [{ issuer: 'auth.example.com' }, 'issuer', /absolute URL/],
      [{ issuer: 'https://auth.example.com/?tenant=1' }, 'issuer', /must not have a query/],
      [{ issuer: 'https://user:pw@auth.example.com/' }, 'issuer', /user name or password/],
      [{ audience: 'https://mcp.example.com/mcp#x' }, 'audience', /fragment/],
      [{ audience: 'http://10.0.0.5/mcp' }, 'audience', /https URL/],
      [{ jwksUrl: 'http://keys.example.com/jwks.json' }, 'jwksUrl', /https URL/],
      [{ algorithms: ['ES256', 'none'] }, 'algorithms', /must not allow "none"/],
      [{ algorithms: ['HS256'] }, 'algorithms', /HS256: an HMAC key is a shared secret/],
      [{ algorithms: ['ES257'] }, 'algorithms', /unknown algorithm "ES257"/],
      [{ algorithms: [] }, 'algorithms', /at least one/],
      [{ scopes: { read: 'cardrail read' } }, 'scopes.read', /without spaces/],
      [{ scopes: { read: 'same', spend: 'same' } }, 'scopes', /two different scopes/],
      [{ claims: { agentId: '' } }, 'claims.agentId', /non-empty name/],
      [{ clockToleranceSeconds: -1 }, 'clockToleranceSeconds', /from 0 to 300/],
    ];
    for (const [options, option, problem] of cases) {
      const refused = refusal(options);
      expect(refused.option, JSON.stringify(options)).toBe(option);
      expect(refused.problem, JSON.stringify(options)).toMatch(problem);
    }
  });

  it('takes loopback http for tests and local servers, and keeps the issuer exactly as given', () => {
    for (const issuer of ['http://127.0.0.1:9000', 'http://localhost:9000/', 'http://[::1]:9000/tenant', 'http://127.8.0.1']) {
      expect(createOAuthResourceServer({ issuer, audience: 'http://127.0.0.1:4020/mcp' }).issuer).toBe(issuer);
    }
    const server = createOAuthResourceServer(base);
    expect(server.metadata.authorization_servers).toEqual(['https://auth.example.com/']);
  });

  it("puts the metadata at RFC 9728's path form of the audience, and at the root", () => {
    const paths = (audience: string) => {
      const server = createOAuthResourceServer({ ...base, audience });
      const served = (path: string) =>
        server.metadataResponse({ method: 'GET', url: `${new URL(audience).origin}${path}` })?.status;
      return {
        url: server.metadataUrl,
        root: served('/.well-known/oauth-protected-resource'),
        other: served('/.well-known/other'),
      };
    };
    expect(paths('https://mcp.example.com/mcp')).toEqual({
      url: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      root: 200,
      other: undefined,
    });
    expect(paths('https://mcp.example.com/team/a/mcp/').url).toBe(
      'https://mcp.example.com/.well-known/oauth-protected-resource/team/a/mcp',
    );
    expect(paths('https://mcp.example.com/').url).toBe('https://mcp.example.com/.well-known/oauth-protected-resource');
  });

  it('looks for the issuer metadata where MCP clients do (RFC 8414, then OpenID Connect)', () => {
    expect(issuerMetadataUrls('https://auth.example.com/')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server',
      'https://auth.example.com/.well-known/openid-configuration',
    ]);
    expect(issuerMetadataUrls('https://auth.example.com/tenant1')).toEqual([
      'https://auth.example.com/.well-known/oauth-authorization-server/tenant1',
      'https://auth.example.com/.well-known/openid-configuration/tenant1',
      'https://auth.example.com/tenant1/.well-known/openid-configuration',
    ]);
  });
});

describe('scopes by tool hints', () => {
  it('needs read for a read-only tool, read and spend for one that changes something, by hints and not by name', () => {
    expect(requiredScopes({ readOnly: true })).toEqual(['cardrail:read']);
    expect(requiredScopes({ readOnly: false })).toEqual(['cardrail:read', 'cardrail:spend']);
    // A catalog entry with more hints fits as it is.
    const hinted = { readOnly: false, destructive: true, idempotent: true, mayNeedPerson: false };
    expect(requiredScopes(hinted)).toEqual(['cardrail:read', 'cardrail:spend']);
    const renamed = createOAuthResourceServer({
      ...base,
      scopes: { read: 'api://cardrail/Read', spend: 'api://cardrail/Spend' },
    });
    expect(renamed.requiredScopes({ readOnly: false })).toEqual(['api://cardrail/Read', 'api://cardrail/Spend']);
    expect(renamed.metadata.scopes_supported).toEqual(['api://cardrail/Read', 'api://cardrail/Spend']);
  });

  it('names every scope a call needs in one challenge, and none when the token has them', () => {
    const server = createOAuthResourceServer(base);
    const principal = {
      agentId: 'agt_1',
      cardId: undefined,
      scopes: ['cardrail:read'],
      subject: 'u',
      clientId: 'c',
      expiresAt: 1,
      token: 't',
    };
    expect(server.insufficientScope(principal, [])).toBeUndefined();
    expect(server.insufficientScope(principal, [{ readOnly: true }])).toBeUndefined();
    const refused = server.insufficientScope(principal, [{ readOnly: true }, { readOnly: false }]);
    expect(refused?.status).toBe(403);
    expect(bearerChallenge(refused?.headers.get('www-authenticate') ?? null)).toEqual({
      error: 'insufficient_scope',
      error_description: 'This request needs the scopes cardrail:read cardrail:spend; the token lacks cardrail:spend.',
      scope: 'cardrail:read cardrail:spend',
      resource_metadata: server.metadataUrl,
    });
    const both = { ...principal, scopes: ['cardrail:spend', 'cardrail:read'] };
    expect(server.insufficientScope(both, [{ readOnly: false }])).toBeUndefined();
  });

  it('gives a verified principal to the MCP SDK as its AuthInfo (ctx.http.authInfo)', () => {
    const server = createOAuthResourceServer(base);
    const principal = {
      agentId: 'agt_1',
      cardId: 'card_1',
      scopes: ['cardrail:read'],
      subject: 'user_1',
      clientId: undefined,
      expiresAt: 99,
      token: 't',
    };
    const info: AuthInfo = server.authInfo(principal);
    expect(info).toEqual({
      token: 't',
      clientId: 'user_1',
      scopes: ['cardrail:read'],
      expiresAt: 99,
      resource: new URL('https://mcp.example.com/mcp'),
      resourceMetadataUrl: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
      extra: { principal },
    });
  });
});

describe('the WWW-Authenticate challenge', () => {
  it('keeps descriptions inside the characters RFC 6750 allows and escapes quoted values', () => {
    const header = bearerChallengeHeader({
      error: 'invalid_token',
      description: 'bad "token" \\ été\nnext',
      scopes: ['a:b', 'c'],
      resourceMetadata: 'https://mcp.example.com/.well-known/oauth-protected-resource/mcp',
    });
    expect(header).toBe(
      'Bearer error="invalid_token", error_description="bad  token     t  next", ' +
        'resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp", scope="a:b c"',
    );
    expect(bearerChallengeHeader({ scopes: [], resourceMetadata: 'https://x/' })).toBe('Bearer resource_metadata="https://x/"');
  });
});
