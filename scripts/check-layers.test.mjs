// The layers check (scripts/check-layers.mjs) on small trees in a temporary directory: it must refuse an import its
// layer's list does not name, even a type import, a re-export or an `import()`, and between siblings; a plan whose
// layers may import each other or name no layer; a circle, a file over the limit, a file in no layer; and a table of
// layers in the document that says otherwise than the layers file. It must pass the mock as it is. Run with
// `npm run test:scripts` (part of `npm test`).
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

/** Three tiers: `top/` over the siblings `left/` and `right/`, both over `bottom/`. */
const PLAN = [
  { name: 'top', paths: ['top/'], mayImport: ['left', 'right', 'bottom'] },
  { name: 'left', paths: ['left/'], mayImport: ['bottom'] },
  { name: 'right', paths: ['right/'], mayImport: ['bottom'] },
  { name: 'bottom', paths: ['bottom/'], mayImport: [] },
];

/** The document's table of layers for a plan, as docs/architecture.md writes it. */
function tableOf(layers) {
  const rows = layers.map(
    ({ name, paths, mayImport }) =>
      `| ${name} | ${paths.map((path) => `\`${path}\``).join(', ')} | what it owns | ${mayImport.join(', ') || 'nothing'} |`,
  );
  return ['# Layers', '', '| layer | folders and files | what it owns | may import |', '|---|---|---|---|', ...rows, ''].join(
    '\n',
  );
}

/** A tree with the files given, its layers file (the plan) and its document (by default the plan's own table). */
function tree(files, { maxLines = 300, layers = PLAN, document = tableOf(layers) } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'cardrail-layers-'));
  dirs.push(dir);
  const write = (path, text) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  for (const [path, text] of Object.entries(files)) write(`src/${path}`, text);
  write('architecture.md', document);
  write('layers.json', JSON.stringify({ root: 'src', document: 'architecture.md', maxLines, layers }));
  return join(dir, 'layers.json');
}

const clean = {
  'top/a.ts': "import { l } from '../left/l.js';\nimport { b } from '../bottom/b.js';\nexport const a = l + b;\n",
  'left/l.ts': "import type { B } from '../bottom/b.js';\nexport const l: B = 2;\n",
  'right/r.ts': "export { b as r } from '../bottom/b.js';\n",
  'bottom/b.ts': 'export const b = 1;\nexport type B = number;\n',
};

const run = (args) =>
  new Promise((resolve) => {
    execFile(process.execPath, [checker, ...args], (error, stdout, stderr) =>
      resolve({ code: error ? error.code : 0, output: stdout + stderr }),
    );
  });

describe('check-layers', () => {
  test('passes a tree whose imports all follow the plan, and measures its tiers', () => {
    const result = checkLayers(tree(clean));
    const faults = [result.outside, result.circles, result.long, result.unplaced, result.drift, result.plan];
    assert.deepEqual(faults, [[], [], [], [], [], []]);
    assert.equal(result.imports, 4);
    assert.equal(result.tiers, 3);
    assert.deepEqual(result.unused, [{ from: 'top', to: 'right' }]);
  });

  test('refuses an import outside the list that is only a type import, naming both files, the line and the rule', () => {
    const config = tree({ ...clean, 'bottom/c.ts': "import type { A } from '../top/a.js';\nexport type C = A;\n" });
    assert.deepEqual(checkLayers(config).outside, [
      { file: 'bottom/c.ts', line: 1, target: 'top/a.ts', from: 'bottom', to: 'top', allowed: [] },
    ]);
  });

  test('refuses re-exports, import() and typeof import() outside the list alike', () => {
    const config = tree({
      ...clean,
      'bottom/c.ts': "export type { A } from '../top/a.js';\n",
      'bottom/d.ts': "export const load = () => import('../top/a.js');\n",
      'bottom/e.ts': "export type T = typeof import('../top/a.js');\n",
    });
    assert.deepEqual(
      checkLayers(config).outside.map((entry) => entry.file),
      ['bottom/c.ts', 'bottom/d.ts', 'bottom/e.ts'],
    );
  });

  test('refuses an import between siblings, either way, unless the plan lists it', () => {
    const files = {
      ...clean,
      'left/m.ts': "import type { r } from '../right/r.js';\nexport type M = typeof r;\n",
      'right/s.ts': "\nimport { l } from '../left/l.js';\nexport const s = l;\n",
    };
    assert.deepEqual(
      checkLayers(tree(files)).outside.map(({ file, line, from, to }) => ({ file, line, from, to })),
      [
        { file: 'left/m.ts', line: 1, from: 'left', to: 'right' },
        { file: 'right/s.ts', line: 2, from: 'right', to: 'left' },
      ],
    );
    const planned = PLAN.map((layer) => (layer.name === 'left' ? { ...layer, mayImport: ['right', 'bottom'] } : layer));
    const result = checkLayers(tree({ ...files, 'right/s.ts': 'export const s = 3;\n' }, { layers: planned }));
    assert.deepEqual([result.outside, result.plan], [[], []]);
    assert.equal(result.tiers, 4);
  });

  test('refuses an import of a lower layer the list leaves out, however far down', () => {
    const layers = PLAN.map((layer) => (layer.name === 'top' ? { ...layer, mayImport: ['left', 'right'] } : layer));
    const [outside] = checkLayers(tree(clean, { layers })).outside;
    assert.deepEqual(outside, {
      file: 'top/a.ts',
      line: 2,
      target: 'bottom/b.ts',
      from: 'top',
      to: 'bottom',
      allowed: ['left', 'right'],
    });
  });

  test('refuses a plan whose layers may import each other, or that names no layer or itself', () => {
    const layers = [
      { name: 'top', paths: ['top/'], mayImport: ['left', 'right', 'bottom', 'top'] },
      { name: 'left', paths: ['left/'], mayImport: ['right', 'bottom', 'middle'] },
      { name: 'right', paths: ['right/'], mayImport: ['left', 'bottom'] },
      { name: 'bottom', paths: ['bottom/'] },
    ];
    const result = checkLayers(tree(clean, { layers, document: tableOf(layers.map((l) => ({ mayImport: [], ...l }))) }));
    assert.deepEqual(result.plan, [
      'the layer "top" names itself in mayImport: a layer\'s own files need no entry',
      'the layer "left" may import "middle", which is no layer',
      'the layer "bottom" has no mayImport list (an empty one for a layer that imports no other)',
      'the layers "left", "right" may import each other: one of them must not',
    ]);
    assert.equal(result.tiers, undefined);
  });

  test('finds a circle within one layer, closed by type imports', () => {
    const config = tree({
      ...clean,
      'bottom/x.ts': "import type { Y } from './y.js';\nexport type X = { y?: Y };\n",
      'bottom/y.ts': "import type { X } from './x.js';\nexport type Y = { x?: X };\n",
    });
    assert.deepEqual(checkLayers(config).circles, [['bottom/x.ts', 'bottom/y.ts']]);
  });

  test('refuses a file over the line limit and a file in no layer', () => {
    const config = tree(
      { ...clean, 'bottom/long.ts': 'export const n = 1;\n'.repeat(4), 'loose.ts': 'export {};\n' },
      { maxLines: 3 },
    );
    const result = checkLayers(config);
    assert.deepEqual(result.long, [{ file: 'bottom/long.ts', lines: 4 }]);
    assert.deepEqual(result.unplaced, ['loose.ts']);
  });

  test('refuses a document whose table of layers differs from the layers file: a list, a folder, a row', () => {
    const documented = [
      { name: 'top', paths: ['top/'], mayImport: ['left', 'bottom'] },
      { name: 'left', paths: ['left/', 'more/'], mayImport: ['bottom'] },
      { name: 'bottom', paths: ['bottom/'], mayImport: [] },
      { name: 'middle', paths: ['middle/'], mayImport: ['bottom'] },
    ];
    assert.deepEqual(checkLayers(tree(clean, { document: tableOf(documented) })).drift, [
      'says the layer "top" may import left, bottom; the layers file: left, right, bottom',
      'gives the layer "left" the folders left/, more/; the layers file: left/',
      'has no row for the layer "right" (`right/`)',
      'has a row for "middle", which the layers file has no layer of',
    ]);
    assert.deepEqual(checkLayers(tree(clean, { document: 'no table' })).drift, [
      'has no table of layers (a Markdown table with a "may import" column)',
    ]);
  });

  test('reads a layer continued over several rows of the table, its list in the first', () => {
    const layers = [{ name: 'top', paths: ['top/', 'left/'], mayImport: ['bottom'] }, PLAN[2], PLAN[3]];
    const table = tableOf(layers).replace('| top | `top/`, `left/` |', '| top | `top/` |');
    const continued = table.replace('|\n| right', '|\n| | `left/` | more of the top | |\n| right');
    const files = { ...clean, 'left/l.ts': "import { b } from '../bottom/b.js';\nexport const l = b;\n" };
    assert.deepEqual(checkLayers(tree(files, { layers, document: continued })).drift, []);
    const listed = table.replace('|\n| right', '|\n| | `left/` | more of the top | bottom |\n| right');
    assert.deepEqual(checkLayers(tree(files, { layers, document: listed })).drift, [
      'continues the layer "top" in a row with a "may import" of its own: leave it empty',
    ]);
  });

  test('exits 1 and says what to do on an import outside the list; 0 on the mock as it is', async () => {
    const broken = await run([tree({ ...clean, 'left/c.ts': "import type { R } from '../right/r.js';\n" })]);
    assert.equal(broken.code, 1);
    assert.match(
      broken.output,
      /src\/left\/c\.ts:1: imports \S*src\/right\/r\.ts, of the layer "right"; the layer "left" may import only bottom \(.*layers\.json, the table in .*architecture\.md\)\. Reach it through a layer "left" may import, hand it in from above/,
    );
    const mock = await run([]);
    assert.equal(mock.code, 0, mock.output);
    assert.match(
      mock.output,
      /in \d+ layers of \d+ tiers: 0 outside their layer's list, 0 circles, 0 files over the line limit, 0 outside any layer, 0 faults/,
    );
  });
});
