/**
 * Hypothesis tests for judging agreement (theory.md §8 "Judging agreement"): the two-sided Student-t p-value of a
 * statistic and Holm's step-down adjustment of a family of p-values (family-wise error rate, any dependence).
 * Sources: Student t law (Abramowitz & Stegun 26.7); Holm, "A simple sequentially rejective multiple test
 * procedure", Scand. J. Statist. 6 (1979) 65–70.
 */
import { tCdf } from '../lazy.ts';
import { InvalidModelError } from '../errors.ts';

/**
 * Two-sided p-value P(|T_ν| ≥ |t|) of a Student-t statistic.
 * @param t the statistic (dimensionless; ±∞ gives 0, NaN gives NaN). @param degreesOfFreedom ν > 0 (∞: normal law).
 * @throws {InvalidModelError} when ν ≤ 0 or NaN.
 * @example studentTwoSidedPValue(2.262157, 9) // ≈ 0.05
 */
export function studentTwoSidedPValue(t: number, degreesOfFreedom: number): number {
  if (!(degreesOfFreedom > 0)) throw new InvalidModelError(`Student t needs degrees of freedom > 0, got ${degreesOfFreedom}`);
  if (Number.isNaN(t)) return Number.NaN;
  if (!Number.isFinite(t)) return 0;
  const nu = Number.isFinite(degreesOfFreedom) ? degreesOfFreedom : 1e12;
  // the lower tail at −|t| keeps the small p-values accurate (1 − cdf would cancel)
  return Math.min(1, 2 * tCdf(-Math.abs(t), nu));
}

/**
 * Holm's step-down adjusted p-values: with p₍₁₎ ≤ … ≤ p₍m₎, p̃₍k₎ = max_{j ≤ k} min(1, (m − j + 1)·p₍j₎). Rejecting
 * every hypothesis with p̃ < α controls the family-wise error rate at α under any dependence.
 * @param pValues the family's p-values in [0, 1], any order (NaN not allowed); the result keeps their order.
 * @throws {InvalidModelError} on a value outside [0, 1] or NaN.
 * @example holmAdjust([0.01, 0.04, 0.03]) // [0.03, 0.06, 0.06]
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  for (const p of pValues) if (!(p >= 0 && p <= 1)) throw new InvalidModelError(`a p-value must be in [0, 1], got ${p}`);
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], k) => {
    running = Math.max(running, Math.min(1, (m - k) * p));
    adjusted[i] = running;
  });
  return adjusted;
}
