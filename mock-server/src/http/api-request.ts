/**
 * What the pipeline reads of a request: a web `Request` is one, and so is the Node transport's thin view of an
 * IncomingMessage, which spares building a Request, its Headers and a body stream for every call.
 */
export interface ApiRequest {
  readonly method: string;
  /** Absolute URL. */
  readonly url: string;
  readonly headers: { get(name: string): string | null };
  text(): Promise<string>;
  /** The body, when the transport has already read it: the request can then be answered without waiting. */
  readonly bodyText?: string | undefined;
}
