import { parseArgs } from 'node:util';
import { Cardrail, CardrailError, CardrailUsers, ConnectionError } from '@cardrail/sdk';
import type { Variant } from '../core/variant.js';
import { recipeFor, triggerableTypes, triggerEvent } from '../testkit/trigger/trigger.js';
import type { TriggerClient } from '../testkit/trigger/world.js';
import { closestWords } from './did-you-mean.js';
import { subscribe } from './trigger-subscription.js';
import { UsageError } from './usage-error.js';

const DEFAULT_BASE_URL = 'http://127.0.0.1:4010/v1';
const DEFAULT_API_KEY = 'sk_test_cardrail_trigger';
/** How long to wait for the first attempt of each delivery (a receiver has 10 s to answer). */
const DELIVERY_WAIT_MS = 15_000;
const SECRET_RULE = ' (--secret takes whsec_ and the standard base64 of 24 to 64 random bytes: whsec_$(openssl rand -base64 32))';

const TRIGGER_USAGE = `Usage: cardrail-mock trigger <event-type> [options]
       cardrail-mock trigger --list [--variant user]

Makes one event happen in an organization of a running mock, through its API: creates what the event needs (an
owner with money, an agent, a card, an intent...) and drives the operation that emits it, so the organization's
webhooks receive the real, signed event. Then reports each webhook's delivery of it.

Options:
  --url <receiver>     subscribe this URL to the event type first; later runs with the same key reuse the
                       subscription (its signing secret is printed when it is created)
  --secret <whsec_...> with --url: the receiver's own signing secret (whsec_ and the base64 of 24 to 64 random
                       bytes), which the subscription signs with, so that the first delivery verifies; replaces a
                       subscription an earlier trigger made for the URL
  --variant <name>     customer (default: Bearer key, general envelope) or user (Api-Key, catalog envelope)
  --api-key <key>      the organization, a test key (default ${DEFAULT_API_KEY})
  --base-url <url>     the mock's API (default ${DEFAULT_BASE_URL})
  --advance-clock      move the organization's test clock instead of waiting in real time (the expiries wait a
                       minute), and allow anomaly.spend_spike (25 h); later signatures then run that far ahead of the
                       wall clock, which receivers verifying against their own clock refuse
  --list               the event types of the variant and how each is triggered
  -h, --help           this text

Exit codes: 0 the event happened (and the --url receiver accepted it); 1 it did not, or the receiver refused it;
2 a usage error (an unknown event type names the closest ones).`;

/** What the command prints: its report on `out`, problems on `err`. */
export interface TriggerCommandIo {
  out(text: string): void;
  err(text: string): void;
}

/** `cardrail-mock trigger ...`: resolves with the exit code. */
export async function runTriggerCommand(argv: string[], io: TriggerCommandIo): Promise<number> {
  try {
    return await trigger(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`cardrail-mock trigger: ${error.message}\n`);
      return 2;
    }
    if (error instanceof ConnectionError) {
      io.err(
        `cardrail-mock trigger: no mock answers at ${baseUrlOf(argv)} (${error.message}). Start one ` +
          '(`npx cardrail-mock`, or `npm run mock` in the Cardrail repository), or pass --base-url.\n',
      );
      return 1;
    }
    if (error instanceof CardrailError) {
      // A --secret the API refused: its pattern's message names a length, not what to pass.
      const rule = /\bbody\/secret\b/.test(error.message) ? SECRET_RULE : '';
      io.err(`cardrail-mock trigger: the API refused a step: ${error.status ?? ''} ${error.code}: ${error.message}${rule}\n`);
      return 1;
    }
    throw error;
  }
}

async function trigger(argv: string[], io: TriggerCommandIo): Promise<number> {
  const { values, positionals } = parseOptions(argv);
  if (values.help) {
    io.out(`${TRIGGER_USAGE}\n`);
    return 0;
  }
  const variant = parseVariant(values.variant);
  if (values.list) {
    io.out(listing(variant, values['advance-clock']));
    return 0;
  }
  const [type, ...extra] = positionals;
  if (type === undefined) throw new UsageError(`which event? Pass an event type (cardrail-mock trigger --list names them).`);
  if (extra.length > 0) throw new UsageError(`one event type at a time, got ${positionals.join(' ')}`);
  const recipe = recipeFor(variant, type);
  if (recipe === undefined) throw new UsageError(unknownType(variant, type));
  if (recipe.time?.advanceOnly && !values['advance-clock']) {
    throw new UsageError(
      `${type} needs ${Math.round(recipe.time.seconds / 3600)} h to pass on the organization's test clock, too long to wait for: ` +
        'pass --advance-clock to move the clock (later deliveries of the organization are then signed that far ahead of ' +
        'the wall clock, so give it an organization of its own with --api-key).',
    );
  }
  const apiKey = values['api-key'] ?? DEFAULT_API_KEY;
  if (!apiKey.startsWith('sk_test_')) {
    throw new UsageError(`--api-key must be a test key (sk_test_...): triggers drive the test helpers (/simulate/*).`);
  }
  const baseUrl = values['base-url'] ?? DEFAULT_BASE_URL;
  // The command reports failures itself; the client's own warnings would say them twice.
  const options = { apiKey, baseUrl, maxRetries: 0, logLevel: 'off' as const };
  const client: TriggerClient = variant === 'user' ? new CardrailUsers(options) : new Cardrail(options);

  if (values.secret !== undefined && values.url === undefined) {
    throw new UsageError('--secret is the signing secret of the --url receiver: pass --url too.');
  }
  const subscribed = values.url === undefined ? undefined : await subscribe(client, values.url, type, values.secret, io);
  const { event } = await triggerEvent(client, type, {
    time: values['advance-clock'] ? 'advance' : 'real-time',
    onStep: (step) => io.out(`  ${step}\n`),
  });
  io.out(`${event.type} ${event.id}\n`);
  return reportDeliveries(client, event, subscribed, io);
}

