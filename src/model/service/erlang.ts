/**
 * Erlang-k service times with mean m: the sum of k exponential phases of rate μ = k/m.
 * E[S²] = m²(1 + 1/k), SCV 1/k, P(S > x) = Q(k, μx) (regularized upper incomplete gamma).
 * Source: theory.md §1 "Sizes", §3 (E2 check).
 */
import { gammainc } from '../../lazy.ts';
import { InvalidModelError } from '../../errors.ts';
import { ServiceLaw, type ServiceSpecOf, type PhaseType, type ServiceDistribution, type UniformSource } from './distribution.ts';
import { fullMoment, quantileByInversion, requireMean } from './support.ts';

/**
 * Erlang-k PH representation: start in phase 0, phase i → i + 1 at rate `rate`, the last phase exits.
 * @returns alpha of length k (alpha[0] = 1), A k×k bidiagonal.
 */
export function erlangPhaseType(k: number, rate: number): PhaseType {
  const alpha = new Array<number>(k).fill(0);
  alpha[0] = 1;
  const A = Array.from({ length: k }, (_, i) => {
    const row = new Array<number>(k).fill(0);
    row[i] = -rate;
    if (i + 1 < k) row[i + 1] = rate;
    return row;
  });
  return { alpha, A };
}

/** Erlang-k law; `sample` costs k calls of `rng.nextExp()`. */
export class ErlangDistribution extends ServiceLaw<'erlang'> implements ServiceDistribution {
  readonly phaseType: PhaseType;
  private readonly k: number;
  private readonly rate: number;
  private readonly logNorm: number;

  /** @throws {InvalidModelError} if spec.k is not an integer ≥ 1 or spec.mean is not a finite number > 0. */
  constructor(spec: ServiceSpecOf<'erlang'>) {
    const mean = requireMean(spec);
    const k = spec.k;
    if (!Number.isInteger(k) || k < 1) throw new InvalidModelError(`erlang k must be an integer ≥ 1, got ${k}`);
    super(spec, { mean, secondMoment: mean * mean * (1 + 1 / k), scv: 1 / k });
    this.k = k;
    this.rate = this.k / this.mean;
    let logFactorial = 0;
    for (let i = 2; i < this.k; i++) logFactorial += Math.log(i);
    this.logNorm = this.k * Math.log(this.rate) - logFactorial; // ln(μ^k/(k−1)!)
    this.phaseType = erlangPhaseType(this.k, this.rate);
  }

  ccdf(x: number): number {
    return x <= 0 ? 1 : gammainc(this.rate * x, this.k, true, true);
  }

  cdf(x: number): number {
    return x <= 0 ? 0 : gammainc(this.rate * x, this.k);
  }

  /** μ^k x^{k−1} e^{−μx}/(k − 1)!. */
  density(x: number): number {
    if (x < 0) return 0;
    if (x === 0) return this.k === 1 ? this.rate : 0;
    return Math.exp(this.logNorm + (this.k - 1) * Math.log(x) - this.rate * x);
  }

  /** Numerical inverse of the cdf (bisection). @throws {InvalidModelError} if p ∉ [0, 1]. */
  quantile(p: number): number {
    return quantileByInversion((x) => this.cdf(x), p, this.mean);
  }

  /** E[S^j·1(S ≤ x)] = k(k+1)…(k+j−1)/μ^j · P(k + j, μx). */
  partialMoment(j: 0 | 1 | 2, x: number): number {
    if (x <= 0) return 0;
    const full = fullMoment(this, j);
    return x === Infinity ? full : full * gammainc(this.rate * x, this.k + j);
  }

  sample(rng: UniformSource): number {
    let s = 0;
    for (let i = 0; i < this.k; i++) s += rng.nextExp();
    return s / this.rate;
  }
}
