import { randomBytes } from 'node:crypto';
import { Cardrail } from '@cardrail/sdk';
import { startMockServer, type RunningMockServer } from '@cardrail/mock-server/node';
import { type CardrailToolkit, type CardrailToolkitOptions, createCardrailToolkit } from '../../src/index.js';
import { recordingFetch } from './recording-fetch.js';

/**
 * A mock server with one organization: a funded customer, the agent the toolkit acts for with three cards, and
 * another agent with a card of its own.
 */
export interface World {
  running: RunningMockServer;
  baseUrl: string;
  apiKey: string;
  /** The test's own client (the developer's side: approvals, simulated payments, checks). */
  api: Cardrail;
  customerId: string;
  agentId: string;
  /** Intents on this card need a human's approval (`requireApproval`). */
  approvalCard: string;
  /** Credentials of this card need a usable intent (`requireIntent`). */
  intentCard: string;
  /** No policy of its own. */
  plainCard: string;
  otherAgentId: string;
  otherAgentCard: string;
  close(): Promise<void>;
}

export function newKey(): string {
  return `sk_test_${randomBytes(12).toString('hex')}`;
}

export async function startWorld(): Promise<World> {
  const running = await startMockServer({ host: '127.0.0.1', port: 0 });
  const apiKey = newKey();
  const api = new Cardrail({ apiKey, baseUrl: running.url, maxRetries: 0 });
  const customer = await api.customers.create({ email: 'ada@example.com' });
  await api.simulate.deposit({ customerId: customer.id, amount: 1_000_000 });
  const agent = await api.agents.create({ customerId: customer.id, name: 'Buyer' });
  const otherAgent = await api.agents.create({ customerId: customer.id, name: 'Someone else' });
  const card = (agentId: string, policy: object = {}) =>
    api.cards.create({ customerId: customer.id, agentId, type: 'virtual', usage: 'multi', policy }).then((created) => created.id);
  return {
    running,
    baseUrl: running.url,
    apiKey,
    api,
    customerId: customer.id,
    agentId: agent.id,
    approvalCard: await card(agent.id, { requireApproval: true }),
    intentCard: await card(agent.id, { requireIntent: true }),
    plainCard: await card(agent.id),
    otherAgentId: otherAgent.id,
    otherAgentCard: await card(otherAgent.id),
    close: () => running.close(),
  };
}

/** A toolkit for the world's agent, its requests recorded (and sent) by `recorder`. */
export function recordedToolkit(world: World, options: Partial<CardrailToolkitOptions> = {}) {
  const recorder = recordingFetch();
  const toolkit = createCardrailToolkit({
    apiKey: world.apiKey,
    baseUrl: world.baseUrl,
    agentId: world.agentId,
    clientOptions: { fetch: recorder.fetch, maxRetries: 0 },
    ...options,
  });
  return { toolkit, recorder };
}

/** A toolkit for the world's agent. */
export function toolkitFor(world: World): CardrailToolkit {
  return createCardrailToolkit({ apiKey: world.apiKey, baseUrl: world.baseUrl, agentId: world.agentId });
}
