// Webhook receivers where they live, in the user's project: Express, Fastify and Hono on Node, a Next.js route handler
// (served as `next start` would, through @hono/node-server) and a Cloudflare Worker on workerd (Miniflare), each the
// file the READMEs show (consumer/receivers/), run as written against the mock's CLI. Each receives real deliveries of
// a fresh organization, during a secret rotation, and must verify them with the SDK (the mock records its answers);
// refuses a forged delivery; and, given the body its framework parses by default (the raw-body trap), refuses real
// deliveries with the SDK's message that says how to get the raw body in that framework. Then the Standard Webhooks
// libraries (standardwebhooks, svix) verify the deliveries of both variants with each secret of a rotation, exactly
// as the API returned it. Last, mock-server/README.md's `cardrail-mock trigger` block runs against the Express receiver.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateWebhookHeaders } from '@cardrail/sdk';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consumerDir } from '../support/consumer.js';
import { codeBlocks } from '../support/readme-blocks.js';
import { cardrailClient, deliveriesSettled, type MockClient, produceEvents } from '../support/receiver-events.js';
import { run } from '../support/run.js';
import { type Serving, serve } from '../support/serving.js';
import { WAITS } from '../../scripts/lib/test-waits.mjs';

const receiversDir = join(consumerDir, 'receivers');
let mock: Serving;

beforeAll(async () => {
  mock = await serve('npx', ['--no-install', 'cardrail-mock', '--port', '0', '--no-dashboard'], {
    cwd: consumerDir,
    ready: /listening on (\S+)/,
  });
});
afterAll(async () => {
  await mock?.stop();
});

interface ReceiverSpec {
  name: string;
  /** The file under consumer/receivers, as the README shows it. */
  file: string;
  /** How it runs: node on the file itself, node on a harness that serves it, or workerd. */
  runtime: 'node' | 'route' | 'workerd';
  variant: 'customer' | 'user';
  /** The raw-body trap: this text of the file replaced by what the framework does by default. */
  trap: [from: string, to: string];
  /** What the SDK's message says to do in this framework. */
  hint: string;
}

const RECEIVERS: ReceiverSpec[] = [
  {
    name: 'Express',
    file: 'express.ts',
    runtime: 'node',
    variant: 'customer',
    trap: ["express.raw({ type: 'application/json' })", 'express.json()'],
    hint: "Express: express.raw({ type: 'application/json' })",
  },
  {
    name: 'Fastify',
    file: 'fastify.ts',
    runtime: 'node',
    variant: 'user',
    trap: [
      "webhooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));",
      '',
    ],
    hint: "Fastify: a content-type parser with parseAs: 'buffer'",
  },
  {
    name: 'Hono on Node',
    file: 'hono.ts',
    runtime: 'node',
    variant: 'user',
    trap: ['await c.req.text()', 'await c.req.json()'],
    hint: 'Hono: await c.req.text()',
  },
  {
    name: 'a Next.js route handler',
    file: 'next-route.ts',
    runtime: 'route',
    variant: 'customer',
    trap: ['await request.text()', 'await request.json()'],
    hint: 'Next.js route handlers, Workers: await request.text()',
  },
  {
    name: 'a Cloudflare Worker on workerd',
    file: 'worker.ts',
    runtime: 'workerd',
    variant: 'user',
    trap: ['await request.text()', 'await request.json()'],
    hint: 'Next.js route handlers, Workers: await request.text()',
  },
];

/** A running receiver: its webhook URL and how to stop it. */
interface Receiver {
  url: string;
  stop(): Promise<void>;
}

/** Starts the receiver in `file` with the webhook's secret and the organization's key, as its README says to run it. */
async function startReceiver(spec: ReceiverSpec, file: string, secret: string, apiKey: string): Promise<Receiver> {
  if (spec.runtime === 'workerd') return startWorker(file, secret);
  const env = { PORT: '0', CARDRAIL_WEBHOOK_SECRET: secret, CARDRAIL_API_KEY: apiKey, ROUTE: `../${file}` };
  const script = spec.runtime === 'route' ? join('harness', 'route-server.ts') : file;
  const server = await serve(process.execPath, [script], { cwd: receiversDir, env, ready: /Listening on (\S+)/ });
  return { url: server.address, stop: server.stop };
}

