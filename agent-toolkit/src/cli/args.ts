import { parseArgs } from 'node:util';
import { API_VARIANTS, type ApiVariant } from '../api-variant.js';
import { CREDENTIAL_EXPOSURES, type CredentialExposure } from '../credential-exposure.js';
import type { HttpAuthOptions } from '../http-auth/settings.js';
import { AUTH_OPTIONS, AUTH_USAGE, authFromFlags } from './auth-args.js';
import { UsageError } from './usage-error.js';

export const USAGE = `Usage: cardrail-mcp --api-key <key> --agent <agentId> [--card <cardId>] [--base-url <url>] [options]
       cardrail-mcp --api-key <key> --transport http --auth-issuer <url> --auth-audience <url> [options]

Serves Cardrail's agent tools over the Model Context Protocol, scoped to one agent (and optionally one card), or,
behind OAuth, to the agent (and card) each access token names.

Options:
  --api-key <key>              sk_test_... or sk_live_... (default: $CARDRAIL_API_KEY; prefer it, arguments
                               are visible to other processes)
  --agent <agentId>            the agent every tool acts for (default: $CARDRAIL_AGENT_ID)
  --card <cardId>              bind to this one card of the agent (default: $CARDRAIL_CARD_ID)
  --base-url <url>             the API, e.g. http://127.0.0.1:4010/v1 for the mock (default: $CARDRAIL_BASE_URL,
                               else production)
  --variant <customer|user>    customer: Bearer key (default); user: Api-Key header
  --credential-exposure <masked|full>
                               what get_card_credentials shows the model: masked (default; last 4 digits and
                               expiry) or full (card number and CVC)
  --pay-merchant <origin>      repeatable: an MPP merchant origin (https://gpu.example, or http on loopback) that
                               pay_merchant may pay; no other is reached (default: none). ACP sellers and their
                               PSPs need a name and a key: configure them in code (payments.merchants)
  --no-elicitation             never ask the client to show an intent's approval page (MCP URL elicitation);
                               the model gets the link and waits with wait_for_approval, as with any client
                               that cannot show one
  --no-tasks                   never answer with a task (MCP tasks extension), even to a client that
                               declared it
  --no-apps                    never show the approval card (MCP Apps), even to a client that renders it:
                               such a client is asked as one without MCP Apps would be
  --elicitation-timeout <s>    how long a 2025-11-25 client has to show the approval page (default 60 seconds)
  --approval-wait <s>          once the person opened the page, how long declare_intent waits for their
                               decision (default 120, at most 300 seconds)
  --transport <stdio|http>     stdio (default) or streamable HTTP (http://<host>:<port>/mcp); both serve MCP
                               2025-11-25 and 2026-07-28 clients
  --host <host>                HTTP only; default 127.0.0.1
  --port <n>                   HTTP only; default 4020, 0 picks a free port
  --allowed-host <name>        HTTP only, repeatable: a host name accepted in the Host header (default: the
                               loopback names on a loopback host, else --host); the --auth-audience host is
                               always accepted too
  --allowed-origin <origin>    HTTP only, repeatable: a web page origin (https://app.example) or host name
                               that may call the server; others get 403 (default: localhost pages on a
                               loopback host, else none); the --auth-audience origin is always accepted too
  -h, --help                   this help
  -v, --version                the version

${AUTH_USAGE}

Environment only: CARDRAIL_MCP_STATE_SECRET (at least 32 bytes) signs what clients hold for the server
(retried calls, task ids); default: derived from the API key, so it survives a restart.`;

export interface ServeConfig {
  apiKey: string;
  /** The agent every tool acts for; undefined behind OAuth, where each token names it. */
  agentId: string | undefined;
  cardId: string | undefined;
  baseUrl: string | undefined;
  variant: ApiVariant;
  credentialExposure: CredentialExposure;
  /** The MPP merchant origins pay_merchant may pay (--pay-merchant). */
  payMerchants: string[];
  /** How declare_intent asks a client for a person's decision. */
  approval: {
    apps: boolean;
    elicitation: boolean;
    tasks: boolean;
    elicitationTimeoutMs: number | undefined;
    decisionWaitSeconds: number | undefined;
  };
  transport: 'stdio' | 'http';
  host: string | undefined;
  port: number | undefined;
  allowedHosts: string[] | undefined;
  allowedOrigins: string[] | undefined;
  /** CARDRAIL_MCP_STATE_SECRET; undefined: derived from the API key. */
  stateSecret: string | undefined;
  /** CARDRAIL_MCP_CONFORMANCE_FIXTURES=1: the conformance suite's tools (test only). */
  conformanceFixtures: boolean;
  /** OAuth for the HTTP transport (`--auth-issuer`...), or undefined: the API key mode. */
  auth: HttpAuthOptions | undefined;
}

export type CliCommand = { kind: 'help' } | { kind: 'version' } | { kind: 'serve'; config: ServeConfig };

