/**
 * Empirical service times: the sizes of a trace (already rescaled to spec.mean by `parseModel`), each value equally
 * likely. Atoms aggregate duplicates; partial moments are prefix sums over the sorted atoms.
 * Source: theory.md §1 "Sizes" (trace).
 */
import { InvalidModelError } from '../../errors.ts';
import { ServiceLaw, type ServiceSpecOf, type ServiceDistribution, type UniformSource } from './distribution.ts';
import { countAtMost } from '../../stats/bisect.ts';
import { requireMean, requireProbability } from './support.ts';

/** The trace's distinct sorted sizes, with cum[k][i] = E[S^k·1(S ≤ xs[i])] (k = 0, 1, 2) and the atoms. */
interface EmpiricalTable {
  readonly values: Float64Array;
  readonly xs: Float64Array;
  readonly cum: readonly [Float64Array, Float64Array, Float64Array];
  readonly atoms: readonly { readonly x: number; readonly p: number }[];
}

/**
 * The table of an empirical law: atoms by aggregating duplicates, partial moments as prefix sums over them.
 * @throws {InvalidModelError} as the constructor of `EmpiricalDistribution`.
 */
function empiricalTable(values: readonly number[], mean: number): EmpiricalTable {
  const n = values.length;
  if (n === 0) throw new InvalidModelError('empirical values must be a non-empty array of sizes, got length 0');
  const copy = Float64Array.from(values);
  copy.forEach((v, i) => {
    if (!(v >= 0 && Number.isFinite(v))) throw new InvalidModelError(`empirical size #${i + 1} must be a finite number ≥ 0, got ${v}`);
  });
  const sorted = Float64Array.from(copy).sort();
  const xs: number[] = [];
  const counts: number[] = [];
  for (const v of sorted) {
    if (xs.length > 0 && xs[xs.length - 1] === v) counts[counts.length - 1]++;
    else {
      xs.push(v);
      counts.push(1);
    }
  }
  const m = xs.length;
  const cum = [new Float64Array(m), new Float64Array(m), new Float64Array(m)] as const;
  let c = 0,
    s1 = 0,
    s2 = 0;
  for (let i = 0; i < m; i++) {
    c += counts[i];
    s1 += counts[i] * xs[i];
    s2 += counts[i] * xs[i] * xs[i];
    cum[0][i] = c / n;
    cum[1][i] = s1 / n;
    cum[2][i] = s2 / n;
  }
  cum[0][m - 1] = 1;
  if (!(Math.abs(cum[1][m - 1] - mean) <= 1e-9 * mean)) {
    throw new InvalidModelError(
      `empirical values must already be rescaled to mean ${mean} (parseModel does this), got mean ${cum[1][m - 1]}`,
    );
  }
  const atoms = Object.freeze(xs.map((x, i) => Object.freeze({ x, p: counts[i] / n })));
  return { values: copy, xs: Float64Array.from(xs), cum, atoms };
}

/** Uniform law on the trace values; `sample` costs one `rng.nextDouble()`. */
export class EmpiricalDistribution extends ServiceLaw<'empirical'> implements ServiceDistribution {
  readonly atoms: readonly { readonly x: number; readonly p: number }[];
  private readonly table: EmpiricalTable;

  /**
   * @throws {InvalidModelError} if spec.values is empty or holds a negative or non-finite value, spec.mean is
   *   not a finite number > 0, or the values' mean differs from spec.mean by more than 1e-9 relative.
   */
  constructor(spec: ServiceSpecOf<'empirical'>) {
    const mean = requireMean(spec);
    const table = empiricalTable(spec.values, mean);
    const last = table.xs.length - 1;
    const secondMoment = table.cum[2][last];
    super(spec, { mean, secondMoment, scv: secondMoment / (mean * mean) - 1, supportMax: table.xs[last] });
    this.table = table;
    this.atoms = table.atoms;
  }

  ccdf(x: number): number {
    return 1 - this.cdf(x);
  }

  cdf(x: number): number {
    const i = countAtMost(this.table.xs, x);
    return i === 0 ? 0 : this.table.cum[0][i - 1];
  }

  /** NaN: the law is discrete (see `atoms`). */
  density(_x: number): number {
    return NaN;
  }

  /** Smallest trace value v with P(S ≤ v) ≥ p. @throws {InvalidModelError} if p ∉ [0, 1]. */
  quantile(p: number): number {
    requireProbability('quantile p', p);
    let lo = 0,
      hi = this.table.xs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.table.cum[0][mid] >= p) hi = mid;
      else lo = mid + 1;
    }
    return this.table.xs[lo];
  }

  /** (1/n)·Σ_{v ≤ x} v^k over the trace values. */
  partialMoment(k: 0 | 1 | 2, x: number): number {
    const i = countAtMost(this.table.xs, x);
    if (i === 0) return 0;
    return this.table.cum[k][i - 1];
  }

  sample(rng: UniformSource): number {
    return this.table.values[Math.floor(rng.nextDouble() * this.table.values.length)];
  }
}
