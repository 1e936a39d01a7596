import { APIPromise, type WithResponse } from './api-promise.js';
import { requestIdOf } from './error-from-response.js';

/** The list envelope every list operation answers with. */
export interface ListEnvelope<T> {
  /** The items of this page. */
  data: T[];
  /** Cursor of the next page, or null on the last page. */
  nextCursor: string | null;
  /** Whether another page follows. */
  hasMore: boolean;
}

/** Options of `toArray`. */
export interface ToArrayOptions {
  /** The most items to collect; required so that a walk over a large account is always bounded. */
  limit: number;
}

type FetchPage<T> = (cursor: string) => PagePromise<T>;

/** One page of a list, async-iterable over its own items and those of every following page (fetched lazily). */
export class Page<T> implements AsyncIterable<T> {
  /** The items of this page. */
  readonly data: T[];
  /** Cursor of the next page, or null on the last page. */
  readonly nextCursor: string | null;
  /** Whether another page follows. */
  readonly hasMore: boolean;
  /** The HTTP response of this page. */
  readonly response: Response;
  /** Value of the `Request-Id` header of this page's response. */
  readonly requestId: string | undefined;
  readonly #fetchPage: FetchPage<T>;

  /** @hidden Pages come from `list()` methods; nothing else constructs them. */
  constructor(envelope: ListEnvelope<T>, response: Response, fetchPage: FetchPage<T>) {
    this.data = envelope.data;
    this.nextCursor = envelope.nextCursor;
    this.hasMore = envelope.hasMore;
    this.response = response;
    this.requestId = requestIdOf(response);
    this.#fetchPage = fetchPage;
  }

  /** Whether another page follows (`getNextPage` would fetch it). */
  hasNextPage(): boolean {
    return this.hasMore && typeof this.nextCursor === 'string' && this.nextCursor !== '';
  }

  /** The following page, requested with the same filters and `limit`. */
  getNextPage(): PagePromise<T> {
    if (!this.hasNextPage() || this.nextCursor === null) {
      throw new RangeError('This is the last page: check hasNextPage() before calling getNextPage().');
    }
    return this.#fetchPage(this.nextCursor);
  }

  /** This page, then each following page. */
  async *iterPages(): AsyncGenerator<Page<T>, void, undefined> {
    let page: Page<T> = this;
    yield page;
    while (page.hasNextPage()) {
      page = await page.getNextPage();
      yield page;
    }
  }

  /** Every item of this page and of each following page, fetched as the loop reaches it. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    for await (const page of this.iterPages()) yield* page.data;
  }

  /** Up to `limit` items from this page on, fetching only the pages needed. */
  async toArray(options: ToArrayOptions): Promise<T[]> {
    // Checked at run time too: JavaScript callers get no compile error for a missing limit.
    const limit = (options as ToArrayOptions | undefined)?.limit;
    if (limit === undefined || !Number.isInteger(limit) || limit < 0) {
      throw new RangeError(`toArray({ limit }) needs a non-negative integer limit, got ${String(limit)}.`);
    }
    const items: T[] = [];
    if (limit === 0) return items;
    for await (const item of this) {
      items.push(item);
      if (items.length >= limit) break;
    }
    return items;
  }
}

/** `await` it for the first page, or iterate it directly: `for await (const card of cardrail.cards.list())`. */
export class PagePromise<T> extends APIPromise<Page<T>> implements AsyncIterable<T> {
  /** Every item of every page from the first on, fetched as the loop reaches it. */
  async *[Symbol.asyncIterator](): AsyncGenerator<T, void, undefined> {
    yield* await this;
  }

  /**
   * Up to `limit` items from the first page on, fetching only the pages needed.
   *
   * @example
   * ```ts
   * const first500 = await cardrail.transactions.list().toArray({ limit: 500 });
   * ```
   */
  toArray(options: ToArrayOptions): Promise<T[]> {
    return this.then((page) => page.toArray(options));
  }
}

/** Builds the first page and the fetcher of the following ones from a function that loads one page by cursor. */
export function paginate<T>(loadPage: (cursor: string | undefined) => Promise<WithResponse<ListEnvelope<T>>>): PagePromise<T> {
  const fetchPage = (cursor: string | undefined): PagePromise<T> =>
    new PagePromise(
      loadPage(cursor).then(({ data, response, requestId }) => ({
        data: new Page(data, response, (next) => fetchPage(next)),
        response,
        requestId,
      })),
    );
  return fetchPage(undefined);
}