/** Bundles the Worker as Wrangler does (its export conditions) and serves it on a free port with Miniflare. */
async function startWorker(file: string, secret: string): Promise<Receiver> {
  const bundle = await build({
    entryPoints: [join(receiversDir, file)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  const miniflare = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0]?.text ?? '',
    compatibilityDate: '2026-07-01',
    bindings: { CARDRAIL_WEBHOOK_SECRET: secret },
    host: '127.0.0.1',
    port: 0,
  });
  const ready = await miniflare.ready;
  return { url: new URL('/webhooks/cardrail', ready).href, stop: () => miniflare.dispose() };
}

/** The receiver file with the raw-body trap in place of its raw body, written beside it. */
function trapFile(spec: ReceiverSpec): string {
  const source = readFileSync(join(receiversDir, spec.file), 'utf8');
  const [from, to] = spec.trap;
  // The replaced text must be in the file: a README edit that drops it must fail here, not test nothing.
  expect(source).toContain(from);
  const file = spec.file.replace(/\.ts$/, '.trap.ts');
  writeFileSync(join(receiversDir, file), source.replace(from, to));
  return file;
}

/** A webhook to a placeholder URL (its secret is needed to start the receiver), rotated so deliveries carry two. */
async function subscribe(client: MockClient, events: ['*'] | ['card.frozen']) {
  const hook = await client.webhooks.create({ url: 'http://127.0.0.1:9/placeholder', events });
  const rotated = await client.webhooks.rotateSecret(hook.id);
  return { id: hook.id, secrets: [rotated.secret, hook.secret] };
}

describe.each(RECEIVERS)('$name', (spec) => {
  it('verifies the real deliveries of a rotation with the old secret, and refuses a forged one', async () => {
    const client = cardrailClient(mock.address, spec.variant);
    const hook = await subscribe(client, ['*']);
    const oldSecret = hook.secrets[1] as string;
    const receiver = await startReceiver(spec, spec.file, oldSecret, client.apiKey);
    try {
      await client.webhooks.update(hook.id, { url: receiver.url });
      const events = await produceEvents(client);
      const deliveries = await deliveriesSettled(client, hook.id, events);
      expect(deliveries.map((delivery) => delivery.attempts[0]?.responseStatus)).toEqual(events.map(() => 204));

      const body = JSON.stringify({ id: 'evt_forged', type: 'card.frozen', data: {} });
      const forged = await generateWebhookHeaders({ payload: body, secret: 'whsec_Zm9yZ2VkRm9yZ2VkRm9yZ2VkRm9yZ2VkMTIz' });
      const answer = await fetch(receiver.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...forged },
        body,
      });
      expect(answer.status).toBe(400);
      expect(await answer.text()).toMatch(/^No Cardrail-Signature or Standard Webhooks signature matches/);
    } finally {
      await receiver.stop();
    }
  });

  it("refuses deliveries parsed by the framework's default with the SDK's message on getting the raw body", async () => {
    const client = cardrailClient(mock.address, spec.variant);
    const hook = await subscribe(client, ['card.frozen']);
    const secret = hook.secrets[0] as string;
    const receiver = await startReceiver(spec, trapFile(spec), secret, client.apiKey);
    try {
      await client.webhooks.update(hook.id, { url: receiver.url });
      const events = await produceEvents(client);
      const frozen = events.filter((event) => event.type === 'card.frozen');
      const [delivery] = await deliveriesSettled(client, hook.id, frozen);
      expect(delivery?.attempts[0]?.responseStatus).toBe(400);

      // What the receiver answered: the SDK's message, naming this framework's way to the raw body.
      const body = JSON.stringify({ id: 'evt_trap', type: 'card.frozen', data: {} });
      const headers = await generateWebhookHeaders({ payload: body, secret });
      const answer = await fetch(receiver.url, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...headers },
        body,
      });
      expect(answer.status).toBe(400);
      const message = await answer.text();
      expect(message).toMatch(/^Expected the raw request body but received a value of type object\./);
      expect(message).toContain(spec.hint);
    } finally {
      await receiver.stop();
    }
  });
});

