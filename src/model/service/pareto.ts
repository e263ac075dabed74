/**
 * Classical (unbounded) Pareto service times, tail index α > 1, scale x_m set so that E[S] = m:
 *   x_m = m·(α − 1)/α,  P(S > x) = (x_m/x)^α for x ≥ x_m,  f(x) = α·x_m^α·x^{−α−1},
 *   E[S^j] = α·x_m^j/(α − j) for j < α and +∞ for j ≥ α  (so E[S²] = ∞ for α ≤ 2, SCV = 1/(α(α − 2)) for α > 2),
 *   E[S^j·1(S ≤ x)] = α·x_m^j·(1 − (x/x_m)^{j−α})/(α − j)  (α·x_m^j·ln(x/x_m) at j = α).
 * Heavy-tailed: a simulation of a quantity resting on an infinite moment has no finite mean or no CLT
 * (model/moments.ts, theory.md §8 "Heavy tails").
 * Source: theory.md §1 "Sizes"; Harchol-Balter, Performance Modeling and Design of Computer Systems, 2013, §20.
 */
import { ServiceLaw, type ServiceSpecOf, type ServiceDistribution, type UniformSource } from './distribution.ts';
import { requireAbove, requireMean, requireProbability } from './support.ts';

/** E[S^j] of the Pareto law with tail index α and scale x_m, real j: α·x_m^j/(α − j) if j < α, +∞ otherwise. */
function paretoMoment(alpha: number, lower: number, j: number): number {
  return j < alpha ? (alpha * lower ** j) / (alpha - j) : Infinity;
}

/** Pareto law; `sample` is x_m·e^{E/α} with E ~ Exp(1) (the inverse cdf at U = e^{−E}), one `rng.nextExp()`. */
export class ParetoDistribution extends ServiceLaw<'pareto'> implements ServiceDistribution {
  /** Scale (lower end of the support) x_m = mean·(α − 1)/α (time units). */
  readonly lower: number;
  /** Tail index α > 1. */
  readonly alpha: number;

  /**
   * E[S²] and Var[S]/E[S]² are +∞ for α ≤ 2.
   * @throws {InvalidModelError} if spec.mean is not a finite number > 0 or spec.alpha is not a finite number > 1.
   */
  constructor(spec: ServiceSpecOf<'pareto'>) {
    const mean = requireMean(spec);
    const alpha = requireAbove('pareto alpha (E[S] < ∞ needs α > 1)', spec.alpha, 1);
    const lower = (mean * (alpha - 1)) / alpha;
    super(spec, { mean, secondMoment: paretoMoment(alpha, lower, 2), scv: alpha > 2 ? 1 / (alpha * (alpha - 2)) : Infinity });
    this.alpha = alpha;
    this.lower = lower;
  }

  /** E[S^j] for real j: α·x_m^j/(α − j) if j < α, +∞ otherwise (j ≥ α). */
  moment(j: number): number {
    return paretoMoment(this.alpha, this.lower, j);
  }

  ccdf(x: number): number {
    return x <= this.lower ? 1 : (this.lower / x) ** this.alpha;
  }

  cdf(x: number): number {
    return x <= this.lower ? 0 : -Math.expm1(-this.alpha * Math.log(x / this.lower));
  }

  density(x: number): number {
    return x < this.lower ? 0 : (this.alpha / this.lower) * (this.lower / x) ** (this.alpha + 1);
  }

  /** x_m·(1 − p)^{−1/α} (+∞ at p = 1). @throws {InvalidModelError} if p ∉ [0, 1]. */
  quantile(p: number): number {
    requireProbability('quantile p', p);
    if (p === 1) return Infinity;
    return this.lower * Math.exp(-Math.log1p(-p) / this.alpha);
  }

  partialMoment(j: 0 | 1 | 2, x: number): number {
    if (x <= this.lower) return 0;
    if (j === 0) return this.cdf(x);
    const lnT = Math.log(x / this.lower);
    const e = j - this.alpha;
    // α·x_m^j·((x/x_m)^{j−α} − 1)/(j − α), written with expm1 so that α near j loses no digits
    return this.alpha * this.lower ** j * (e === 0 ? lnT : Math.expm1(e * lnT) / e);
  }

  sample(rng: UniformSource): number {
    return this.lower * Math.exp(rng.nextExp() / this.alpha);
  }
}