export { UsageError };

function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], flag: string, fallback: T): T {
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`${flag} must be ${allowed.join(' or ')}, got ${JSON.stringify(value)}.`);
  return value as T;
}

function port(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n > 65535)
    throw new UsageError(`--port must be an integer from 0 to 65535, got ${JSON.stringify(value)}.`);
  return n;
}

function seconds(value: string | undefined, flag: string, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!/^[0-9]+$/.test(value) || n < 1 || n > max)
    throw new UsageError(`${flag} must be a whole number of seconds from 1 to ${max}, got ${JSON.stringify(value)}.`);
  return n;
}

const mapDefined = <T, U>(value: T | undefined, map: (value: T) => U): U | undefined =>
  value === undefined ? undefined : map(value);

const nonEmpty = (value: string | undefined) => (value === undefined || value === '' ? undefined : value);

const OPTIONS = {
  'api-key': { type: 'string' },
  agent: { type: 'string' },
  card: { type: 'string' },
  'base-url': { type: 'string' },
  variant: { type: 'string' },
  'credential-exposure': { type: 'string' },
  'pay-merchant': { type: 'string', multiple: true },
  'no-elicitation': { type: 'boolean' },
  'no-tasks': { type: 'boolean' },
  'no-apps': { type: 'boolean' },
  'elicitation-timeout': { type: 'string' },
  'approval-wait': { type: 'string' },
  transport: { type: 'string' },
  host: { type: 'string' },
  port: { type: 'string' },
  'allowed-host': { type: 'string', multiple: true },
  'allowed-origin': { type: 'string', multiple: true },
  ...AUTH_OPTIONS,
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
} as const;

function parse(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options: OPTIONS }).values;
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

export function parseCli(argv: readonly string[], env: Record<string, string | undefined>): CliCommand {
  const values = parse(argv);
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  const apiKey = nonEmpty(values['api-key']) ?? nonEmpty(env.CARDRAIL_API_KEY);
  if (apiKey === undefined) throw new UsageError('--api-key <key> is required (or set CARDRAIL_API_KEY).');
  const agentId = nonEmpty(values.agent) ?? nonEmpty(env.CARDRAIL_AGENT_ID);
  const cardId = nonEmpty(values.card) ?? nonEmpty(env.CARDRAIL_CARD_ID);
  const transport = oneOf(values.transport, ['stdio', 'http'] as const, '--transport', 'stdio');
  const httpOnly = (['host', 'port', 'allowed-host', 'allowed-origin'] as const).filter((flag) => values[flag] !== undefined);
  if (transport === 'stdio' && httpOnly.length > 0) {
    const named = httpOnly.map((flag) => `--${flag}`);
    throw new UsageError(`${named.join(', ')} ${named.length === 1 ? 'applies' : 'apply'} to --transport http only.`);
  }
  const stateSecret = nonEmpty(env.CARDRAIL_MCP_STATE_SECRET);
  if (stateSecret !== undefined && new TextEncoder().encode(stateSecret).byteLength < 32) {
    throw new UsageError('CARDRAIL_MCP_STATE_SECRET must be at least 32 bytes long.');
  }
  const auth = authFromFlags(values, transport);
  if (auth === undefined && agentId === undefined)
    throw new UsageError('--agent <agentId> is required (or set CARDRAIL_AGENT_ID).');
  if (auth !== undefined && (agentId ?? cardId) !== undefined) {
    throw new UsageError(
      'with --auth-issuer each access token names its agent and card: drop --agent and --card (and CARDRAIL_AGENT_ID, CARDRAIL_CARD_ID).',
    );
  }
  return {
    kind: 'serve',
    config: {
      apiKey,
      agentId,
      cardId,
      baseUrl: nonEmpty(values['base-url']) ?? nonEmpty(env.CARDRAIL_BASE_URL),
      variant: oneOf(values.variant, API_VARIANTS, '--variant', 'customer'),
      credentialExposure: oneOf(values['credential-exposure'], CREDENTIAL_EXPOSURES, '--credential-exposure', 'masked'),
      payMerchants: values['pay-merchant'] ?? [],
      approval: {
        apps: values['no-apps'] !== true,
        elicitation: values['no-elicitation'] !== true,
        tasks: values['no-tasks'] !== true,
        elicitationTimeoutMs: mapDefined(seconds(values['elicitation-timeout'], '--elicitation-timeout', 3600), (s) => s * 1000),
        decisionWaitSeconds: seconds(values['approval-wait'], '--approval-wait', 300),
      },
      transport,
      host: values.host,
      port: port(values.port),
      allowedHosts: values['allowed-host'],
      allowedOrigins: values['allowed-origin'],
      stateSecret,
      conformanceFixtures: env.CARDRAIL_MCP_CONFORMANCE_FIXTURES === '1',
      auth,
    },
  };
}
