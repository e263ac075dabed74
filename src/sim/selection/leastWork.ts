/**
 * LWL(d) and LPW(d) selection (theory.md §1, §4, §5): sample d servers, join one with the least true work left
 * (LWL) or the least predicted work left (LPW). Same sampling and tie rule as JSQ(d) (selection/jsqd.ts): the
 * first minimiser in draw order, a uniformly random one among the sampled minimisers because the draw sequence
 * is exchangeable. Idle servers all have work 0, so they tie and are split uniformly.
 *
 * Plain functions over the engine's typed arrays, chosen once per run.
 */
import { LPW_CLIP, LPW_STATIC } from '../core.ts';
import { fisherYatesStep } from './jsqd.ts';
import type { Rng } from '../../stats/rng.ts';

/**
 * LWL(d): least U_j(t) = (F_j − t)^+ among d sampled servers (compared as max(F_j, t), the same order).
 * @param finish F_j per server (see workload.ts). @param t current time. @param perm scratch permutation of
 *   0..n−1 (used without replacement, d ≥ 3).
 * @returns the chosen server.
 */
export function lwlSelect(rng: Rng, finish: Float64Array, t: number, n: number, d: number, without: boolean, perm: Int32Array): number {
  if (without) {
    if (d === 2) {
      const a = rng.below(n);
      let b = rng.below(n - 1);
      if (b >= a) b++;
      const fa = finish[a] > t ? finish[a] : t;
      const fb = finish[b] > t ? finish[b] : t;
      return fb < fa ? b : a;
    }
    let best = -1;
    let bestF = 0;
    for (let k = 0; k < d; k++) {
      const j = fisherYatesStep(rng, n, k, perm);
      const f = finish[j] > t ? finish[j] : t;
      if (best < 0 || f < bestF) {
        best = j;
        bestF = f;
      }
    }
    return best;
  }
  let best = rng.below(n);
  let bestF = finish[best] > t ? finish[best] : t;
  for (let k = 1; k < d; k++) {
    const j = rng.below(n);
    const f = finish[j] > t ? finish[j] : t;
    if (f < bestF) {
      best = j;
      bestF = f;
    }
  }
  return best;
}

/**
 * Per-server state behind LPW's predicted work P_j(t) = waitPred_j + v(in-service job), with
 * v = Y − a(t) ('signed'), (Y − a(t))^+ ('clip'), Y ('static'), a(t) = curA0_j + (t − segStart_j), and 0 if idle.
 * waitPred_j sums the frozen values of the waiting jobs (their age only changes in service).
 */
export class LpwState {
  readonly waitPred: Float64Array;
  readonly curY: Float64Array;
  readonly curA0: Float64Array;
  readonly segStart: Float64Array;
  constructor(n: number) {
    this.waitPred = new Float64Array(n);
    this.curY = new Float64Array(n);
    this.curA0 = new Float64Array(n);
    this.segStart = new Float64Array(n);
  }
}

/** Value of a job with prediction y and attained service a under LPW work `mode`. */
export function lpwJobValue(y: number, a: number, mode: number): number {
  if (mode === LPW_STATIC) return y;
  const x = y - a;
  return mode === LPW_CLIP ? (x > 0 ? x : 0) : x;
}

/** P_j(t): predicted work left at server j (see `LpwState`). @param len queue lengths (0 = idle). */
export function lpwWork(s: LpwState, len: Int32Array, j: number, t: number, mode: number): number {
  if (len[j] === 0) return 0;
  return s.waitPred[j] + lpwJobValue(s.curY[j], s.curA0[j] + (t - s.segStart[j]), mode);
}

/**
 * LPW(d): least P_j(t) among d sampled servers.
 * @returns the chosen server.
 */
export function lpwSelect(
  rng: Rng,
  s: LpwState,
  len: Int32Array,
  t: number,
  mode: number,
  n: number,
  d: number,
  without: boolean,
  perm: Int32Array,
): number {
  if (without) {
    let best = -1;
    let bestP = 0;
    for (let k = 0; k < d; k++) {
      const j = fisherYatesStep(rng, n, k, perm);
      const p = lpwWork(s, len, j, t, mode);
      if (best < 0 || p < bestP) {
        best = j;
        bestP = p;
      }
    }
    return best;
  }
  let best = rng.below(n);
  let bestP = lpwWork(s, len, best, t, mode);
  for (let k = 1; k < d; k++) {
    const j = rng.below(n);
    const p = lpwWork(s, len, j, t, mode);
    if (p < bestP) {
      best = j;
      bestP = p;
    }
  }
  return best;
}
