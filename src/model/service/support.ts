/**
 * Shared numerics of the service-time families: parameter checks (typed errors naming field, value and bound),
 * the standard normal law (Φ, Φ⁻¹, a sampler) and a safeguarded numerical inverse of a cdf.
 * Source: Φ(z) = ½·erfc(−z/√2), Φ⁻¹(p) = −√2·erfcinv(2p) (Abramowitz & Stegun 26.2.29); Box–Muller with
 * R² = 2·Exp(1) (Box & Muller 1958).
 */
import { erfc, erfcinv } from '../../lazy.ts';
import { InvalidModelError } from '../../errors.ts';
import type { ServiceSpec } from '../model.ts';

/**
 * Checks that `value` is a finite number > 0.
 * @throws {InvalidModelError} naming `field`, the value and the bound.
 */
export function requirePositive(field: string, value: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || !(value > 0)) {
    throw new InvalidModelError(`${field} must be a finite number > 0, got ${value}`);
  }
  return value;
}

/**
 * A law's mean E[S] = spec.mean (time units), checked: a finite number > 0.
 * @throws {InvalidModelError} "<kind> mean must be a finite number > 0, got <value>".
 */
export function requireMean(spec: ServiceSpec): number {
  return requirePositive(`${spec.kind} mean`, spec.mean);
}

/**
 * Checks that `value` is a finite number > `bound`.
 * @throws {InvalidModelError} naming `field`, the value and the bound.
 */
export function requireAbove(field: string, value: number, bound: number): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || !(value > bound)) {
    throw new InvalidModelError(`${field} must be a finite number > ${bound}, got ${value}`);
  }
  return value;
}

/**
 * Checks a probability argument p ∈ [0, 1] (quantile functions).
 * @throws {InvalidModelError} if p is NaN or outside [0, 1].
 */
export function requireProbability(field: string, p: number): number {
  if (!(p >= 0 && p <= 1)) throw new InvalidModelError(`${field} must be in [0, 1], got ${p}`);
  return p;
}

/** Standard normal cdf Φ(z) = ½·erfc(−z/√2); accurate in both tails. */
export function normalCdf(z: number): number {
  return 0.5 * erfc(-z * Math.SQRT1_2);
}

/** Standard normal quantile Φ⁻¹(p) = −√2·erfcinv(2p), p ∈ [0, 1] (±Infinity at the ends). */
export function normalQuantile(p: number): number {
  return -Math.SQRT2 * erfcinv(2 * p);
}

/** One standard normal draw from two uniforms: √(2E)·cos(2πU) with E ~ Exp(1), U ~ U[0, 1). */
export function standardNormal(rng: { nextDouble(): number; nextExp(): number }): number {
  return Math.sqrt(2 * rng.nextExp()) * Math.cos(2 * Math.PI * rng.nextDouble());
}

/**
 * Smallest x ≥ 0 with cdf(x) ≥ p for a continuous, non-decreasing cdf on [0, ∞): brackets by doubling from
 * `scale`, then bisects to relative width 1e-15 (at most ~60 + 1100 cdf calls; not for hot loops).
 * @param cdf P(S ≤ x); @param p in (0, 1); @param scale a typical value of S (the mean).
 */
export function invertCdf(cdf: (x: number) => number, p: number, scale: number): number {
  let lo = 0;
  let hi = scale;
  while (cdf(hi) < p) {
    lo = hi;
    hi *= 2;
    if (!Number.isFinite(hi)) return Infinity;
  }
  for (let i = 0; i < 1100 && hi - lo > 1e-15 * hi; i++) {
    const mid = 0.5 * (lo + hi);
    if (mid <= lo || mid >= hi) break;
    if (cdf(mid) >= p) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * Quantile of a continuous law on [0, ∞) with unbounded support by numerical inversion of its cdf (`invertCdf`):
 * 0 at p = 0, +∞ at p = 1. @param scale a typical value of S (the mean).
 * @throws {InvalidModelError} if p ∉ [0, 1].
 */
export function quantileByInversion(cdf: (x: number) => number, p: number, scale: number): number {
  requireProbability('quantile p', p);
  if (p === 0) return 0;
  if (p === 1) return Infinity;
  return invertCdf(cdf, p, scale);
}

/** E[S^j] for j = 0, 1, 2 of a law: 1, its mean, its second moment. */
export function fullMoment(law: { readonly mean: number; readonly secondMoment: number }, j: 0 | 1 | 2): number {
  return j === 0 ? 1 : j === 1 ? law.mean : law.secondMoment;
}
