// A page that runs the mock in the browser with MSW's service worker (`setupWorker`), as a front-end test suite or a
// Storybook would, and the SDK against it; the mock's webhook is answered by another MSW handler in the page and
// verified there with Web Crypto (test/browser.test.ts).
import { createHandlers } from '@cardrail/mock-server/msw';
import * as sdk from '@cardrail/sdk';
import { HttpResponse, http } from 'msw';
import { setupWorker } from 'msw/browser';
import { apiSteps, freshKey, webhookSteps } from '../scenarios/scenario.ts';

const RECEIVER = 'https://hooks.example.test/cardrail';

const page = window as unknown as {
  cardrailReady: boolean;
  mswMajor: number;
  runWorkerSteps(): Promise<string[]>;
};

const mock = createHandlers();
const deliveries: Request[] = [];
const receiver = http.post(RECEIVER, ({ request }) => {
  deliveries.push(request.clone());
  return new HttpResponse(null, { status: 204 });
});
const worker = setupWorker(...mock.handlers, receiver);

page.runWorkerSteps = async () => {
  if (!navigator.serviceWorker.controller) throw new Error('the page is not controlled by the service worker');
  // The production base URL (the SDK's default): only the service worker answers it.
  const client = new sdk.Cardrail({ apiKey: freshKey(), maxRetries: 0 });
  const steps = await apiSteps(sdk, client);

  const hook = await client.webhooks.create({ url: RECEIVER, events: ['card.frozen'] });
  const customer = await client.customers.create({ email: 'grace@example.com' });
  const agent = await client.agents.create({ customerId: customer.id, name: 'Webhook agent' });
  const card = await client.cards.create({ customerId: customer.id, agentId: agent.id });
  await client.cards.freeze(card.id);
  await mock.idle();
  const delivered = deliveries.at(-1);
  if (!delivered || hook.secret === undefined) throw new Error('the mock delivered no webhook to the page');
  steps.push('webhook delivered');
  const delivery = { payload: await delivered.text(), headers: delivered.headers, secret: hook.secret, type: 'card.frozen' };
  // The page's build of the SDK is the Web Crypto one: asynchronous verification only.
  steps.push(...(await webhookSteps(sdk, delivery, 'unavailable')));
  // A request no handler answers must fail, not reach the network: MSW answers it with a 500 that names the option.
  const response = await fetch('https://unmocked.example.test/anything');
  const text = await response.text();
  const refusal = /"error" strategy for the "(\w+)" option/.exec(text.startsWith('{') ? JSON.parse(text).message : text);
  steps.push(refusal ? `unhandled request refused (${refusal[1]})` : `unhandled request answered (${response.status})`);
  return steps;
};

// msw 3 reads `onUnhandledFrame`, msw 2 `onUnhandledRequest`; each ignores the other's (the test bundles this page
// with either). A project with one msw writes only its own.
const onUnhandled = { onUnhandledFrame: 'error', onUnhandledRequest: 'error' } as const;
await worker.start({ serviceWorker: { url: '/mockServiceWorker.js' }, quiet: true, ...onUnhandled });
// msw 3's handlers have `dispose` (its Handler base class); msw 2's do not.
page.mswMajor = typeof (receiver as { dispose?: unknown }).dispose === 'function' ? 3 : 2;
page.cardrailReady = true;
