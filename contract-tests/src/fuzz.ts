import fc from 'fast-check';
import type { JsonSchema, OperationInfo, ParameterInfo, SpecIndex } from './spec.js';

/** The seed of every property run: the same seed replays the same cases (`FUZZ_SEED=... npm test`). */
export const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261121);

type Resolver = (schema: JsonSchema) => JsonSchema;

/** Follows `$ref`s into the document (and a lone `allOf` wrapper, which the spec uses to annotate a reference). */
export function resolverFor(spec: SpecIndex): Resolver {
  const resolve: Resolver = (schema) => {
    const ref = schema.$ref;
    if (typeof ref === 'string') {
      const target = ref
        .slice(2)
        .split('/')
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], spec.document) as JsonSchema;
      return resolve(target);
    }
    const allOf = schema.allOf as JsonSchema[] | undefined;
    if (allOf?.length === 1 && !schema.type && !schema.properties) return resolve(allOf[0] as JsonSchema);
    return schema;
  };
  return resolve;
}

const MAX_SAFE_GEN = 1_000_000_000;

function typesOf(schema: JsonSchema): string[] {
  const type = schema.type;
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

const emailArb = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/), fc.stringMatching(/^[a-z]{2,10}$/), fc.constantFrom('com', 'org', 'dev'))
  .map(([user, domain, tld]) => `${user}@${domain}.${tld}`);

function stringArb(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((schema.maxLength as number | undefined) ?? 40, 40);
  const format = schema.format;
  if (format === 'email') return emailArb;
  if (format === 'uri') return fc.stringMatching(/^[a-z]{1,12}$/).map((path) => `https://hooks.example.com/${path}`);
  if (format === 'date-time')
    return fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  const pattern = schema.pattern;
  if (typeof pattern === 'string') {
    return fc
      .stringMatching(new RegExp(pattern))
      .filter((s) => s.length >= Math.max(minLength, 1) && s.length <= ((schema.maxLength as number | undefined) ?? 200));
  }
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength), unit: 'grapheme-ascii' });
}

/** A fast-check arbitrary of values valid for `schema` (the subset of JSON Schema the Cardrail spec uses). */
export function validValue(schema: JsonSchema, resolve: Resolver, depth = 0): fc.Arbitrary<unknown> {
  const s = resolve(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]));
  // Alternatives that only name required fields beside `properties` are the object's (objectArb), not branches.
  const oneOf = s.oneOf as JsonSchema[] | undefined;
  const branches = (oneOf && !(s.properties && requiredOnly(oneOf)) ? oneOf : s.anyOf && !s.properties ? s.anyOf : undefined) as
    | JsonSchema[]
    | undefined;
  if (branches) return fc.oneof(...branches.map((b) => validValue(b, resolve, depth + 1)));
  const types = typesOf(s);
  const nonNull = types.filter((t) => t !== 'null');
  const type = nonNull[0] ?? (s.properties ? 'object' : undefined);
  let arb: fc.Arbitrary<unknown>;
  switch (type) {
    case 'string':
      arb = stringArb(s);
      break;
    case 'integer': {
      const min = Math.max((s.minimum as number | undefined) ?? -MAX_SAFE_GEN, -MAX_SAFE_GEN);
      const max = Math.min((s.maximum as number | undefined) ?? MAX_SAFE_GEN, MAX_SAFE_GEN);
      arb = fc.integer({ min, max });
      break;
    }
    case 'number': {
      const min = (s.minimum as number | undefined) ?? -1e6;
      const max = (s.maximum as number | undefined) ?? 1e6;
      arb = fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
      break;
    }
    case 'boolean':
      arb = fc.boolean();
      break;
    case 'array': {
      const items = validValue((s.items as JsonSchema | undefined) ?? {}, resolve, depth + 1);
      const constraints = {
        minLength: (s.minItems as number | undefined) ?? 0,
        maxLength: Math.min((s.maxItems as number | undefined) ?? 3, 3),
      };
      arb = s.uniqueItems
        ? fc.uniqueArray(items, { ...constraints, selector: (v) => JSON.stringify(v) })
        : fc.array(items, constraints);
      break;
    }
    case 'object':
      arb = objectArb(s, resolve, depth);
      break;
    default:
      arb = fc.jsonValue({ maxDepth: 1 });
  }
  return types.includes('null') ? fc.option(arb, { nil: null, freq: 5 }) : arb;
}

