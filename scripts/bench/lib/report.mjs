// The results report (stdout and results.md): machine and run header, one table per suite with its notes, and a
// summary of the targets met and missed.
import { formatMs } from './format.mjs';
import { markdownTable } from './markdown.mjs';

const HEADERS = ['Measurement', 'Cardrail', 'Baseline', 'Ratio', 'Target', 'Met'];

function metCell(met) {
  if (met === true) return 'yes';
  if (met === false) return '**no**';
  return '';
}

function suiteSection(result) {
  const lines = [`## ${result.title} (\`${result.name}\`)`, ''];
  if (result.status === 'missing') {
    lines.push(...result.notes, '');
    return lines;
  }
  const rows =
    result.status === 'failed'
      ? [[`suite failed: ${result.error}`, '', '', '', '', '**failed**']]
      : result.rows.map((row) => [row.measure, row.ours, row.baseline, row.ratio, row.target, metCell(row.met)]);
  lines.push(markdownTable(HEADERS, rows), '');
  if (result.status === 'ok') lines.push(`Suite time: ${formatMs(result.ms)}.`, '');
  for (const note of result.notes) lines.push(`- ${note}`);
  if (result.notes.length > 0) lines.push('');
  return lines;
}

function summary(results) {
  const targets = results.flatMap((result) =>
    result.rows.filter((row) => row.met !== null && row.met !== undefined).map((row) => ({ suite: result.name, row })),
  );
  const met = targets.filter((t) => t.row.met);
  const missed = targets.filter((t) => !t.row.met);
  const lines = [
    '## Summary',
    '',
    targets.length === 0 ? 'No targets in the suites that ran.' : `Targets met: ${met.length} of ${targets.length}.`,
  ];
  for (const { suite, row } of missed) lines.push(`- Missed (${suite}): ${row.measure}: ${row.ours}, target ${row.target}.`);
  for (const result of results.filter((r) => r.status === 'failed'))
    lines.push(`- Suite failed (${result.name}): ${result.error}`);
  for (const result of results.filter((r) => r.status === 'missing')) lines.push(`- Suite not present (${result.name}).`);
  lines.push('');
  return lines;
}

export function renderReport({ date, mode, node, cpu, cores, durationMs, results, partial }) {
  const lines = [
    '# Cardrail benchmarks',
    '',
    `- Date: ${date.toISOString()}`,
    `- Mode: ${mode}${partial ? ` (only ${partial.join(', ')})` : ''}`,
    `- Node: ${node}`,
    `- CPU: ${cpu}, ${cores} cores`,
    `- Total duration: ${formatMs(durationMs)}`,
    '',
    'Ratio: how many times better Cardrail is than the baseline, so above 1x Cardrail wins (throughput: ours / baseline; ' +
      'times and sizes: baseline / ours), except in the Scaling table, where it is growth with history (figure at N / figure at 10 prior; lower is better). Figures are medians; the machine may be shared, so compare ratios rather than absolute figures.',
    '',
  ];
  for (const result of results) lines.push(...suiteSection(result));
  lines.push(...summary(results));
  return `${lines.join('\n')}\n`;
}

/** The `## ` sections of a report, by their heading line. */
function sections(report) {
  const parts = report.split(/^(?=## )/m);
  return { head: parts[0], sections: parts.slice(1) };
}
const suiteOf = (section) => /^## .*\(`([\w-]+)`\)\s*$/m.exec(section.split('\n')[0])?.[1];

/**
 * results.md after a partial run: the suites that ran replace their sections (or are added before the summary), the
 * others are kept as they were, the header says when which suites were last run, and the summary counts the targets
 * of every section present.
 */
export function mergeReport(previous, partialReport, ran) {
  const old = sections(previous);
  const fresh = sections(partialReport);
  const freshBySuite = new Map(fresh.sections.map((section) => [suiteOf(section), section]));
  const kept = old.sections.filter((section) => suiteOf(section) !== undefined);
  const merged = kept.map((section) => freshBySuite.get(suiteOf(section)) ?? section);
  for (const [suite, section] of freshBySuite) if (suite && !kept.some((k) => suiteOf(k) === suite)) merged.push(section);
  const updated = /^- Date: (.*)$/m.exec(fresh.head)?.[1];
  const mode = /^- Mode: (.*)$/m.exec(fresh.head)?.[1];
  const node = /^- Node: (.*)$/m.exec(fresh.head)?.[1];
  // One line per set of suites re-run: the latest run replaces an earlier one of the same suites.
  const earlier = new RegExp(`^- Re-run since: ${ran.join(', ').replace(/[-]/g, '\\-')} on .*\\n`, 'm');
  const head = old.head
    .replace(earlier, '')
    .replace(/\n\nRatio:/, `\n- Re-run since: ${ran.join(', ')} on ${updated} (${mode}, Node ${node})\n\nRatio:`);
  return `${head}${merged.join('')}${mergedSummary(merged)}`;
}

function mergedSummary(merged) {
  const rows = merged.flatMap((section) =>
    section
      .split('\n')
      .filter((line) => /^\|.*\| (yes|\*\*no\*\*) \|$/.test(line))
      .map((line) => ({ suite: suiteOf(section), cells: line.split(' | ').map((cell) => cell.replace(/^\| | \|$/g, '')) })),
  );
  const missed = rows.filter(({ cells }) => cells.at(-1)?.includes('**no**'));
  const lines = ['## Summary', '', `Targets met: ${rows.length - missed.length} of ${rows.length}.`];
  for (const { suite, cells } of missed) lines.push(`- Missed (${suite}): ${cells[0]}: ${cells[1]}, target ${cells[4]}.`);
  lines.push('');
  return `${lines.join('\n')}\n`;
}
