// Preloaded (node --import) when the READMEs' examples run: the mock answers them in-process through MSW at the local
// mock's address (http://127.0.0.1:4010/v1) only. A request to any address off loopback, the SDK's production default
// included, fails the example: an example a user can paste must name a loopback base URL (or start MSW itself, with
// unhandled requests an error). Requests to loopback go out as they are (receivers and mock servers the examples
// start on free ports).
import { createHandlers } from '@cardrail/mock-server/msw';
import { setupServer } from 'msw/node';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

// msw 3 reads onUnhandledFrame (msw 2: onUnhandledRequest). Its `defaults.error()` only prints; the throw fails the
// request.
setupServer(...createHandlers({ baseUrls: ['http://127.0.0.1:4010'] }).handlers).listen({
  onUnhandledFrame: async ({ frame, defaults }) => {
    const url = frame.data?.request?.url;
    if (url !== undefined && LOOPBACK.has(new URL(url).hostname)) return;
    await defaults.error();
    throw new Error(`A README example sent a request off loopback (${url}): give its client a loopback baseUrl.`);
  },
});
