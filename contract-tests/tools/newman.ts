// openapi-to-postmanv2, then newman against the mock: what a user gets who turns a published bundle (spec/dist) into
// a Postman collection and runs it. The collection is the converter's, with two edits only: its collection variables
// for the base URL and the key. Every answer goes through the contract recorder (src/recorder.ts: status documented,
// content type, required headers, body valid under the spec), and the run fails on any 5xx, any answer the spec does
// not allow, and any 4xx other than a 404 `not_found` for an example id that does not exist here.
//
//   tsx tools/newman.ts
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { startMockServer } from '@cardrail/mock-server/node';
import newman, { type NewmanRunExecution, type NewmanRunOptions } from 'newman';
import { convertV2 } from 'openapi-to-postmanv2';
import { ContractRecorder } from '../src/recorder.js';
import { VARIANTS, type Variant } from '../src/spec.js';

/** What this script reads and edits of a collection (Postman's collection format v2.1). */
interface CollectionDefinition {
  auth?: unknown;
  variable?: { key?: string; value?: unknown; type?: string }[];
}

/** The converter's options: examples rather than schema placeholders (`<string>`), so that requests are runnable. */
const CONVERTER_OPTIONS = { parametersResolution: 'Example' } as const;

function convert(variant: Variant): Promise<CollectionDefinition> {
  const file = fileURLToPath(new URL(`../../spec/dist/${variant}.json`, import.meta.url));
  return new Promise((resolve, reject) => {
    convertV2({ type: 'file', data: file }, CONVERTER_OPTIONS, (error, result) => {
      if (error) return reject(error);
      if (!result?.result) return reject(new Error(`openapi-to-postmanv2 could not convert ${file}: ${result?.reason}`));
      const collection = result.output?.[0]?.data as CollectionDefinition | undefined;
      if (!collection) return reject(new Error(`openapi-to-postmanv2 produced no collection for ${file}`));
      resolve(collection);
    });
  });
}

/**
 * The only edits: the collection's `baseUrl` variable points at the mock, and the variable its auth reads (the
 * converter names it after the security scheme: `bearerToken`, `apiKey`) holds a fresh test key.
 */
function pointAt(collection: CollectionDefinition, baseUrl: string, key: string): string[] {
  const authVariables = [...JSON.stringify(collection.auth ?? {}).matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1] as string);
  if (authVariables.length === 0) throw new Error('the collection has no auth variable to hold the key');
  const values = new Map<string, string>([['baseUrl', baseUrl], ...authVariables.map((name) => [name, key] as const)]);
  const variables = (collection.variable ?? []).filter((variable) => !values.has(String(variable.key)));
  collection.variable = [...variables, ...[...values].map(([name, value]) => ({ key: name, value, type: 'string' }))];
  return [...values.keys()];
}

function runCollection(collection: CollectionDefinition): Promise<NewmanRunExecution[]> {
  return new Promise((resolve, reject) => {
    newman.run(
      { collection: collection as NewmanRunOptions['collection'], reporters: [], timeoutRequest: 10_000 },
      (error, summary) => {
        if (error) return reject(error);
        const failures = summary.run.failures.map((failure) => `${failure.source?.name}: ${failure.error.message}`);
        if (failures.length > 0) return reject(new Error(`newman reported failures:\n  ${failures.join('\n  ')}`));
        resolve(summary.run.executions);
      },
    );
  });
}

/** A request and its answer as newman saw them, as web objects for the recorder. */
function toWeb(execution: NewmanRunExecution): { request: Request; requestBody: string; response: Response; body: string } {
  const sent = execution.request;
  const requestBody = sent.body?.raw ?? '';
  const headers = new Headers();
  for (const header of sent.headers.all()) if (!header.disabled) headers.append(header.key, String(header.value));
  const method = sent.method.toUpperCase();
  const request = new Request(sent.url.toString(), {
    method,
    headers,
    body: method === 'GET' || method === 'HEAD' || requestBody === '' ? undefined : requestBody,
  });
  const answer = execution.response;
  const body = answer.stream ? Buffer.from(answer.stream).toString('utf8') : '';
  const responseHeaders = new Headers();
  for (const header of answer.headers.all()) responseHeaders.append(header.key, String(header.value));
  const response = new Response(body === '' ? null : body, { status: answer.code, headers: responseHeaders });
  return { request, requestBody, response, body };
}

interface Outcome {
  variant: Variant;
  requests: number;
  statuses: Map<number, number>;
  problems: string[];
  notFound: string[];
}

async function runVariant(variant: Variant, baseUrl: string, recorder: ContractRecorder): Promise<Outcome> {
  const collection = await convert(variant);
  const key = `sk_test_${randomBytes(12).toString('hex')}`;
  const edited = pointAt(collection, baseUrl, key);
  console.log(`${variant}: collection converted; collection variables set: ${edited.join(', ')}`);
  const executions = await runCollection(collection);
  const outcome: Outcome = { variant, requests: executions.length, statuses: new Map(), problems: [], notFound: [] };
  for (const execution of executions) {
    const name = execution.item.name;
    if (!execution.response) {
      outcome.problems.push(`${name}: no answer`);
      continue;
    }
    const { request, requestBody, response, body } = toWeb(execution);
    const exchange = recorder.record(request, requestBody, response, body);
    const line = `${request.method} ${exchange.target} -> ${response.status} ${body.slice(0, 300)}`;
    outcome.statuses.set(response.status, (outcome.statuses.get(response.status) ?? 0) + 1);
    if (!exchange.operation) outcome.problems.push(`${name}: no operation of the spec matches ${line}`);
    for (const violation of exchange.violations) outcome.problems.push(`${name}: ${violation.check}: ${violation.message}`);
    if (response.status === 404 && body === JSON.stringify({ error: 'not_found' })) outcome.notFound.push(line);
    else if (response.status >= 400 && response.status < 500)
      outcome.problems.push(`${name}: a 4xx caused by the example: ${line}`);
  }
  const operations = Object.values(recorder.specs[variant].document.paths).flatMap((item) =>
    Object.keys(item).filter((method) => ['get', 'post', 'put', 'patch', 'delete'].includes(method)),
  ).length;
  if (executions.length !== operations)
    outcome.problems.push(`the collection ran ${executions.length} requests; the spec has ${operations} operations`);
  return outcome;
}

const started = performance.now();
// Webhook deliveries (the collection creates a webhook) are answered here: nothing leaves the machine.
const running = await startMockServer({
  port: 0,
  host: '127.0.0.1',
  rateLimit: 'pro',
  fetch: async () => new Response(null, { status: 204 }),
});
let failed = false;
try {
  const recorder = new ContractRecorder({ suite: 'newman' });
  for (const variant of VARIANTS) {
    const outcome = await runVariant(variant, running.url, recorder);
    const statuses = [...outcome.statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${count} x ${status}`);
    console.log(`${variant}: ${outcome.requests} requests answered: ${statuses.join(', ')}`);
    console.log(`${variant}: 404 for example ids that do not exist here (expected): ${outcome.notFound.length}`);
    if (outcome.problems.length > 0) {
      failed = true;
      console.error(`${variant}: ${outcome.problems.length} problems:\n  ${outcome.problems.join('\n  ')}`);
    }
  }
} finally {
  await running.close();
}
console.log(`newman: ${((performance.now() - started) / 1000).toFixed(1)} s`);
if (failed) process.exitCode = 1;
else console.log('newman: every answer is valid under the spec; no 5xx, no 4xx caused by an example');
