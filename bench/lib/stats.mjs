// Medians and spreads; every figure the benchmark prints comes through here.

export function median(values) {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** `{ median, min, max, spread }`, spread = (max - min) / median. */
export function summarize(values) {
  const m = median(values);
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { median: m, min, max, spread: m === 0 ? 0 : (max - min) / m, samples: values };
}

/**
 * The ratio B/A of two arms measured alternately: the ratio of the medians, and the range of the
 * ratios of each repetition's pair (run i of B over run i of A), which says how stable it is.
 */
export function ratio(a, b) {
  const pairs = a.map((value, i) => b[i] / value).filter((value) => Number.isFinite(value));
  return { value: median(b) / median(a), pairMin: Math.min(...pairs), pairMax: Math.max(...pairs), pairs };
}

/** The p-th percentile (0–100) of `values`, nearest rank. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export const round = (value, digits = 3) => (Number.isFinite(value) ? Number(value.toFixed(digits)) : value);
