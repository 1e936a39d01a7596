import { InvalidResponseError } from '../errors.js';
import { requestIdOf } from './error-from-response.js';
import { redactText } from './redact.js';

/**
 * The resource methods ask openapi-fetch for success bodies as text and parse them here, because openapi-fetch's own
 * JSON parsing throws a bare SyntaxError that has lost the response: status, request id and headers are what a caller
 * needs to report a broken response. No body (a 204, `Content-Length: 0`) or an empty one is no data.
 */
export function parseSuccessBody(text: string | undefined, response: Response): unknown {
  if (text === undefined || text.trim() === '') return undefined;
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
