#!/usr/bin/env node
// The house rules of a source tree, read from its layers file (mock-server/layers.json; the map a reader follows is
// docs/architecture.md):
//   - every file belongs to a layer, and imports only from its own layer or one its layer's `mayImport` names: type
//     imports, re-exports, `import()` and `typeof import()` included, since TypeScript erases a type import without a
//     trace and turning it into a value import later would close a real cycle without warning;
//   - the plan itself is sound: every name in a `mayImport` is a layer, and no two layers may import each other,
//     directly or through others (so the layers stand in tiers; layers of one tier that list neither are siblings);
//   - no import circle, between files of any layers (found as strongly connected components of the file graph);
//   - no hand-written file longer than the limit (generated files excepted);
//   - the architecture document's table of layers states the same layers, folders and `may import` lists as the
//     layers file (scripts/lib/layer-table.mjs reads it), so the map and the rule cannot drift apart.
//
//   node scripts/check-layers.mjs [<layers.json>]      (default: mock-server/layers.json)
//
// Imports are read with TypeScript's parser (the `typescript` package, already a dev dependency), from the syntax
// alone: no program, no type-check, a fraction of a second for the mock's two hundred files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { tableDrift } from './lib/layer-table.mjs';

const SOURCE = /\.(?:d\.ts|[cm]?ts|tsx|[cm]?js)$/;

/** Every source file under `dir`, as paths relative to `root` with `/` separators. */
function sourceFiles(root, dir = root) {
  const files = [];
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...sourceFiles(root, path));
    else if (SOURCE.test(name)) files.push(relative(root, path).split(sep).join('/'));
  }
  return files;
}

/** The module specifiers a file names, with their lines: imports, re-exports, import(), typeof import(), require(). */
function specifiersOf(path, text) {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false);
  const found = [];
  const add = (node) => {
    if (node && ts.isStringLiteralLike(node)) {
      found.push({ specifier: node.text, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 });
    }
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression);
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const isImport = callee.kind === ts.SyntaxKind.ImportKeyword;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      if (isImport || isRequire) add(node.arguments[0]);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file a relative specifier names (`./x.js` is `x.ts`, or `x.js` beside its `x.d.ts`), or undefined. */
function resolveSpecifier(files, from, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return undefined;
  const base = join(dirname(from), specifier).split(sep).join('/');
  const stem = base.replace(/\.[cm]?js$/, '');
  const candidates = [base, `${stem}.ts`, `${stem}.mts`, `${stem}.cts`, `${stem}.tsx`, `${stem}.d.ts`, `${base}/index.ts`];
  return candidates.find((candidate) => files.has(candidate));
}

/** The layer of a file: the one with the longest path that contains it (`adapters/sqlite/` before `adapters/`). */
function layerOf(layers, file) {
  let best;
  for (const [index, layer] of layers.entries()) {
    for (const path of layer.paths) {
      const contains = path.endsWith('/') ? file.startsWith(path) : file === path;
      if (contains && (!best || path.length > best.path.length)) best = { index, path };
    }
  }
  return best?.index;
}

/** Files that import each other in a loop: Tarjan's strongly connected components with more than one file. */
function circlesOf(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const circles = [];
  let next = 0;
  const connect = (file) => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        connect(target);
        low.set(file, Math.min(low.get(file), low.get(target)));
      } else if (onStack.has(target)) low.set(file, Math.min(low.get(file), index.get(target)));
    }
    if (low.get(file) !== index.get(file)) return;
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || graph.get(file)?.has(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) connect(file);
  return circles;
}

/**
 * The faults of the plan itself: a layer without a `mayImport` list, a name there that is no layer (or the layer's
 * own), a name used twice, and layers that may import each other; with the plan's tiers when it has no circle (the
 * longest chain of layers each allowed to import the next; siblings share a tier).
 */
function planOf(layers) {
  const problems = [];
  const names = new Set();
  for (const layer of layers) {
    if (names.has(layer.name)) problems.push(`two layers are named "${layer.name}"`);
    names.add(layer.name);
  }
  const graph = new Map();
  for (const layer of layers) {
    const allowed = new Set();
    graph.set(layer.name, allowed);
    if (!Array.isArray(layer.mayImport)) {
      problems.push(`the layer "${layer.name}" has no mayImport list (an empty one for a layer that imports no other)`);
      continue;
    }
    for (const name of layer.mayImport) {
      if (name === layer.name)
        problems.push(`the layer "${layer.name}" names itself in mayImport: a layer's own files need no entry`);
      else if (!names.has(name)) problems.push(`the layer "${layer.name}" may import "${name}", which is no layer`);
      else allowed.add(name);
    }
  }
  const circles = circlesOf(graph);
  for (const circle of circles) {
    problems.push(`the layers ${circle.map((name) => `"${name}"`).join(', ')} may import each other: one of them must not`);
  }
  let tiers;
  if (circles.length === 0) {
    const tier = new Map();
    const tierOf = (name) => {
      if (!tier.has(name)) tier.set(name, 1 + Math.max(0, ...[...graph.get(name)].map(tierOf)));
      return tier.get(name);
    };
    tiers = Math.max(0, ...layers.map((layer) => tierOf(layer.name)));
  }
  return { problems, tiers };
}

