import { unwrap, WebhookVerificationError } from '@cardrail/sdk/webhooks';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';

const secret = process.env.CARDRAIL_WEBHOOK_SECRET!;
const app = new Hono();

app.post('/webhooks/cardrail', async (c) => {
  try {
    // c.req.text(), not c.req.json(): the signature covers the body's exact bytes.
    const event = await unwrap(await c.req.text(), c.req.raw.headers, secret);
    console.log(`Received ${event.type} ${event.id}`);
    return c.body(null, 204);
  } catch (error) {
    if (error instanceof WebhookVerificationError) return c.text(error.message, 400);
    throw error;
  }
});

serve({ fetch: app.fetch, port: Number(process.env.PORT ?? 3000), hostname: '127.0.0.1' }, ({ port }) => {
  console.log(`Listening on http://127.0.0.1:${port}/webhooks/cardrail`);
});
