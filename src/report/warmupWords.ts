/**
 * Words on the one warm-up rule (src/meanfield/warmup.ts, theory.md §8 "Start") that reports and the console print
 * beside a warm-up. Kept apart from the report modules so `simulate` can print them without loading the renderer.
 */
import { FIXED_POINT_FLOOR_TAUS } from '../meanfield/warmup.ts';

/**
 * Why a warm-up from the fixed point at d = 1 is exactly the rule's floor, or undefined when it is not the floor (a cap
 * took it, or another d). The rule is max(2 × the time for the refined transient V(t)/n to come within ε of V/n,
 * `FIXED_POINT_FLOOR_TAUS`·τ), and at d = 1 (random routing: independent M/M/1 servers, a linear drift) V(t) = V = 0, so
 * its first term is 0; the floor is kept for what the floor study did not reach, d = 1 and the rounding of n·s_i* at
 * small n (warmup.ts). The rule is stated here, not changed.
 * @param d the model's d. @param warmup the warm-up from the fixed point (model time units). @param tau its τ (same units).
 * @param short the console's form (`FIXED_POINT_FLOOR_AT_D1`) instead of the report's sentence.
 * @example fixedPointFloorAtD1(1, 379.7, 379.7) // 'At d = 1 V(t) = V = 0 (random routing: …), so … its floor, 1τ = 379.7 (…)'
 */
export function fixedPointFloorAtD1(d: number, warmup: number, tau: number | null | undefined, short = false): string | undefined {
  if (d !== 1 || tau === null || tau === undefined || !(Math.abs(warmup - FIXED_POINT_FLOOR_TAUS * tau) <= 1e-9 * tau + 1e-9))
    return undefined;
  if (short) return FIXED_POINT_FLOOR_AT_D1;
  return (
    `At d = 1 V(t) = V = 0 (random routing: independent M/M/1 servers), so the rule's first term is 0 and the warm-up is its ` +
    `floor, ${FIXED_POINT_FLOOR_TAUS}τ = ${warmup.toFixed(1)} (FIXED_POINT_FLOOR_TAUS in src/meanfield/warmup.ts, kept for what ` +
    `its floor study did not reach: d = 1 and the rounding of n·s_i* at small n)`
  );
}

/** The console's form of `fixedPointFloorAtD1`: "the warm-up rule's 1τ floor, V(t) being 0 at d = 1". */
export const FIXED_POINT_FLOOR_AT_D1 = `the warm-up rule's ${FIXED_POINT_FLOOR_TAUS}τ floor, V(t) being 0 at d = 1`;