/**
 * Checks the tree a layers file describes. The file is JSON: `root` (the source folder, relative to the file),
 * `layers` (each `{ name, paths, mayImport }`: a path ending in `/` is a folder, any other a file; `mayImport` the
 * names of the other layers its files may import), `maxLines`, `generated` (folders under root, ending in `/`, whose
 * files are exempt from the line limit) and `document` (the architecture document, relative to the file, whose table
 * of layers must state the same). Returns what it measured and every breach.
 */
export function checkLayers(configPath) {
  const config = JSON.parse(readFileSync(configPath, 'utf8'));
  const root = resolve(dirname(configPath), config.root);
  const { layers } = config;
  const generated = config.generated ?? [];
  const plan = planOf(layers);
  const allowed = layers.map((layer) => new Set(layer.mayImport ?? []));
  const files = new Set(sourceFiles(root));
  const graph = new Map();
  const unplaced = [];
  const outside = [];
  const long = [];
  const used = layers.map(() => new Set());
  let imports = 0;
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (config.maxLines && lines > config.maxLines && !generated.some((folder) => file.startsWith(folder))) {
      long.push({ file, lines });
    }
    const from = layerOf(layers, file);
    if (from === undefined) unplaced.push(file);
    const targets = new Set();
    graph.set(file, targets);
    for (const { specifier, line } of specifiersOf(file, text)) {
      const target = resolveSpecifier(files, file, specifier);
      if (!target) continue;
      imports++;
      targets.add(target);
      const to = layerOf(layers, target);
      if (from === undefined || to === undefined || to === from) continue;
      used[from].add(layers[to].name);
      if (!allowed[from].has(layers[to].name)) {
        outside.push({ file, line, target, from: layers[from].name, to: layers[to].name, allowed: layers[from].mayImport ?? [] });
      }
    }
  }
  const unused = layers.flatMap((layer, index) =>
    (layer.mayImport ?? []).filter((name) => !used[index].has(name)).map((name) => ({ from: layer.name, to: name })),
  );
  const drift = config.document ? tableDrift(layers, readFileSync(resolve(dirname(configPath), config.document), 'utf8')) : [];
  return {
    root,
    document: config.document && resolve(dirname(configPath), config.document),
    files: files.size,
    imports,
    layers: layers.length,
    tiers: plan.tiers,
    maxLines: config.maxLines,
    plan: plan.problems,
    unplaced,
    outside,
    circles: circlesOf(graph),
    long,
    drift,
    unused,
  };
}

const listed = (names) => (names.length === 0 ? 'nothing' : names.join(', '));

/** The report of a check, and whether it passed. */
export function describe(result, configPath) {
  const lines = [];
  const where = relative(process.cwd(), result.root) || '.';
  const document = result.document ? relative(process.cwd(), result.document) : 'the architecture document';
  for (const problem of result.plan) lines.push(`${configPath}: ${problem}`);
  for (const file of result.unplaced) lines.push(`${where}/${file}: in no layer (add its folder to ${configPath})`);
  for (const { file, line, target, from, to, allowed } of result.outside) {
    lines.push(
      `${where}/${file}:${line}: imports ${where}/${target}, of the layer "${to}"; the layer "${from}" may import only ` +
        `${listed(allowed)} (${configPath}, the table in ${document}). Reach it through a layer "${from}" may import, ` +
        'hand it in from above (a parameter, a registration), or move the code to the layer it belongs to; if the plan ' +
        'itself changes, change both files',
    );
  }
  for (const circle of result.circles) lines.push(`import circle: ${circle.map((file) => `${where}/${file}`).join(' -> ')}`);
  for (const { file, lines: count } of result.long) {
    lines.push(`${where}/${file}: ${count} lines, more than ${result.maxLines}: split it by concern`);
  }
  for (const drift of result.drift) lines.push(`${document} ${drift}`);
  const passed = lines.length === 0;
  if (result.unused.length > 0) {
    lines.push(
      `allowed but imported by no file (narrow the plan in both files if it should stay so): ` +
        result.unused.map(({ from, to }) => `${from} -> ${to}`).join(', '),
    );
  }
  lines.push(
    `${where}: ${result.files} files, ${result.imports} imports in ${result.layers} layers of ${result.tiers ?? '?'} tiers: ` +
      `${result.outside.length} outside their layer's list, ${result.circles.length} circles, ` +
      `${result.long.length} files over the line limit, ${result.unplaced.length} outside any layer, ` +
      `${result.plan.length + result.drift.length} faults of the plan or its table`,
  );
  return { passed, text: lines.join('\n') };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..');
  const configPath = resolve(process.argv[2] ?? join(root, 'mock-server/layers.json'));
  const result = checkLayers(configPath);
  const { passed, text } = describe(result, relative(process.cwd(), configPath));
  (passed ? process.stdout : process.stderr).write(`${text}\n`);
  process.exitCode = passed ? 0 : 1;
}
