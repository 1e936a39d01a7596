// One fresh process of the msw suite's start-up rows: imports msw, then (unless `--msw-only`) the built
// @cardrail/mock-server/msw, calls createHandlers() and answers one request through `handle`. Prints the times, in
// ms from the process's own clock, as one JSON line. A process per measurement: an import is paid once per process.
//
//   node msw-start-probe.mjs <path of mock-server/dist/msw.mjs> [--msw-only]
import { pathToFileURL } from 'node:url';

const [adapter, flag] = process.argv.slice(2);
/** CPU time of this process (user + system), ms: less sensitive than the clock to other load on the machine. */
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const started = performance.now();
await import('msw');
const mswImported = performance.now();
const mswCpu = cpu();
if (flag === '--msw-only') {
  process.stdout.write(`${JSON.stringify({ msw: mswImported - started })}\n`);
} else {
  const { createHandlers } = await import(pathToFileURL(adapter).href);
  const imported = performance.now();
  const mock = createHandlers();
  const created = performance.now();
  const createdCpu = cpu();
  const response = await mock.handle(
    new Request('http://127.0.0.1:4010/v1/cards?limit=1', { headers: { Authorization: 'Bearer sk_test_startprobe0001' } }),
  );
  const answered = performance.now();
  if (response.status !== 200) throw new Error(`the first request answered ${response.status}`);
  process.stdout.write(
    `${JSON.stringify({ msw: mswImported - started, import: imported - mswImported, create: created - imported, firstRequest: answered - created, addedCpu: createdCpu - mswCpu })}\n`,
  );
}
