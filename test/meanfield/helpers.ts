import { parseModel, type SupermarketModel } from '../../src/model/index.ts';

/** A parsed SQ(d) model (jsq, fifo, exponential mean 1 unless overridden). */
export function sqd(lambda: number, d: number, extra: Record<string, unknown> = {}): SupermarketModel {
  return parseModel({ lambda, d, ...extra });
}

/** Independent oracle: E[T] = Σ_{i≥1} λ^((d^i − d)/(d − 1)) (theory.md §2, §10), terms summed until < 1e−16. */
export function seriesMeanResponseTime(lambda: number, d: number): number {
  if (d === 1) return 1 / (1 - lambda);
  let sum = 0;
  for (let i = 1; ; i++) {
    const term = Math.pow(lambda, (Math.pow(d, i) - d) / (d - 1));
    sum += term;
    if (term < 1e-16) return sum;
  }
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < Math.max(a.length, b.length); i++) m = Math.max(m, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return m;
}
