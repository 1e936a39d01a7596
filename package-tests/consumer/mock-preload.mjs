// Preloaded (node --import) when the READMEs' examples run: the mock answers them in-process through MSW at the
// addresses they use (http://127.0.0.1:4010/v1 and the SDK's default); every other request goes out as it is.
import { createHandlers } from '@cardrail/mock-server/msw';
import { setupServer } from 'msw/node';

// msw 3 reads onUnhandledFrame (msw 2: onUnhandledRequest); without it, it would warn about every request it lets by.
setupServer(...createHandlers().handlers).listen({ onUnhandledFrame: 'bypass' });
