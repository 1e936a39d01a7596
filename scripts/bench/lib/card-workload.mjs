// The HTTP workloads of the mock-server suite, as autocannon request lists: a card read, and a mixed workload of
// create card, evaluate spend, simulate authorize and list a page. The organization behind them is set up so that
// authorizations are approved under load: funded far beyond the run, no card limits, and risk rules in dry run
// (they flag, never freeze or decline).
import { jsonOf, requestOnce } from './http-probe.mjs';

export const BENCH_KEY = 'sk_test_benchworkload01';
const AUTH = { authorization: `Bearer ${BENCH_KEY}` };
const JSON_AUTH = { ...AUTH, 'content-type': 'application/json' };
const MERCHANT = { name: 'OpenAI', mcc: '5734' };
const LIST_PAGE = 10;

async function call(origin, method, path, body) {
  const response = await requestOnce(`${origin}/v1${path}`, { method, headers: AUTH, body });
  if (response.status < 200 || response.status >= 300) {
    throw new Error(`setup ${method} /v1${path}: HTTP ${response.status} ${response.body.toString().slice(0, 300)}`);
  }
  return jsonOf(response);
}

/** Creates the customer, funds, agent, risk settings and cards the workloads use; returns their ids. */
export async function prepareOrganization(origin) {
  const customer = await call(origin, 'POST', '/customers', { email: 'bench@example.com' });
  await call(origin, 'POST', '/simulate/deposits', { customerId: customer.id, amount: 100_000_000_000 });
  const agent = await call(origin, 'POST', '/agents', { customerId: customer.id, name: 'Benchmark agent' });
  await call(origin, 'PATCH', '/settings/risk', { dryRun: true });
  const card = await call(origin, 'POST', '/cards', { customerId: customer.id, agentId: agent.id });
  // A full list page from the first request on, like the pages the run itself will read.
  for (let i = 0; i < LIST_PAGE; i++) await call(origin, 'POST', '/cards', { customerId: customer.id, agentId: agent.id });
  return { customerId: customer.id, agentId: agent.id, cardId: card.id };
}

/** A route is written with /v1; `basePath` replaces it. */
function pathFor(basePath, route) {
  return basePath + route.slice('/v1'.length);
}

/** `basePath` is '/v1' for our mock and the bare server, '' for Prism (which drops the servers' base path). */
export function cardReadRequests(ids, basePath) {
  return [
    {
      name: 'retrieve card',
      route: '/v1/cards/*',
      method: 'GET',
      path: pathFor(basePath, `/v1/cards/${ids.cardId}`),
      headers: AUTH,
    },
  ];
}

export function mixedRequests(ids, basePath) {
  const post = (name, route, body) => ({
    name,
    route,
    method: 'POST',
    path: pathFor(basePath, route),
    headers: JSON_AUTH,
    body: JSON.stringify(body),
  });
  return [
    post('create card', '/v1/cards', { customerId: ids.customerId, agentId: ids.agentId }),
    post('evaluate spend', '/v1/spend/evaluate', { cardId: ids.cardId, amount: 2_500, currency: 'usd', merchant: MERCHANT }),
    post('simulate authorize', '/v1/simulate/authorize', {
      cardId: ids.cardId,
      amount: 2_500,
      currency: 'usd',
      merchant: MERCHANT,
    }),
    {
      name: 'list cards',
      route: '/v1/cards',
      method: 'GET',
      path: `${pathFor(basePath, '/v1/cards')}?limit=${LIST_PAGE}`,
      headers: AUTH,
    },
  ];
}

/** autocannon takes only method, path, headers and body. */
export function forAutocannon(requests) {
  return requests.map(({ method, path, headers, body }) => ({ method, path, headers, body }));
}

/** Sends each request once and fails unless every answer is 2xx; resolves with the answers, in order. */
export async function verifyRequests(serverName, origin, requests) {
  const answers = [];
  for (const request of requests) {
    const response = await requestOnce(origin + request.path, {
      method: request.method,
      headers: request.headers,
      body: request.body,
    });
    if (response.status < 200 || response.status >= 300) {
      throw new Error(
        `${serverName}: ${request.method} ${request.path} (${request.name}) answered HTTP ${response.status}: ${response.body.toString().slice(0, 300)}`,
      );
    }
    answers.push({ request, response });
  }
  return answers;
}

/** The authorization's answer says approved: not declined, no decline reason. */
export function isApproved(authorizationAnswer) {
  const transaction = jsonOf(authorizationAnswer.response);
  return transaction.status !== 'declined' && transaction.declinedReason == null;
}

/** Bare-server routes replaying our mock's answers byte for byte (status, content-type, body). */
export function capturedRoutes(answers) {
  return answers.map(({ request, response }) => ({
    method: request.method,
    path: request.route,
    status: response.status,
    contentType: response.headers['content-type'] ?? 'application/json',
    body: response.body.toString('utf8'),
  }));
}