describe('the Standard Webhooks libraries (standardwebhooks and svix)', () => {
  it('verify every delivery of both variants with each secret of a rotation, exactly as the API returned it', async () => {
    const clients = { customer: cardrailClient(mock.address, 'customer'), user: cardrailClient(mock.address, 'user') };
    const hooks = { customer: await subscribe(clients.customer, ['*']), user: await subscribe(clients.user, ['*']) };
    const receiver = await serve(process.execPath, [join('harness', 'libraries.ts')], {
      cwd: receiversDir,
      env: { RECEIVER_SECRETS: JSON.stringify({ '/customer': hooks.customer.secrets, '/user': hooks.user.secrets }) },
      ready: /Listening on (\S+)/,
    });
    try {
      for (const variant of ['customer', 'user'] as const) {
        const client = clients[variant];
        const hook = hooks[variant];
        await client.webhooks.update(hook.id, { url: `${receiver.address}/${variant}` });
        const events = await produceEvents(client);
        const deliveries = await deliveriesSettled(client, hook.id, events);
        expect(
          deliveries.map((delivery) => delivery.attempts[0]?.responseStatus),
          receiver.output(),
        ).toEqual(events.map(() => 204));
      }
      // Both schemes carried two signatures, one per secret of the rotation.
      expect(receiver.output()).not.toContain('Refused');
    } finally {
      await receiver.stop();
    }
  });
});

it('the receivers compile under --strict with the installed packages (TypeScript 7)', async () => {
  writeFileSync(
    join(receiversDir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        target: 'es2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        allowImportingTsExtensions: true,
        types: ['node'],
      },
      include: ['*.ts', 'harness/*.ts'],
      exclude: ['*.trap.ts'],
    }),
  );
  const result = await run(process.execPath, [join(consumerDir, 'node_modules/typescript/bin/tsc'), '-p', receiversDir], {
    cwd: consumerDir,
  });
  expect(result.output).toBe('');
  expect(result.code).toBe(0);
});

/**
 * mock-server/README.md's `cardrail-mock trigger` block, each line run as written but for the addresses: the receiver's
 * URL becomes the Express receiver's free port, and `--base-url` names this file's mock (the README's commands use the
 * default ports 4010 and 3000, which a test never takes). The words of a line, `"$VAR"` expanded from `env`, without
 * its `# comment`.
 */
function shellWords(line: string, env: Record<string, string>): string[] {
  const words = line.replace(/\s+#.*$/, '').match(/"[^"]*"|\S+/g) ?? [];
  return words.map((word) =>
    word.replace(/^"(.*)"$/, '$1').replace(/\$([A-Z_]+)/g, (_match, name: string) => {
      const value = env[name];
      if (value === undefined) throw new Error(`the README's command reads $${name}, which the test does not set`);
      return value;
    }),
  );
}

it("mock-server/README.md's trigger block: the first run with the receiver's own --secret exits 0 with a delivery the Express receiver verified", async () => {
  const readme = readFileSync(new URL('../../mock-server/README.md', import.meta.url), 'utf8');
  const block = codeBlocks('mock-server/README.md', readme).find((candidate) => /^cardrail-mock trigger /m.test(candidate.code));
  if (!block) throw new Error('mock-server/README.md has no `cardrail-mock trigger` block');
  const lines = block.code.split('\n').filter((line) => line.startsWith('cardrail-mock trigger'));
  expect(lines[0]).toContain('--secret "$CARDRAIL_WEBHOOK_SECRET"');

  // The receiver's own secret, made as the README says (the standard base64 of 32 random bytes).
  const secret = `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64')}`;
  const express = RECEIVERS.find((spec) => spec.file === 'express.ts');
  if (!express) throw new Error('no Express receiver');
  const receiver = await serve(process.execPath, [express.file], {
    cwd: receiversDir,
    env: { PORT: '0', CARDRAIL_WEBHOOK_SECRET: secret, CARDRAIL_API_KEY: 'sk_test_readmetrigger' },
    ready: /Listening on (\S+)/,
  });
  try {
    for (const [index, line] of lines.entries()) {
      const words = shellWords(line, { CARDRAIL_WEBHOOK_SECRET: secret }).map((word) =>
        word === 'http://127.0.0.1:3000/webhooks/cardrail' ? receiver.address : word,
      );
      // `--list` reaches no mock; the others are sent to this file's.
      const args = words.includes('--list') ? words.slice(1) : [...words.slice(1), '--base-url', mock.address];
      const result = await run('npx', ['--no-install', 'cardrail-mock', ...args], { cwd: consumerDir, timeoutMs: WAITS.start });
      expect(result.code, `${line}\n${result.output}`).toBe(0);
      if (index === 0) expect(receiver.output()).toMatch(/^Received card\.frozen evt_\w+$/m);
    }
  } finally {
    await receiver.stop();
  }
});
