import { createHandlers } from '@cardrail/mock-server/msw';
import { startMockServer } from '@cardrail/mock-server/node';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, expect, inject } from 'vitest';
import { startPrism, writeDocumentFor2020, type PrismProcess } from '../../src/prism.js';
import { ContractRecorder } from '../../src/recorder.js';
import { loadSpecs, type Variant } from '../../src/spec.js';
import { WebhookReceiver } from '../../src/webhook-receiver.js';

/** One way of reaching the mock: where the SDK points, what checks every exchange, where webhooks land. */
export interface Harness {
  name: string;
  recorder: ContractRecorder;
  receiver: WebhookReceiver;
  /** The SDK's `baseUrl` for a variant. */
  baseUrl(variant: Variant): string;
  /** Resolves once the mock has no due work left and every webhook attempt it started has finished. */
  idle(): Promise<void>;
  stop(): Promise<void>;
}

/** The mock as a Node HTTP server on a free port; webhooks go to a local HTTP receiver. */
export async function nodeHarness(name: string): Promise<Harness> {
  const recorder = new ContractRecorder({ suite: name });
  const receiver = new WebhookReceiver(recorder);
  await receiver.listen();
  const running = await startMockServer({ port: 0 });
  return {
    name,
    recorder,
    receiver,
    baseUrl: () => running.url,
    idle: () => running.mock.idle(),
    stop: async () => {
      await running.close();
      await receiver.close();
    },
  };
}

const MSW_API = 'https://mock.cardrail.test/v1';
const MSW_HOOKS = 'https://hooks.cardrail.test';

/** The mock in-process through its MSW handlers; webhook deliveries are intercepted by MSW too. */
export async function mswHarness(name: string): Promise<Harness> {
  const recorder = new ContractRecorder({ suite: name });
  const receiver = new WebhookReceiver(recorder);
  receiver.useBaseUrl(MSW_HOOKS);
  const mock = createHandlers({ baseUrls: [MSW_API] });
  const server = setupServer(...mock.handlers, ...receiver.mswHandlers());
  server.listen({ onUnhandledFrame: 'error' }); // msw 3's name for msw 2's onUnhandledRequest
  return {
    name,
    recorder,
    receiver,
    baseUrl: () => MSW_API,
    idle: () => mock.idle(),
    stop: async () => {
      server.close();
      mock.reset();
    },
  };
}

/**
 * The mock behind `prism proxy --errors`, one proxy per variant's document (declared 2020-12, see README): a request
 * or response that Prism finds invalid comes back as a 500 with `sl-violations`, which the recorder reports.
 */
export async function prismProxyHarness(name: string): Promise<Harness> {
  const recorder = new ContractRecorder({ suite: name, basePath: '' });
  const receiver = new WebhookReceiver(recorder);
  await receiver.listen();
  const running = await startMockServer({ port: 0 });
  const specs = loadSpecs();
  const proxies: Partial<Record<Variant, PrismProcess>> = {};
  try {
    const [customer, user] = await Promise.all(
      (['customer', 'user'] as const).map((variant) =>
        startPrism({ kind: 'proxy', document: writeDocumentFor2020(specs[variant].document, variant), upstream: running.url }),
      ),
    );
    proxies.customer = customer;
    proxies.user = user;
  } catch (error) {
    await running.close();
    await receiver.close();
    throw error;
  }
  return {
    name,
    recorder,
    receiver,
    baseUrl: (variant) => (proxies[variant] as PrismProcess).url,
    idle: () => running.mock.idle(),
    stop: async () => {
      await Promise.all(Object.values(proxies).map((p) => p.stop()));
      await running.close();
      await receiver.close();
    },
  };
}

/** `prism mock` of one variant's document: a server built from the spec alone. */
export async function prismMock(variant: Variant): Promise<PrismProcess> {
  return startPrism({ kind: 'mock', document: writeDocumentFor2020(loadSpecs()[variant].document, variant) });
}

/**
 * Registers the hooks every suite shares: each test must leave no new contract violation behind, and the suite's
 * coverage is written for the global teardown to merge into coverage.md.
 */
export function useContractChecks(getHarness: () => Harness | undefined): void {
  afterEach(() => {
    const harness = getHarness();
    if (harness) expect(harness.recorder.takeNewViolations()).toEqual([]);
  });
  afterAll(async () => {
    const harness = getHarness();
    if (!harness) return;
    const { recorder, receiver } = harness;
    // Deliveries still on their way when the last test ended are counted too: the same figures on every run.
    await harness.idle();
    recorder.coverage.count('responses checked against the spec', recorder.exchanges.length);
    const deliveries = receiver.deliveries.filter((d) => d.verified && d.valid).length;
    if (deliveries > 0) recorder.coverage.count('webhook deliveries verified (SDK) and valid (webhooks: schema)', deliveries);
    recorder.writeCoverage(inject('coverageDir'));
    await harness.stop();
  });
}
