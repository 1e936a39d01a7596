// The built `cardrail-mock` CLI (same arguments) on a disk where every commit of the state takes COMMIT_MS longer: each
// SQLite `COMMIT` statement waits that long before it runs, as a slow disk would. An answer that leaves before its
// commit then leaves well ahead of it, so a test that kills the server as soon as an answer arrives finds the write
// missing after the restart; a server that commits first is unaffected (it only answers later).
// `node slow-commit-cli.mjs <cardrail-mock arguments>`.
const COMMIT_MS = 40;
const { StatementSync } = process.getBuiltinModule('node:sqlite');
const run = StatementSync.prototype.run;
StatementSync.prototype.run = function slowCommit(...parameters) {
  // Without the statement's text (an older node:sqlite) the disk could not be slowed: fail rather than test less.
  if (typeof this.sourceSQL !== 'string') throw new Error('slow-commit-cli: node:sqlite statements have no sourceSQL');
  if (this.sourceSQL === 'COMMIT') {
    // Synchronous, as the commit itself is: nothing else of the server runs meanwhile.
    const until = performance.now() + COMMIT_MS;
    while (performance.now() < until);
  }
  return run.apply(this, parameters);
};
await import('../../dist/cli.mjs');
