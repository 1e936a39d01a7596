import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { keyDigest } from '../core/key-digest.js';
import { sameTextInConstantTime } from '../core/same-text.js';
import type { ApiRequest } from '../http/app.js';
import { incompleteBody, payloadTooLarge } from '../http/body-limit.js';

/**
 * The pipeline's view of a Node request: the method, the absolute URL and a header lookup straight over the
 * headers Node already parsed. Building a web Request with Headers and a body stream for each call would cost more
 * than answering most of them. The body is read only when the pipeline asks for it, after the key was checked, and
 * never past `maxBodyBytes`.
 */
export class NodeApiRequest implements ApiRequest {
  readonly method: string;
  readonly url: string;
  readonly originForm: string | undefined;
  readonly headers: { get(name: string): string | null };
  /** Set when the request announces no body: then nothing is read and the answer can be synchronous. */
  readonly bodyText: string | undefined;

  constructor(
    private readonly incoming: IncomingMessage,
    origin: string,
    private readonly maxBodyBytes: number,
  ) {
    this.method = incoming.method ?? 'GET';
    const target = incoming.url ?? '/';
    this.url = origin + target;
    // An absolute-form target (`GET http://host/path`, a proxy's) is read from the URL as any other transport's.
    this.originForm = target.charCodeAt(0) === 0x2f ? target : undefined;
    const raw: IncomingHttpHeaders = incoming.headers;
    this.headers = {
      get(name) {
        const value = raw[name.toLowerCase()];
        return value === undefined ? null : Array.isArray(value) ? value.join(', ') : value;
      },
    };
    this.bodyText = hasBody(incoming) ? undefined : '';
  }

  #signal: AbortSignal | undefined;

  /** Aborted when the client closes the connection; made only when asked for (a held request waits on it). */
  get signal(): AbortSignal {
    if (this.#signal) return this.#signal;
    const controller = new AbortController();
    this.#signal = controller.signal;
    const socket = this.incoming.socket;
    if (socket.destroyed) controller.abort();
    else socket.once('close', () => controller.abort());
    return this.#signal;
  }

  text(): Promise<string> {
    if (this.bodyText !== undefined) return Promise.resolve(this.bodyText);
    return readLimited(this.incoming, this.maxBodyBytes);
  }

  /**
   * The digest of the key this request presents: the one this connection's previous request presented is reused
   * when the key is the same (compared in constant time), else the key is hashed and remembered for the next one.
   */
  digestOfKey(key: string): string {
    const socket = this.incoming.socket;
    const last = lastKeyOf.get(socket);
    if (last !== undefined && sameTextInConstantTime(last.key, key)) return last.digest;
    const digest = keyDigest(key);
    lastKeyOf.set(socket, { key, digest });
    return digest;
  }
}

/**
 * Per open connection, the key it presented last and that key's digest: hashing the key was a fifth of the mock's
 * work on a GET, and a keep-alive client presents the same key on every request. In memory only, and gone with the
 * connection; a connection that presents another key replaces it.
 */
const lastKeyOf = new WeakMap<Socket, { key: string; digest: string }>();

/** The body as UTF-8 text, holding at most `limit` bytes: past it reading stops and the promise rejects with 413. */
function readLimited(incoming: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onFailure);
      incoming.off('close', onFailure);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        chunks.length = 0;
        // Nothing more is kept: the rest is discarded after the 413 (see lingerOnUnreadBody).
        reject(payloadTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      // Decoded once, whole: a character split across chunks is joined first (most bodies come in one chunk).
      resolve((chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size)).toString('utf8'));
    };
    const onFailure = () => {
      cleanup();
      reject(incompleteBody());
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onFailure);
    // Closed before its end: the client went away mid-body.
    incoming.on('close', onFailure);
  });
}

/** Whether a request announces a body (RFC 9112: Content-Length above 0 or a Transfer-Encoding). */
function hasBody(incoming: IncomingMessage): boolean {
  const length = incoming.headers['content-length'];
  return incoming.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** How long a connection keeps reading (and discarding) a body that was not read, after its answer. */
const LINGER_MS = 2_000;

/**
 * After the answer to a request whose body was not read to its end (refused at the size limit, or never needed):
 * the rest is read and thrown away so the client can finish sending and read the answer (closing at once would make
 * it fail with a reset before it sees the answer), and the connection is closed if the body has not ended within
 * LINGER_MS. A body that ends in time leaves the connection usable.
 */
export function lingerOnUnreadBody(incoming: IncomingMessage): void {
  if (incoming.complete) return;
  incoming.resume();
  const timer = setTimeout(() => {
    if (!incoming.complete) incoming.socket?.destroy();
  }, LINGER_MS);
  timer.unref();
  incoming.once('end', () => clearTimeout(timer));
  incoming.once('close', () => clearTimeout(timer));
}
