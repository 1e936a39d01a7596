// Figures as they appear in the results table: short, with their unit.

/** 950 -> '950', 12345 -> '12.3k', 2_500_000 -> '2.50M'. */
export function formatCount(n) {
  if (!Number.isFinite(n)) return String(n);
  if (n < 10) return n.toFixed(n === Math.round(n) ? 0 : 2);
  if (n < 1000) return n.toFixed(0);
  if (n < 1e6) return `${(n / 1e3).toFixed(n < 1e4 ? 2 : n < 1e5 ? 1 : 0)}k`;
  return `${(n / 1e6).toFixed(2)}M`;
}

export function formatRate(perSecond, unit = 'req/s') {
  return `${formatCount(perSecond)} ${unit}`;
}

/** 0.42 -> '0.42 ms', 3.14 -> '3.1 ms', 180 -> '180 ms', 2230 -> '2.23 s'. */
export function formatMs(ms) {
  if (!Number.isFinite(ms)) return String(ms);
  if (ms < 1) return `${ms.toFixed(2)} ms`;
  if (ms < 10) return `${Number.isInteger(ms) ? ms : ms.toFixed(1)} ms`;
  if (ms < 1000) return `${ms.toFixed(0)} ms`;
  return `${(ms / 1000).toFixed(2)} s`;
}

/**
 * How many times better ours is than the baseline (above 1x ours wins): pass ours/baseline for throughput and
 * baseline/ours for times, so that every ratio in the table reads the same way.
 */
export function formatRatio(ratio) {
  if (!Number.isFinite(ratio)) return '';
  if (ratio >= 100) return `${ratio.toFixed(0)}x`;
  if (ratio >= 10) return `${ratio.toFixed(1)}x`;
  return `${ratio.toFixed(2)}x`;
}

/** autocannon records latencies in whole milliseconds (floored), so 0 means under a millisecond. */
export function formatWholeMs(ms) {
  return ms < 1 ? '< 1 ms' : formatMs(ms);
}
