// A receiver that verifies every delivery as users of the Standard Webhooks libraries do: with `standardwebhooks`
// and with `svix`, once per secret of the delivery's webhook, each secret on its own and exactly as the API returned
// it (RECEIVER_SECRETS: a JSON object of request path to secrets). It answers 204 when every check accepts the
// delivery, else 400 naming each refusal.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { Webhook as SvixWebhook } from 'svix';

const secrets = JSON.parse(process.env.RECEIVER_SECRETS!) as Record<string, string[]>;
const libraries = { standardwebhooks: StandardWebhook, svix: SvixWebhook };

const server = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString('utf8');
  const headers = req.headers as Record<string, string>;
  const refusals: string[] = [];
  const webhookSecrets = secrets[req.url ?? ''] ?? [];
  if (webhookSecrets.length === 0) refusals.push(`no secrets for ${req.url}`);
  for (const secret of webhookSecrets) {
    for (const [name, Library] of Object.entries(libraries)) {
      try {
        new Library(secret).verify(body, headers);
      } catch (error) {
        refusals.push(`${name} with secret ${webhookSecrets.indexOf(secret) + 1}: ${(error as Error).message}`);
      }
    }
  }
  const eventId = (JSON.parse(body) as { id?: string }).id;
  console.log(refusals.length === 0 ? `Verified ${eventId} ${req.url}` : `Refused ${eventId} ${req.url}: ${refusals.join('; ')}`);
  res.writeHead(refusals.length === 0 ? 204 : 400).end(refusals.join('\n'));
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  console.log(`Listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
