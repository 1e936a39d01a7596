import type { KeyDigestSource } from '../core/key-digest.js';

/**
 * What the pipeline reads of a request: a web `Request` is one, and so is the Node transport's thin view of an
 * IncomingMessage, which spares building a Request, its Headers and a body stream for every call.
 */
export interface ApiRequest extends KeyDigestSource {
  /** The HTTP method, e.g. `POST`. */
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  /**
   * The path and query as the request line carried them (`/v1/cards?limit=1`), when the transport has them apart
   * from `url`: routing reads them instead of finding them in the URL.
   */
  readonly originForm?: string | undefined;
  /** The request headers; only `get` is needed. */
  readonly headers: {
    /** The value of a header, case-insensitively, or null. */
    get(name: string): string | null;
  };
  /** Reads the body as text (called at most once). */
  text(): Promise<string>;
  /** The body, when the transport has already read it: the request can then be answered without waiting. */
  readonly bodyText?: string | undefined;
  /** Aborted when the client goes away (a web Request's signal; the Node transport's closed socket). */
  readonly signal?: AbortSignal | undefined;
}
