/**
 * The challenges of a `WWW-Authenticate` value (RFC 9110 section 11.6.1): a comma-separated list of challenges, each an
 * auth-scheme followed by a token68 or by auth-params, where a list may also be several header lines joined with
 * commas (as `fetch` joins them). Parameter names are case-insensitive (kept lowercased), values are tokens or quoted
 * strings (unescaped here). One pass over the text, so its cost is linear in its length.
 */
export interface AuthChallenge {
  scheme: string;
  params: Map<string, string>;
  token68: string | null;
}

/** The value breaks RFC 9110's grammar: `reason` says where and how. */
export class ChallengeSyntaxError extends Error {
  override readonly name = 'ChallengeSyntaxError';
}

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68 = /[A-Za-z0-9\-._~+/]/;

class Reader {
  at = 0;
  constructor(readonly text: string) {}

  get done(): boolean {
    return this.at >= this.text.length;
  }

  /** The character at the reading position ('' at the end). */
  peek(): string {
    return this.text.charAt(this.at);
  }

  skipWhitespace(): void {
    while (this.peek() === ' ' || this.peek() === '\t') this.at++;
  }

  /** Commas and whitespace between list elements (RFC 9110 allows empty elements). */
  skipSeparators(): void {
    while (this.peek() === ',' || this.peek() === ' ' || this.peek() === '\t') this.at++;
  }

  token(): string {
    const start = this.at;
    while (!this.done && TCHAR.test(this.peek())) this.at++;
    return this.text.slice(start, this.at);
  }

  quoted(): string {
    const opened = this.at + 1;
    this.at++;
    let value = '';
    while (!this.done && this.peek() !== '"') {
      if (this.peek() === '\\') this.at++;
      if (this.done) break;
      value += this.peek();
      this.at++;
    }
    if (this.done) throw new ChallengeSyntaxError(`the quoted string opened at character ${opened} is never closed`);
    this.at++;
    return value;
  }

  fail(expected: string): never {
    const found = this.done ? 'the end' : JSON.stringify(this.peek());
    throw new ChallengeSyntaxError(`expected ${expected} at character ${this.at + 1}, found ${found}`);
  }
}

/** Every challenge of the value, in order. */
export function parseWwwAuthenticate(value: string): AuthChallenge[] {
  const reader = new Reader(value);
  const challenges: AuthChallenge[] = [];
  reader.skipSeparators();
  while (!reader.done) {
    const scheme = reader.token();
    if (scheme === '') reader.fail('an auth-scheme');
    const challenge: AuthChallenge = { scheme, params: new Map(), token68: null };
    challenges.push(challenge);
    reader.skipWhitespace();
    // Unless the scheme stands alone, a token68 or the auth-params follow it, which end where the next scheme starts.
    if (!reader.done && reader.peek() !== ',') {
      challenge.token68 = readToken68(reader);
      if (challenge.token68 === null && readParams(reader, challenge) === 'next challenge') continue;
    }
    reader.skipWhitespace();
    if (!reader.done && reader.peek() !== ',') reader.fail('"," between challenges');
    reader.skipSeparators();
  }
  if (challenges.length === 0) throw new ChallengeSyntaxError('there is no challenge');
  return challenges;
}

/** A token68 that ends the challenge (then the next thing is a comma or the end), or null with nothing read. */
function readToken68(reader: Reader): string | null {
  const start = reader.at;
  while (!reader.done && TOKEN68.test(reader.peek())) reader.at++;
  if (reader.at === start) return null;
  while (reader.peek() === '=') reader.at++;
  const end = reader.at;
  reader.skipWhitespace();
  if (reader.done || reader.peek() === ',') return reader.text.slice(start, end);
  reader.at = start;
  return null;
}

/** The auth-params of one challenge, up to the next challenge's scheme or the end. */
function readParams(reader: Reader, challenge: AuthChallenge): 'next challenge' | 'end' {
  let afterComma = false;
  while (!reader.done) {
    const start = reader.at;
    const name = reader.token();
    if (name === '') reader.fail('a parameter name');
    reader.skipWhitespace();
    if (reader.peek() !== '=') {
      // A token without "=" after a comma starts the next challenge.
      if (!afterComma) reader.fail(`"=" after the parameter ${name}`);
      reader.at = start;
      return 'next challenge';
    }
    reader.at++;
    reader.skipWhitespace();
    const value = reader.peek() === '"' ? reader.quoted() : reader.token();
    if (value === '' && reader.text.charAt(reader.at - 1) !== '"') reader.fail(`a value for the parameter ${name}`);
    const key = name.toLowerCase();
    if (challenge.params.has(key)) throw new ChallengeSyntaxError(`the parameter ${name} appears twice in one challenge`);
    challenge.params.set(key, value);
    reader.skipWhitespace();
    if (reader.done) return 'end';
    if (reader.peek() !== ',') reader.fail('"," between parameters');
    reader.skipSeparators();
    afterComma = true;
  }
  return 'end';
}
