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
import type { Rng } from '../../stats/rng.ts';

const TWO_POW_32 = 4294967296;
const TWO_POW_MINUS_32 = 1 / TWO_POW_32;
/** Largest n for which both indices of a pair come from one 32-bit draw (n² ≤ 2^32). */
export const PAIR_MAX_N = 65536;

/**
 * JSQ(d) with d i.i.d. uniform draws (with replacement).
 * @param len queue lengths Q_j (read only). @param n servers (≤ 2^21). @param d choices ≥ 1.
 * @returns the chosen server index.
 */
export function jsqWithReplacement(rng: Rng, len: Int32Array, n: number, d: number): number {
  if (d === 2 && n <= PAIR_MAX_N) return jsqPair(rng, len, n, n);
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
 * JSQ(d) over d distinct servers (requires d ≤ n). d = 2: a uniform ordered pair (a uniform, b uniform on the
 * others); d ≥ 3: partial Fisher–Yates on the persistent permutation `perm` (any permutation of 0..n−1; it
 * stays one).
 * @returns the chosen server index.
 */
export function jsqWithoutReplacement(rng: Rng, len: Int32Array, n: number, d: number, perm: Int32Array): number {
  if (d === 2 && n <= PAIR_MAX_N) return jsqPair(rng, len, n, n - 1);
  return jsqFisherYates(rng, len, n, d, perm);
}

/**
 * JSQ(2) from one 32-bit draw: a uniform on [0, n), b uniform on [0, m) (m = n with replacement; m = n − 1
 * without, b skipping a), independent and exactly uniform by batched Lemire multiply-and-reject
 * (Brackett-Rozinsky, Lemire, "Batched Ranged Random Integer Generation", Softw. Pract. Exp. 2025,
 * arXiv:2408.06213): a = ⌊x·n/2^32⌋, with l the low part; b = ⌊l·m/2^32⌋, with l' the low part; reject when
 * l' < 2^32 mod (n·m). Exact in doubles since x·n, l·m < 2^53. Ties go to a, the first draw. Engines that
 * know d = 2 and n ≤ PAIR_MAX_N call it directly (m = n with replacement, n − 1 without).
 */
export function jsqPair(rng: Rng, len: Int32Array, n: number, m: number): number {
  const x = (rng.nextInt32() >>> 0) * n;
  const a = (x * TWO_POW_MINUS_32) | 0; // ⌊·⌋: the value is in [0, n), n ≤ 2^16
  const y = (x - a * TWO_POW_32) * m;
  let b = (y * TWO_POW_MINUS_32) | 0;
  if (y - b * TWO_POW_32 < n * m) return jsqPairSlow(rng, len, n, m, y - b * TWO_POW_32, a, b);
  // Both steps by arithmetic, not branches: b ≥ a and len[b] < len[a] are coin tosses for the branch predictor.
  if (m < n) b += +(b >= a);
  return a ^ ((a ^ b) & ((len[b] - len[a]) >> 31)); // b if len[b] < len[a] (queue lengths ≥ 0: no overflow), else a
}

/**
 * The rejection step of `jsqPair` (probability < n·m/2^32); kept apart so the fast path stays small (and called by the
 * race loop, which inlines that fast path): low = the low part of y, a and b the pair's first indices.
 */
export function jsqPairSlow(rng: Rng, len: Int32Array, n: number, m: number, low: number, a: number, b: number): number {
  const threshold = (TWO_POW_32 - n * m) % (n * m);
  while (low < threshold) {
    const x = (rng.nextInt32() >>> 0) * n;
    a = Math.floor(x * TWO_POW_MINUS_32);
    const y = (x - a * TWO_POW_32) * m;
    b = Math.floor(y * TWO_POW_MINUS_32);
    low = y - b * TWO_POW_32;
  }
  if (m < n && b >= a) b++;
  return len[b] < len[a] ? b : a;
}

/**
 * Step k of a partial Fisher–Yates shuffle of `perm`: swaps a uniform entry of perm[k..n) into place k.
 * Steps 0..d−1 give d distinct uniform servers in draw order (perm stays a permutation).
 * @returns the k-th sampled server, perm[k].
 */
export function fisherYatesStep(rng: Rng, n: number, k: number, perm: Int32Array): number {
  const r = k + rng.below(n - k);
  const j = perm[r];
  perm[r] = perm[k];
  perm[k] = j;
  return j;
}

/** JSQ(d) over d distinct servers by a partial Fisher–Yates shuffle of `perm` (any d ≤ n). */
export function jsqFisherYates(rng: Rng, len: Int32Array, n: number, d: number, perm: Int32Array): number {
  let best = -1;
  let bestLen = 0;
  for (let k = 0; k < d; k++) {
    const j = fisherYatesStep(rng, n, k, perm);
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
