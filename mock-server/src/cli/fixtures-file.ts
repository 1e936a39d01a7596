import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { ErrorObject, JSONSchemaType } from 'ajv/dist/2020.js';
import { getLocation, type ParseError, parse, printParseErrorCode } from 'jsonc-parser';
import { FIXTURE_PLACEHOLDER, FixtureError, type Fixtures, loadFixtures } from '../testkit/fixtures.js';
import type { MockServer } from '../composition/mock-server.js';
import { didYouMean } from './did-you-mean.js';

// The fixtures file as the CLI reads it: checked whole before the server starts (JSON syntax, this schema, apiKeys
// and placeholder references), so every mistake is reported with the file, where it is, and what would fix it.

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

const fixturesSchema: JSONSchemaType<Fixtures> = {
  type: 'object',
  properties: {
    apiKey: { type: 'string', minLength: 1, nullable: true },
    seed: { type: 'string', nullable: true },
    requests: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          method: { type: 'string', enum: [...METHODS, ...METHODS.map((method) => method.toLowerCase())] },
          path: { type: 'string', pattern: '^/' },
          // Any JSON value. JSONSchemaType types `unknown` as needing `nullable`, which Ajv refuses without a `type`.
          body: {} as JSONSchemaType<unknown> & { nullable: true },
          apiKey: { type: 'string', minLength: 1, nullable: true },
          variant: { type: 'string', enum: ['customer', 'user'], nullable: true },
          ref: { type: 'string', pattern: '^[A-Za-z0-9_]+$', nullable: true },
        },
        required: ['method', 'path'],
        additionalProperties: false,
      },
    },
  },
  required: ['requests'],
  additionalProperties: false,
};

/** A fixtures file that cannot be used; the message names the file and each place (JSON pointer) that is wrong. */
export class FixturesFileError extends Error {
  override name = 'FixturesFileError';
}

/** What to do when the fixtures file cannot be read, by the system's error code. */
const READ_REMEDY: Record<string, string> = {
  ENOENT: ': there is no such file; check the path, relative to the directory the command runs in',
  EACCES: ': permission denied; make the file readable by this user',
  EPERM: ': permission denied; make the file readable by this user',
  EISDIR: ': it is a directory; pass the JSON file itself',
};

/** Reads and checks a fixtures file; throws a FixturesFileError listing every problem found. */
export function readFixturesFile(file: string): Fixtures {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new FixturesFileError(`${file}: cannot read the fixtures file (${code ?? error}${READ_REMEDY[code ?? ''] ?? ''})`);
  }
  const value = parseJson(file, text);
  const problems = [...schemaProblems(value), ...(problemsOfValid(value as Fixtures) ?? [])];
  if (problems.length > 0)
    throw new FixturesFileError(problems.map(({ at, message }) => `${file} at ${at}: ${message}`).join('\n'));
  return value as Fixtures;
}

/** Replays the calls of a checked fixtures file; a call that fails is reported at its place in the file. */
export async function replayFixturesFile(
  server: MockServer,
  file: string,
  fixtures: Fixtures,
  baseUrl: string,
): Promise<Record<string, unknown>> {
  try {
    return await loadFixtures(server, fixtures, baseUrl);
  } catch (error) {
    if (error instanceof FixtureError) throw new FixturesFileError(`${file} at ${error.pointer}: ${error.reason}`);
    throw error;
  }
}

function parseJson(file: string, text: string): unknown {
  if (text.trim() === '')
    throw new FixturesFileError(`${file}: the file is empty; it needs a JSON object such as {"requests": []}`);
  const errors: ParseError[] = [];
  parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const [first] = errors;
  if (first) {
    const before = text.slice(0, first.offset).split('\n');
    const line = before.length;
    const column = (before.at(-1)?.length ?? 0) + 1;
    // Where a key is expected, the location's path ends in an empty key: the pointer names the object.
    const path = getLocation(text, first.offset).path;
    const at = pointerOf(path.at(-1) === '' ? path.slice(0, -1) : path);
    const where = first.offset >= text.trimEnd().length ? 'the file ends too early' : `line ${line}, column ${column}`;
    throw new FixturesFileError(`${file} at ${at || '/'} (${where}): not valid JSON: ${describeParseError(first)}`);
  }
  return JSON.parse(text) as unknown;
}