/** Whether every alternative only names required fields (`{required: [...]}`, perhaps with a description). */
function requiredOnly(alternatives: JsonSchema[]): boolean {
  return alternatives.every((b) => Object.keys(b).every((key) => key === 'required' || key === 'description'));
}

function objectArb(s: JsonSchema, resolve: Resolver, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = (s.properties as Record<string, JsonSchema> | undefined) ?? {};
  const names = Object.keys(properties);
  if (names.length === 0) {
    return s.additionalProperties === false
      ? fc.constant({})
      : fc.dictionary(fc.stringMatching(/^[a-z]{1,8}$/), fc.string({ maxLength: 8 }), { maxKeys: 2 });
  }
  // `anyOf` or `oneOf: [{required: [a]}, {required: [b]}]` beside properties: one of the alternatives' fields is
  // required too, and with `oneOf` the other alternatives' fields are left out.
  const alternatives = (((s.oneOf ?? s.anyOf) as JsonSchema[] | undefined) ?? []).map(
    (b) => (b.required as string[] | undefined) ?? [],
  );
  const exclusive = s.oneOf !== undefined;
  const required = new Set((s.required as string[] | undefined) ?? []);
  const record = (extraRequired: string[]) => {
    const keys = new Set([...required, ...extraRequired]);
    const others = new Set(exclusive ? alternatives.flat().filter((n) => !extraRequired.includes(n)) : []);
    const optional = depth > 2 ? [] : names.filter((n) => !keys.has(n) && !others.has(n));
    const model = Object.fromEntries(
      [...keys, ...optional].map((n) => [n, validValue(properties[n] as JsonSchema, resolve, depth + 1)]),
    );
    return fc.record(model, { requiredKeys: [...keys] }) as fc.Arbitrary<Record<string, unknown>>;
  };
  const base = alternatives.length > 0 ? fc.oneof(...alternatives.map(record)) : record([]);
  const minProperties = (s.minProperties as number | undefined) ?? 0;
  return base.filter((o) => Object.keys(o).length >= minProperties);
}

/** One generated bad request: what is wrong with it, and the raw body and content type to send. */
export interface BadRequestCase {
  kind: string;
  body?: string;
  contentType?: string;
  query?: Record<string, string>;
  /** Replaces the path parameters. */
  pathParams?: Record<string, string>;
}

interface PropertyPath {
  path: string[];
  schema: JsonSchema;
}

/** The properties of the body schema, one level of nesting deep, with their resolved schemas. */
function propertyPaths(schema: JsonSchema, resolve: Resolver): PropertyPath[] {
  const found: PropertyPath[] = [];
  const walk = (s: JsonSchema, prefix: string[], depth: number): void => {
    const props = (resolve(s).properties as Record<string, JsonSchema> | undefined) ?? {};
    for (const [name, raw] of Object.entries(props)) {
      const child = resolve(raw);
      found.push({ path: [...prefix, name], schema: child });
      if (depth < 1 && typesOf(child).includes('object')) walk(child, [...prefix, name], depth + 1);
    }
  };
  walk(schema, [], 0);
  return found;
}

function setAt(target: Record<string, unknown>, path: string[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(target);
  let node = copy;
  for (const key of path.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null || Array.isArray(node[key])) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path[path.length - 1] as string] = value;
  return copy;
}

/** JSON values of a different type than any `schema` allows (none when the schema does not constrain the type). */
function wrongTypeValues(schema: JsonSchema): unknown[] {
  const types = typesOf(schema);
  if (types.length === 0) return [];
  const matches = (v: unknown): boolean =>
    types.some((t) => {
      if (t === 'null') return v === null;
      if (t === 'integer') return Number.isInteger(v);
      if (t === 'number') return typeof v === 'number';
      if (t === 'array') return Array.isArray(v);
      if (t === 'object') return typeof v === 'object' && v !== null && !Array.isArray(v);
      return typeof v === t;
    });
  return ['not-the-right-type', 42, 4.5, true, [1, 2], { nested: true }, null].filter((v) => !matches(v));
}

