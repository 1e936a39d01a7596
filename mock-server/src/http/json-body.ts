import type { ApiRequest } from './api-request.js';
import { invalidRequest } from '../core/errors.js';

/**
 * Reads a JSON request body. The spec documents only `application/json` request bodies, so any other media type
 * (even a `+json` one such as merge-patch, whose semantics differ) and invalid JSON are 400 `invalid_request`;
 * an empty body is undefined (the spec's `required` decides whether that is acceptable).
 */
export async function readJsonBody(request: ApiRequest): Promise<unknown> {
  return parseJsonBody(request, request.bodyText ?? (await request.text()));
}

/** The JSON body of a request whose text is already read (see readJsonBody). */
export function parseJsonBody(request: ApiRequest, text: string): unknown {
  if (text.trim() === '') return undefined;
  const contentType = request.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json') {
    throw invalidRequest('/header/Content-Type', 'must be application/json');
  }
  try {
    // JSON.parse is typed `any`; the body is read as unknown until its schema validates it.
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw invalidRequest('/body', `is not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}
