import type { Cardrail, CardrailUsers } from '@cardrail/sdk';
import type { Variant } from '../core/variant.js';
import type { CardholderOptions } from './cardholder.js';
import type { TestKit, TestKitHost } from './test-kit.js';
import type { TestClientOptions } from './test-client.js';
import type { WebhookInboxOptions } from './webhook-inbox.js';

/**
 * A test kit whose module (and with it the SDK's clients) is still loading: the Node server starts answering without
 * waiting for it, and hands its mock over only once `loading` has settled, so a caller never meets it unloaded (the
 * error below is for a mock used before `startMockServer` resolved).
 */
export function deferredTestKit(loading: Promise<{ createTestKit(host: TestKitHost): TestKit }>): (host: TestKitHost) => TestKit {
  return (host) => {
    let kit: TestKit | undefined;
    // A failed load is startMockServer's to report (it awaits the same promise); nothing is left unhandled here.
    loading.then(
      (module) => {
        kit = module.createTestKit(host);
      },
      () => undefined,
    );
    const loaded = (): TestKit => {
      if (!kit) throw new Error('The test kit of this mock is still loading: use it once startMockServer() has resolved.');
      return kit;
    };
    return {
      client: <V extends Variant = 'customer'>(options?: TestClientOptions & { variant?: V }) => loaded().client<V>(options),
      webhookInbox: <Client extends Cardrail | CardrailUsers>(options: WebhookInboxOptions<Client>) =>
        loaded().webhookInbox(options),
      cardholder: <Client extends Cardrail | CardrailUsers>(options: CardholderOptions<Client>) => loaded().cardholder(options),
    };
  };
}
