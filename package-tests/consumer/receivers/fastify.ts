import { unwrap, WebhookVerificationError } from '@cardrail/sdk/webhooks';
import Fastify from 'fastify';

const secret = process.env.CARDRAIL_WEBHOOK_SECRET!;
const app = Fastify();

// A plugin of its own, so that only the webhook route gets JSON as a Buffer: the signature covers the body's exact
// bytes, which Fastify's default JSON parser would lose.
app.register(async (webhooks) => {
  webhooks.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));

  webhooks.post('/webhooks/cardrail', async (request, reply) => {
    try {
      const event = await unwrap(request.body as Buffer, request.headers, secret);
      console.log(`Received ${event.type} ${event.id}`);
      return reply.code(204).send();
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      return reply.code(400).send(error.message);
    }
  });
});

const address = await app.listen({ port: Number(process.env.PORT ?? 3000), host: '127.0.0.1' });
console.log(`Listening on ${address}/webhooks/cardrail`);
