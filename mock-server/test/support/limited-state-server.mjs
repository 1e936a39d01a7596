// The built startMockServer with a state whose database may not grow past `maxBytes` (SQLite's max_page_count): a
// commit past it fails with SQLITE_FULL, as on a full disk. The chaos tests use it where no small file system can be
// mounted. `node limited-state-server.mjs <dir> <maxBytes>`; prints the CLI's listening line; SIGTERM stops it.
import { startMockServer } from '../../dist/node.mjs';

const [dir, maxBytes] = process.argv.slice(2);
const running = await startMockServer({
  port: 0,
  dashboard: false,
  frozenClock: '2026-11-21T12:00:00.000Z',
  state: { path: dir, maxBytes: Number(maxBytes) },
});
process.stdout.write(`Cardrail mock server listening on ${running.url}\n`);
process.once('SIGTERM', () => void running.close().then(() => process.exit(0)));