/** The base URL the arguments name (for messages about it). */
function baseUrlOf(argv: string[]): string {
  const index = argv.findIndex((arg) => arg === '--base-url' || arg.startsWith('--base-url='));
  if (index === -1) return DEFAULT_BASE_URL;
  return argv[index]?.includes('=') ? (argv[index]?.split('=')[1] ?? '') : (argv[index + 1] ?? '');
}

function parseOptions(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      options: {
        url: { type: 'string' },
        secret: { type: 'string' },
        variant: { type: 'string' },
        'api-key': { type: 'string' },
        'base-url': { type: 'string' },
        'advance-clock': { type: 'boolean', default: false },
        list: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: true,
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message} (cardrail-mock trigger --help)`);
  }
}

function parseVariant(value: string | undefined): Variant {
  if (value === undefined || value === 'customer' || value === 'user') return value ?? 'customer';
  throw new UsageError(`--variant must be customer or user, got ${value}`);
}

/** Why `type` cannot be triggered in `variant`, naming what was probably meant. */
function unknownType(variant: Variant, type: string): string {
  const other: Variant = variant === 'customer' ? 'user' : 'customer';
  if (recipeFor(other, type) !== undefined) {
    return (
      `${type} is an event type of the ${other} variant, not of the ${variant} one: pass --variant ${other}` +
      `${variant === 'customer' && type === 'transaction.authorized' ? ' (the customer variant calls it transaction.created)' : ''}` +
      `${variant === 'customer' && type === 'transaction.completed' ? ' (the customer variant calls it transaction.settled)' : ''}` +
      `${variant === 'user' && type === 'transaction.created' ? ' (the user variant calls it transaction.authorized)' : ''}` +
      `${variant === 'user' && type === 'transaction.settled' ? ' (the user variant calls it transaction.completed)' : ''}.`
    );
  }
  const closest = closestWords(type, triggerableTypes(variant), 3);
  return `unknown event type ${type} for the ${variant} variant; the closest: ${closest.join(', ')} (cardrail-mock trigger --list names them all).`;
}

function listing(variant: Variant, advanceClock: boolean): string {
  const types = triggerableTypes(variant);
  const width = Math.max(...types.map((type) => type.length));
  const lines = types.map((type) => {
    const recipe = recipeFor(variant, type);
    const time = recipe?.time;
    const note =
      time === undefined
        ? ''
        : time.advanceOnly && !advanceClock
          ? ' (needs --advance-clock)'
          : advanceClock
            ? ' (advances the test clock)'
            : ` (waits ${Math.round(time.seconds / 60)} min)`;
    return `  ${type.padEnd(width)}  ${recipe?.how ?? ''}${note}`;
  });
  return `Event types of the ${variant} variant (${types.length}; --variant ${variant === 'customer' ? 'user' : 'customer'} for the other):\n${lines.join('\n')}\n`;
}

/** Waits for each subscribed webhook's first attempt at the event and prints it; 1 when the --url one failed. */
async function reportDeliveries(
  client: TriggerClient,
  event: { id: string; type: string },
  subscribed: string | undefined,
  io: TriggerCommandIo,
): Promise<number> {
  const targets: { id: string; url: string }[] = [];
  for await (const webhook of client.webhooks.list({ limit: 100 })) {
    const events: readonly string[] = webhook.events;
    if (webhook.status === 'active' && (events.includes('*') || events.includes(event.type))) targets.push(webhook);
  }
  if (targets.length === 0) {
    io.out(`No webhook of the organization subscribes to ${event.type}: pass --url <receiver> to subscribe one.\n`);
    return 0;
  }
  let code = 0;
  for (const webhook of targets) {
    const attempt = await firstAttempt(client, webhook.id, event.id);
    const outcome =
      attempt === undefined
        ? `no attempt within ${DELIVERY_WAIT_MS / 1000} s`
        : attempt.responseStatus !== null && attempt.responseStatus >= 200 && attempt.responseStatus < 300
          ? `${attempt.responseStatus} in ${attempt.durationMs} ms`
          : `failed: ${attempt.responseStatus ?? attempt.error}${attempt.responseStatus !== null && attempt.error ? ` (${attempt.error})` : ''}`;
    io.out(`  delivered to ${webhook.url} (${webhook.id}): ${outcome}\n`);
    if (webhook.id === subscribed && !outcome.match(/^\d{3} in/)) code = 1;
  }
  return code;
}

async function firstAttempt(client: TriggerClient, webhookId: string, eventId: string) {
  const deadline = Date.now() + DELIVERY_WAIT_MS;
  for (;;) {
    const { data } = await client.webhooks.deliveries.list(webhookId, { limit: 20 });
    const attempt = data.find((delivery) => delivery.eventId === eventId)?.attempts[0];
    if (attempt !== undefined || Date.now() > deadline) return attempt;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
