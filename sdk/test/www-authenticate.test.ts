// `parseWwwAuthenticate` (`@cardrail/sdk/www-authenticate`): the WWW-Authenticate grammar of RFC 9110 section 11.6.1
// (RFC 7235 section 4.1 before it), on the examples of those RFCs and of the schemes registered on it, and the values
// it refuses. The SDK's `payments.fetch` and the mock's MPP token requests read their challenges with it.
import { describe, expect, it } from 'vitest';
import { parseWwwAuthenticate } from '../src/payments/www-authenticate.js';

const read = (value: string) =>
  parseWwwAuthenticate(value).map((challenge) => ({
    scheme: challenge.scheme,
    token68: challenge.token68,
    params: Object.fromEntries(challenge.params),
  }));

describe('parseWwwAuthenticate', () => {
  it("reads RFC 9110's example: two challenges in one value, an escaped quote in a quoted string", () => {
    expect(read('Basic realm="simple", Newauth realm="apps", type=1, title="Login to \\"apps\\""')).toEqual([
      { scheme: 'Basic', token68: null, params: { realm: 'simple' } },
      { scheme: 'Newauth', token68: null, params: { realm: 'apps', type: '1', title: 'Login to "apps"' } },
    ]);
  });

  it("reads RFC 7235's example, the other way round", () => {
    expect(read('Newauth realm="apps", type=1,\ttitle="Login to \\"apps\\"", Basic realm="simple"')).toEqual([
      { scheme: 'Newauth', token68: null, params: { realm: 'apps', type: '1', title: 'Login to "apps"' } },
      { scheme: 'Basic', token68: null, params: { realm: 'simple' } },
    ]);
  });

  it('keeps commas and "=" inside quoted strings (RFC 7616 Digest), and unescapes any quoted-pair', () => {
    const digest =
      'Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=SHA-256, ' +
      'nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="a=b, c", note="back\\\\slash \\x"';
    expect(read(digest)).toEqual([
      {
        scheme: 'Digest',
        token68: null,
        params: {
          realm: 'http-auth@example.org',
          qop: 'auth, auth-int',
          algorithm: 'SHA-256',
          nonce: '7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v',
          opaque: 'a=b, c',
          note: 'back\\slash x',
        },
      },
    ]);
  });

  it('reads a token68 (RFC 4559 Negotiate, with and without trailing "=") beside auth-param challenges', () => {
    expect(read('Negotiate a87421000492aa874209af8bc028, Basic dXNlcjpwYXNz== , NTLM abc+/.-_~=, Bearer realm="api"')).toEqual([
      { scheme: 'Negotiate', token68: 'a87421000492aa874209af8bc028', params: {} },
      { scheme: 'Basic', token68: 'dXNlcjpwYXNz==', params: {} },
      { scheme: 'NTLM', token68: 'abc+/.-_~=', params: {} },
      { scheme: 'Bearer', token68: null, params: { realm: 'api' } },
    ]);
  });

  it('keeps the scheme as sent and lowercases parameter names (both are case-insensitive)', () => {
    expect(read('PAYMENT ID="a", Method=card, rEaLm = "x"')).toEqual([
      { scheme: 'PAYMENT', token68: null, params: { id: 'a', method: 'card', realm: 'x' } },
    ]);
    expect(() => parseWwwAuthenticate('Payment id="a", ID="b"')).toThrow(
      new SyntaxError('the parameter ID appears twice in one challenge'),
    );
  });

  it('reads several header lines as fetch joins them, skipping empty list elements, and a scheme alone', () => {
    const headers = new Headers();
    headers.append('WWW-Authenticate', 'Bearer realm="api", error="invalid_token"');
    headers.append('WWW-Authenticate', ', Payment id="a", method=card,, ');
    headers.append('WWW-Authenticate', 'Basic');
    expect(read(headers.get('www-authenticate') ?? '')).toEqual([
      { scheme: 'Bearer', token68: null, params: { realm: 'api', error: 'invalid_token' } },
      { scheme: 'Payment', token68: null, params: { id: 'a', method: 'card' } },
      { scheme: 'Basic', token68: null, params: {} },
    ]);
  });

  it('reads what an MPP merchant may send: a token68, quoted commas and escapes, whitespace around "="', () => {
    expect(read('Negotiate abc+/==, Payment ID = "a,b", Description="say \\"hi\\""')).toEqual([
      { scheme: 'Negotiate', token68: 'abc+/==', params: {} },
      { scheme: 'Payment', token68: null, params: { id: 'a,b', description: 'say "hi"' } },
    ]);
    expect(read(' , Payment ,, Basic')).toEqual([
      { scheme: 'Payment', token68: null, params: {} },
      { scheme: 'Basic', token68: null, params: {} },
    ]);
  });

  it('reads an empty quoted string as an empty value, and a lone word after the scheme as a token68', () => {
    expect(read('Bearer realm=""')).toEqual([{ scheme: 'Bearer', token68: null, params: { realm: '' } }]);
    expect(read('Payment id')).toEqual([{ scheme: 'Payment', token68: 'id', params: {} }]);
  });

  it.each([
    ['', 'there is no challenge'],
    [' , ,\t', 'there is no challenge'],
    ['Payment id="a', 'the quoted string opened at character 12 is never closed'],
    ['Payment id="a\\', 'the quoted string opened at character 12 is never closed'],
    ['Payment id="a" realm="b"', 'expected "," between parameters at character 16, found "r"'],
    ['Payment id="a", id="b"', 'the parameter id appears twice in one challenge'],
    // `id=` alone reads as a token68 (RFC 9110 allows trailing "="); what follows cannot be a challenge.
    ['Payment id=, realm="b"', 'expected a parameter name at character 19, found "="'],
    ['Payment id=""x', 'expected "," between parameters at character 14, found "x"'],
    // Not a token68 (something follows it), so a parameter, whose value cannot start with "=".
    ['Negotiate abc== def', 'expected a value for the parameter abc at character 15, found "="'],
    ['Payment id=@', 'expected a value for the parameter id at character 12, found "@"'],
    ['="a"', 'expected an auth-scheme at character 1, found "="'],
  ])('refuses %j: %s', (value, message) => {
    expect(() => parseWwwAuthenticate(value)).toThrow(new SyntaxError(message));
  });

  it('reads a 16 KiB value in one linear pass', () => {
    const value = `Payment id="x", request="${'A'.repeat(16_000)}"`;
    expect(parseWwwAuthenticate(value)[0]?.params.get('request')).toHaveLength(16_000);
  });
});
