#!/usr/bin/env node
// How long `npm run mock` takes from the command starting to its first answered request, run by hand (a speed
// target is measured, never asserted in a test): `node scripts/measure-mock-start.mjs [--runs 5] [--cold]`.
// `--cold` deletes the CLI bundle and the dashboard page (node_modules/.cache/cardrail-mock) before each run, as on
// the first start after `npm ci`, so each run bundles and builds them again. Each run starts
// `npm run mock -- --port 0` exactly as a user types it, reads the URL it prints, sends one request, then stops it.
import { execFileSync, spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { repoRoot } from './lib/bundle.mjs';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' }, cold: { type: 'boolean', default: false } } });
const runs = Number(values.runs);

/** Milliseconds from spawning `npm run mock` to the first answer, and to the "listening" line. */
async function measureOnce() {
  if (values.cold) rmSync(join(repoRoot, 'node_modules/.cache/cardrail-mock'), { recursive: true, force: true });
  const started = performance.now();
  const child = spawn('npm', ['run', '--silent', 'mock', '--', '--port', '0'], {
    cwd: repoRoot,
    // Its own process group, so the npm wrapper and the node process under it stop together.
    detached: true,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const match = /listening on (\S+)/.exec(output);
        if (match) resolve(match[1]);
      });
      child.on('exit', (code) => reject(new Error(`npm run mock exited with ${code} before listening:\n${output}`)));
      setTimeout(() => reject(new Error('npm run mock did not listen within 60 s')), 60_000).unref();
    });
    const listening = performance.now() - started;
    const response = await fetch(`${url}/customers?limit=1`, { headers: { Authorization: 'Bearer sk_test_measure01' } });
    await response.arrayBuffer();
    if (response.status !== 200) throw new Error(`the first request answered ${response.status}`);
    return { listening, answered: performance.now() - started };
  } finally {
    process.kill(-child.pid, 'SIGTERM');
  }
}

// The machine's load and Node's own start, so a figure from a busy machine is recognisable as one.
const nodeStart = performance.now();
execFileSync(process.execPath, ['-e', '0']);
console.log(`load average ${loadavg()[0].toFixed(2)}; \`node -e 0\` takes ${(performance.now() - nodeStart).toFixed(0)} ms here`);
const results = [];
for (let run = 0; run < runs; run += 1) {
  const result = await measureOnce();
  results.push(result);
  console.log(
    `run ${run + 1}: listening after ${result.listening.toFixed(0)} ms, first answer after ${result.answered.toFixed(0)} ms`,
  );
}
const answered = results.map((result) => result.answered).sort((a, b) => a - b);
const median = answered[Math.floor(answered.length / 2)];
console.log(
  `${values.cold ? 'cold (no bundle yet)' : 'warm'}: first answer median ${median.toFixed(0)} ms, ` +
    `min ${answered[0].toFixed(0)} ms, max ${answered.at(-1).toFixed(0)} ms over ${runs} runs`,
);
