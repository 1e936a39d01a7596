// A Cloudflare Worker (src/index.ts); the secret is a Worker secret: `wrangler secret put CARDRAIL_WEBHOOK_SECRET`.
import { unwrap, WebhookVerificationError } from '@cardrail/sdk/webhooks';

interface Env {
  CARDRAIL_WEBHOOK_SECRET: string;
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (request.method !== 'POST' || new URL(request.url).pathname !== '/webhooks/cardrail') {
      return new Response('Not found', { status: 404 });
    }
    try {
      // request.text(), not request.json(): the signature covers the body's exact bytes.
      const event = await unwrap(await request.text(), request.headers, env.CARDRAIL_WEBHOOK_SECRET);
      console.log(`Received ${event.type} ${event.id}`);
      return new Response(null, { status: 204 });
    } catch (error) {
      if (error instanceof WebhookVerificationError) return new Response(error.message, { status: 400 });
      throw error;
    }
  },
};
