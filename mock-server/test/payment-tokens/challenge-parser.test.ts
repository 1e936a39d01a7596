// The WWW-Authenticate grammar of RFC 9110 section 11.6.1, as the token request reads it.
import { describe, expect, it } from 'vitest';
import { ChallengeSyntaxError, parseWwwAuthenticate } from '../../src/engine/payment-tokens/auth-challenges.js';

const params = (value: string) =>
  parseWwwAuthenticate(value).map((challenge) => ({
    scheme: challenge.scheme,
    token68: challenge.token68,
    params: Object.fromEntries(challenge.params),
  }));

describe('parseWwwAuthenticate', () => {
  it('reads several challenges of one value, as several header lines joined by fetch', () => {
    expect(params('Bearer realm="api", error="invalid_token", Payment id="a", method=card, Basic realm="x"')).toEqual([
      { scheme: 'Bearer', token68: null, params: { realm: 'api', error: 'invalid_token' } },
      { scheme: 'Payment', token68: null, params: { id: 'a', method: 'card' } },
      { scheme: 'Basic', token68: null, params: { realm: 'x' } },
    ]);
  });

  it('reads a token68 challenge, quoted commas and escapes, whitespace around "=", names in any case', () => {
    expect(params('Negotiate abc+/==, Payment ID = "a,b", Description="say \\"hi\\""')).toEqual([
      { scheme: 'Negotiate', token68: 'abc+/==', params: {} },
      { scheme: 'Payment', token68: null, params: { id: 'a,b', description: 'say "hi"' } },
    ]);
  });

  it('skips empty list elements and reads a scheme alone', () => {
    expect(params(' , Payment ,, Basic')).toEqual([
      { scheme: 'Payment', token68: null, params: {} },
      { scheme: 'Basic', token68: null, params: {} },
    ]);
  });

  it.each([
    ['', 'there is no challenge'],
    ['Payment id="a', 'the quoted string opened at character 12 is never closed'],
    ['Payment id="a" realm="b"', 'expected "," between parameters at character 16, found "r"'],
    ['Payment id="a", id="b"', 'the parameter id appears twice in one challenge'],
    // `id=` alone reads as a token68 (RFC 9110 allows trailing "="); what follows cannot be a challenge.
    ['Payment id=, realm="b"', 'expected a parameter name at character 19, found "="'],
    ['Payment id=""x', 'expected "," between parameters at character 14, found "x"'],
    ['="a"', 'expected an auth-scheme at character 1, found "="'],
  ])('refuses %j: %s', (value, message) => {
    expect(() => parseWwwAuthenticate(value)).toThrow(new ChallengeSyntaxError(message));
  });

  it('reads a 16 KiB value in one linear pass', () => {
    const value = `Payment id="x", request="${'A'.repeat(16_000)}"`;
    expect(parseWwwAuthenticate(value)[0]?.params.get('request')).toHaveLength(16_000);
  });
});
