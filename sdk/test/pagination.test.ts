import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import { Page } from '../src/core/pagination.js';
import { BASE_URL, fixtureClient, type Thing } from './support/fixture-client.js';
import { useMswServer } from './support/msw.js';

const server = useMswServer();

/** 7 things served newest first in pages of `limit`, the cursor being the index of the next item. */
function serveThings(total = 7): URL[] {
  const things: Thing[] = Array.from({ length: total }, (_, index) => ({ id: `thing_${index + 1}`, name: `n${index + 1}` }));
  const requests: URL[] = [];
  server.use(
    http.get(`${BASE_URL}/things`, ({ request }) => {
      const url = new URL(request.url);
      requests.push(url);
      const limit = Number(url.searchParams.get('limit') ?? 50);
      const start = Number(url.searchParams.get('cursor')?.replace('cur_', '') ?? 0);
      const data = things.slice(start, start + limit);
      const hasMore = start + limit < things.length;
      return HttpResponse.json(
        { data, hasMore, nextCursor: hasMore ? `cur_${start + limit}` : null },
        { headers: { 'Request-Id': `req_${start}` } },
      );
    }),
  );
  return requests;
}

const ids = (things: Thing[]) => things.map((thing) => thing.id);
const all = ['thing_1', 'thing_2', 'thing_3', 'thing_4', 'thing_5', 'thing_6', 'thing_7'];

describe('pagination', () => {
  it('awaits to the first page with data, nextCursor, hasMore and the request id', async () => {
    serveThings();
    const page = await fixtureClient().list({ limit: 3 });
    expect(page).toBeInstanceOf(Page);
    expect(ids(page.data)).toEqual(['thing_1', 'thing_2', 'thing_3']);
    expect(page.nextCursor).toBe('cur_3');
    expect(page.hasMore).toBe(true);
    expect(page.requestId).toBe('req_0');
  });

  it('iterates every item across 3 pages with for await on the list() call itself', async () => {
    const requests = serveThings();
    const seen: string[] = [];
    for await (const thing of fixtureClient().list({ limit: 3 })) seen.push(thing.id);
    expect(seen).toEqual(all);
    expect(requests.map((url) => [url.searchParams.get('limit'), url.searchParams.get('cursor')])).toEqual([
      ['3', null],
      ['3', 'cur_3'],
      ['3', 'cur_6'],
    ]);
  });

  it('iterates from an awaited page as well', async () => {
    serveThings();
    const page = await fixtureClient().list({ limit: 2 });
    const seen: string[] = [];
    for await (const thing of page) seen.push(thing.id);
    expect(seen).toEqual(all);
  });

  it('fetches lazily: breaking out early requests no further page', async () => {
    const requests = serveThings();
    for await (const thing of fixtureClient().list({ limit: 3 })) {
      if (thing.id === 'thing_2') break;
    }
    expect(requests).toHaveLength(1);
  });

  it('toArray({ limit }) collects up to limit items and stops fetching', async () => {
    const requests = serveThings();
    expect(ids(await fixtureClient().list({ limit: 3 }).toArray({ limit: 4 }))).toEqual(all.slice(0, 4));
    expect(requests).toHaveLength(2);
    expect(ids(await (await fixtureClient().list({ limit: 3 })).toArray({ limit: 100 }))).toEqual(all);
    expect(await fixtureClient().list().toArray({ limit: 0 })).toEqual([]);
    await expect(fixtureClient().list().toArray({ limit: -1 })).rejects.toThrow(RangeError);
    // A JavaScript caller gets no compile error for a missing limit; the walk must still be bounded.
    await expect(
      fixtureClient()
        .list()
        .toArray(undefined as never),
    ).rejects.toThrow(/needs a non-negative integer limit/);
    await expect(
      fixtureClient()
        .list()
        .toArray({} as never),
    ).rejects.toThrow(RangeError);
  });

  it('gives page-by-page access', async () => {
    serveThings();
    const sizes: number[] = [];
    const first = await fixtureClient().list({ limit: 3 });
    for await (const page of first.iterPages()) sizes.push(page.data.length);
    expect(sizes).toEqual([3, 3, 1]);

    const second = await first.getNextPage();
    expect(ids(second.data)).toEqual(['thing_4', 'thing_5', 'thing_6']);
    const last = await second.getNextPage();
    expect(last.hasNextPage()).toBe(false);
    expect(last.nextCursor).toBeNull();
    expect(() => last.getNextPage()).toThrow(RangeError);
  });

  it('handles an empty list', async () => {
    serveThings(0);
    const page = await fixtureClient().list();
    expect(page.data).toEqual([]);
    expect(page.hasNextPage()).toBe(false);
    expect(await page.toArray({ limit: 10 })).toEqual([]);
  });

  it('offers withResponse() on a list call', async () => {
    serveThings();
    const { data, response, requestId } = await fixtureClient().list({ limit: 3 }).withResponse();
    expect(data.data).toHaveLength(3);
    expect(response.status).toBe(200);
    expect(requestId).toBe('req_0');
  });
});
