import { InvalidResponseError } from '../errors.js';
import { requestIdOf } from './error-from-response.js';
import { redactText } from './redact.js';

/**
 * A success body, read once as text and parsed here: a body that is not JSON becomes an InvalidResponseError that
 * keeps the status, request id and headers a caller needs to report it (a bare SyntaxError would have lost them).
 * No body (a 204, `Content-Length: 0`) or an empty one is no data.
 */
export function parseSuccessBody(text: string, response: Response): unknown {
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (cause) {
    // Trimmed only here: a copy of every body just to test for blanks would cost each call.
    if (text.trim() === '') return undefined;
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

/** An error body: its JSON when it is JSON, else the text as it came (a proxy's HTML page), for `errorFromResponse`. */
export function parseErrorText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
