import { CardrailUsers } from '@cardrail/sdk';
import { eventNaming } from '../core/event-naming.js';
import type { TriggerClient } from '../testkit/trigger/world.js';
import { UsageError } from './usage-error.js';

/** What the subscription steps print. */
interface Out {
  out(text: string): void;
}

/** The description of the subscriptions the command makes (so that --secret replaces only its own). */
const TRIGGER_DESCRIPTION = 'cardrail-mock trigger';

/**
 * The subscription of `url` in the organization: reused when there is one (its events extended to `type`), else
 * created. With the receiver's own `secret`, a subscription an earlier trigger made is replaced by one that signs
 * with it (the API never shows an existing secret, so it cannot tell whether that one already matches).
 */
export async function subscribe(
  client: TriggerClient,
  url: string,
  type: string,
  secret: string | undefined,
  io: Out,
): Promise<string> {
  for await (const webhook of client.webhooks.list({ limit: 100 })) {
    if (webhook.url !== url) continue;
    if (secret !== undefined) {
      if (webhook.description !== TRIGGER_DESCRIPTION) {
        throw new UsageError(
          `${url} is already subscribed (${webhook.id}) by something other than cardrail-mock trigger: leave out --secret to deliver with its secret, or use another --api-key.`,
        );
      }
      const events: readonly string[] = webhook.events;
      await client.webhooks.delete(webhook.id);
      const created = await saveSubscription(client, { url, events: events.includes(type) ? events : [...events, type], secret });
      io.out(`Subscribed ${url} to ${type} again, signing with the given secret: ${created.id} (replaces ${webhook.id})\n`);
      return created.id;
    }
    const events: readonly string[] = webhook.events;
    const covers = events.includes('*') || events.includes(type);
    if (!covers || webhook.status !== 'active') {
      await saveSubscription(client, { id: webhook.id, events: covers ? events : [...events, type] });
      io.out(
        `Subscribed ${url} (${webhook.id}, already there) to ${type}${webhook.status === 'active' ? '' : ' and made it active'}\n`,
      );
    } else {
      io.out(`Delivering to ${url} (${webhook.id}, already subscribed)\n`);
    }
    return webhook.id;
  }
  const created = await saveSubscription(client, { url, events: [type], ...(secret === undefined ? {} : { secret }) });
  io.out(
    secret === undefined
      ? `Subscribed ${url} to ${type}: ${created.id}, signing secret ${created.secret}\n`
      : `Subscribed ${url} to ${type}: ${created.id}, signing with the given secret\n`,
  );
  return created.id;
}

/**
 * Creates a subscription of `url`, or makes the subscription `id` active: for `events`, names of the client's variant
 * (the command's type has passed the recipe lookup; the others come from the subscription itself).
 */
async function saveSubscription(
  client: TriggerClient,
  change: { url: string; events: readonly string[]; secret?: string } | { id: string; events: readonly string[] },
): Promise<{ id: string; secret?: string }> {
  const description = TRIGGER_DESCRIPTION;
  const secret = 'secret' in change && change.secret !== undefined ? { secret: change.secret } : {};
  if (client instanceof CardrailUsers) {
    const events = change.events.filter((name) => eventNaming.isTypeName('user', name));
    return 'id' in change
      ? client.webhooks.update(change.id, { events, status: 'active' })
      : client.webhooks.create({ url: change.url, events, description, ...secret });
  }
  const events = change.events.filter((name) => eventNaming.isTypeName('customer', name));
  return 'id' in change
    ? client.webhooks.update(change.id, { events, status: 'active' })
    : client.webhooks.create({ url: change.url, events, description, ...secret });
}
