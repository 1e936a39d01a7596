import { createQuerySerializer } from 'openapi-fetch';
import { CardrailError } from '../errors.js';

/** The two variants of the API: `Cardrail` (Bearer key) and `CardrailUsers` (`Api-Key` header). */
export type Variant = 'customer' | 'user';

/**
 * Where an operation is, as the spec writes its path (`/cards/{cardId}`): one path in both variants, or the pair of
 * paths where the variants differ (the owner routes: `/customers/...` and `/users/...`).
 */
export type Endpoint = string | { readonly customer: string; readonly user: string };

/** What one call of an operation fills in. */
export interface CallParams {
  /** A value for each `{name}` of the path (names the path does not have are ignored). */
  path?: Readonly<Record<string, string>> | undefined;
  query?: object | undefined;
  /** Sent as JSON when not undefined. */
  body?: unknown;
}

const PATH_PARAMETER = /\{([^{}]+)\}/g;
/** openapi-fetch's query serializer, so that resource methods and `raw` write queries alike. */
const serializeQuery = /* @__PURE__ */ createQuerySerializer();

/**
 * The URL of a call: the endpoint's path in the client's variant with its ids encoded, then the query. An empty, `.`
 * or `..` id would send the request to another resource (`cards.retrieve('')` is `GET /cards/`, the card list), so
 * it is refused before anything is sent, as is a non-string id from JavaScript.
 */
export function urlOf(baseUrl: string, endpoint: Endpoint, variant: Variant, params: CallParams): string {
  const template = typeof endpoint === 'string' ? endpoint : endpoint[variant];
  const ids = params.path;
  const path = template.replace(PATH_PARAMETER, (_, name: string) => encodeURIComponent(checkedId(name, ids?.[name])));
  // Only an object is a query: a JavaScript caller may pass anything there.
  const query = typeof params.query === 'object' && params.query !== null ? serializeQuery(params.query) : '';
  return query === '' ? `${baseUrl}${path}` : `${baseUrl}${path}?${query}`;
}

function checkedId(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '' || value === '.' || value === '..') {
    throw new CardrailError({
      code: 'invalid_path_parameter',
      message: `${name} must be a non-empty id, got ${typeof value === 'string' ? JSON.stringify(value) : String(value)}.`,
    });
  }
  return value;
}