function describeParseError(error: ParseError): string {
  const code = printParseErrorCode(error.error);
  const messages: Record<string, string> = {
    CommaExpected: 'a comma is missing',
    ColonExpected: 'a colon is missing after the key',
    PropertyNameExpected: 'a key in double quotes is expected (no trailing commas)',
    ValueExpected: 'a value is expected (no trailing commas)',
    CloseBraceExpected: 'a closing } is missing',
    CloseBracketExpected: 'a closing ] is missing',
    EndOfFileExpected: 'there is more after the JSON value',
    InvalidSymbol: 'unexpected character (strings need double quotes)',
    InvalidCommentToken: 'comments are not allowed in JSON',
    UnexpectedEndOfString: 'a string is not closed',
  };
  return messages[code] ?? code;
}

function pointerOf(path: (string | number)[]): string {
  return path.map((segment) => `/${String(segment).replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

// Ajv is required on demand, as the server does (spec/validator.ts): only a start with --fixtures loads it.
const requireCjs = createRequire(import.meta.url);

function schemaProblems(value: unknown): { at: string; message: string }[] {
  const { Ajv2020 } = requireCjs('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const validate = new Ajv2020({ allErrors: true, verbose: true }).compile(fixturesSchema);
  if (validate(value)) return [];
  return (validate.errors ?? []).map((error) => ({
    // An unknown key is pointed at itself, not at the object holding it.
    at:
      error.keyword === 'additionalProperties'
        ? `${error.instancePath}${pointerOf([String(error.params.additionalProperty)])}`
        : error.instancePath || '/',
    message: describeSchemaError(error),
  }));
}

function describeSchemaError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const known = Object.keys((error.parentSchema as { properties: object }).properties);
      const suggestion = didYouMean(key, known);
      return `unknown key "${key}"; ${suggestion ? `did you mean "${suggestion}"?` : `the keys are ${known.join(', ')}`}`;
    }
    case 'required':
      return `"${String(params.missingProperty)}" is missing`;
    case 'enum': {
      // Methods are accepted in either case; they are listed once.
      const allowed = (params.allowedValues as string[]).map((value) =>
        METHODS.includes(value.toUpperCase()) ? value.toUpperCase() : value,
      );
      return `must be one of ${[...new Set(allowed)].join(', ')}`;
    }
    case 'pattern':
      return error.instancePath.endsWith('/path')
        ? 'must start with / (a path below /v1, such as /customers)'
        : 'must be letters, digits and _ (it is used as {{ref.field}})';
    default:
      return error.message ?? error.keyword;
  }
}

/** The rules a schema cannot state: an apiKey for every call, and placeholders naming refs of earlier calls. */
function problemsOfValid(fixtures: Fixtures): { at: string; message: string }[] | undefined {
  if (!Array.isArray(fixtures?.requests)) return undefined;
  const problems: { at: string; message: string }[] = [];
  const refs = new Map<string, string>();
  for (const [index, request] of fixtures.requests.entries()) {
    const at = `/requests/${index}`;
    if (typeof request !== 'object' || request === null) continue;
    if (!request.apiKey && !fixtures.apiKey) {
      problems.push({ at, message: 'no apiKey: give this request one, or the file a default "apiKey"' });
    }
    const check = (value: unknown, pointer: string): void => {
      if (typeof value === 'string') {
        for (const [placeholder, name] of value.matchAll(FIXTURE_PLACEHOLDER)) {
          if (name === undefined || refs.has(name)) continue;
          const suggestion = didYouMean(name, refs.keys());
          const hint = suggestion
            ? `did you mean "${suggestion}"?`
            : refs.size > 0
              ? `the refs so far are ${[...refs.keys()].join(', ')}`
              : 'no earlier request has a ref';
          problems.push({
            at: pointer,
            message: `${placeholder} names "${name}", which no earlier request has as its ref; ${hint}`,
          });
        }
      } else if (value !== null && typeof value === 'object') {
        // Arrays too: their entries are keyed by index.
        for (const [key, item] of Object.entries(value)) check(item, `${pointer}${pointerOf([key])}`);
      }
    };
    check(request.path, `${at}/path`);
    if (typeof request.path === 'string' && /^\/v1(\/|$)/.test(request.path)) {
      problems.push({
        at: `${at}/path`,
        message: `starts with /v1, which the mock adds to every fixture path: write ${request.path.slice(3) || '/'} instead`,
      });
    }
    check(request.body, `${at}/body`);
    if (typeof request.ref === 'string') {
      const earlier = refs.get(request.ref);
      if (earlier) problems.push({ at: `${at}/ref`, message: `"${request.ref}" is already the ref of ${earlier}` });
      else refs.set(request.ref, at);
    }
  }
  return problems;
}
