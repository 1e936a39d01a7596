import type { NodeServerOptions } from '../adapters/node.js';
import type { FsyncPolicy } from '../adapters/sqlite/store.js';
import { isWebPage } from '../composition/options.js';
import { isDatabaseUrl } from '../adapters/postgres/url.js';

/** The CLI flags of the standalone server's limits and state, as parseArgs gives them (docs/standalone-server.md). */
export interface ServerFlagValues {
  'max-body-size'?: string | undefined;
  'headers-timeout'?: string | undefined;
  'request-timeout'?: string | undefined;
  'keep-alive-timeout'?: string | undefined;
  'max-connections'?: string | undefined;
  'allow-webhook-host'?: string[] | undefined;
  state?: string | undefined;
  'state-fsync'?: string | undefined;
  'drain-timeout'?: string | undefined;
  'evict-idle'?: string | undefined;
  'approval-page'?: string | undefined;
}

/** The server options those flags set; each value is checked with a message naming the flag. */
export function serverOptionsFromFlags(values: ServerFlagValues): Partial<NodeServerOptions> {
  const options: Partial<NodeServerOptions> = {};
  if (values['max-body-size'] !== undefined) options.maxBodyBytes = parseSize('--max-body-size', values['max-body-size']);
  if (values['headers-timeout'] !== undefined)
    options.headersTimeoutMs = parseCount('--headers-timeout', values['headers-timeout'], 1);
  if (values['request-timeout'] !== undefined)
    options.requestTimeoutMs = parseCount('--request-timeout', values['request-timeout'], 0);
  if (values['keep-alive-timeout'] !== undefined) {
    options.keepAliveTimeoutMs = parseCount('--keep-alive-timeout', values['keep-alive-timeout'], 0);
  }
  if (values['max-connections'] !== undefined)
    options.maxConnections = parseCount('--max-connections', values['max-connections'], 1);
  if (values['allow-webhook-host'] !== undefined) options.allowWebhookHosts = values['allow-webhook-host'];
  if (values['state-fsync'] !== undefined && values.state === undefined) throw new Error('--state-fsync needs --state <dir>');
  // A database URL (or CARDRAIL_STATE_URL, which keeps the password out of the process list): a PostgreSQL state.
  const url = values.state ?? stateUrlFromEnvironment();
  if (url !== undefined && isDatabaseUrl(url)) {
    if (values['state-fsync'] !== undefined) throw new Error('--state-fsync applies to a state directory, not to a database URL');
    options.state = url;
  } else if (values.state !== undefined) {
    const fsync = values['state-fsync'] ?? 'interval';
    if (fsync !== 'interval' && fsync !== 'always') throw new Error(`--state-fsync must be interval or always, got ${fsync}`);
    options.state = { path: values.state, fsync: fsync as FsyncPolicy };
  }
  options.drainTimeoutMs = parseCount('--drain-timeout', values['drain-timeout'] ?? '10000', 0);
  if (values['evict-idle'] !== undefined) options.evictIdleMs = parseCount('--evict-idle', values['evict-idle'], 1) * 60_000;
  if (values['approval-page'] !== undefined) options.approvalPage = parseApprovalPage(values['approval-page']);
  return options;
}

/**
 * The page an intent's `approvalUrl` names, for a mock reached at another address than the one it listens on (a
 * container, a proxy, a tunnel): an absolute URL in which `{intentId}` stands for the intent's id.
 */
function parseApprovalPage(text: string): string {
  if (!text.includes('{intentId}') || !isWebPage(text.replaceAll('{intentId}', 'int_0'))) {
    throw new Error(
      `--approval-page must be an absolute http(s) URL containing {intentId}, such as https://mock.example.com/#/approvals/{intentId}, got ${text}`,
    );
  }
  return text;
}

/** A byte size: a whole number with an optional unit, `kb`/`k`/`kib` or `mb`/`m`/`mib` (1024-based). */
function parseSize(flag: string, text: string): number {
  const match = /^(\d+)\s*(b|k|kb|kib|m|mb|mib)?$/i.exec(text.trim());
  const unit = match?.[2]?.toLowerCase();
  const value = match ? Number(match[1]) * (unit?.startsWith('m') ? 1024 * 1024 : unit?.startsWith('k') ? 1024 : 1) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < 1)
    throw new Error(`${flag} must be a size such as 1048576, 512kb or 1mb, got ${text}`);
  return value;
}

function parseCount(flag: string, text: string, min: number): number {
  const value = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min)
    throw new Error(`${flag} must be a whole number of at least ${min}, got ${text}`);
  return value;
}

/**
 * `CARDRAIL_STATE_URL`, when the runtime lets the CLI read it. Deno without `--allow-env` throws on any read: a mock
 * started there without the variable is given no database, as a user who did not set it expects.
 */
export function stateUrlFromEnvironment(): string | undefined {
  try {
    return process.env.CARDRAIL_STATE_URL;
  } catch {
    return undefined;
  }
}
