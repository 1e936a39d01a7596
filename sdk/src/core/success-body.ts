import { InvalidResponseError } from '../errors.js';
import { requestIdOf } from './error-from-response.js';
import { redactText } from './redact.js';

/**
 * The SDK asks openapi-fetch for success bodies as text and parses them here, because openapi-fetch's own JSON
 * parsing throws a bare SyntaxError that has lost the response: status, request id and headers are what a caller
 * needs to report a broken response. An empty body is no data, as openapi-fetch treats `Content-Length: 0`.
 */
export function parseSuccessBody(text: unknown, response: Response): unknown {
  if (typeof text !== 'string') return text;
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (cause) {
    const contentType = response.headers.get('content-type') ?? 'no content type';
    throw new InvalidResponseError({
      code: 'invalid_response',
      message: `${response.status} response body is not JSON (${contentType}): ${redactText(text.trim().slice(0, 200))}`,
      status: response.status,
      requestId: requestIdOf(response),
      headers: response.headers,
      cause,
    });
  }
}
