import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { startMockServer, type RunningMockServer } from './adapters/node.js';
import { parseRateLimit } from './core/rate-limiter.js';
import { loadFixtures, type Fixtures } from './fixtures.js';

const USAGE = `Usage: cardrail-mock [options]

Runs the Cardrail mock API on http://127.0.0.1:4010/v1.

Options:
  --port <n>             port (default 4010; 0 picks a free one)
  --host <host>          interface (default 127.0.0.1)
  --rate-limit <limit>   standard | pro | <requests per minute>, per key (default: off)
  --fixtures <file>      JSON file of API calls to replay at start (see the README)
  --frozen-clock <ISO>   freeze the test clocks at this instant (default: wall time)
  --no-dashboard         do not serve the dashboard at http://127.0.0.1:4010/
  --log                  one line per request
  -h, --help             this text`;

export interface CliIo {
  out(text: string): void;
  /** Registers the shutdown on a signal; the default is process.once. */
  onSignal(signal: NodeJS.Signals, handler: () => void): void;
}

const processIo: CliIo = {
  out: (text) => process.stdout.write(text),
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
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string', default: '4010' },
      host: { type: 'string', default: '127.0.0.1' },
      'rate-limit': { type: 'string' },
      fixtures: { type: 'string' },
      'frozen-clock': { type: 'string' },
      'no-dashboard': { type: 'boolean', default: false },
      log: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    io.out(`${USAGE}\n`);
    return undefined;
  }
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0 to 65535, got ${values.port}`);
  const rateLimit = values['rate-limit'] === undefined ? undefined : parseRateLimit(values['rate-limit']);
  const frozenClock = values['frozen-clock'];
  if (frozenClock !== undefined && Number.isNaN(Date.parse(frozenClock))) {
    throw new Error(`--frozen-clock must be an ISO 8601 instant, got ${frozenClock}`);
  }
  // loadFixtures checks every request of the file as it replays it, through the API's own validation.
  const fixtures = values.fixtures === undefined ? undefined : (JSON.parse(readFileSync(values.fixtures, 'utf8')) as Fixtures);

  const running = await startMockServer({
    port,
    host: values.host,
    rateLimit,
    frozenClock,
    log: values.log ? (line) => io.out(`${line}\n`) : undefined,
    seed: fixtures?.seed,
    dashboard: !values['no-dashboard'],
  });
  if (fixtures) {
    try {
      const refs = await loadFixtures(running.mock, fixtures, running.url);
      io.out(`Loaded ${fixtures.requests.length} fixture requests (${Object.keys(refs).length} named)\n`);
    } catch (error) {
      await running.close();
      throw error;
    }
  }
  io.out(`Cardrail mock server listening on ${running.url}\n`);
  if (running.dashboardUrl) io.out(`Dashboard: ${running.dashboardUrl}\n`);

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
  return { running, stopped };
}
