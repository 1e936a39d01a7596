// Medians: the machines are shared and noisy, so a single run or a mean says little.

export function median(values) {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * The median of the ratios of paired figures, `ours[i] / baseline[i]`, each pair measured next to each other: the
 * shared machine's speed drifts by as much as 2x within a minute, and a ratio of two adjacent runs cancels most of
 * that drift, where a ratio of two medians can pair a slow run with a fast one.
 */
export function medianRatio(ours, baseline) {
  if (ours.length !== baseline.length) throw new Error(`${ours.length} figures paired with ${baseline.length}`);
  return median(ours.map((figure, i) => figure / baseline[i]));
}

export function sum(values) {
  return values.reduce((total, value) => total + value, 0);
}

/** The value at `share` (0.99 for p99) of values sorted ascending: the nearest-rank percentile. */
export function percentile(sorted, share) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}
