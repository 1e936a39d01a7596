/**
 * The challenges of a `WWW-Authenticate` value (RFC 9110 section 11.6.1): a comma-separated list of challenges, each
 * an auth-scheme followed by a token68 or by auth-params; several header lines arrive joined with commas (as `fetch`
 * joins them). Parameter names are lowercased; values are tokens or quoted strings (unescaped). One pass, linear in
 * the value's length; a value that breaks the grammar throws `SyntaxError` saying where.
 */
export interface AuthChallenge {
  scheme: string;
  params: Map<string, string>;
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

export function parseWwwAuthenticate(value: string): AuthChallenge[] {
  const reader = new Reader(value);
  const challenges: AuthChallenge[] = [];
  reader.skip(', \t');
  while (!reader.done) {
    const scheme = reader.token();
    if (scheme === '') reader.fail('an auth-scheme');
    const challenge: AuthChallenge = { scheme, params: new Map() };
    challenges.push(challenge);
    reader.skip(' \t');
    if (!reader.done && reader.peek() !== ',' && !skipToken68(reader) && readParams(reader, challenge)) continue;
    reader.skip(' \t');
    if (!reader.done && reader.peek() !== ',') reader.fail('"," between challenges');
    reader.skip(', \t');
  }
  if (challenges.length === 0) throw new SyntaxError('there is no challenge');
  return challenges;
}

/** Skips a token68 that ends its challenge (a comma or the end follows); false, with nothing read, otherwise. */
function skipToken68(reader: Reader): boolean {
  const start = reader.at;
  while (!reader.done && TOKEN68.test(reader.peek())) reader.at++;
  if (reader.at === start) return false;
  reader.skip('=');
  reader.skip(' \t');
  if (reader.done || reader.peek() === ',') return true;
  reader.at = start;
  return false;
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
