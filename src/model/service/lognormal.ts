/**
 * Log-normal service times: ln S ~ N(μ, σ²) with μ = ln m − σ²/2, so E[S] = m, E[S²] = m²e^{σ²},
 * SCV e^{σ²} − 1, E[S^j·1(S ≤ x)] = e^{jμ + j²σ²/2}·Φ((ln x − μ − jσ²)/σ).
 * Source: theory.md §1 "Sizes"; Johnson, Kotz, Balakrishnan, Continuous Univariate Distributions 1, ch. 14.
 */
import { InvalidModelError } from '../../errors.ts';
import { ServiceLaw, type ServiceSpecOf, type ServiceDistribution, type UniformSource } from './distribution.ts';
import { fullMoment, normalCdf, normalQuantile, requireMean, requirePositive, requireProbability, standardNormal } from './support.ts';

/** Log-normal law; `sample` costs one `rng.nextExp()` and one `rng.nextDouble()` (Box–Muller). */
export class LognormalDistribution extends ServiceLaw<'lognormal'> implements ServiceDistribution {
  /** μ = E[ln S] = ln(mean) − σ²/2. */
  readonly mu: number;
  private readonly sigma: number;

  /** @throws {InvalidModelError} if spec.sigma or spec.mean is not a finite number > 0, or e^{σ²} overflows (σ > 26.6). */
  constructor(spec: ServiceSpecOf<'lognormal'>) {
    const mean = requireMean(spec);
    const sigma = requirePositive('lognormal sigma', spec.sigma);
    const s2 = sigma * sigma;
    super(spec, { mean, secondMoment: mean * mean * Math.exp(s2), scv: Math.expm1(s2) });
    this.sigma = sigma;
    this.mu = Math.log(this.mean) - s2 / 2;
    if (!Number.isFinite(this.secondMoment)) {
      // no cancellation to avoid here (unlike Weibull's Γ ratio): e^{σ²} itself leaves the double range at σ > 26.6
      throw new InvalidModelError(
        `lognormal sigma ${this.sigma} is too large: E[S²] = m²·e^{σ²} exceeds the double range (use sigma ≤ 26)`,
      );
    }
  }

  ccdf(x: number): number {
    return x <= 0 ? 1 : normalCdf(-(Math.log(x) - this.mu) / this.sigma);
  }

  cdf(x: number): number {
    return x <= 0 ? 0 : normalCdf((Math.log(x) - this.mu) / this.sigma);
  }

  density(x: number): number {
    if (x <= 0) return 0;
    const z = (Math.log(x) - this.mu) / this.sigma;
    return Math.exp(-0.5 * z * z) / (x * this.sigma * Math.sqrt(2 * Math.PI));
  }

  /** exp(μ + σΦ⁻¹(p)). @throws {InvalidModelError} if p ∉ [0, 1]. */
  quantile(p: number): number {
    requireProbability('quantile p', p);
    return Math.exp(this.mu + this.sigma * normalQuantile(p));
  }

  partialMoment(j: 0 | 1 | 2, x: number): number {
    if (x <= 0) return 0;
    const full = fullMoment(this, j);
    if (x === Infinity) return full;
    return full * normalCdf((Math.log(x) - this.mu - j * this.sigma * this.sigma) / this.sigma);
  }

  sample(rng: UniformSource): number {
    return Math.exp(this.mu + this.sigma * standardNormal(rng));
  }
}
