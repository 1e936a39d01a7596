// The runner behind `npm test` (scripts/test-all.mjs): what it runs, in which order, how many at once, and what a
// failure does to the rest. Each case runs small shell commands in a temporary folder; run with
// `node --test scripts/` (part of `npm test`).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { runTasks } from './task-runner.mjs';

const dir = mkdtempSync(join(tmpdir(), 'cardrail-task-runner-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A task that appends its name to a log file when it starts and when it ends, with a pause between. */
const logged = (name, { needs, cost = 1, early, pause = 0.05, exit = 0 } = {}) => ({
  name,
  phase: 'test',
  cost,
  early,
  needs,
  cwd: dir,
  command: `echo "start ${name}" >> log-${logName}; sleep ${pause}; echo "end ${name}" >> log-${logName}; echo "said by ${name}"; exit ${exit}`,
});
let logName = '';
let cases = 0;
/** A log file of its own for each case. */
const newLog = () => {
  cases += 1;
  logName = String(cases);
};
const events = () =>
  readFileSync(join(dir, `log-${logName}`), 'utf8')
    .trim()
    .split('\n');
const quiet = { write: () => {} };

describe('runTasks', () => {
  test('runs a task only after every task it needs has passed', async () => {
    newLog();
    await runTasks([logged('test', { needs: ['build', 'lint'] }), logged('build'), logged('lint', { pause: 0.2 })], {
      jobs: 3,
      ...quiet,
    });
    const log = events();
    assert.ok(log.indexOf('start test') > log.indexOf('end build'));
    assert.ok(log.indexOf('start test') > log.indexOf('end lint'));
  });

  test('never runs more tasks at once than it is given jobs', async () => {
    newLog();
    const names = ['a', 'b', 'c', 'd', 'e', 'f'];
    await runTasks(
      names.map((name) => logged(name)),
      { jobs: 2, ...quiet },
    );
    let running = 0;
    let most = 0;
    for (const line of events()) {
      running += line.startsWith('start') ? 1 : -1;
      most = Math.max(most, running);
    }
    assert.equal(most, 2);
  });

  test('starts the early tasks first, then the longest remaining chain', async () => {
    newLog();
    await runTasks(
      [
        logged('short', { cost: 5 }),
        logged('head-of-long-chain', { cost: 1 }),
        logged('tail', { cost: 20, needs: ['head-of-long-chain'] }),
        logged('quick-check', { cost: 1, early: true }),
      ],
      { jobs: 1, ...quiet },
    );
    const starts = events().filter((line) => line.startsWith('start'));
    assert.deepEqual(starts, ['start quick-check', 'start head-of-long-chain', 'start tail', 'start short']);
  });

  test('a failure fails its dependents without running them, and the rest still runs', async () => {
    newLog();
    const results = await runTasks([logged('build', { exit: 3 }), logged('test', { needs: ['build'] }), logged('lint')], {
      jobs: 2,
      ...quiet,
    });
    const byName = Object.fromEntries(results.map((result) => [result.task.name, result]));
    assert.equal(byName.build.status, 'failed');
    assert.equal(byName.build.code, 3);
    assert.equal(byName.test.status, 'not run');
    assert.match(byName.test.reason, /needs build, which failed/);
    assert.equal(byName.lint.status, 'passed');
    assert.ok(!events().includes('start test'));
  });

  test("prints each task's output as one block, every line after the task's name", async () => {
    newLog();
    let printed = '';
    await runTasks([logged('one', { pause: 0.2 }), logged('two')], { jobs: 2, write: (text) => (printed += text) });
    assert.match(printed, /^one \| said by one$/m);
    assert.match(printed, /^two \| said by two$/m);
    assert.match(printed, /passed one in [\d.]+ s \([\d.]+ s CPU\)/);
  });

  test('reports the CPU time of what a task ran, children included', async () => {
    newLog();
    const [result] = await runTasks(
      [
        {
          name: 'busy',
          phase: 'test',
          cost: 1,
          cwd: dir,
          // Spins until it has used 300 ms of CPU, however busy the machine is (a wall-clock loop would get less).
          command: `${JSON.stringify(process.execPath)} -e "const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; }; const end = cpu() + 300; while (cpu() < end);"`,
        },
      ],
      { jobs: 1, ...quiet },
    );
    assert.ok(result.cpu >= 0.3, `CPU ${result.cpu} s for a loop that used 0.3 s of CPU`);
  });

  test('refuses a graph that names a missing task or goes in a circle', () => {
    assert.throws(() => runTasks([logged('a', { needs: ['nothing'] })], { jobs: 1, ...quiet }), /a needs nothing/);
    assert.throws(
      () => runTasks([logged('a', { needs: ['b'] }), logged('b', { needs: ['a'] })], { jobs: 1, ...quiet }),
      /in a circle: a -> b -> a/,
    );
  });
});
