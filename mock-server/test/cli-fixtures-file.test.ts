// The fixtures file as `cardrail-mock --fixtures` reads it: every mistake is refused before the server starts, with
// the file, the JSON pointer (or line and column) of the mistake, and what would fix it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/serve-command.js';
import { didYouMean } from '../src/cli/did-you-mean.js';
import { FixturesFileError, readFixturesFile } from '../src/cli/fixtures-file.js';
import { tempDirs } from './support/temp-dirs.js';
import { createMockServer, loadFixtures } from '../src/index.js';

const dir = tempDirs('cardrail-fixtures-file-')();
let count = 0;

/** Writes `text` to a new fixtures file and returns its path. */
function fixturesFile(text: string | object): string {
  const file = join(dir, `fixtures-${++count}.json`);
  writeFileSync(file, typeof text === 'string' ? text : JSON.stringify(text, null, 2));
  return file;
}

function problemsOf(file: string): string[] {
  try {
    readFixturesFile(file);
  } catch (error) {
    expect(error).toBeInstanceOf(FixturesFileError);
    return (error as Error).message.split('\n');
  }
  throw new Error(`${file} was accepted`);
}

const customer = { method: 'POST', path: '/customers', body: { email: 'ada@example.com' } };

describe('the fixtures file', () => {
  it('accepts a valid file as it is', () => {
    const fixtures = { apiKey: 'sk_test_fixtures01', seed: 'x', requests: [{ ...customer, ref: 'ada' }] };
    expect(readFixturesFile(fixturesFile(fixtures))).toEqual(fixtures);
  });

  it('refuses unknown keys with the closest known one', () => {
    const file = fixturesFile({ sed: 'x', apiKey: 'sk_test_fixtures01', requests: [{ ...customer, bdy: {}, methd: 'GET' }] });
    expect(problemsOf(file)).toEqual([
      `${file} at /sed: unknown key "sed"; did you mean "seed"?`,
      `${file} at /requests/0/bdy: unknown key "bdy"; did you mean "body"?`,
      `${file} at /requests/0/methd: unknown key "methd"; did you mean "method"?`,
    ]);
    const far = fixturesFile({ apiKey: 'sk_test_fixtures01', requests: [], colour: 'red' });
    expect(problemsOf(far)).toEqual([`${far} at /colour: unknown key "colour"; the keys are apiKey, seed, requests`]);
  });

  it('names every wrong value by its JSON pointer', () => {
    const file = fixturesFile({
      apiKey: 'sk_test_fixtures01',
      requests: [{ method: 'PSOT', path: 'customers', variant: 'users', ref: 'a-b' }, { path: '/cards' }, 'GET /cards'],
    });
    expect(problemsOf(file)).toEqual([
      `${file} at /requests/0/method: must be one of GET, POST, PUT, PATCH, DELETE`,
      `${file} at /requests/0/path: must start with / (a path below /v1, such as /customers)`,
      `${file} at /requests/0/variant: must be one of customer, user`,
      `${file} at /requests/0/ref: must be letters, digits and _ (it is used as {{ref.field}})`,
      `${file} at /requests/1: "method" is missing`,
      `${file} at /requests/2: must be object`,
    ]);
    const notAnObject = fixturesFile('[]');
    expect(problemsOf(notAnObject)).toEqual([`${notAnObject} at /: must be object`]);
    const noRequests = fixturesFile({ apiKey: 'sk_test_fixtures01' });
    expect(problemsOf(noRequests)).toEqual([`${noRequests} at /: "requests" is missing`]);
  });

  it('refuses a call without an apiKey, and placeholders that name no earlier ref', () => {
    const file = fixturesFile({
      requests: [
        { ...customer, apiKey: 'sk_test_fixtures01', ref: 'ada' },
        { method: 'GET', path: '/customers/{{ada.id}}' },
        {
          method: 'POST',
          path: '/agents',
          apiKey: 'sk_test_fixtures01',
          body: { customerId: '{{adda.id}}', tags: ['{{bot.id}}'] },
        },
        { ...customer, apiKey: 'sk_test_fixtures01', ref: 'ada' },
      ],
    });
    expect(problemsOf(file)).toEqual([
      `${file} at /requests/1: no apiKey: give this request one, or the file a default "apiKey"`,
      `${file} at /requests/2/body/customerId: {{adda.id}} names "adda", which no earlier request has as its ref; did you mean "ada"?`,
      `${file} at /requests/2/body/tags/0: {{bot.id}} names "bot", which no earlier request has as its ref; the refs so far are ada`,
      `${file} at /requests/3/ref: "ada" is already the ref of /requests/0`,
    ]);
  });

  it('reports JSON syntax errors with where they are, never a bare parser message', () => {
    const empty = fixturesFile('');
    expect(problemsOf(empty)).toEqual([`${empty}: the file is empty; it needs a JSON object such as {"requests": []}`]);
    const cut = fixturesFile('{"requests": [\n  {"method": "POST", "path": "/customers"}\n');
    expect(problemsOf(cut)).toEqual([`${cut} at /requests/0 (the file ends too early): not valid JSON: a closing ] is missing`]);
    const trailingComma = fixturesFile('{"requests": [\n  {"method": "POST", "path": "/customers",}\n]}');
    expect(problemsOf(trailingComma)).toEqual([
      `${trailingComma} at /requests/0 (line 2, column 43): not valid JSON: a key in double quotes is expected (no trailing commas)`,
    ]);
    const singleQuotes = fixturesFile("{'requests': []}");
    expect(problemsOf(singleQuotes)).toEqual([
      `${singleQuotes} at / (line 1, column 2): not valid JSON: unexpected character (strings need double quotes)`,
    ]);
    const missing = join(dir, 'missing.json');
    expect(problemsOf(missing)).toEqual([
      `${missing}: cannot read the fixtures file (ENOENT: there is no such file; check the path, relative to the directory the command runs in)`,
    ]);
    expect(problemsOf(dir)).toEqual([
      `${dir}: cannot read the fixtures file (EISDIR: it is a directory; pass the JSON file itself)`,
    ]);
  });

  it('reports a call the API refuses at the field the API names, and starts nothing', async () => {
    const file = fixturesFile({
      apiKey: 'sk_test_fixtures01',
      requests: [customer, { method: 'POST', path: '/customers', body: { email: 'not-an-email' } }],
    });
    await expect(runCli(['--port', '0', '--fixtures', file], { out: () => {}, onSignal: () => {} })).rejects.toThrow(
      `${file} at /requests/1/body/email: POST /customers answered 400 invalid_request: body/email: must match format "email"`,
    );
  });
});

