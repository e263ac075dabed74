/**
 * JSQ(d) = SQ(d) selection: sample d servers, join one with the fewest jobs. Source: theory.md §1–2.
 *
 * Ties: the first minimiser in sampling order wins. Because the sequence of sampled servers is exchangeable
 * (i.i.d. draws, or a uniformly random ordered sample without replacement), the first minimiser is a uniformly
 * random one among the sampled minimisers (counted by draw), never a lowest-index rule, and it costs no extra
 * random draw. With replacement a server drawn twice counts twice; for this model the occupancy process does not
 * depend on how ties are split. Same rule as ../shared/bench/reference-sim.c.
 *
 * Selection rules are plain functions over the engine's typed arrays, chosen once per run; the engine calls one
 * statically, so the call is monomorphic and inlined.
 */
import type { Rng } from '../rng.ts';

/**
 * JSQ(d) with d i.i.d. uniform draws (with replacement).
 * @param len queue lengths Q_j (read only). @param n servers (≤ 2^21). @param d choices ≥ 1.
 * @returns the chosen server index.
 */
export function jsqWithReplacement(rng: Rng, len: Int32Array, n: number, d: number): number {
  let best = rng.below(n);
  let bestLen = len[best];
  for (let k = 1; k < d; k++) {
    const j = rng.below(n);
    const l = len[j];
    if (l < bestLen) {
      best = j;
      bestLen = l;
    }
  }
  return best;
}

/**
 * JSQ(d) over d distinct servers by a partial Fisher–Yates shuffle of the persistent permutation `perm`
 * (any permutation of 0..n−1; it stays one). Requires d ≤ n.
 * @returns the chosen server index.
 */
export function jsqWithoutReplacement(rng: Rng, len: Int32Array, n: number, d: number, perm: Int32Array): number {
  let best = -1;
  let bestLen = 0;
  for (let k = 0; k < d; k++) {
    const r = k + rng.below(n - k);
    const j = perm[r];
    perm[r] = perm[k];
    perm[k] = j;
    const l = len[j];
    if (best < 0 || l < bestLen) {
      best = j;
      bestLen = l;
    }
  }
  return best;
}

/** The identity permutation 0..n−1, scratch space for `jsqWithoutReplacement`. */
export function identityPermutation(n: number): Int32Array {
  const perm = new Int32Array(n);
  for (let i = 0; i < n; i++) perm[i] = i;
  return perm;
}
