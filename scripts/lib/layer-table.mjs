// The table of layers in an architecture document (docs/architecture.md for the mock), read so that the checker of
// scripts/check-layers.mjs can hold it against the layers file: a Markdown table whose header has the columns
// `layer`, one naming the folders (`folder...`) and `may import`. A row names its layer, its folders and files in
// backticks, and the layers it may import, separated by commas (`nothing` for none). A row whose layer cell is empty
// continues the layer above it with more folders; its `may import` cell stays empty.

/** The cells of a Markdown table row; a `|` escaped as `\|` stays in its cell. */
function cellsOf(line) {
  return line
    .trim()
    .replace(/^\|/, '')
    .replace(/(?<!\\)\|$/, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());
}

const isRow = (line) => line.trim().startsWith('|');
const plain = (text) => text.replace(/[*`]/g, '').trim();

/**
 * The layers the document's table states, in its order: `{ name, paths, mayImport }` each, plus `problems` (the
 * table's own faults: no table, a missing column, a continued row with a list of its own). `mayImport` is undefined
 * for a continued row's cell left empty, as it should be.
 */
export function layerTableOf(markdown) {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => isRow(line) && /\|\s*may import\s*\|/i.test(line));
  if (start === -1) return { rows: [], problems: ['has no table of layers (a Markdown table with a "may import" column)'] };
  const header = cellsOf(lines[start]).map((cell) => plain(cell).toLowerCase());
  const column = {
    name: header.indexOf('layer'),
    paths: header.findIndex((cell) => cell.startsWith('folder')),
    mayImport: header.indexOf('may import'),
  };
  const missing = Object.entries({ layer: column.name, 'folder...': column.paths })
    .filter(([, index]) => index === -1)
    .map(([name]) => name);
  if (missing.length > 0) return { rows: [], problems: [`has a table of layers without the column(s) ${missing.join(', ')}`] };
  const rows = [];
  const problems = [];
  for (const line of lines.slice(start + 2)) {
    if (!isRow(line)) break;
    const cells = cellsOf(line);
    const name = plain(cells[column.name] ?? '');
    const paths = [...(cells[column.paths] ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]);
    const listed = plain(cells[column.mayImport] ?? '');
    const mayImport = listed === '' ? undefined : listed === 'nothing' ? [] : listed.split(',').map((entry) => entry.trim());
    if (name !== '') {
      rows.push({ name, paths, mayImport: mayImport ?? [] });
    } else if (rows.length === 0) {
      problems.push(`has a first row of its table of layers without a layer name`);
    } else {
      const layer = rows.at(-1);
      layer.paths.push(...paths);
      if (mayImport) problems.push(`continues the layer "${layer.name}" in a row with a "may import" of its own: leave it empty`);
    }
  }
  return { rows, problems };
}

const same = (a, b) => {
  const [x, y] = [[...a].sort(), [...b].sort()];
  return x.length === y.length && x.every((entry, index) => entry === y[index]);
};
const listed = (names) => (names.length === 0 ? 'nothing' : names.join(', '));

/** Where the document's table and the layers file disagree: layers, their folders and what each may import. */
export function tableDrift(layers, markdown) {
  const { rows, problems } = layerTableOf(markdown);
  if (rows.length === 0) return problems;
  const drift = [...problems];
  const byName = new Map(rows.map((row) => [row.name, row]));
  for (const layer of layers) {
    const row = byName.get(layer.name);
    if (!row) {
      drift.push(`has no row for the layer "${layer.name}" (${layer.paths.map((path) => `\`${path}\``).join(', ')})`);
      continue;
    }
    if (!same(row.paths, layer.paths)) {
      drift.push(`gives the layer "${layer.name}" the folders ${listed(row.paths)}; the layers file: ${listed(layer.paths)}`);
    }
    if (!same(row.mayImport, layer.mayImport ?? [])) {
      drift.push(
        `says the layer "${layer.name}" may import ${listed(row.mayImport)}; the layers file: ${listed(layer.mayImport ?? [])}`,
      );
    }
  }
  const known = new Set(layers.map((layer) => layer.name));
  for (const row of rows)
    if (!known.has(row.name)) drift.push(`has a row for "${row.name}", which the layers file has no layer of`);
  return drift;
}
