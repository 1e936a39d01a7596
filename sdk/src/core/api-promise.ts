/** The data of a call together with what a caller needs to debug it. */
export interface WithResponse<T> {
  /** The parsed response body. */
  data: T;
  /** The HTTP response (status, headers; its body has been read). */
  response: Response;
  /** Value of the `Request-Id` response header; quote it when contacting support. */
  requestId: string | undefined;
}

/**
 * A Promise of the parsed data that also offers `withResponse()`. The request starts at once; the data promise is
 * derived lazily so that a caller who only uses `withResponse()` gets no unhandled rejection.
 */
export class APIPromise<T> implements Promise<T> {
  readonly #withResponse: Promise<WithResponse<T>>;
  #data: Promise<T> | undefined;

  constructor(withResponse: Promise<WithResponse<T>>) {
    this.#withResponse = withResponse;
  }

  /** The data, the raw `Response` and the `Request-Id`. */
  withResponse(): Promise<WithResponse<T>> {
    return this.#withResponse;
  }

  #dataPromise(): Promise<T> {
    this.#data ??= this.#withResponse.then((result) => result.data);
    return this.#data;
  }

  // biome-ignore lint/suspicious/noThenProperty: an APIPromise is a thenable on purpose: `await client.cards.retrieve(id)` gives the body.
  then<R1 = T, R2 = never>(
    onfulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
    onrejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    return this.#dataPromise().then(onfulfilled, onrejected);
  }

  catch<R = never>(onrejected?: ((reason: unknown) => R | PromiseLike<R>) | null): Promise<T | R> {
    return this.#dataPromise().catch(onrejected);
  }

  finally(onfinally?: (() => void) | null): Promise<T> {
    return this.#dataPromise().finally(onfinally);
  }

  /** `'APIPromise'`, as `Object.prototype.toString` reports it. */
  get [Symbol.toStringTag](): string {
    return 'APIPromise';
  }
}
