// The layers check (scripts/check-layers.mjs) on small trees in a temporary directory: it must refuse an upward
// import even when it is only a type import, a circle, a file over the limit and a layer the document leaves out;
// and it must pass the mock as it is. Run with `node --test scripts/` (part of `npm test`).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkLayers } from './check-layers.mjs';

const checker = fileURLToPath(new URL('./check-layers.mjs', import.meta.url));
const dirs = [];
after(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** A tree of two layers, `top/` above `bottom/`, with the files given, and its layers file. */
function tree(files, { maxLines = 300, document = '`top/` and `bottom/`' } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cardrail-layers-'));
  dirs.push(dir);
  const write = (path, text) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  for (const [path, text] of Object.entries(files)) write(`src/${path}`, text);
  write('architecture.md', document);
  const layers = [
    { name: 'top', paths: ['top/'] },
    { name: 'bottom', paths: ['bottom/'] },
  ];
  write('layers.json', JSON.stringify({ root: 'src', document: 'architecture.md', maxLines, layers }));
  return join(dir, 'layers.json');
}

const clean = {
  'top/a.ts': "import { b } from '../bottom/b.js';\nexport const a = b;\n",
  'bottom/b.ts': 'export const b = 1;\nexport type B = number;\n',
};

describe('check-layers', () => {
  test('passes a tree whose imports all point down', () => {
    const result = checkLayers(tree(clean));
    assert.deepEqual([result.upward, result.circles, result.long, result.unplaced, result.unnamed], [[], [], [], [], []]);
    assert.equal(result.imports, 1);
  });

  test('refuses an upward import that is only a type import, naming the file, the line and both layers', () => {
    const config = tree({ ...clean, 'bottom/c.ts': "import type { A } from '../top/a.js';\nexport type C = A;\n" });
    const [upward] = checkLayers(config).upward;
    assert.deepEqual(upward, { file: 'bottom/c.ts', line: 1, target: 'top/a.ts', from: 'bottom', to: 'top' });
  });

  test('refuses upward re-exports, import() and typeof import() alike', () => {
    const config = tree({
      ...clean,
      'bottom/c.ts': "export type { A } from '../top/a.js';\n",
      'bottom/d.ts': "export const load = () => import('../top/a.js');\n",
      'bottom/e.ts': "export type T = typeof import('../top/a.js');\n",
    });
    assert.deepEqual(
      checkLayers(config).upward.map((entry) => entry.file),
      ['bottom/c.ts', 'bottom/d.ts', 'bottom/e.ts'],
    );
  });

  test('finds a circle within one layer, closed by type imports', () => {
    const config = tree({
      ...clean,
      'bottom/x.ts': "import type { Y } from './y.js';\nexport type X = { y?: Y };\n",
      'bottom/y.ts': "import type { X } from './x.js';\nexport type Y = { x?: X };\n",
    });
    assert.deepEqual(checkLayers(config).circles, [['bottom/x.ts', 'bottom/y.ts']]);
  });

  test('refuses a file over the line limit, a file in no layer and a layer the document does not name', () => {
    const config = tree(
      { ...clean, 'bottom/long.ts': 'export const n = 1;\n'.repeat(4), 'loose.ts': 'export {};\n' },
      { maxLines: 3, document: 'only `top/`' },
    );
    const result = checkLayers(config);
    assert.deepEqual(result.long, [{ file: 'bottom/long.ts', lines: 4 }]);
    assert.deepEqual(result.unplaced, ['loose.ts']);
    assert.deepEqual(result.unnamed, ['bottom/']);
  });

  test('exits 1 and says what to do on an upward type import; 0 on the mock as it is', async () => {
    const run = (args) =>
      new Promise((resolve) => {
        execFile(process.execPath, [checker, ...args], (error, stdout, stderr) =>
          resolve({ code: error ? error.code : 0, output: stdout + stderr }),
        );
      });
    const broken = await run([tree({ ...clean, 'bottom/c.ts': "import type { A } from '../top/a.js';\n" })]);
    assert.equal(broken.code, 1);
    assert.match(broken.output, /bottom\/c\.ts:1: imports top\/a\.ts, of the layer "top" above its own \("bottom"\): move/);
    const mock = await run([]);
    assert.equal(mock.code, 0, mock.output);
    assert.match(mock.output, /0 upward, 0 circles, 0 files over the line limit, 0 outside any layer/);
  });
});