/**
 * Bad bodies for an operation: each mutation of a valid body that the spec's own validator rejects (wrong types,
 * missing required fields, out-of-range numbers, unknown enum values, oversized strings, unknown fields), plus
 * malformed JSON and a wrong content type. Every case is a request the service must refuse with a documented 4xx.
 */
export function badBodies(op: OperationInfo, spec: SpecIndex): fc.Arbitrary<BadRequestCase> | undefined {
  const body = op.requestBody;
  if (!body) return undefined;
  const resolve = resolverFor(spec);
  const valid = validValue(body.schema, resolve) as fc.Arbitrary<Record<string, unknown>>;
  const paths = propertyPaths(body.schema, resolve);
  const root = resolve(body.schema);
  const required = (root.required as string[] | undefined) ?? [];

  type Mutation = (v: Record<string, unknown>) => fc.Arbitrary<{ kind: string; value: unknown }>;
  const mutations: Mutation[] = [];
  const typed = paths.filter((p) => wrongTypeValues(p.schema).length > 0);
  if (typed.length > 0) {
    mutations.push((v) =>
      fc
        .constantFrom(...typed)
        .chain((p) =>
          fc
            .constantFrom(...wrongTypeValues(p.schema))
            .map((bad) => ({ kind: `wrong type at ${p.path.join('.')}`, value: setAt(v, p.path, bad) })),
        ),
    );
  }
  if (required.length > 0) {
    mutations.push((v) =>
      fc.constantFrom(...required).map((name) => {
        const { [name]: _dropped, ...rest } = v;
        return { kind: `missing required ${name}`, value: rest };
      }),
    );
  }
  const ranged = paths.filter((p) => typeof p.schema.minimum === 'number' || typeof p.schema.maximum === 'number');
  if (ranged.length > 0) {
    mutations.push((v) =>
      fc.constantFrom(...ranged).chain((p) => {
        const outside = [
          ...(typeof p.schema.minimum === 'number' ? [(p.schema.minimum as number) - 1] : []),
          ...(typeof p.schema.maximum === 'number' ? [(p.schema.maximum as number) + 1] : []),
        ];
        return fc
          .constantFrom(...outside)
          .map((n) => ({ kind: `out of range ${p.path.join('.')}=${n}`, value: setAt(v, p.path, n) }));
      }),
    );
  }
  const enums = paths.filter((p) => Array.isArray(p.schema.enum));
  if (enums.length > 0) {
    mutations.push((v) =>
      fc.constantFrom(...enums).map((p) => ({
        kind: `unknown enum value at ${p.path.join('.')}`,
        value: setAt(v, p.path, 'definitely_not_a_known_value'),
      })),
    );
  }
  const bounded = paths.filter((p) => typeof p.schema.maxLength === 'number');
  if (bounded.length > 0) {
    mutations.push((v) =>
      fc.constantFrom(...bounded).map((p) => ({
        kind: `huge string at ${p.path.join('.')}`,
        value: setAt(v, p.path, 'x'.repeat((p.schema.maxLength as number) + 1 + 10_000)),
      })),
    );
  }
  if (root.additionalProperties === false)
    mutations.push((v) => fc.constant({ kind: 'unknown field', value: { ...v, notInTheSpec: 1 } }));
  if (typeof root.minProperties === 'number' && root.minProperties > 0)
    mutations.push(() => fc.constant({ kind: 'empty object', value: {} }));
  mutations.push(() =>
    fc.constantFrom<unknown>([], 'a string', 7, null).map((value) => ({ kind: `body is ${JSON.stringify(value)}`, value })),
  );

  const invalidJson = valid.chain((v) => fc.oneof(...mutations.map((m) => m(v)))).filter(({ value }) => !body.validate(value));
  const asCase = invalidJson.map(
    ({ kind, value }): BadRequestCase => ({ kind, body: JSON.stringify(value), contentType: 'application/json' }),
  );
  const malformed = valid.chain((v) => {
    const text = JSON.stringify(v);
    // An empty body is no body, which an operation whose body is optional accepts.
    const broken = [
      text.slice(0, Math.max(1, text.length - 1)),
      `${text},`,
      `{${text}`,
      "{'single': 'quotes'}",
      ...(body.required ? [''] : []),
    ];
    return fc
      .constantFrom(...broken)
      .map((bad): BadRequestCase => ({ kind: 'malformed JSON', body: bad, contentType: 'application/json' }));
  });
  const wrongContentType = valid.chain((v) =>
    fc
      .constantFrom('text/plain', 'application/x-www-form-urlencoded', 'application/xml')
      .map((contentType): BadRequestCase => ({ kind: `content type ${contentType}`, body: JSON.stringify(v), contentType })),
  );
  return fc.oneof(
    { arbitrary: asCase, weight: 4 },
    { arbitrary: malformed, weight: 1 },
    { arbitrary: wrongContentType, weight: 1 },
  );
}

