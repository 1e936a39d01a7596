// A tiny web app whose server calls Cardrail through the SDK: the page issues a card to an agent and lists its cards.
// It knows nothing of the mock: CARDRAIL_BASE_URL points its client at whatever serves the API.
import { createServer } from 'node:http';
import { Cardrail, CardrailError } from '@cardrail/sdk';

const PAGE = `<!doctype html>
<html lang="en">
<meta charset="utf-8">
<title>Agent cards</title>
<h1>Agent cards</h1>
<form id="issue">
  <label>Agent <input name="agentId" required></label>
  <button>Issue a card</button>
</form>
<p role="status" id="status"></p>
<script type="module">
  const form = document.getElementById('issue');
  const status = document.getElementById('status');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    status.textContent = 'Issuing...';
    const response = await fetch('/api/cards', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ agentId: new FormData(form).get('agentId') }),
    });
    const answer = await response.json();
    status.textContent = response.ok ? 'Card issued: ' + answer.id + ' (' + answer.cards + ' cards)' : 'Failed: ' + answer.error;
  });
</script>
</html>`;

/** Starts the app on 127.0.0.1 (port 0: a free one); resolves with its URL and how to stop it. */
export async function startApp({ apiKey, baseUrl, port = 0 }) {
  // The SDK retries 429 and 5xx answers (honouring Retry-After) and dropped connections: the app's recovery.
  const cardrail = new Cardrail({ apiKey, baseUrl, maxRetries: 2, timeoutMs: 5_000 });
  const server = createServer(async (request, response) => {
    const send = (status, type, body) => {
      response.writeHead(status, { 'Content-Type': type });
      response.end(body);
    };
    try {
      if (request.method === 'GET' && request.url === '/') return send(200, 'text/html; charset=utf-8', PAGE);
      if (request.method === 'POST' && request.url === '/api/cards') {
        let text = '';
        for await (const chunk of request) text += chunk;
        const { agentId } = JSON.parse(text);
        const agent = await cardrail.agents.retrieve(agentId);
        const card = await cardrail.cards.create({ customerId: agent.customerId, agentId: agent.id });
        const cards = await cardrail.cards.list({ agentId: agent.id });
        return send(201, 'application/json', JSON.stringify({ id: card.id, cards: cards.data.length }));
      }
      send(404, 'application/json', JSON.stringify({ error: 'not found' }));
    } catch (error) {
      const message = error instanceof CardrailError ? error.message : 'unexpected error';
      send(502, 'application/json', JSON.stringify({ error: message }));
    }
  });
  await new Promise((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const app = await startApp({
    apiKey: process.env.CARDRAIL_API_KEY,
    baseUrl: process.env.CARDRAIL_BASE_URL ?? 'http://127.0.0.1:4010/v1',
    port: Number(process.env.PORT ?? 3000),
  });
  console.log(`App listening on ${app.url}`);
}
