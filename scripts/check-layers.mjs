#!/usr/bin/env node
// The house rules of a source tree, read from its layers file (mock-server/layers.json; the map a reader follows is
// docs/architecture.md):
//   - every file belongs to a layer, and imports only from its own layer or a lower one: type imports, re-exports,
//     `import()` and `typeof import()` included, since TypeScript erases a type import without a trace and turning it
//     into a value import later would close a real cycle without warning;
//   - no import circle, between files of any layers (found as strongly connected components of the file graph);
//   - no hand-written file longer than the limit (generated files excepted);
//   - every layer is named in the architecture document, so the map cannot leave out a folder the rule has.
//
//   node scripts/check-layers.mjs [<layers.json>]      (default: mock-server/layers.json)
//
// Imports are read with TypeScript's parser (the `typescript` package, already a dev dependency), from the syntax
// alone: no program, no type-check, a fraction of a second for the mock's two hundred files.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

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
 * Checks the tree a layers file describes. The file is JSON: `root` (the source folder, relative to the file),
 * `layers` (top first; each `{ name, paths }`, a path ending in `/` is a folder, any other a file), `maxLines`,
 * `generated` (folders under root, ending in `/`, whose files are exempt from the line limit) and `document` (the architecture document, relative to
 * the file, which must name every layer's paths). Returns what it measured and every breach.
 */
export function checkLayers(configPath) {
  const config = JSON.parse(readFileSync(configPath, 'utf8'));
  const root = resolve(dirname(configPath), config.root);
  const { layers } = config;
  const generated = config.generated ?? [];
  const files = new Set(sourceFiles(root));
  const graph = new Map();
  const unplaced = [];
  const upward = [];
  const long = [];
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
      if (from !== undefined && to !== undefined && to < from) {
        upward.push({ file, line, target, from: layers[from].name, to: layers[to].name });
      }
    }
  }
  const circles = circlesOf(graph);
  let unnamed = [];
  if (config.document) {
    const document = readFileSync(resolve(dirname(configPath), config.document), 'utf8');
    unnamed = layers.flatMap((layer) => layer.paths).filter((path) => !document.includes(`\`${path}\``));
  }
  return {
    root,
    files: files.size,
    imports,
    layers: layers.length,
    maxLines: config.maxLines,
    unplaced,
    upward,
    circles,
    long,
    unnamed,
  };
}

/** The report of a check, and whether it passed. */
export function describe(result, configPath) {
  const lines = [];
  const where = relative(process.cwd(), result.root) || '.';
  for (const file of result.unplaced) lines.push(`${where}/${file}: in no layer (add its folder to ${configPath})`);
  for (const { file, line, target, from, to } of result.upward) {
    lines.push(
      `${where}/${file}:${line}: imports ${target}, of the layer "${to}" above its own ("${from}"): move what it needs ` +
        'down (to its layer or lower), or hand it in from above (a parameter, a registration)',
    );
  }
  for (const circle of result.circles) lines.push(`import circle: ${circle.map((file) => `${where}/${file}`).join(' -> ')}`);
  for (const { file, lines: count } of result.long) {
    lines.push(`${where}/${file}: ${count} lines, more than ${result.maxLines}: split it by concern`);
  }
  for (const path of result.unnamed) lines.push(`the architecture document does not name the layer path \`${path}\``);
  const passed = lines.length === 0;
  lines.push(
    `${where}: ${result.files} files, ${result.imports} imports in ${result.layers} layers: ` +
      `${result.upward.length} upward, ${result.circles.length} circles, ${result.long.length} files over the line limit, ` +
      `${result.unplaced.length} outside any layer`,
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
