/**
 * Bounded Pareto service times on [L, H], tail index α, ratio r = H/L, density f(x) = c·α·L^α·x^{−α−1} with
 * c = 1/(1 − r^{−α}); L is set so that E[S] = m. With t = x/L ∈ [1, r]:
 *   E[S^j·1(S ≤ x)] = L^j·c·α·(t^{j−α} − 1)/(j − α), which is L^j·c·α·ln t at j = α (the α = 1 and α = 2 limits),
 * evaluated as expm1((j − α)·ln t)/(j − α) so that α near j loses no digits.
 * Source: theory.md §1 "Sizes"; Harchol-Balter, Performance Modeling and Design of Computer Systems, 2013, §20.
 */
import { ServiceLaw, type ServiceSpecOf, type ServiceDistribution, type UniformSource } from './distribution.ts';
import { requireAbove, requireMean, requirePositive, requireProbability } from './support.ts';

/** (t^e − 1)/e from ln t, with the limit ln t at e = 0. */
function powm1Over(e: number, lnT: number): number {
  return e === 0 ? lnT : Math.expm1(e * lnT) / e;
}

/** E[(S/L)^j·1(S ≤ L·e^{lnT})] for lnT ∈ [0, ln r], with `mass` = 1 − r^{−α}. */
function unitMoment(alpha: number, mass: number, j: number, lnT: number): number {
  return (alpha / mass) * powm1Over(j - alpha, lnT);
}

/** Bounded Pareto law; `sample` inverts the cdf at one `rng.nextDouble()`. */
export class BoundedParetoDistribution extends ServiceLaw<'bounded-pareto'> implements ServiceDistribution {
  /** Lower bound L (time units); the upper bound H = ratio·L is `supportMax`. */
  readonly lower: number;
  private readonly alpha: number;
  private readonly lnRatio: number;
  /** 1 − r^{−α}: the normalising mass. */
  private readonly mass: number;

  /**
   * @throws {InvalidModelError} if spec.alpha or spec.mean is not a finite number > 0, or spec.ratio is not a
   *   finite number > 1.
   */
  constructor(spec: ServiceSpecOf<'bounded-pareto'>) {
    const mean = requireMean(spec);
    const alpha = requirePositive('bounded-pareto alpha', spec.alpha);
    const ratio = requireAbove('bounded-pareto ratio', spec.ratio, 1);
    const lnRatio = Math.log(ratio);
    const mass = -Math.expm1(-alpha * lnRatio);
    const g1 = unitMoment(alpha, mass, 1, lnRatio);
    const g2 = unitMoment(alpha, mass, 2, lnRatio);
    const lower = mean / g1;
    super(spec, { mean, secondMoment: lower * lower * g2, scv: g2 / (g1 * g1) - 1, supportMax: lower * ratio });
    this.alpha = alpha;
    this.lnRatio = lnRatio;
    this.mass = mass;
    this.lower = lower;
  }

  /** ((L/x)^α − r^{−α})/(1 − r^{−α}) on [L, H] (no cancellation in the tail). */
  ccdf(x: number): number {
    if (x <= this.lower) return 1;
    if (x >= this.supportMax) return 0;
    return Math.max(0, ((this.lower / x) ** this.alpha - (1 - this.mass)) / this.mass);
  }

  /** (1 − (L/x)^α)/(1 − r^{−α}) on [L, H]. */
  cdf(x: number): number {
    if (x <= this.lower) return 0;
    if (x >= this.supportMax) return 1;
    return -Math.expm1(-this.alpha * Math.log(x / this.lower)) / this.mass;
  }

  density(x: number): number {
    if (x < this.lower || x > this.supportMax) return 0;
    return (this.alpha / (this.mass * this.lower)) * (this.lower / x) ** (this.alpha + 1);
  }

  /** L·(1 − p(1 − r^{−α}))^{−1/α}. @throws {InvalidModelError} if p ∉ [0, 1]. */
  quantile(p: number): number {
    requireProbability('quantile p', p);
    if (p === 1) return this.supportMax;
    return Math.min(this.supportMax, this.lower * Math.exp(-Math.log1p(-p * this.mass) / this.alpha));
  }

  partialMoment(j: 0 | 1 | 2, x: number): number {
    if (x <= this.lower) return 0;
    const lnT = x >= this.supportMax ? this.lnRatio : Math.log(x / this.lower);
    if (j === 0) return this.cdf(x);
    return this.lower ** j * unitMoment(this.alpha, this.mass, j, lnT);
  }

  sample(rng: UniformSource): number {
    const p = rng.nextDouble();
    return this.lower * Math.exp(-Math.log1p(-p * this.mass) / this.alpha);
  }
}
