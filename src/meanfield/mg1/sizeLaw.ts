/**
 * The size law G as the M/G/1 formulas need it: expectations E[f(S)] (a sum over atoms, or adaptive G7K15 in
 * v = ln x, where the power-law behaviour of densities at 0 such as Weibull k = ½'s x^{−1/2} becomes an
 * exponentially decaying, smooth integrand), the partial loads ρ(x) = λE[S·1(S ≤ x)], ρ(x⁻) = λE[S·1(S < x)],
 * m₂(x) = λE[S²·1(S ≤ x)], and whether E[1/S] is finite (it decides whether E[slowdown] can be finite).
 * Source: theory.md §7.
 */
import { serviceDistribution, type ServiceDistribution } from '../../model/service/index.ts';
import type { ServiceSpec } from '../../model/model.ts';
import { inverseMomentFinite } from '../../model/moments.ts';
import { integrateVector, type QuadratureOptions, type VectorIntegrand } from '../../numerics/quadrature.ts';

/** A point mass of G. */
export interface Atom {
  readonly x: number;
  readonly p: number;
}

/** Result of an expectation: values and absolute error estimates per component (length m). */
export interface Expectation {
  value: Float64Array;
  error: Float64Array;
  evaluations: number;
  converged: boolean;
}

/** Truncation: [xLo, xHi] leaves at most this probability outside, weighted by (1 + x/E[S])³ above xHi. */
const TAIL_MASS = 1e-17;
/** Probabilities at which the log-space integration range is pre-split. */
const SPLIT_PROBABILITIES = [1e-12, 1e-9, 1e-6, 1e-4, 1e-2, 0.05, 0.2, 0.4, 0.6, 0.8, 0.95, 0.99, 1 - 1e-4, 1 - 1e-6, 1 - 1e-9];
/** Largest width in v = ln x of an initial subinterval. */
const MAX_LOG_WIDTH = 2;

/** Inserts points so that no gap of the sorted list `v` exceeds `width`. */
export function refineGrid(v: readonly number[], width: number): number[] {
  const out: number[] = [];
  for (let k = 0; k < v.length; k++) {
    if (k > 0) {
      const gap = v[k] - v[k - 1];
      const pieces = Math.ceil(gap / width);
      for (let j = 1; j < pieces; j++) out.push(v[k - 1] + (gap * j) / pieces);
    }
    out.push(v[k]);
  }
  return out;
}

/** Sorted, strictly increasing copy (drops non-finite values and near-duplicates). */
export function sortedUnique(values: readonly number[]): number[] {
  const s = values.filter(Number.isFinite).sort((a, b) => a - b);
  const out: number[] = [];
  for (const x of s) if (out.length === 0 || x > out[out.length - 1] + 1e-12 * Math.max(1, Math.abs(x))) out.push(x);
  return out;
}

/**
 * The size law of a service spec with λ: expectations over G and the partial loads of theory.md §7.
 * Time in the units of spec.mean.
 */
export class SizeLaw {
  readonly dist: ServiceDistribution;
  readonly mean: number;
  readonly secondMoment: number;
  /** Point masses (deterministic, empirical), or undefined for a law with a density. */
  readonly atoms?: readonly Atom[];
  /** Truncated support [xLo, xHi] of the continuous part (exact bounds when the support is bounded). */
  readonly xLo: number;
  readonly xHi: number;
  /** Initial split points in v = ln x for continuous laws (sorted, from ln xLo to ln xHi). */
  readonly logGrid: readonly number[];
  /** True iff E[1/S] < ∞ (decided from the family: density at 0 makes it infinite). */
  readonly inverseMomentFinite: boolean;

