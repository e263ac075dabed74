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

/**
 * Independent oracle: M/M/1 (mean-1 exponential sizes) E[T] under SJF, PSJF, SRPT from theory.md §7
 * (Schrage–Miller; Harchol-Balter 2013), by the trapezoid rule on [0, 40] with step 1e−3.
 */
export function mm1SizeBased(lambda: number, discipline: 'sjf' | 'psjf' | 'srpt'): number {
  const h = 1e-3;
  const n = 40_000;
  const rho = (x: number) => lambda * (1 - Math.exp(-x) * (1 + x));
  const m2 = (x: number) => lambda * (2 - Math.exp(-x) * (x * x + 2 * x + 2));
  let inner = 0; // ∫_0^x dt/(1 − ρ(t))
  let total = 0;
  for (let i = 0; i <= n; i++) {
    const x = i * h;
    if (i > 0) inner += (h / 2) * (1 / (1 - rho(x - h)) + 1 / (1 - rho(x)));
    const r = rho(x);
    let T: number;
    if (discipline === 'sjf') T = x + (lambda * 2) / (2 * (1 - r) ** 2);
    else if (discipline === 'psjf') T = m2(x) / (2 * (1 - r) ** 2) + x / (1 - r);
    else T = (m2(x) + lambda * x * x * Math.exp(-x)) / (2 * (1 - r) ** 2) + inner;
    total += (i === 0 || i === n ? h / 2 : h) * T * Math.exp(-x);
  }
  return total;
}
