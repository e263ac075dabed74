/**
 * Exponential service times with mean m (rate 1/m): P(S > x) = e^{−x/m}, E[S²] = 2m², SCV 1.
 * Source: theory.md §1 "Sizes", §2.
 */
import { gammainc } from '../../lazy.ts';
import { ServiceLaw, type ServiceSpecOf, type PhaseType, type ServiceDistribution, type UniformSource } from './distribution.ts';
import { requireMean, requireProbability } from './support.ts';

/** Exponential law; `sample` costs one `rng.nextExp()`. */
export class ExponentialDistribution extends ServiceLaw<'exponential'> implements ServiceDistribution {
  readonly phaseType: PhaseType;
  private readonly rate: number;

  /** @throws {InvalidModelError} if spec.mean is not a finite number > 0. */
  constructor(spec: ServiceSpecOf<'exponential'>) {
    const mean = requireMean(spec);
    super(spec, { mean, secondMoment: 2 * mean * mean, scv: 1 });
    this.rate = 1 / this.mean;
    this.phaseType = { alpha: [1], A: [[-this.rate]] };
  }

  ccdf(x: number): number {
    return x <= 0 ? 1 : Math.exp(-this.rate * x);
  }

  cdf(x: number): number {
    return x <= 0 ? 0 : -Math.expm1(-this.rate * x);
  }

  density(x: number): number {
    return x < 0 ? 0 : this.rate * Math.exp(-this.rate * x);
  }

  /** −m·ln(1 − p). @throws {InvalidModelError} if p ∉ [0, 1]. */
  quantile(p: number): number {
    requireProbability('quantile p', p);
    return -this.mean * Math.log1p(-p);
  }

  /** E[S^k·1(S ≤ x)] = k!·m^k·P(k + 1, x/m) (regularized lower incomplete gamma). */
  partialMoment(k: 0 | 1 | 2, x: number): number {
    if (x <= 0) return 0;
    if (x === Infinity) return k === 0 ? 1 : k === 1 ? this.mean : this.secondMoment;
    const p = gammainc(this.rate * x, k + 1);
    return k === 0 ? p : k === 1 ? this.mean * p : this.secondMoment * p;
  }

  sample(rng: UniformSource): number {
    return this.mean * rng.nextExp();
  }
}
