#!/usr/bin/env node
import type { Logger } from '@cardrail/sdk';
import { parseCli, USAGE, UsageError, type ServeConfig } from '../cli/args.js';
import type { RunningMcpServer } from '../mcp/node.js';
import { VERSION } from '../version.js';

// stdout carries the protocol on stdio: every message of this process, the SDK's included, goes to stderr.
const say = (message: string, ...rest: unknown[]) => console.error(message, ...rest);
const stderrLogger: Logger = { error: say, warn: say, info: say, debug: say };

async function serve(config: ServeConfig): Promise<RunningMcpServer> {
  // Loaded once the command line is known good: --help, --version and usage errors answer without the MCP SDK.
  const [{ createCardrailToolkit }, { protectWithOAuth, serveHttp, serveStdio }, { stateSecretFromApiKey }] = await Promise.all([
    import('../toolkit.js'),
    import('../mcp/node.js'),
    import('../mcp/state-secret.js'),
  ]);
  const organization = {
    apiKey: config.apiKey,
    baseUrl: config.baseUrl,
    variant: config.variant,
    credentialExposure: config.credentialExposure,
    payments: { merchants: config.payMerchants.map((origin) => ({ origin })) },
    clientOptions: { logger: stderrLogger },
  };
  const server = {
    approval: config.approval,
    // Derived from the API key when not given: retried calls and tasks survive a restart with the same key.
    stateSecret: config.stateSecret ?? (await stateSecretFromApiKey(config.apiKey)),
    conformanceFixtures: config.conformanceFixtures,
  };
  if (config.conformanceFixtures)
    say('cardrail-mcp: CARDRAIL_MCP_CONFORMANCE_FIXTURES=1 adds test-only tools; never give this server to a model.');
  const http = {
    ...server,
    host: config.host,
    port: config.port,
    allowedHosts: config.allowedHosts,
    allowedOrigins: config.allowedOrigins,
  };
  const { auth, agentId } = config;
  if (auth !== undefined) {
    // OAuth: the key is the organization's, each access token names the agent (and card) its calls act for.
    const served = usage(() => protectWithOAuth({ ...auth, onProblem: say }, organization));
    const running = await serveHttp(served, http);
    const { issuer, audience, metadataUrl } = served.resourceServer;
    say(`cardrail-mcp ${VERSION}: tools for the agent each access token names at ${running.url} (streamable HTTP, OAuth)`);
    say(`  tokens of ${issuer} for ${audience}; protected resource metadata at ${metadataUrl}`);
    served.resourceServer.prepare().then(
      (jwks) => say(`  signing keys from ${jwks}`),
      () => undefined, // already said through onProblem; the next token tries again
    );
    return running;
  }
  // parseCli requires an agent without OAuth.
  if (agentId === undefined) throw new UsageError('--agent <agentId> is required (or set CARDRAIL_AGENT_ID).');
  const toolkit = usage(() => createCardrailToolkit({ ...organization, agentId, cardId: config.cardId }));
  const scope = `agent ${toolkit.agentId}${toolkit.cardId === undefined ? '' : `, card ${toolkit.cardId}`}`;
  if (config.transport === 'http') {
    const running = await serveHttp(toolkit, http);
    say(`cardrail-mcp ${VERSION}: tools for ${scope} at ${running.url} (streamable HTTP)`);
    return running;
  }
  // When the client closes stdin the process ends by itself, once the calls in flight have answered.
  const running = await serveStdio(toolkit, server);
  say(`cardrail-mcp ${VERSION}: tools for ${scope} on stdio`);
  return running;
}

/** What `make` throws (a key without the sk_test_/sk_live_ prefix, an empty id) means the command line is wrong. */
function usage<T>(make: () => T): T {
  try {
    return make();
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

let stopping = false;
async function stop(running: RunningMcpServer, status: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await running.close().catch(() => undefined);
  process.exit(status);
}

async function main(): Promise<void> {
  const command = parseCli(process.argv.slice(2), process.env);
  if (command.kind === 'help') return void console.log(USAGE);
  if (command.kind === 'version') return void console.log(VERSION);
  const running = await serve(command.config);
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop(running, 0));
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) say(`cardrail-mcp: ${error.message}\nRun cardrail-mcp --help for the options.`);
  else say(`cardrail-mcp: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(error instanceof UsageError ? 2 : 1);
});
