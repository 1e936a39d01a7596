import type { AddressInfo } from 'node:net';
import { Cardrail, WebhookVerificationError } from '@cardrail/sdk';
import express from 'express';

// The local mock (CARDRAIL_API_KEY from the environment); leave baseUrl out for production, once you mean it.
const cardrail = new Cardrail({ baseUrl: 'http://127.0.0.1:4010/v1' });
const secret = process.env.CARDRAIL_WEBHOOK_SECRET!;
const app = express();

// express.raw, not express.json(): the signature covers the body's exact bytes, which parsing would lose.
app.post('/webhooks/cardrail', express.raw({ type: 'application/json' }), async (req, res) => {
  try {
    const event = await cardrail.webhooks.unwrap(req.body, req.headers, secret);
    console.log(`Received ${event.type} ${event.id}`);
    res.sendStatus(204);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    res.status(400).send(error.message);
  }
});

const server = app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  console.log(`Listening on http://127.0.0.1:${(server.address() as AddressInfo).port}/webhooks/cardrail`);
});
