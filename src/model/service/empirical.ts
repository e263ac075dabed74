/**
 * Empirical service times: the sizes of a trace (already rescaled to spec.mean by `parseModel`), each value equally
 * likely. Atoms aggregate duplicates; partial moments are prefix sums over the sorted atoms.
 * Source: theory.md §1 "Sizes" (trace).
 */
import { InvalidModelError } from '../../errors.ts';
import type { ServiceSpec } from '../model.ts';
import type { ServiceDistribution, UniformSource } from './distribution.ts';
import { countAtMost } from '../../stats/bisect.ts';
import { requirePositive, requireProbability } from './support.ts';

type EmpiricalSpec = Extract<ServiceSpec, { kind: 'empirical' }>;

/** Uniform law on the trace values; `sample` costs one `rng.nextDouble()`. */
export class EmpiricalDistribution implements ServiceDistribution {
  readonly mean: number;
  readonly secondMoment: number;
  readonly scv: number;
  readonly supportMax: number;
  readonly atoms: readonly { readonly x: number; readonly p: number }[];
  private readonly values: Float64Array;
  /** Distinct sorted sizes; cum0[i], cum1[i], cum2[i] = E[S^k·1(S ≤ xs[i])]. */
  private readonly xs: Float64Array;
  private readonly cum0: Float64Array;
  private readonly cum1: Float64Array;
  private readonly cum2: Float64Array;

  /**
   * @throws {InvalidModelError} if spec.values is empty or holds a negative or non-finite value, spec.mean is
   *   not a finite number > 0, or the values' mean differs from spec.mean by more than 1e-9 relative.
   */
  constructor(readonly spec: EmpiricalSpec) {
    this.mean = requirePositive('empirical mean', spec.mean);
    const n = spec.values.length;
    if (n === 0) throw new InvalidModelError('empirical values must be a non-empty array of sizes, got length 0');
    this.values = Float64Array.from(spec.values);
    this.values.forEach((v, i) => {
      if (!(v >= 0 && Number.isFinite(v))) throw new InvalidModelError(`empirical size #${i + 1} must be a finite number ≥ 0, got ${v}`);
    });
    const sorted = Float64Array.from(this.values).sort();
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
    this.xs = Float64Array.from(xs);
    this.cum0 = new Float64Array(m);
    this.cum1 = new Float64Array(m);
    this.cum2 = new Float64Array(m);
    let c = 0,
      s1 = 0,
      s2 = 0;
    for (let i = 0; i < m; i++) {
      c += counts[i];
      s1 += counts[i] * xs[i];
      s2 += counts[i] * xs[i] * xs[i];
      this.cum0[i] = c / n;
      this.cum1[i] = s1 / n;
      this.cum2[i] = s2 / n;
    }
    this.cum0[m - 1] = 1;
    if (!(Math.abs(this.cum1[m - 1] - this.mean) <= 1e-9 * this.mean)) {
      throw new InvalidModelError(
        `empirical values must already be rescaled to mean ${this.mean} (parseModel does this), got mean ${this.cum1[m - 1]}`,
      );
    }
    this.atoms = Object.freeze(xs.map((x, i) => Object.freeze({ x, p: counts[i] / n })));
    this.secondMoment = this.cum2[m - 1];
    this.scv = this.secondMoment / (this.mean * this.mean) - 1;
    this.supportMax = xs[m - 1];
  }

  ccdf(x: number): number {
    return 1 - this.cdf(x);
  }

  cdf(x: number): number {
    const i = countAtMost(this.xs, x);
    return i === 0 ? 0 : this.cum0[i - 1];
  }

  /** NaN: the law is discrete (see `atoms`). */
  density(_x: number): number {
    return NaN;
  }

  /** Smallest trace value v with P(S ≤ v) ≥ p. @throws {InvalidModelError} if p ∉ [0, 1]. */
  quantile(p: number): number {
    requireProbability('quantile p', p);
    let lo = 0,
      hi = this.xs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cum0[mid] >= p) hi = mid;
      else lo = mid + 1;
    }
    return this.xs[lo];
  }

  /** (1/n)·Σ_{v ≤ x} v^k over the trace values. */
  partialMoment(k: 0 | 1 | 2, x: number): number {
    const i = countAtMost(this.xs, x);
    if (i === 0) return 0;
    return (k === 0 ? this.cum0 : k === 1 ? this.cum1 : this.cum2)[i - 1];
  }

  sample(rng: UniformSource): number {
    return this.values[Math.floor(rng.nextDouble() * this.values.length)];
  }
}
