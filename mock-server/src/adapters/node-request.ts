import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { ApiRequest } from '../http/api-request.js';

/**
 * The pipeline's view of a Node request: the method, the absolute URL and a header lookup straight over the
 * headers Node already parsed, with the body read beforehand. Building a web Request with Headers and a body
 * stream for each call would cost more than answering most of them.
 */
export class NodeApiRequest implements ApiRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: { get(name: string): string | null };

  constructor(
    incoming: IncomingMessage,
    origin: string,
    readonly bodyText: string,
  ) {
    this.method = incoming.method ?? 'GET';
    this.url = origin + (incoming.url ?? '/');
    const raw: IncomingHttpHeaders = incoming.headers;
    this.headers = {
      get(name) {
        const value = raw[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    };
  }

  text(): Promise<string> {
    return Promise.resolve(this.bodyText);
  }
}

/** Whether a request announces a body (RFC 9112: Content-Length above 0 or a Transfer-Encoding). */
export function hasBody(incoming: IncomingMessage): boolean {
  const length = incoming.headers['content-length'];
  return incoming.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}
