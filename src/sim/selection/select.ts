/**
 * One entry for the event engines' selection step: the rule's SEL_* code picks JSQ(d), uniform random, LWL(d) or
 * LPW(d) (theory.md §1). Source of each rule: jsqd.ts, leastWork.ts.
 */
import type { Rng } from '../../stats/rng.ts';
import { SEL_JSQ, SEL_LPW, SEL_LWL, SEL_RANDOM } from '../core.ts';
import { jsqWithoutReplacement, jsqWithReplacement } from './jsqd.ts';
import { type LpwState, lpwSelect, lwlSelect } from './leastWork.ts';

/**
 * The server an arrival joins under selection rule `selection` (SEL_* code, read once per run by the engine, so
 * the branch taken never changes within a run): JSQ(d), uniform random, LWL(d) or LPW(d).
 * @param len queue lengths. @param finish F_j per server (LWL). @param lpw LPW state (LPW). @param perm scratch
 *   permutation of 0..n−1 (sampling without replacement).
 */
export function selectServer(
  selection: number,
  rng: Rng,
  len: Int32Array,
  finish: Float64Array,
  lpw: LpwState,
  t: number,
  lpwMode: number,
  n: number,
  d: number,
  without: boolean,
  perm: Int32Array,
): number {
  if (selection === SEL_JSQ) return without ? jsqWithoutReplacement(rng, len, n, d, perm) : jsqWithReplacement(rng, len, n, d);
  if (selection === SEL_RANDOM) return rng.below(n);
  if (selection === SEL_LWL) return lwlSelect(rng, finish, t, n, d, without, perm);
  if (selection === SEL_LPW) return lpwSelect(rng, lpw, len, t, lpwMode, n, d, without, perm);
  // unreachable: selectionCode (options.ts) gives every rule of the selection table a code handled above
  throw new Error('internal error: unknown selection code');
}
