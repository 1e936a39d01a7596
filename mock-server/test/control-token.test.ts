// The control API's token check (testkit/control-token.ts): exactly the token, in full, and nothing else; tried with
// a few hundred wrong tokens that share as much with the right one as a guess could (a prefix, a suffix, all but the
// first or the last character, one character changed anywhere, another length, another case), for a token the server
// made and one a user gave.
import { describe, expect, it } from 'vitest';
import { createControlApi } from '../src/testkit/control-api.js';
import { newControlToken, presentsToken } from '../src/testkit/control-token.js';
import { createMockServer } from '../src/composition/create-mock-server.js';
import { newKey } from './support/keys.js';

/** A character other than `c`, from the same alphabet when there is one. */
function other(c: string, shift: number): string {
  const alphabet = /[0-9a-f]/.test(c) ? '0123456789abcdef' : 'abcdefghijklmnopqrstuvwxyz0123456789-_';
  const at = alphabet.indexOf(c);
  return alphabet[(at + shift) % alphabet.length] ?? 'x';
}

/** Wrong tokens as close to `token` as a guess could come, and others of every length up to twice its own. */
function wrongTokens(token: string): string[] {
  const wrong = new Set<string>();
  const last = token.length - 1;
  for (let shift = 1; shift < 16; shift++) {
    // Differing only in the last or the first character.
    wrong.add(token.slice(0, last) + other(token[last] as string, shift));
    wrong.add(other(token[0] as string, shift) + token.slice(1));
  }
  for (let i = 0; i < token.length; i++) {
    // One character changed, at every position.
    wrong.add(token.slice(0, i) + other(token[i] as string, 1) + token.slice(i + 1));
    // A prefix and a suffix of the token, and the token with one character more or fewer at either end.
    if (i > 0) wrong.add(token.slice(0, i));
    if (i > 0) wrong.add(token.slice(i));
  }
  for (const extra of ['0', 'a', 'Z', '-', token]) {
    wrong.add(token + extra);
    wrong.add(extra + token);
  }
  wrong.add(token.toUpperCase());
  // Unrelated tokens of every length from 1 to twice the token's, some starting like it.
  for (let length = 1; length <= token.length * 2; length++) {
    wrong.add(newControlToken().repeat(2).slice(0, length));
    wrong.add((token.slice(0, 8) + newControlToken()).slice(0, length));
  }
  wrong.delete(token);
  return [...wrong].filter((candidate) => candidate.length > 0);
}

describe.each([
  ['a token the server made', newControlToken()],
  ['a token a user gave', 'control-token-for-tests-0123456789'],
])('the control token check, for %s', (_name, token) => {
  const wrong = wrongTokens(token);

  it('accepts the token itself, however the Bearer scheme is spelt', () => {
    for (const authorization of [`Bearer ${token}`, `bearer ${token}`, `BEARER   ${token}`, `Bearer ${token} `]) {
      expect(presentsToken(authorization, token), authorization).toBe(true);
    }
  });

  it(`refuses each of several hundred wrong tokens (prefixes, suffixes, one character off, other lengths)`, () => {
    expect(wrong.length).toBeGreaterThan(250);
    expect(wrong.filter((candidate) => presentsToken(`Bearer ${candidate}`, token))).toEqual([]);
  });

  it('refuses a missing or malformed Authorization header, and the token under another scheme', () => {
    for (const authorization of [
      null,
      '',
      'Bearer',
      'Bearer ',
      token,
      `Basic ${token}`,
      `Bearer ${token} extra`,
      `Bearer\t${token}`,
    ]) {
      expect(presentsToken(authorization, token), String(authorization)).toBe(false);
    }
  });
});

describe('the control API with a wrong token', () => {
  it('answers 401 in the error format and does nothing', async () => {
    const token = newControlToken();
    const mock = createMockServer();
    const key = newKey();
    const created = await mock.handle(
      new Request('http://127.0.0.1:4010/v1/customers', {
        method: 'POST',
        headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: '{"email":"ada@example.com"}',
      }),
    );
    expect(created.status).toBe(201);
    const control = createControlApi(mock, { token });
    const reset = (presented: string) =>
      control(
        new Request('http://127.0.0.1:4010/__cardrail/reset', {
          method: 'POST',
          headers: { Authorization: `Bearer ${presented}` },
        }),
      );
    for (const presented of [token.slice(0, -1), `${token}0`, token.slice(1), other(token[0] as string, 1) + token.slice(1)]) {
      const answer = await reset(presented);
      expect(answer.status, presented).toBe(401);
      expect(JSON.parse(answer.body)).toEqual({ error: 'unauthorized' });
    }
    expect(mock.events.list({ apiKey: key })).toHaveLength(2);
    expect((await reset(token)).status).toBe(204);
    expect(mock.events.list({ apiKey: key })).toHaveLength(0);
  });
});
