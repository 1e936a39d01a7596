import { type RunningMockServer, serveMock } from '../adapters/node-server.js';
import { nodeBuiltin } from '../adapters/node-builtins.js';
import { joinNegativeValues, parseInstant, parsePort } from './option-values.js';
import { plural } from './plural.js';
import { writeStandardOutput } from './standard-output.js';
import { VERSION } from './version.js';
import { parseRateLimit } from '../core/rate-limiter.js';
import { parseCorsOrigins } from '../http/cors.js';
import { serverOptionsFromFlags, stateUrlFromEnvironment } from './server-flags.js';
import { redact } from '../adapters/postgres/url.js';

const USAGE = `Usage: cardrail-mock [options]
       cardrail-mock trigger <event-type> [--url <receiver>] ...   (cardrail-mock trigger --help)
       cardrail-mock state check|export|import <dir|url> ...      (cardrail-mock state --help)

Runs the Cardrail mock API on http://127.0.0.1:4010/v1.

Options:
  --port <n>             port (default 4010; 0 picks a free one)
  --host <host>          interface (default 127.0.0.1)
  --rate-limit <limit>   standard | pro | <requests per minute>, per key (default: off)
  --fixtures <file>      JSON file of API calls to replay at start (see the README)
  --frozen-clock <ISO>   freeze the test clocks at this instant, e.g. 2026-11-21T12:00:00Z (default: wall time)
  --cors <origin,...>    browser origins allowed to call the mock (default: any origin, *)
  --no-cors              no CORS headers: browsers refuse cross-origin calls
  --no-dashboard         do not serve the dashboard at http://127.0.0.1:4010/
  --approval-page <url>  the page in each intent's approvalUrl, {intentId} in it, for a mock reached at another
                         address (default: the dashboard's page of the intent; none with --no-dashboard)
  --log                  one line per request
  --max-body-size <size> largest request body, e.g. 512kb (default 1mb; larger is 413)
  --headers-timeout <ms> time to receive a request's headers (default 10000)
  --request-timeout <ms> time to receive a whole request (default 30000; 0: none)
  --keep-alive-timeout <ms>  idle keep-alive connections close after this (default 5000)
  --max-connections <n>  open connections at most (default 512)
  --allow-webhook-host <host>  let webhooks reach this host whatever its address (repeatable)
  --state <dir>          keep the whole state in this directory across restarts (SQLite; Node.js 22.13+)
  --state <url>          keep it in PostgreSQL, shared by every instance given the same database:
                         postgres://user:password@host:5432/db[?schema=...] (or CARDRAIL_STATE_URL)
  --state-fsync <when>   interval (default: to disk every second) | always (before each answer)
  --drain-timeout <ms>   on SIGTERM, time for webhook attempts in flight to finish (default 10000)
  --evict-idle <minutes> take organizations idle this long out of memory (kept on disk with --state)
  --control              serve the test kit over HTTP at /__cardrail/ (reset, snapshot, clocks, faults; connectMock)
  --control-token <t>    its bearer token (default: CARDRAIL_CONTROL_TOKEN, else a random one, printed)
  --control-allow-remote allow --control on a --host other than loopback
  --version              the version
  -h, --help             this text`;

export interface CliIo {
  out(text: string): void;
  /** Registers the shutdown on a signal; the default is process.once. */
  onSignal(signal: NodeJS.Signals, handler: () => void): void;
}

const processIo: CliIo = {
  out: writeStandardOutput,
  onSignal: (signal, handler) => process.once(signal, handler),
};

/**
 * Parses the arguments, starts the server and loads fixtures. Resolves with the running server (undefined for
 * --help); SIGINT and SIGTERM close it, and `stopped` settles once it is closed.
 */
