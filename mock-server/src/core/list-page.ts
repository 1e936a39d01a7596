import type { Collection } from '../core/collection.js';
import { decodeCursor, encodeCursor } from '../core/cursor.js';
import { invalidRequest } from '../core/errors.js';

/** One page of records in the list envelope's shape; the variants render each record. */
export interface ListPage<T> {
  data: T[];
  nextCursor: string | null;
  hasMore: boolean;
}

/** The list parameters every list operation takes (already validated: `limit` 1..100 with its default applied). */
export interface ListQuery {
  limit?: number;
  cursor?: string;
}

/**
 * One newest-first page of a collection for a validated list query. The cursor names the last object returned, so
 * a walk is stable while objects are created.
 */
export function listPage<T extends { id: string }>(
  collection: Collection<T>,
  query: ListQuery,
  where?: Record<string, string | undefined>,
): ListPage<T> {
  let before: number | undefined;
  if (query.cursor !== undefined) {
    before = decodeCursor(query.cursor);
    if (before === undefined) throw invalidRequest('/query/cursor', 'is not a cursor returned by this API');
  }
  const page = collection.page({ limit: query.limit ?? 50, before, where });
  return {
    data: page.items,
    nextCursor: page.nextBefore === undefined ? null : encodeCursor(page.nextBefore),
    hasMore: page.hasMore,
  };
}