describe('fixture paths and /v1', () => {
  it('refuses a path that starts with /v1, which the mock adds, naming the path to write', () => {
    const file = fixturesFile({ apiKey: 'sk_test_fixtures01', requests: [{ method: 'GET', path: '/v1/customers' }] });
    expect(problemsOf(file)).toEqual([
      `${file} at /requests/0/path: starts with /v1, which the mock adds to every fixture path: write /customers instead`,
    ]);
  });

  it("reports the API's hint with a refused call (in-process fixtures are not checked in advance)", async () => {
    const mock = createMockServer();
    const fixtures = { apiKey: 'sk_test_fixtures01', requests: [{ method: 'GET' as const, path: '/v1/customers' }] };
    await expect(loadFixtures(mock, fixtures, 'http://127.0.0.1:4010/v1')).rejects.toThrow(
      'GET /v1/customers answered 404 not_found (The path starts with /v1/v1: the base URL already ends in /v1, so request /v1/customers',
    );
    const badKey = { apiKey: 'pk_test_fixtures01', requests: [{ method: 'GET' as const, path: '/customers' }] };
    await expect(loadFixtures(mock, badKey, 'http://127.0.0.1:4010/v1')).rejects.toThrow(
      'GET /customers answered 401 unauthorized (A pk_ (publishable) key cannot call the API',
    );
  });
});

describe('didYouMean', () => {
  it('suggests the closest candidate within a few edits, or nothing', () => {
    expect(didYouMean('sed', ['apiKey', 'seed', 'requests'])).toBe('seed');
    expect(didYouMean('reqeusts', ['apiKey', 'seed', 'requests'])).toBe('requests');
    expect(didYouMean('APIKEY', ['apiKey', 'seed'])).toBe('apiKey');
    expect(didYouMean('colour', ['apiKey', 'seed', 'requests'])).toBeUndefined();
    expect(didYouMean('x', [])).toBeUndefined();
  });
});
