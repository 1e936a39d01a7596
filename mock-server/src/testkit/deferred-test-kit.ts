import type { Variant } from '../core/variant.js';
import type { Cardrail, CardrailUsers } from '@cardrail/sdk';
import type { ApproverOptions } from './approver.js';
import type { TestClientOptions } from './test-client.js';
import type { TestKit, TestKitHost, TriggerOptions } from './test-kit.js';
import type { EventTypeOf } from './webhook-inbox.js';

/** The test kit's module, as `import('./test-kit.js')` gives it. */
export interface TestKitModule {
  createTestKit(host: TestKitHost): TestKit;
}

/**
 * A test kit whose module (and with it the SDK's clients) is still loading: the Node server starts answering without
 * waiting for it, and hands its mock over only once `loading` has settled, so a caller never meets it unloaded (the
 * first error below is for a mock used before `startMockServer` resolved). Without `loading` (the CLI's mock, which
 * nothing reaches in-process) there is no test kit.
 */
export function deferredTestKit(loading: Promise<TestKitModule> | undefined): (host: TestKitHost) => TestKit {
  return (host) => {
    let kit: TestKit | undefined;
    // A failed load is startMockServer's to report (it awaits the same promise); nothing is left unhandled here.
    loading?.then(
      (module) => {
        kit = module.createTestKit(host);
      },
      () => undefined,
    );
    const loaded = (): TestKit => {
      if (kit) return kit;
      throw new Error(
        loading
          ? 'The test kit of this mock is still loading: use it once startMockServer() has resolved.'
          : 'The mock of the cardrail-mock CLI has no test kit: call startMockServer() for one.',
      );
    };
    return {
      client: <V extends Variant = 'customer'>(options?: TestClientOptions & { variant?: V; apiKey?: string }) =>
        loaded().client<V>(options),
      webhookInbox: ((options: never) => loaded().webhookInbox(options)) as TestKit['webhookInbox'],
      cardholder: ((options: never) => loaded().cardholder(options)) as TestKit['cardholder'],
      trigger: <Client extends Cardrail | CardrailUsers, Type extends EventTypeOf<Client>>(
        type: Type,
        options: TriggerOptions<Client>,
      ) => loaded().trigger(type, options),
      approver: <Client extends Cardrail | CardrailUsers>(options: ApproverOptions<Client>) => loaded().approver(options),
    };
  };
}
