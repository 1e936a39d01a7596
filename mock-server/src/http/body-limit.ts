import { HttpError } from '../core/errors.js';
import type { ApiRequest } from '../operations/api-request.js';

/** The largest request body the mock reads by default: 1 MiB (docs/errors.md#request-size-and-depth). */
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** 413 in the error format, naming the limit. */
export function payloadTooLarge(limit: number): HttpError {
  return new HttpError(413, 'payload_too_large', `The request body is larger than the limit of ${limit} bytes.`, {
    limit,
  });
}

/** A body the transport could not receive in full (the client went away mid-body): nothing is done with it. */
export function incompleteBody(): HttpError {
  return new HttpError(400, 'invalid_request', 'body: was not received completely', {
    field: '/body',
    reason: 'was not received completely',
  });
}

/** The size in bytes of a string's UTF-8 encoding, without encoding it. */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair: 2 UTF-16 units, 4 UTF-8 bytes.
      bytes += 2;
      i++;
    } else bytes += 2;
  }
  return bytes;
}

/** Refuses a body whose text is over the limit (for transports that hand over the text already read). */
function checkBodyText(text: string, limit: number): string {
  // Every UTF-16 unit is at most 3 UTF-8 bytes: most bodies are decided without counting.
  if (text.length * 3 > limit && (text.length > limit || utf8Length(text) > limit)) throw payloadTooLarge(limit);
  return text;
}

/**
 * A request body as text with at most `limit` bytes held (413 beyond): a declared Content-Length over the limit is
 * refused before anything is read, and a web Request's stream is cancelled as soon as it passes the limit. The text
 * is at hand when the transport has read it already (then the request can be answered in this turn), else a promise.
 * Another request shape reads through its own `text()` (the Node transport's enforces the limit while it streams).
 */
export function requestBodyText(request: ApiRequest, limit: number): string | Promise<string> {
  const declared = request.headers.get('content-length');
  if (declared !== null && /^\d+$/.test(declared.trim()) && Number(declared) > limit) throw payloadTooLarge(limit);
  if (request.bodyText !== undefined) return checkBodyText(request.bodyText, limit);
  const stream = (request as { body?: unknown }).body;
  if (stream instanceof ReadableStream) return readStream(stream as ReadableStream<Uint8Array>, limit);
  // Not an async function: a body read costs one promise, not one per step.
  return request.text().then((text) => checkBodyText(text, limit));
}

async function readStream(stream: ReadableStream<Uint8Array>, limit: number): Promise<string> {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw payloadTooLarge(limit);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