function badQueryValues(param: ParameterInfo, resolve: Resolver): string[] {
  const s = resolve(param.schema);
  const values: string[] = [];
  const types = typesOf(s);
  if (types.includes('integer') || types.includes('number')) {
    values.push('abc', '1.5e999', '');
    if (typeof s.minimum === 'number') values.push(String((s.minimum as number) - 1));
    if (typeof s.maximum === 'number') values.push(String((s.maximum as number) + 1));
    if (types.includes('integer')) values.push('2.5');
  }
  if (Array.isArray(s.enum)) values.push('definitely_not_a_known_value', '');
  if (typeof s.pattern === 'string') values.push(`!!${'y'.repeat(20)}`);
  if (typeof s.minLength === 'number' && (s.minLength as number) > 0) values.push('');
  if (typeof s.maxLength === 'number') values.push('z'.repeat((s.maxLength as number) + 1));
  // Coerced as a server reads a query string: numeric text becomes a number for a numeric parameter.
  const numeric = types.includes('integer') || types.includes('number');
  return values.filter((v) => !param.validate(numeric && v !== '' && !Number.isNaN(Number(v)) ? Number(v) : v));
}

/**
 * Parameters no operation declares ("invalid parameters" are 400 in the specification): a plain name, a declared
 * name in the wrong case, names that are special to JavaScript objects, and a huge value.
 */
const UNDECLARED_QUERY = [
  { name: 'notAParameter', value: '1' },
  { name: 'LIMIT', value: '5' },
  { name: '__proto__', value: 'x' },
  { name: 'constructor', value: 'x' },
  { name: 'q', value: 'h'.repeat(10_000) },
];

/** Bad query strings: one declared parameter at a time set to a value its schema refuses, or an undeclared one. */
export function badQueries(op: OperationInfo, spec: SpecIndex): fc.Arbitrary<BadRequestCase> {
  const resolve = resolverFor(spec);
  const declared = new Set(op.queryParams.map((p) => p.name));
  const options = [
    ...op.queryParams.flatMap((p) => badQueryValues(p, resolve).map((value) => ({ name: p.name, value }))),
    ...UNDECLARED_QUERY.filter((u) => !declared.has(u.name)),
  ];
  return fc
    .constantFrom(...options)
    .map(({ name, value }) => ({ kind: `query ${name}=${JSON.stringify(value).slice(0, 40)}`, query: { [name]: value } }));
}

/** Path parameters that name nothing: arbitrary text, encoded separators, a huge id. */
export function badPathParams(op: OperationInfo): fc.Arbitrary<BadRequestCase> | undefined {
  if (op.pathParams.length === 0) return undefined;
  const value = fc.oneof(
    fc.string({ minLength: 1, maxLength: 30, unit: 'grapheme' }),
    fc.constantFrom('..', '%2F', 'card_%00', "' OR 1=1 --", 'x'.repeat(10_000), '0', '-1', 'null', 'true'),
  );
  return fc
    .record(Object.fromEntries(op.pathParams.map((p) => [p.name, value])) as Record<string, fc.Arbitrary<string>>)
    .filter((params) => Object.values(params).every((v) => v !== '.' && v.trim() !== ''))
    .map((pathParams) => ({ kind: `path ${JSON.stringify(pathParams).slice(0, 60)}`, pathParams }));
}

/** Fills a path template; values are percent-encoded as a client would. */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(params[name] ?? `missing_${name}`));
}
