/**
 * Two-moment phase-type fit (Tijms, A First Course in Stochastic Models, 2003; theory.md §3 "Two-moment fits"):
 * - c² < 1: k = ⌈1/c²⌉; Erlang(k − 1, μ) w.p. p, else Erlang(k, μ), p = [kc² − √(k(1 + c²) − k²c²)]/(1 + c²),
 *   μ = (k − p)/mean;
 * - c² = 1: exponential;
 * - c² > 1: H2 with balanced means, p₁ = ½(1 + √((c² − 1)/(c² + 1))), μ_i = 2p_i/mean.
 * Mean and SCV are matched exactly (up to rounding); higher moments are not, so results that use a fit should be
 * labelled "PH fit".
 */
import { InvalidModelError } from '../../errors.ts';
import type { PhaseType } from './distribution.ts';
import { erlangPhaseType } from './erlang.ts';
import { balancedH2 } from './hyperexponential.ts';
import { requirePositive } from './support.ts';

/**
 * @param mean E[S] (time units), finite > 0.
 * @param scv squared coefficient of variation Var[S]/E[S]², finite > 0 (0 would be deterministic: not PH).
 * @returns PH(α, A): for c² < 1, k phases in series (alpha[0] = 1 − p, alpha[1] = p, A bidiagonal with rate μ);
 *   for c² = 1 one phase; for c² > 1 two parallel phases (alpha = [p₁, p₂], A = diag(−μ₁, −μ₂)).
 * @throws {InvalidModelError} if mean or scv is not a finite number > 0, or 1/scv exceeds 10⁶ phases.
 */
export function phaseTypeFit(mean: number, scv: number): PhaseType {
  requirePositive('phase-type fit mean', mean);
  requirePositive('phase-type fit scv', scv);
  if (scv === 1) return { alpha: [1], A: [[-1 / mean]] };
  if (scv > 1) {
    const h = balancedH2(mean, scv);
    return {
      alpha: [h.p1, h.p2],
      A: [
        [-h.mu1, 0],
        [0, -h.mu2],
      ],
    };
  }
  const k = Math.max(2, Math.ceil(1 / scv - 1e-12));
  if (k > 1e6) throw new InvalidModelError(`phase-type fit scv must be ≥ 1e-6 (at most 10⁶ phases), got ${scv}`);
  const root = Math.sqrt(Math.max(0, k * (1 + scv) - k * k * scv));
  const p = Math.min(1, Math.max(0, (k * scv - root) / (1 + scv)));
  const rate = (k - p) / mean;
  const { alpha, A } = erlangPhaseType(k, rate); // the k phases in series; start in phase 1 w.p. p (Erlang(k − 1))
  alpha[0] = 1 - p;
  alpha[1] = p;
  return { alpha, A };
}
