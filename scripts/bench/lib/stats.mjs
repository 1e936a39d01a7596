// Medians: the machines are shared and noisy, so a single run or a mean says little.

export function median(values) {
  if (values.length === 0) throw new Error('median of no values');
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function sum(values) {
  return values.reduce((total, value) => total + value, 0);
}

/** The value at `share` (0.99 for p99) of values sorted ascending: the nearest-rank percentile. */
export function percentile(sorted, share) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}
