/**
 * Weibull service times with shape k and mean m: scale η = m/Γ(1 + 1/k), P(S > x) = exp(−(x/η)^k),
 * E[S^j] = η^j Γ(1 + j/k); at m = 1, k = ½: η = ½, E[S²] = 6; k = 2: η = 1.128379, E[S²] = 1.2732.
 * Small shapes: Γ(1 + 2/k) overflows a double for k < 1/85 (Γ(x) > 1.8e308 past x ≈ 171.6), though
 * E[S²]/E[S]² = Γ(1 + 2/k)/Γ(1 + 1/k)² is finite (≈ 8.6e58 at k = 0.01); there the moments come from log-gamma,
 * E[S²] = m²·exp(lnΓ(1 + 2/k) − 2 lnΓ(1 + 1/k)), η = m·exp(−lnΓ(1 + 1/k)).
 * Source: theory.md §1 "Sizes".
 */
import { InvalidModelError } from '../../errors.ts';
import { gamma, gammainc, gammaln } from '../../lazy.ts';
import { ServiceLaw, type ServiceSpecOf, type LawMoments, type ServiceDistribution, type UniformSource } from './distribution.ts';
import { fullMoment, requireMean, requirePositive, requireProbability } from './support.ts';

/**
 * Scale η and moments of the Weibull law with mean m and shape k (1/k given as `invShape`): from Γ directly while it
 * is finite (k ≥ 1/85), else from log-gamma.
 * @throws {InvalidModelError} if E[S²]/E[S]² or 1/η leaves the double range (k ≲ 0.0035).
 */
function weibullMoments(mean: number, shape: number, invShape: number): LawMoments & { scale: number } {
  const g1 = gamma(1 + invShape);
  const g2 = gamma(1 + 2 * invShape);
  if (Number.isFinite(g2)) {
    // the direct form while Γ is finite (k ≥ 1/85): the same numbers as always
    const scale = mean / g1;
    const secondMoment = scale * scale * g2;
    return { mean, scale, secondMoment, scv: secondMoment / (mean * mean) - 1 };
  }
  const lnG1 = gammaln(1 + invShape);
  const ratio = Math.exp(gammaln(1 + 2 * invShape) - 2 * lnG1); // E[S²]/E[S]²
  const scale = mean * Math.exp(-lnG1);
  const secondMoment = mean * mean * ratio;
  if (!Number.isFinite(secondMoment) || !(scale > 0) || !Number.isFinite(scale ** -1)) {
    throw new InvalidModelError(
      `weibull shape ${shape} is too small: E[S²]/E[S]² = exp(${(gammaln(1 + 2 * invShape) - 2 * lnG1).toPrecision(4)}) ` +
        'or the scale leaves the double range (use k ≥ 0.004)',
    );
  }
  return { mean, scale, secondMoment, scv: ratio - 1 };
}

/** Weibull law; `sample` is η·E^{1/k} with E = `rng.nextExp()`. */
export class WeibullDistribution extends ServiceLaw<'weibull'> implements ServiceDistribution {
  /** Scale η = mean/Γ(1 + 1/k) (time units). */
  readonly scale: number;
  private readonly shape: number;
  private readonly invShape: number;

  /**
   * @throws {InvalidModelError} if spec.shape or spec.mean is not a finite number > 0, or the shape is so small
   *   (k ≲ 0.0035) that E[S²]/E[S]² or 1/η leaves the double range.
   */
  constructor(spec: ServiceSpecOf<'weibull'>) {
    const mean = requireMean(spec);
    const shape = requirePositive('weibull shape', spec.shape);
    const invShape = 1 / shape;
    const { scale, ...moments } = weibullMoments(mean, shape, invShape);
    super(spec, moments);
    this.shape = shape;
    this.invShape = invShape;
    this.scale = scale;
  }

  ccdf(x: number): number {
    return x <= 0 ? 1 : Math.exp(-((x / this.scale) ** this.shape));
  }

  cdf(x: number): number {
    return x <= 0 ? 0 : -Math.expm1(-((x / this.scale) ** this.shape));
  }

  /** (k/η)(x/η)^{k−1} exp(−(x/η)^k); Infinity at x = 0 when k < 1. */
  density(x: number): number {
    if (x < 0) return 0;
    const t = x / this.scale;
    return (this.shape / this.scale) * t ** (this.shape - 1) * Math.exp(-(t ** this.shape));
  }

  /** η·(−ln(1 − p))^{1/k}. @throws {InvalidModelError} if p ∉ [0, 1]. */
  quantile(p: number): number {
    requireProbability('quantile p', p);
    return this.scale * (-Math.log1p(-p)) ** this.invShape;
  }

  /** E[S^j·1(S ≤ x)] = η^j Γ(1 + j/k)·P(1 + j/k, (x/η)^k). */
  partialMoment(j: 0 | 1 | 2, x: number): number {
    if (x <= 0) return 0;
    const full = fullMoment(this, j);
    return x === Infinity ? full : full * gammainc((x / this.scale) ** this.shape, 1 + j * this.invShape);
  }

  sample(rng: UniformSource): number {
    return this.scale * rng.nextExp() ** this.invShape;
  }
}
