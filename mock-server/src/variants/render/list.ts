import type { ListPage } from '../../core/list-page.js';

/** Renders a page's records with `render`, keeping the envelope's cursor and `hasMore`. */
export function renderList<Record, Rendered>(render: (record: Record) => Rendered) {
  return (page: ListPage<Record>): ListPage<Rendered> => ({
    data: page.data.map(render),
    nextCursor: page.nextCursor,
    hasMore: page.hasMore,
  });
}
