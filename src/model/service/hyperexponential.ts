/**
 * Two-phase hyperexponential (H2) service times with balanced means (p₁/μ₁ = p₂/μ₂ = m/2) and SCV c² > 1:
 * p₁ = ½(1 + √((c² − 1)/(c² + 1))), p₂ = 1 − p₁, μ_i = 2p_i/m; E[S²] = (1 + c²)m².
 * Source: theory.md §3 "Two-moment fits" (Tijms 2003).
 */
import { gammainc } from '../../lazy.ts';
import { ServiceLaw, type ServiceSpecOf, type PhaseType, type ServiceDistribution, type UniformSource } from './distribution.ts';
import { fullMoment, quantileByInversion, requireAbove, requireMean } from './support.ts';

/** Parameters of the balanced-means H2: branch probabilities p1, p2 and phase rates mu1, mu2 (per time unit). */
export interface BalancedH2 {
  readonly p1: number;
  readonly p2: number;
  readonly mu1: number;
  readonly mu2: number;
}

/**
 * Balanced-means H2 with mean `mean` and SCV `scv` ≥ 1 (scv = 1 gives p₁ = p₂ = ½, μ₁ = μ₂ = 1/mean).
 * Source: theory.md §3 (Tijms 2003).
 */
export function balancedH2(mean: number, scv: number): BalancedH2 {
  const p1 = 0.5 * (1 + Math.sqrt((scv - 1) / (scv + 1)));
  const p2 = 1 - p1;
  return { p1, p2, mu1: (2 * p1) / mean, mu2: (2 * p2) / mean };
}

/** Balanced-means H2 law; `sample` costs one `rng.nextDouble()` and one `rng.nextExp()`. */
export class HyperexponentialDistribution extends ServiceLaw<'hyperexponential'> implements ServiceDistribution {
  readonly phaseType: PhaseType;
  /** Branch probabilities and phase rates. */
  private readonly h2: BalancedH2;

  /** @throws {InvalidModelError} if spec.scv is not a finite number > 1 or spec.mean is not a finite number > 0. */
  constructor(spec: ServiceSpecOf<'hyperexponential'>) {
    const mean = requireMean(spec);
    const scv = requireAbove('hyperexponential scv', spec.scv, 1);
    super(spec, { mean, secondMoment: (1 + scv) * mean * mean, scv });
    const h = balancedH2(this.mean, this.scv);
    this.h2 = h;
    this.phaseType = {
      alpha: [h.p1, h.p2],
      A: [
        [-h.mu1, 0],
        [0, -h.mu2],
      ],
    };
  }

  ccdf(x: number): number {
    return x <= 0 ? 1 : this.h2.p1 * Math.exp(-this.h2.mu1 * x) + this.h2.p2 * Math.exp(-this.h2.mu2 * x);
  }

  cdf(x: number): number {
    return x <= 0 ? 0 : -(this.h2.p1 * Math.expm1(-this.h2.mu1 * x) + this.h2.p2 * Math.expm1(-this.h2.mu2 * x));
  }

  density(x: number): number {
    return x < 0 ? 0 : this.h2.p1 * this.h2.mu1 * Math.exp(-this.h2.mu1 * x) + this.h2.p2 * this.h2.mu2 * Math.exp(-this.h2.mu2 * x);
  }

  /** Numerical inverse of the cdf (bisection). @throws {InvalidModelError} if p ∉ [0, 1]. */
  quantile(p: number): number {
    return quantileByInversion((x) => this.cdf(x), p, this.mean);
  }

  /** Σ_i p_i·j!/μ_i^j·P(j + 1, μ_i x) (exponential branches). */
  partialMoment(j: 0 | 1 | 2, x: number): number {
    if (x <= 0) return 0;
    if (x === Infinity) return fullMoment(this, j);
    const f = j === 0 ? 1 : j;
    const b1 = (this.h2.p1 * f) / this.h2.mu1 ** j;
    const b2 = (this.h2.p2 * f) / this.h2.mu2 ** j;
    return b1 * gammainc(this.h2.mu1 * x, j + 1) + b2 * gammainc(this.h2.mu2 * x, j + 1);
  }

  sample(rng: UniformSource): number {
    const rate = rng.nextDouble() < this.h2.p1 ? this.h2.mu1 : this.h2.mu2;
    return rng.nextExp() / rate;
  }
}
