#!/usr/bin/env node
// `npm run bench [-- --quick] [-- --only mock-http,startup]`: runs the benchmark suites in a fixed order, prints
// one results table per suite and writes the same report to scripts/bench/results.md. A missed target is reported,
// not a failure; the exit code is non-zero only when a suite crashed. See scripts/bench/README.md.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { ensureBuilt } from './lib/builds.mjs';
import { killAllChildren } from './lib/children.mjs';
import { formatMs } from './lib/format.mjs';
import { repoRoot, resultsFile, suitesDir } from './lib/paths.mjs';
import { mergeReport, renderReport } from './lib/report.mjs';

const SUITES = [
  'mock-http',
  'startup',
  'msw',
  'testkit',
  'sdk-calls',
  'webhooks',
  'scaling',
  'standalone',
  'durable-state',
  'postgres-state',
  'sdk-weight',
  'package-size',
  'test-time',
];

const launched = performance.now();
const log = (message) =>
  process.stderr.write(`[${((performance.now() - launched) / 1000).toFixed(1).padStart(5)} s] ${message}\n`);

function parseOptions() {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(
      `Usage: node scripts/bench/run.mjs [--quick] [--only <suite,...>]\nSuites, in order: ${SUITES.join(', ')}\n`,
    );
    process.exit(0);
  }
  const only = values.only
    ?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  const unknown = only?.filter((name) => !SUITES.includes(name)) ?? [];
  if (unknown.length > 0) throw new Error(`unknown suite(s) ${unknown.join(', ')}; known: ${SUITES.join(', ')}`);
  return { quick: values.quick, selected: only ? SUITES.filter((name) => only.includes(name)) : SUITES };
}

async function runSuite(name, quick) {
  const file = join(suitesDir, `${name}.mjs`);
  if (!existsSync(file)) {
    log(`bench: ${name}: skipped, ${file.slice(repoRoot.length + 1)} does not exist yet`);
    return {
      name,
      status: 'missing',
      title: name,
      rows: [],
      notes: [`Skipped: scripts/bench/suites/${name}.mjs does not exist yet.`],
      ms: 0,
    };
  }
  const started = performance.now();
  let title = name;
  try {
    const suite = await import(pathToFileURL(file).href);
    title = suite.title ?? name;
    log(`bench: ${name}: ${title}`);
    const { rows = [], notes = [] } = await suite.run({ quick, log: (message) => log(`  ${message}`) });
    const ms = performance.now() - started;
    log(`bench: ${name}: done in ${formatMs(ms)}`);
    return { name, status: 'ok', title, rows, notes, ms };
  } catch (error) {
    const ms = performance.now() - started;
    log(`bench: ${name}: FAILED after ${formatMs(ms)}\n${error.stack ?? error}`);
    return { name, status: 'failed', title, rows: [], notes: [], error: String(error.message ?? error).split('\n')[0], ms };
  } finally {
    // A crashed suite may leave servers behind; none may run into the next suite's measurements.
    killAllChildren();
  }
}

async function main() {
  const { quick, selected } = parseOptions();
  const partial = selected.length < SUITES.length ? selected : undefined;
  const started = performance.now();
  const date = new Date();
  ensureBuilt(log);
  const results = [];
  for (const name of selected) results.push(await runSuite(name, quick));
  const report = renderReport({
    date,
    mode: quick ? 'quick' : 'full',
    node: process.version,
    cpu: os.cpus()[0]?.model ?? 'unknown CPU',
    cores: os.availableParallelism?.() ?? os.cpus().length,
    durationMs: performance.now() - started,
    results,
    partial,
  });
  process.stdout.write(report);
  // A partial run (--only) replaces its suites' sections in results.md and keeps the others.
  const previous = partial && existsSync(resultsFile) ? readFileSync(resultsFile, 'utf8') : undefined;
  writeFileSync(resultsFile, previous ? mergeReport(previous, report, selected) : report);
  log(`bench: written to ${resultsFile.slice(repoRoot.length + 1)}`);
  return results.some((result) => result.status === 'failed') ? 1 : 0;
}

main().then(
  // exit() rather than exitCode: a suite's stray handle (a timer, a socket) must not hold the process open.
  (code) => process.exit(code),
  (error) => {
    log(`bench: ${error.stack ?? error}`);
    process.exit(2);
  },
);
