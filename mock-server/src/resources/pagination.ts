import type { Collection } from '../core/collection.js';
import { decodeCursor, encodeCursor } from '../core/cursor.js';
import { invalidRequest } from '../core/errors.js';

/** The list envelope of every list operation. */
export interface ListBody {
  data: unknown[];
  nextCursor: string | null;
  hasMore: boolean;
}

/**
 * One newest-first page of a collection for a validated list query (`limit` 1..100 with its default already
 * applied, `cursor`). The cursor names the last object returned, so a walk is stable while objects are created.
 */
export function listPage<T extends { id: string }>(
  collection: Collection<T>,
  query: Record<string, unknown>,
  render: (item: T) => unknown,
  where?: Record<string, string | undefined>,
): ListBody {
  const limit = typeof query.limit === 'number' ? query.limit : 50;
  let before: number | undefined;
  if (typeof query.cursor === 'string') {
    before = decodeCursor(query.cursor);
    if (before === undefined) throw invalidRequest('/query/cursor', 'is not a cursor returned by this API');
  }
  const page = collection.page({ limit, before, where });
  return {
    data: page.items.map(render),
    nextCursor: page.nextBefore === undefined ? null : encodeCursor(page.nextBefore),
    hasMore: page.hasMore,
  };
}
