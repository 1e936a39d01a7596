import type { FetchLike } from '@cardrail/sdk';

export interface SentRequest {
  method: string;
  /** The path below the API base, e.g. `/cards/card_123/credentials`. */
  path: string;
  query: URLSearchParams;
  headers: Headers;
  /** The JSON body, when there was one. */
  body: unknown;
}

/** A fetch that records every request the toolkit's SDK client sends, then sends it. */
export function recordingFetch(): { fetch: FetchLike; sent: SentRequest[]; paths(): string[] } {
  const sent: SentRequest[] = [];
  return {
    sent,
    paths: () => sent.map((request) => `${request.method} ${request.path}`),
    fetch: async (request) => {
      const url = new URL(request.url);
      const text = await request.clone().text();
      sent.push({
        method: request.method,
        path: url.pathname.replace(/^\/v1/, ''),
        query: url.searchParams,
        headers: new Headers(request.headers),
        body: text === '' ? undefined : JSON.parse(text),
      });
      return fetch(request);
    },
  };
}
