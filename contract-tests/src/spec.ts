import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction, type ErrorObject } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

/** The two variants of the API: the authentication header picks one. */
export type Variant = 'customer' | 'user';
export const VARIANTS: readonly Variant[] = ['customer', 'user'];

/** Which webhook envelope a variant's subscriptions receive (docs/events.md#envelopes). */
export const ENVELOPE_OF: Record<Variant, 'general' | 'catalog'> = { customer: 'general', user: 'catalog' };

export type HttpMethod = 'get' | 'post' | 'patch' | 'delete' | 'put';
export const HTTP_METHODS: readonly HttpMethod[] = ['get', 'post', 'patch', 'delete', 'put'];

export type JsonSchema = Record<string, unknown>;

export interface OpenApiDocument {
  openapi: string;
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, unknown>>;
  webhooks: Record<string, { post: Record<string, unknown> }>;
  components: Record<string, Record<string, unknown>>;
  [key: string]: unknown;
}

export interface ParameterInfo {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
  /** The parameter's example (the spec writes it at the parameter, where tools such as Dredd and Postman look). */
  example: unknown;
  validate: ValidateFunction;
}

interface HeaderInfo {
  name: string;
  required: boolean;
  schema: JsonSchema | undefined;
  validate: ValidateFunction | undefined;
}

interface ResponseInfo {
  status: string;
  headers: HeaderInfo[];
  /** The documented media type, when the response has a body. */
  contentType: string | undefined;
  schema: JsonSchema | undefined;
  validate: ValidateFunction | undefined;
}

export interface OperationInfo {
  variant: Variant;
  operationId: string;
  method: HttpMethod;
  /** The path template relative to the server's base path, e.g. `/cards/{cardId}`. */
  path: string;
  tags: string[];
  pathParams: ParameterInfo[];
  queryParams: ParameterInfo[];
  headerParams: ParameterInfo[];
  requestBody:
    | {
        required: boolean;
        contentType: string;
        schema: JsonSchema;
        /** The media type's example, or else the schema's. */
        example: unknown;
        validate: ValidateFunction;
      }
    | undefined;
  responses: Map<string, ResponseInfo>;
  /** Matches a concrete path (base path removed) and captures the path parameters in order. */
  matcher: RegExp;
}

interface EventInfo {
  type: string;
  schema: JsonSchema;
  validate: ValidateFunction;
}

export interface SpecIndex {
  variant: Variant;
  document: OpenApiDocument;
  /** Base path of the servers, `/v1`. */
  basePath: string;
  operations: OperationInfo[];
  byId: Map<string, OperationInfo>;
  /** The operation a request goes to, matched on method and concrete path (without the base path). */
  find(method: string, path: string): OperationInfo | undefined;
  /** The path templates known to the spec and the methods each documents. */
  pathMethods: Map<string, HttpMethod[]>;
  /** `webhooks:` of the document, by event type. */
  events: Map<string, EventInfo>;
  /** A validator for any schema of `components.schemas`. */
  schema(name: string): ValidateFunction;
}

const SPEC_DIST = new URL('../../spec/dist/', import.meta.url);

/** The path of a bundled document on disk (Prism needs a file). */
function bundlePath(variant: Variant): string {
  return fileURLToPath(new URL(`${variant}.json`, SPEC_DIST));
}

function readBundle(variant: Variant): OpenApiDocument {
  return JSON.parse(readFileSync(bundlePath(variant), 'utf8')) as OpenApiDocument;
}

// ajv-formats ships CJS with a default export; under NodeNext the callable sits on `.default`.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

