/**
 * Binomial proportions: the Wilson score interval, used to judge measured coverage of confidence intervals
 * (k of N intervals covering the truth) against the nominal level.
 * Source: E. B. Wilson, "Probable inference, the law of succession, and statistical inference", JASA 22, 1927;
 * Brown, Cai, DasGupta, "Interval estimation for a binomial proportion", Statist. Sci. 16(2), 2001.
 */
import { erfcinv } from '../lazy.ts';
import { InvalidModelError } from '../errors.ts';

/** Wilson score interval around the proportion p (k/N) for N trials at z = Φ⁻¹((1 + confidence)/2). */
function wilson(p: number, trials: number, confidence: number): [number, number] {
  if (!(confidence > 0 && confidence < 1)) throw new InvalidModelError(`confidence must be in (0, 1), got ${confidence}`);
  const z = Math.SQRT2 * erfcinv(1 - confidence);
  const z2n = (z * z) / trials;
  const centre = (p + z2n / 2) / (1 + z2n);
  const spread = (z * Math.sqrt((p * (1 - p)) / trials + z2n / (4 * trials))) / (1 + z2n);
  return [Math.max(0, centre - spread), Math.min(1, centre + spread)];
}

/**
 * Wilson score interval for a proportion p from k successes in N trials at two-sided level `confidence`:
 * (p̂ + z²/2N ± z·√(p̂(1−p̂)/N + z²/4N²)) / (1 + z²/N), z = Φ⁻¹((1 + confidence)/2).
 * @returns [low, high] ⊂ [0, 1]. @throws {InvalidModelError} unless 0 ≤ k ≤ N, N ≥ 1 integers, confidence ∈ (0, 1).
 * @example wilsonInterval(190, 200, 0.95) // ≈ [0.910, 0.973]
 */
export function wilsonInterval(k: number, trials: number, confidence = 0.95): [number, number] {
  if (!(Number.isInteger(trials) && trials >= 1 && Number.isInteger(k) && k >= 0 && k <= trials)) {
    throw new InvalidModelError(`wilsonInterval needs integers 0 ≤ k ≤ N, N ≥ 1, got k = ${k}, N = ${trials}`);
  }
  return wilson(k / trials, trials, confidence);
}

/**
 * The band where the measured coverage k/N of N independent intervals of nominal coverage q should fall: the
 * Wilson interval of level `confidence` computed at p̂ = q (a fraction outside it is evidence, at that level,
 * that the true coverage is not q).
 * @returns [low, high] fractions. @throws {InvalidModelError} unless q ∈ (0, 1), N ≥ 1 an integer.
 * @example coverageBand(0.95, 200, 0.99) // ≈ [0.894, 0.977]
 */
export function coverageBand(nominal: number, trials: number, confidence = 0.99): [number, number] {
  if (!(nominal > 0 && nominal < 1)) throw new InvalidModelError(`nominal coverage must be in (0, 1), got ${nominal}`);
  if (!(Number.isInteger(trials) && trials >= 1)) throw new InvalidModelError(`trials must be an integer ≥ 1, got ${trials}`);
  return wilson(nominal, trials, confidence);
}
