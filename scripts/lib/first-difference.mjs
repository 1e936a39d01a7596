// The first line where a committed generated file and a fresh generation differ, for staleness messages.
export function firstDifference(current, fresh) {
  if (current === null) return ' (missing)';
  const a = current.split('\n');
  const b = fresh.split('\n');
  const line = a.findIndex((text, i) => text !== b[i]);
  const at = line === -1 ? a.length : line;
  return ` (line ${at + 1}: committed ${JSON.stringify(a[at] ?? '<end>')}, fresh ${JSON.stringify(b[at] ?? '<end>')})`;
}
