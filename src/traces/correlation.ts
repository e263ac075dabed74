/**
 * Sample summaries on typed arrays: mean, SCV, median, Pearson and Spearman correlation (ties get average ranks,
 * as scipy.stats.spearmanr). Pure helpers shared by the trace statistics and the predictor quality.
 */

/** Arithmetic mean; NaN for an empty array. */
export function mean(x: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return x.length ? s / x.length : NaN;
}

/** Squared coefficient of variation Var/mean², with the population variance (divisor n); NaN if n = 0. */
export function scv(x: ArrayLike<number>): number {
  const m = mean(x);
  let s = 0;
  for (let i = 0; i < x.length; i++) s += (x[i] - m) ** 2;
  return s / x.length / (m * m);
}

/** Median (mean of the two middle values when n is even); NaN if n = 0. */
export function median(x: ArrayLike<number>): number {
  const n = x.length;
  if (n === 0) return NaN;
  const s = Float64Array.from(x).sort();
  return n % 2 ? s[(n - 1) / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

/** Pearson correlation of two equal-length arrays; NaN if n < 2 or either is constant. */
export function pearson(x: ArrayLike<number>, y: ArrayLike<number>): number {
  const n = x.length;
  if (n < 2 || y.length !== n) return NaN;
  const mx = mean(x);
  const my = mean(y);
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const a = x[i] - mx;
    const b = y[i] - my;
    sxy += a * b;
    sxx += a * a;
    syy += b * b;
  }
  return sxx > 0 && syy > 0 ? sxy / Math.sqrt(sxx * syy) : NaN;
}

/** Ranks 1..n, ties given the average of their ranks. */
export function ranks(x: ArrayLike<number>): Float64Array {
  const n = x.length;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  order.sort((a, b) => x[a] - x[b]);
  const r = new Float64Array(n);
  for (let i = 0; i < n;) {
    let j = i + 1;
    while (j < n && x[order[j]] === x[order[i]]) j++;
    const avg = (i + 1 + j) / 2;
    for (let k = i; k < j; k++) r[order[k]] = avg;
    i = j;
  }
  return r;
}

/** Spearman rank correlation: Pearson correlation of the average ranks. */
export function spearman(x: ArrayLike<number>, y: ArrayLike<number>): number {
  return pearson(ranks(x), ranks(y));
}