  constructor(
    readonly spec: ServiceSpec,
    readonly lambda: number,
  ) {
    this.dist = serviceDistribution(spec);
    this.mean = this.dist.mean;
    this.secondMoment = this.dist.secondMoment;
    this.inverseMomentFinite = inverseMomentFinite(spec);
    if (this.dist.atoms && this.dist.atoms.length > 0) {
      this.atoms = this.dist.atoms;
      this.xLo = this.atoms[0].x;
      this.xHi = this.atoms[this.atoms.length - 1].x;
      this.logGrid = [];
      return;
    }
    const d = this.dist;
    const lower = d.quantile(0);
    let xLo = lower;
    if (!(lower > 0)) {
      xLo = d.quantile(1e-12);
      if (!(xLo > 0)) xLo = this.mean * 1e-12;
      for (let k = 0; k < 400 && d.cdf(xLo) > TAIL_MASS; k++) xLo /= 10;
    }
    let xHi = d.supportMax;
    if (!Number.isFinite(xHi)) {
      xHi = Math.max(d.quantile(1 - 1e-9), this.mean);
      for (let k = 0; k < 400 && d.ccdf(xHi) * (1 + xHi / this.mean) ** 3 > TAIL_MASS; k++) xHi *= 1.5;
    }
    this.xLo = xLo;
    this.xHi = xHi;
    const v = [Math.log(xLo), Math.log(xHi)];
    for (const p of SPLIT_PROBABILITIES) {
      const q = d.quantile(p);
      if (q > xLo && q < xHi) v.push(Math.log(q));
    }
    this.logGrid = refineGrid(sortedUnique(v), MAX_LOG_WIDTH);
  }

  /** P(S = x) (0 for a law with a density). */
  atomAt(x: number): number {
    if (!this.atoms) return 0;
    let lo = 0,
      hi = this.atoms.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const a = this.atoms[mid].x;
      if (a === x) return this.atoms[mid].p;
      if (a < x) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  /** ρ(x) = λE[S·1(S ≤ x)]. */
  rho(x: number): number {
    return this.lambda * this.dist.partialMoment(1, x);
  }
  /** ρ(x⁻) = λE[S·1(S < x)]. */
  rhoBefore(x: number): number {
    return this.rho(x) - this.lambda * x * this.atomAt(x);
  }
  /** m₂(x) = λE[S²·1(S ≤ x)]. */
  m2(x: number): number {
    return this.lambda * this.dist.partialMoment(2, x);
  }
  /** P(S > x). */
  ccdf(x: number): number {
    return this.dist.ccdf(x);
  }

  /**
   * E[f(S)] for an m-component f: Σ p·f(x) over atoms (exact, error 0), or ∫ f(x)g(x)dx by adaptive G7K15 in
   * v = ln x over [ln xLo, ln xHi], pre-split at `logGrid` and at `breakpoints` (sizes where f is not smooth);
   * the mass outside [xLo, xHi] (≤ 1e-17) is dropped and its bound |f|·mass added to the error.
   */
  expect(f: VectorIntegrand, m: number, options: QuadratureOptions & { breakpoints?: readonly number[] } = {}): Expectation {
    const out = new Float64Array(m);
    if (this.atoms) {
      const value = new Float64Array(m);
      for (const { x, p } of this.atoms) {
        f(x, out);
        for (let i = 0; i < m; i++) value[i] += p * out[i];
      }
      return { value, error: new Float64Array(m), evaluations: this.atoms.length, converged: true };
    }
    const d = this.dist;
    const g: VectorIntegrand = (v, o) => {
      const x = Math.exp(v);
      const w = d.density(x) * x;
      f(x, o);
      for (let i = 0; i < m; i++) o[i] = w === 0 ? 0 : o[i] * w;
    };
    let points = this.logGrid as number[];
    if (options.breakpoints && options.breakpoints.length > 0) {
      const lo = points[0],
        hi = points[points.length - 1];
      const extra = options.breakpoints
        .filter((x) => x > 0)
        .map(Math.log)
        .filter((v) => v > lo && v < hi);
      if (extra.length > 0) points = sortedUnique([...points, ...extra]);
    }
    const r = integrateVector(g, m, points, options);
    f(this.xLo, out);
    const lowMass = d.cdf(this.xLo);
    const highMass = d.ccdf(this.xHi);
    const tmp = new Float64Array(m);
    f(this.xHi, tmp);
    for (let i = 0; i < m; i++) {
      r.error[i] += Math.abs(out[i]) * lowMass + Math.abs(tmp[i]) * highMass * 10;
    }
    return { ...r, evaluations: r.evaluations + 2 };
  }
}
