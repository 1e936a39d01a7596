import { Cardrail, type CardrailUsers, type ClientOptions, CardrailUsers as Users } from '@cardrail/sdk';
import { IdFactory } from '../core/ids.js';
import type { Variant } from '../core/variant.js';
import { API_BASE_PATH } from '../http/app.js';
import { type ClientOrKey, clientOf } from '../testkit/by-key.js';
import { type CardholderOptions, createCardholder } from '../testkit/cardholder.js';
import type { TestClient, TestClientOptions } from '../testkit/test-client.js';
import type { TestKit, TriggerOptions } from '../testkit/test-kit.js';
import { triggerEvent } from '../testkit/trigger/trigger.js';
import { createWebhookInbox, type WebhookInboxOptions } from '../testkit/webhook-inbox.js';
import { InboxServer } from './inbox-server.js';
import { absentOn404, controlCall, type RemoteMock, remoteControl } from './remote-mock.js';

/** Options of `connectMock`. */
export interface ConnectMockOptions {
  /** The control token (`--control-token`, `CARDRAIL_CONTROL_TOKEN`, or the one the server printed). */
  token: string;
  /** The fetch control calls and clients use. Default: the global fetch, looked up at each call. */
  fetch?: typeof fetch | undefined;
}

/**
 * Connects to a standalone mock started with `--control` (or `startMockServer({ control: true })`): `url` is its API
 * base URL or origin. Webhook inboxes receive on 127.0.0.1 in this process and verify like the in-process ones.
 *
 * @example
 * ```ts
 * const mock = await connectMock('http://127.0.0.1:4010/v1', { token: process.env.CARDRAIL_CONTROL_TOKEN! });
 * const seeded = await mock.snapshot();
 * beforeEach(() => mock.restore(seeded));
 * ```
 */
export async function connectMock(url: string, options: ConnectMockOptions): Promise<RemoteMock> {
  const origin = new URL(url).origin;
  const apiUrl = `${origin}${API_BASE_PATH}`;
  const fetchOf = () => options.fetch ?? globalThis.fetch;
  const call = controlCall(origin, options.token, fetchOf);
  // Fails at once, with the reason, when the mock has no control API or the token is wrong.
  await call('connectMock', 'GET', '/clock');

  const ids = new IdFactory();
  const inboxes = new InboxServer();
  const keysOfClients = new WeakMap<object, string>();
  const variantOf = async (apiKey: string): Promise<Variant> =>
    ((await call('variant', 'GET', '/organization', { apiKey }).catch(() => undefined)) as { variant?: Variant } | undefined)
      ?.variant ?? 'customer';
  const client = <V extends Variant = 'customer'>(clientOptions: TestClientOptions & { variant?: V; apiKey?: string } = {}) => {
    const { apiKey = ids.apiKey('test'), variant, ...rest } = clientOptions;
    const config: ClientOptions = { maxRetries: 0, ...rest, apiKey, baseUrl: apiUrl, fetch: (request) => fetchOf()(request) };
    const made = variant === 'user' ? new Users(config) : new Cardrail(config);
    keysOfClients.set(made, apiKey);
    return made as TestClient<V>;
  };
  const withClient = async <T extends ClientOrKey>(given: T): Promise<T & { client: Cardrail | CardrailUsers }> => ({
    ...given,
    client: await clientOf(given, async ({ apiKey, variant }) =>
      client({ apiKey, variant: variant ?? (await variantOf(apiKey)) }),
    ),
  });
  // A key the mock has not seen yet has no organization: its clock would start from the base clock, as it is now.
  const now = async (apiKey?: string) => {
    const known =
      apiKey === undefined ? undefined : await call('clock.now', 'GET', '/organization', { apiKey }).catch(absentOn404);
    const answer = (known ?? (await call('clock.now', 'GET', '/clock'))) as { now: string };
    return new Date(answer.now);
  };

  return {
    url: apiUrl,
    client,
    webhookInbox: (async (given: WebhookInboxOptions<Cardrail | CardrailUsers>) => {
      await inboxes.start();
      return createWebhookInbox(
        {
          router: inboxes,
          nextId: () => ids.next('webhook').replace(/^wh_/, 'inbox_'),
          nowSeconds: async (inboxClient) => {
            const apiKey = keysOfClients.get(inboxClient);
            if (apiKey === undefined) {
              throw new TypeError('webhookInbox() needs a client made by mock.client() of this mock, or { apiKey }.');
            }
            return Math.floor((await now(apiKey)).getTime() / 1000);
          },
        },
        await withClient(given),
      );
    }) as TestKit['webhookInbox'],
    cardholder: (async (given: CardholderOptions<Cardrail | CardrailUsers>) =>
      createCardholder(await withClient(given))) as TestKit['cardholder'],
    trigger: (async (type: string, given: TriggerOptions<Cardrail | CardrailUsers>) =>
      (await triggerEvent(given.client, type, { time: given.time ?? 'advance' })).event) as TestKit['trigger'],
    ...remoteControl(call, now),
    close: () => inboxes.close(),
  };
}