export async function runCli(
  argv: string[],
  io: CliIo = processIo,
): Promise<{ running: RunningMockServer; stopped: Promise<void> } | undefined> {
  const { values } = nodeBuiltin('node:util').parseArgs({
    args: joinNegativeValues(argv),
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      'rate-limit': { type: 'string' },
      fixtures: { type: 'string' },
      'frozen-clock': { type: 'string' },
      cors: { type: 'string' },
      'no-cors': { type: 'boolean', default: false },
      'no-dashboard': { type: 'boolean', default: false },
      log: { type: 'boolean', default: false },
      'max-body-size': { type: 'string' },
      'headers-timeout': { type: 'string' },
      'request-timeout': { type: 'string' },
      'keep-alive-timeout': { type: 'string' },
      'max-connections': { type: 'string' },
      'allow-webhook-host': { type: 'string', multiple: true },
      state: { type: 'string' },
      'state-fsync': { type: 'string' },
      'drain-timeout': { type: 'string' },
      'evict-idle': { type: 'string' },
      control: { type: 'boolean', default: false },
      'control-token': { type: 'string' },
      'control-allow-remote': { type: 'boolean', default: false },
      'approval-page': { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
      version: { type: 'boolean', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help || values.version) {
    io.out(`${values.help ? USAGE : VERSION}\n`);
    return undefined;
  }
  const port = parsePort(values.port);
  const rateLimit = values['rate-limit'] === undefined ? undefined : parseRateLimit(values['rate-limit']);
  const frozenClock = values['frozen-clock'] === undefined ? undefined : parseInstant(values['frozen-clock']);
  if (values['no-cors'] && values.cors !== undefined) throw new Error('--cors and --no-cors exclude each other');
  const cors = values['no-cors'] ? false : parseCorsOrigins(values.cors ?? '*');
  // Checked whole before anything starts; each call is then validated by the API itself as it is replayed.
  // Loaded only with --fixtures (its JSON parser and schema checks are no part of a plain start).
  const fixturesFile = values.fixtures === undefined ? undefined : await import('./fixtures-file.js');
  const fixtures = values.fixtures === undefined ? undefined : fixturesFile?.readFixturesFile(values.fixtures);

  // No test kit: nothing reaches this mock in-process, so the SDK's clients are never loaded.
  const running = await serveMock(
    {
      ...serverOptionsFromFlags(values),
      port,
      host: values.host,
      rateLimit,
      frozenClock,
      cors,
      log: values.log ? (line) => io.out(`${line}\n`) : undefined,
      seed: fixtures?.seed,
      dashboard: !values['no-dashboard'],
      control: controlOf(values),
    },
    undefined,
  ).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'EADDRINUSE') throw error;
    throw new Error(`port ${port} on ${values.host} is already in use: pass another --port, or --port 0 for a free one`);
  });
  // A state already there holds what the fixtures made the first time.
  const { restored } = running;
  const stateName = redact(values.state ?? stateUrlFromEnvironment() ?? '');
  if (restored?.importedFromJournal !== undefined) {
    io.out(
      `Imported ${plural(restored.importedFromJournal, 'record')} from the journal files of an earlier release into ${stateName} (read back and verified; the journal files were removed)\n`,
    );
  }
  if (restored) {
    io.out(
      `Opened the state in ${stateName}: ${plural(restored.records, 'record')} of ${plural(restored.organizations, 'organization')}, each read when first used\n`,
    );
  } else if (fixtures && fixturesFile && values.fixtures !== undefined) {
    try {
      const refs = await fixturesFile.replayFixturesFile(running.mock, values.fixtures, fixtures, running.url);
      io.out(`Loaded ${fixtures.requests.length} fixture requests (${Object.keys(refs).length} named)\n`);
    } catch (error) {
      await running.close();
      throw error;
    }
  }
  // The signals stop it cleanly from the moment it says it listens (a SIGTERM right after that line is no kill).
  const stopped = new Promise<void>((resolve, reject) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => () => {
      if (stopping) return;
      stopping = true;
      if (values.log) io.out(`Received ${signal}, stopping\n`);
      running.close().then(resolve, reject);
    };
    io.onSignal('SIGINT', stop('SIGINT'));
    io.onSignal('SIGTERM', stop('SIGTERM'));
  });
  io.out(`Cardrail mock server listening on ${running.url}\n`);
  if (running.dashboardUrl) io.out(`Dashboard: ${running.dashboardUrl}\n`);
  if (running.control) {
    const token = running.control.tokenGenerated
      ? ` (token ${running.control.token})`
      : ' (token from --control-token or CARDRAIL_CONTROL_TOKEN)';
    io.out(`Control API: ${running.control.url}${token}\n`);
  }
  return { running, stopped };
}

/** `--control` and its flags as `startMockServer`'s `control` option; the flags alone are a mistake worth saying. */
function controlOf(values: { control?: boolean; 'control-token'?: string; 'control-allow-remote'?: boolean }) {
  if (!values.control) {
    if (values['control-token'] !== undefined || values['control-allow-remote']) {
      throw new Error('--control-token and --control-allow-remote need --control');
    }
    return undefined;
  }
  return { token: values['control-token'], allowRemote: values['control-allow-remote'] };
}