function pointer(...segments: string[]): string {
  return `#/${segments.map((s) => s.replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new Error(`Only local references are supported: ${ref}`);
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], document);
}

/** Follows `$ref`s of non-schema objects (responses, headers, parameters) and says where the object really is. */
function deref(document: unknown, value: unknown, at: string): { value: Record<string, unknown>; at: string } {
  let current = value as Record<string, unknown>;
  let location = at;
  for (let depth = 0; depth < 10 && typeof current?.$ref === 'string'; depth++) {
    location = current.$ref as string;
    current = resolvePointer(document, location) as Record<string, unknown>;
    if (current === undefined) throw new Error(`Unresolved reference ${location}`);
  }
  return { value: current, at: location };
}

function templateMatcher(template: string): RegExp {
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith('{') ? '([^/]+)' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('');
  return new RegExp(`^${source}/?$`);
}

function buildIndex(variant: Variant): SpecIndex {
  const document = readBundle(variant);
  const docId = `https://contract-tests.cardrail.invalid/${variant}.json`;
  // strict: false on purpose: the spec carries `example`, `discriminator` and `x-*` keywords that are annotations.
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addSchema({ ...document, $id: docId } as unknown as JsonSchema);
  const compiled = new Map<string, ValidateFunction>();
  const compile = (ref: string): ValidateFunction => {
    let validate = compiled.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: `${docId}${ref}` });
      compiled.set(ref, validate);
    }
    return validate;
  };
  const schemaAt = (ref: string): JsonSchema => {
    const found = resolvePointer(document, ref) as JsonSchema;
    return typeof found.$ref === 'string' ? schemaAt(found.$ref) : found;
  };

  const basePath = new URL(document.servers?.[0]?.url ?? 'http://localhost/').pathname.replace(/\/+$/, '');
  const operations: OperationInfo[] = [];
  const pathMethods = new Map<string, HttpMethod[]>();

  for (const [path, item] of Object.entries(document.paths)) {
    const methods: HttpMethod[] = [];
    const shared = (item.parameters as unknown[] | undefined) ?? [];
    for (const method of HTTP_METHODS) {
      const op = item[method] as Record<string, unknown> | undefined;
      if (!op) continue;
      methods.push(method);
      const opAt = ['paths', path, method];
      const params: ParameterInfo[] = [];
      const rawParams = [
        ...shared.map((p, i) => ({ p, at: pointer('paths', path, 'parameters', String(i)) })),
        ...((op.parameters as unknown[] | undefined) ?? []).map((p, i) => ({
          p,
          at: pointer(...opAt, 'parameters', String(i)),
        })),
      ];
      for (const { p, at } of rawParams) {
        const { value, at: where } = deref(document, p, at);
        const schema = schemaAt(`${where}/schema`);
        params.push({
          name: value.name as string,
          in: value.in as ParameterInfo['in'],
          required: value.required === true,
          schema,
          example: value.example ?? schema.example,
          validate: compile(`${where}/schema`),
        });
      }
      let requestBody: OperationInfo['requestBody'];
      if (op.requestBody) {
        const { value, at } = deref(document, op.requestBody, pointer(...opAt, 'requestBody'));
        const content = value.content as Record<string, unknown>;
        const contentType = Object.keys(content)[0] as string;
        const ref = `${at}/content/${contentType.replace(/\//g, '~1')}/schema`;
        const schema = schemaAt(ref);
        const example = (content[contentType] as { example?: unknown }).example ?? schema.example;
        requestBody = { required: value.required === true, contentType, schema, example, validate: compile(ref) };
      }
      const responses = new Map<string, ResponseInfo>();
      for (const [status, raw] of Object.entries(op.responses as Record<string, unknown>)) {
        const { value, at } = deref(document, raw, pointer(...opAt, 'responses', status));
        const headers: HeaderInfo[] = Object.entries((value.headers as Record<string, unknown> | undefined) ?? {}).map(
          ([name, rawHeader]) => {
            const header = deref(document, rawHeader, `${at}/headers/${name}`);
            const hasSchema = header.value.schema !== undefined;
            return {
              name,
              required: header.value.required === true,
              schema: hasSchema ? schemaAt(`${header.at}/schema`) : undefined,
              validate: hasSchema ? compile(`${header.at}/schema`) : undefined,
            };
          },
        );
        const content = value.content as Record<string, unknown> | undefined;
        const contentType = content ? Object.keys(content)[0] : undefined;
        const ref = contentType ? `${at}/content/${contentType.replace(/\//g, '~1')}/schema` : undefined;
        responses.set(status, {
          status,
          headers,
          contentType,
          schema: ref ? schemaAt(ref) : undefined,
          validate: ref ? compile(ref) : undefined,
        });
      }
      operations.push({
        variant,
        operationId: op.operationId as string,
        method,
        path,
        tags: (op.tags as string[] | undefined) ?? [],
        pathParams: params.filter((p) => p.in === 'path'),
        queryParams: params.filter((p) => p.in === 'query'),
        headerParams: params.filter((p) => p.in === 'header'),
        requestBody,
        responses,
        matcher: templateMatcher(path),
      });
    }
    pathMethods.set(path, methods);
  }

  // Literal segments win over parameters (`/simulate/clock` before a `{id}` at the same depth).
  const ranked = [...operations].sort(
    (a, b) => b.path.replace(/\{[^}]+\}/g, '').length - a.path.replace(/\{[^}]+\}/g, '').length,
  );
  const events = new Map<string, EventInfo>();
  for (const type of Object.keys(document.webhooks)) {
    const ref = pointer('webhooks', type, 'post', 'requestBody', 'content', 'application/json', 'schema');
    events.set(type, { type, schema: schemaAt(ref), validate: compile(ref) });
  }

  return {
    variant,
    document,
    basePath,
    operations,
    byId: new Map(operations.map((op) => [op.operationId, op])),
    find: (method, path) => ranked.find((op) => op.method === method.toLowerCase() && op.matcher.test(path)),
    pathMethods,
    events,
    schema: (name) => compile(pointer('components', 'schemas', name)),
  };
}

let loaded: Record<Variant, SpecIndex> | undefined;

/** Both bundles, indexed and with every validator compiled, once per process. */
export function loadSpecs(): Record<Variant, SpecIndex> {
  loaded ??= { customer: buildIndex('customer'), user: buildIndex('user') };
  return loaded;
}

/** Ajv errors as one readable line each. */
export function formatErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}

/** Which variant a request belongs to: the path names it for customers and users, otherwise the auth header. */
export function variantOf(path: string, headers: Headers): Variant {
  if (/^\/users(\/|$)/.test(path)) return 'user';
  if (/^\/customers(\/|$)/.test(path)) return 'customer';
  return headers.has('api-key') && !headers.has('authorization') ? 'user' : 'customer';
}
