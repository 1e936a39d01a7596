/**
 * A parser of the `WWW-Authenticate` header (RFC 9110 section 11.6.1), for code that answers a `401` or a `402`
 * itself: the SDK's `payments.fetch` reads a merchant's MPP challenge with it, and `@cardrail/mock-server` reads the
 * challenge an MPP token is minted for.
 *
 * @module @cardrail/sdk/www-authenticate
 */

/** One challenge of a `WWW-Authenticate` value: an auth-scheme with either a token68 or auth-params (or neither). */
export interface AuthChallenge {
  /** The auth-scheme as sent (`Payment`, `Bearer`); schemes are case-insensitive, so compare them lowercased. */
  scheme: string;
  /** The auth-params by lowercased name, each value a token or a quoted string (unescaped). Empty after a token68. */
  params: Map<string, string>;
  /** The token68 that follows the scheme (`Negotiate abc+/==`), with any trailing `=`; null when there is none. */
  token68: string | null;
}

const TCHAR = /[!#$%&'*+\-.^_`|~0-9A-Za-z]/;
const TOKEN68 = /[A-Za-z0-9\-._~+/]/;

class Reader {
  at = 0;
  constructor(readonly text: string) {}
  get done(): boolean {
    return this.at >= this.text.length;
  }
  peek(): string {
    return this.text.charAt(this.at);
  }
  skip(chars: string): void {
    while (!this.done && chars.includes(this.peek())) this.at++;
  }
  token(): string {
    const start = this.at;
    while (!this.done && TCHAR.test(this.peek())) this.at++;
    return this.text.slice(start, this.at);
  }
  quoted(): string {
    const opened = ++this.at;
    let value = '';
    while (!this.done && this.peek() !== '"') {
      if (this.peek() === '\\') this.at++;
      value += this.peek();
      this.at++;
    }
    if (this.done) throw new SyntaxError(`the quoted string opened at character ${opened} is never closed`);
    this.at++;
    return value;
  }
  fail(expected: string): never {
    const found = this.done ? 'the end' : JSON.stringify(this.peek());
    throw new SyntaxError(`expected ${expected} at character ${this.at + 1}, found ${found}`);
  }
}

/**
 * The challenges of a `WWW-Authenticate` value, in order: a comma-separated list of challenges (empty elements
 * skipped), each an auth-scheme followed by a token68 or by auth-params. Several header lines arrive joined with
 * commas (as `fetch`'s `Headers.get` joins them) and read as one list. Parameter names are lowercased; a parameter
 * given twice in one challenge is refused. One pass, linear in the value's length.
 *
 * @throws {SyntaxError} when the value breaks the grammar (no challenge at all included), saying where.
 *
 * @example
 * ```ts
 * import { parseWwwAuthenticate } from '@cardrail/sdk/www-authenticate';
 *
 * const [challenge] = parseWwwAuthenticate('Payment id="ch_1", realm="shop", method="card"');
 * challenge?.params.get('method'); // 'card'
 * ```
 */
export function parseWwwAuthenticate(value: string): AuthChallenge[] {
  const reader = new Reader(value);
  const challenges: AuthChallenge[] = [];
  reader.skip(', \t');
  while (!reader.done) {
    const scheme = reader.token();
    if (scheme === '') reader.fail('an auth-scheme');
    const challenge: AuthChallenge = { scheme, params: new Map(), token68: null };
    challenges.push(challenge);
    reader.skip(' \t');
    // Unless the scheme stands alone, a token68 or the auth-params follow it, which end where the next scheme starts.
    if (!reader.done && reader.peek() !== ',') {
      challenge.token68 = readToken68(reader);
      if (challenge.token68 === null && readParams(reader, challenge)) continue;
    }
    reader.skip(' \t');
    if (!reader.done && reader.peek() !== ',') reader.fail('"," between challenges');
    reader.skip(', \t');
  }
  if (challenges.length === 0) throw new SyntaxError('there is no challenge');
  return challenges;
}

/** A token68 that ends its challenge (a comma or the end follows), or null with nothing read. */
function readToken68(reader: Reader): string | null {
  const start = reader.at;
  while (!reader.done && TOKEN68.test(reader.peek())) reader.at++;
  if (reader.at === start) return null;
  reader.skip('=');
  const end = reader.at;
  reader.skip(' \t');
  if (reader.done || reader.peek() === ',') return reader.text.slice(start, end);
  reader.at = start;
  return null;
}

/** The auth-params of one challenge; true when it stopped at the next challenge's scheme, false at the end. */
function readParams(reader: Reader, challenge: AuthChallenge): boolean {
  let afterComma = false;
  while (!reader.done) {
    const start = reader.at;
    const name = reader.token();
    if (name === '') reader.fail('a parameter name');
    reader.skip(' \t');
    if (reader.peek() !== '=') {
      // A token without "=" after a comma starts the next challenge.
      if (!afterComma) reader.fail(`"=" after the parameter ${name}`);
      reader.at = start;
      return true;
    }
    reader.at++;
    reader.skip(' \t');
    const value = reader.peek() === '"' ? reader.quoted() : reader.token();
    if (value === '' && reader.text.charAt(reader.at - 1) !== '"') reader.fail(`a value for the parameter ${name}`);
    const key = name.toLowerCase();
    if (challenge.params.has(key)) throw new SyntaxError(`the parameter ${name} appears twice in one challenge`);
    challenge.params.set(key, value);
    reader.skip(' \t');
    if (reader.done) return false;
    if (reader.peek() !== ',') reader.fail('"," between parameters');
    reader.skip(', \t');
    afterComma = true;
  }
  return false;
}
