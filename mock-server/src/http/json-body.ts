import { invalidRequest } from './errors.js';

/**
 * Reads a JSON request body. A body that is not `application/json`, or not valid JSON, is 400 `invalid_request`;
 * an empty body is undefined (the spec's `required` decides whether that is acceptable).
 */
export async function readJsonBody(request: Request): Promise<unknown> {
  const text = await request.text();
  if (text.trim() === '') return undefined;
  const contentType = request.headers.get('content-type') ?? '';
  const mediaType = contentType.split(';')[0]?.trim().toLowerCase();
  if (mediaType !== 'application/json' && !(mediaType?.startsWith('application/') && mediaType.endsWith('+json'))) {
    throw invalidRequest('/header/Content-Type', 'must be application/json');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw invalidRequest('/body', `is not valid JSON (${(error as Error).message})`);
  }
}
