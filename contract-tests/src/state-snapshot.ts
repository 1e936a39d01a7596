import type { SpecIndex } from './spec.js';

/**
 * The organization's whole visible state, read through every list endpoint (all pages), the risk settings, the test
 * clock, each owner's balances, each webhook's deliveries, each card's payment tokens, and `objects`: the paths of
 * objects no list endpoint returns (withdrawals). Two snapshots are equal byte for byte when nothing changed; the mock
 * must run on a frozen clock, or the clock's reading alone would differ. Every read must succeed: two equal error
 * answers would say nothing.
 */
export async function snapshotOrganization(
  fetchFn: (request: Request) => Promise<Response>,
  baseUrl: string,
  authHeaders: Record<string, string>,
  spec: SpecIndex,
  objects: Iterable<string> = [],
): Promise<string> {
  const parts: string[] = [];
  const get = async (path: string): Promise<unknown> => {
    const response = await fetchFn(new Request(`${baseUrl}${path}`, { headers: authHeaders }));
    const text = await response.text();
    if (response.status !== 200)
      throw new Error(`The state snapshot could not read GET ${path}: ${response.status} ${text.slice(0, 300)}`);
    parts.push(`${path} ${text}`);
    return JSON.parse(text);
  };
  const walk = async (path: string): Promise<Array<{ id: string }>> => {
    const items: Array<{ id: string }> = [];
    let cursor: string | null = null;
    do {
      const page = (await get(`${path}?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)) as {
        data: Array<{ id: string }>;
        nextCursor: string | null;
        hasMore: boolean;
      };
      items.push(...page.data);
      cursor = page.hasMore ? page.nextCursor : null;
    } while (cursor);
    return items;
  };
  const lists = spec.operations.filter(
    (op) => op.method === 'get' && op.pathParams.length === 0 && op.queryParams.some((q) => q.name === 'cursor'),
  );
  if (lists.length === 0) throw new Error(`The ${spec.variant} document has no list endpoint to snapshot.`);
  for (const op of lists) {
    const items = await walk(op.path);
    if (op.operationId === 'listCustomers' || op.operationId === 'listUsers')
      for (const item of items) await get(`${op.path}/${item.id}/balances`);
    if (op.operationId === 'listWebhooks') for (const item of items) await walk(`/webhooks/${item.id}/deliveries`);
    if (op.operationId === 'listCards') for (const item of items) await walk(`/cards/${item.id}/payment-tokens`);
  }
  for (const path of objects) await get(path);
  await get('/settings/risk');
  await get('/simulate/clock');
  return parts.join('\n');
}
