import type { ApiRequest } from '../operations/api-request.js';
import { invalidRequest } from '../core/errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan } from './json-depth.js';

/**
 * The JSON body of a request, from its text (read by body-limit.ts). The spec documents only `application/json`
 * request bodies, so any other media type (even a `+json` one such as merge-patch, whose semantics differ) and
 * invalid JSON are 400 `invalid_request`; an empty body is undefined (the spec's `required` decides whether that is
 * acceptable). Nesting deeper than MAX_JSON_DEPTH is 400 before anything is parsed: such a value could be stored but
 * never rendered again.
 */
export function parseJsonBody(request: ApiRequest, text: string): unknown {
  if (isBlank(text)) return undefined;
  const contentType = request.headers.get('content-type') ?? '';
  if (contentType !== 'application/json' && mediaTypeOf(contentType) !== 'application/json') {
    throw invalidRequest('/header/Content-Type', 'must be application/json');
  }
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw invalidRequest('/body', `nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects`, {
      maxDepth: MAX_JSON_DEPTH,
    });
  }
  try {
    // JSON.parse is typed `any`; the body is read as unknown until its schema validates it.
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw invalidRequest('/body', `is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Whether the text is empty or only whitespace (as `trim` sees it), without copying it. */
function isBlank(text: string): boolean {
  // Only a text that starts with whitespace (\s is what trim removes) can trim to nothing.
  return text.length === 0 || (/^\s/.test(text) && text.trim() === '');
}

/** `type/subtype` of a Content-Type value, lowercase, without its parameters. */
function mediaTypeOf(contentType: string): string | undefined {
  return contentType.split(';')[0]?.trim().toLowerCase();
}
