/**
 * Empirical quantiles of a sample in typed arrays, in O(m) without a sort. Definition: R's type 7 / d3.quantile,
 * linear interpolation between order statistics x_(⌊h⌋) and x_(⌊h⌋+1) with h = (m − 1)p (0-based).
 *
 * Two exact methods, each over one element type only (monomorphic element access, which V8 compiles to plain loads):
 * - float32 samples (the simulator's response times, one run or pooled over runs): a two-level radix selection on
 *   the 32-bit keys of the floats. Every order statistic that any p needs comes out of one counting pass over the
 *   high 16 bits and one pass that picks out the few buckets holding them; the low 16 bits of those are counted
 *   per bucket. The sample is read, never reordered; a pooled sample need not be copied into one array.
 * - float64 samples (trace replays, per-job records): Hoare's quickselect with a median-of-three pivot, the
 *   probabilities taken in increasing order so that each selection runs on the part right of the previous one.
 * Both return the same order statistics as a sort; values must not be NaN (−0 counts as below +0).
 * Source: radix selection, e.g. Alabi et al., "Fast k-selection algorithms for graphics processing units",
 * ACM JEA 17, 2012; float keys ordered as unsigned integers, Herf, "Radix tricks", 2001.
 */
import { InvalidModelError } from '../errors.ts';

/**
 * The name of the p-quantile as a percentile, "p" and 100·p written exactly: the shortest decimal of p that reads back
 * as p (`String(p)`) with its point moved two places, so distinct levels get distinct names (0.999999999 →
 * "p99.9999999", never "p100" as 6 significant digits gave; 0.5 → "p50", 0.001 → "p0.1", 1e-7 → "p0.00001").
 * @param p level in (0, 1). @returns the name. @throws {InvalidModelError} when p ∉ (0, 1).
 * @example percentileName(0.999) // "p99.9"
 */
export function percentileName(p: number): string {
  if (!(p > 0 && p < 1)) throw new InvalidModelError(`a percentile needs a level in (0, 1), got ${p}`);
  const [mantissa, exponent = '0'] = String(p).split('e');
  const [whole, fraction = ''] = mantissa.split('.');
  // 100·p = D × 10^k with D the integer of the mantissa's digits
  const digits = (whole + fraction).replace(/^0+/, '');
  const k = Number(exponent) + 2 - fraction.length;
  if (k >= 0) return `p${digits}${'0'.repeat(k)}`;
  const point = digits.length + k;
  return point > 0 ? `p${digits.slice(0, point)}.${digits.slice(point)}` : `p0.${'0'.repeat(-point)}${digits}`;
}

/** Rearranges a[lo..hi] so that a[k] is its (k − lo)-th smallest, smaller ones left, larger right. */
function select(a: Float64Array, lo: number, hi: number, k: number): void {
  while (hi > lo) {
    const mid = (lo + hi) >>> 1;
    // median of three to a[mid]
    if (a[mid] < a[lo]) swap(a, mid, lo);
    if (a[hi] < a[lo]) swap(a, hi, lo);
    if (a[hi] < a[mid]) swap(a, hi, mid);
    const pivot = a[mid];
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        swap(a, i, j);
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

function swap(a: Float64Array, i: number, j: number): void {
  const x = a[i];
  a[i] = a[j];
  a[j] = x;
}

/** Checks count and ps; returns the 0-based ranks ⌊h⌋ and ⌊h⌋ + 1 (when inside) every p needs, increasing, distinct. */
function ranksNeeded(count: number, length: number, ps: readonly number[]): number[] {
  if (!(count >= 1 && count <= length)) throw new InvalidModelError(`quantiles need 1 ≤ count ≤ ${length}, got ${count}`);
  const ranks: number[] = [];
  for (const p of ps) {
    if (!(p >= 0 && p <= 1)) throw new InvalidModelError(`quantile probability must be in [0, 1], got ${p}`);
    const k = Math.floor((count - 1) * p);
    ranks.push(k);
    if (k + 1 < count) ranks.push(k + 1);
  }
  return [...new Set(ranks)].sort((a, b) => a - b);
}

/** Type-7 interpolation of each p from the order statistics `at(rank)`. */
function interpolate(count: number, ps: readonly number[], at: (rank: number) => number): number[] {
  return ps.map((p) => {
    const h = (count - 1) * p;
    const k = Math.floor(h);
    const lo = at(k);
    if (k + 1 >= count || h === k) return lo;
    return lo + (h - k) * (at(k + 1) - lo);
  });
}

/**
 * Type-7 quantiles of values[0..count) for each p. A Float64Array prefix is reordered in place; a Float32Array is
 * only read.
 * @param values sample (first `count` entries are used; NaN not allowed). @param ps probabilities in [0, 1].
 * @returns one quantile per p, in the order of `ps`.
 * @throws {InvalidModelError} if count < 1 or > values.length, or a p is outside [0, 1].
 * @example quantiles(Float64Array.of(3, 1, 2, 4), 4, [0.5]) // [2.5]
 */
export function quantiles(values: Float32Array | Float64Array, count: number, ps: readonly number[]): number[] {
  if (values instanceof Float32Array) {
    ranksNeeded(count, values.length, ps); // the checks, with this message
    return pooledQuantiles([values.subarray(0, count)], ps);
  }
  const ranks = ranksNeeded(count, values.length, ps);
  // Increasing ranks: after select(k) everything right of k is ≥ a[k], so the next rank is searched there only.
  let lo = 0;
  for (const k of ranks) {
    select(values, lo, count - 1, k);
    lo = k + 1;
  }
  return interpolate(count, ps, (k) => values[k]);
}

/** Buckets per radix level (16 bits of the 32-bit key). */
export const RADIX = 1 << 16;

/**
 * Scratch of `pooledQuantiles` (marked buckets, bucket starts, fill cursors, low-16-bit counts and their top-8-bit
 * sums), one set per thread, cleared on each use: four fresh 2^16-entry arrays per call (~0.8 MB, once per replication and once per run) were
 * external memory for V8 to answer with major GCs in a simulation worker (see sim/buffers.ts). Nothing here is
 * returned or kept between calls, and no call re-enters.
 */
const scratch = {
  /** All zeros between calls (each call marks its buckets, then unmarks them). */
  wanted: new Uint8Array(RADIX),
  start: new Int32Array(RADIX),
  fill: new Int32Array(RADIX),
  /** All zeros between calls (each call zeroes the entries it counted). */
  low: new Int32Array(RADIX),
  coarse: new Int32Array(256),
};

/**
 * Order-preserving key of a float32 given by its bits (as int32): flip all bits of negatives, only the sign bit of
 * the others, so that unsigned comparison of keys is numeric comparison of the floats (−0 just below +0).
 */
function floatKey(bits: number): number {
  return (bits ^ ((bits >> 31) | 0x80000000)) >>> 0;
}

/** The float32 whose `floatKey` is `key`. */
function keyFloat(key: number): number {
  const bits = new Int32Array(1);
  bits[0] = key & 0x80000000 ? key ^ 0x80000000 : ~key;
  return new Float32Array(bits.buffer)[0];
}

/**
 * Level 1 of `pooledQuantiles`: how many of the floats in `parts` have each value of the high 16 bits of their key
 * (2^16 counts). Histograms of disjoint samples add up to the histogram of their concatenation, so a pooled
 * selection can reuse the counts of its parts (`pooledQuantiles`' `high`).
 * @param parts float32 samples (every entry counted). @param high counts to add to (default: fresh zeros).
 * @returns `high`.
 */
export function radixHistogram(parts: readonly Float32Array[], high: Int32Array = new Int32Array(RADIX)): Int32Array {
  for (const part of parts) countHigh(new Int32Array(part.buffer, part.byteOffset, part.length), high);
  return high;
}

/**
 * Type-7 quantiles of the concatenation of `parts` (float32 samples, e.g. one per replication) for each p, without
 * copying them into one array and without reordering them: a two-level radix selection (see the module note).
 * O(total + 2^16 · ranks) time, O(2^16) extra memory.
 * @param parts samples, every entry used (pass subarrays for prefixes; NaN not allowed). @param ps probabilities in [0, 1].
 * @param high the `radixHistogram` of `parts` when the caller has it (the counting pass is then skipped; it is read,
 *   not changed).
 * @returns one quantile per p, in the order of `ps`.
 * @throws {InvalidModelError} if the parts hold no value, or a p is outside [0, 1].
 * @example pooledQuantiles([Float32Array.of(3, 1), Float32Array.of(2, 4)], [0.5]) // [2.5]
 */
export function pooledQuantiles(parts: readonly Float32Array[], ps: readonly number[], high: Int32Array = radixHistogram(parts)): number[] {
  let count = 0;
  for (const part of parts) count += part.length;
  const ranks = ranksNeeded(count, count, ps);
  // The bucket of each rank and its rank inside the bucket; mark those buckets.
  const bucketOf = new Int32Array(ranks.length);
  const within = new Float64Array(ranks.length);
  const { wanted, start, fill } = scratch;
  locateRanks(ranks, high, bucketOf, within);
  // Level 2: gather the keys of the marked buckets (few: at most two per p), grouped by bucket. Only the marked
  // entries of `wanted`, `start` and `fill` are set and read; `wanted` is all zeros again on return.
  let keys: Uint32Array;
  try {
    keys = new Uint32Array(bucketStarts(bucketOf, high, wanted, start, fill));
    for (const part of parts) gatherKeys(new Int32Array(part.buffer, part.byteOffset, part.length), wanted, fill, keys);
  } finally {
    for (let i = 0; i < bucketOf.length; i++) wanted[bucketOf[i]] = 0;
  }
  // In each marked bucket, count its low 16 bits (and their top 8, `coarse`) and walk to the rank: through the 256
  // coarse counts, then the 256 fine ones of that coarse bin. `low` is all zeros between buckets: a bucket's entries
  // are zeroed after use (its size in steps, not 2^16; the ranks of e.g. a 55-point ccdf mark ~100 buckets).
  const value = new Map<number, number>();
  const { low, coarse } = scratch;
  let counted = -1;
  for (let i = 0; i < ranks.length; i++) {
    const c = bucketOf[i];
    if (c !== counted) {
      if (counted >= 0) clearLow(keys, start[counted], start[counted] + high[counted], low);
      countLow(keys, start[c], start[c] + high[c], low, coarse);
      counted = c;
    }
    value.set(ranks[i], keyFloat(((c << 16) | lowRank(low, coarse, within[i])) >>> 0));
  }
  if (counted >= 0) clearLow(keys, start[counted], start[counted] + high[counted], low);
  return interpolate(count, ps, (k) => value.get(k) as number);
}

/**
 * For each threshold t[j] and each part, the fraction of the part's values ≤ t[j] (`x <= t`, the float32 compared as
 * the double it is): what the cdf-inversion sectioning interval needs at each pooled quantile (stats/tInterval.ts
 * `cdfSectioningInterval`). One pass over each part for all the thresholds, not one per threshold.
 * @param parts float32 samples, each non-empty (every entry counted). @param thresholds values to count at (no NaN).
 * @returns fractions[j][i] of part i at thresholds[j], each in [0, 1].
 * @example fractionsAtMost([Float32Array.of(1, 2), Float32Array.of(3, 4)], [2.5]) // [[1, 0]]
 */
export function fractionsAtMost(parts: readonly Float32Array[], thresholds: readonly number[]): number[][] {
  const t = Float64Array.from(thresholds);
  const below = new Float64Array(t.length);
  const out: number[][] = thresholds.map(() => []);
  for (const part of parts) {
    countAtMost(part, t, below);
    for (let j = 0; j < t.length; j++) out[j].push(below[j] / part.length);
  }
  return out;
}

/**
 * below[j] = number of values of `part` ≤ t[j]. `x <= t` on random data is a branch the processor mispredicts about
 * half the time at a median; on the floats' bits it is arithmetic: for x ≥ +0 (int32 bits ≥ 0, NaN above +∞) and
 * t ≥ 0, x ≤ t ⇔ bits(x) ≤ bits(T), T the largest float32 ≤ t, so the sign of bits(T) − bits(x) counts the values
 * above t. A part with a value of sign bit set (negative, −0) is counted again by the comparisons themselves.
 */
function countAtMost(part: Float32Array, t: Float64Array, below: Float64Array): void {
  const bits = new Int32Array(part.buffer, part.byteOffset, part.length);
  // the simulator's p50, p95, p99: three counters in registers (a loop of its own: see the note above locateRanks)
  if (
    t.length === 3 &&
    t.every((x) => !Number.isNaN(x)) &&
    countAbove3(bits, thresholdBits(t[0]), thresholdBits(t[1]), thresholdBits(t[2]), below)
  ) {
    for (let j = 0; j < 3; j++) below[j] = bits.length - below[j];
    return;
  }
  below.fill(0);
  for (let i = 0; i < part.length; i++) {
    const x = part[i];
    for (let j = 0; j < t.length; j++) if (x <= t[j]) below[j]++;
  }
}

/**
 * above[0..2] = number of floats (by their bits) above the float32 of bits a, b, c (each ≥ −1), when no float has its
 * sign bit set; returns false (and leaves `above` unset) when one has.
 */
function countAbove3(bits: Int32Array, a: number, b: number, c: number, above: Float64Array): boolean {
  let na = 0;
  let nb = 0;
  let nc = 0;
  let signs = 0;
  for (let i = 0; i < bits.length; i++) {
    const x = bits[i];
    signs |= x;
    na += (a - x) >>> 31;
    nb += (b - x) >>> 31;
    nc += (c - x) >>> 31;
  }
  if (signs < 0) return false;
  above[0] = na;
  above[1] = nb;
  above[2] = nc;
  return true;
}

/** The int32 bits of the largest float32 ≤ t, for t not NaN; −1 (below every x ≥ +0) when t < 0. */
function thresholdBits(t: number): number {
  if (t < 0) return -1;
  const f = new Float32Array(1);
  const b = new Int32Array(f.buffer);
  f[0] = t + 0; // −0 as +0: x ≤ −0 ⇔ x ≤ +0
  if (f[0] > t) b[0]--; // rounded up: the float32 just below (f[0] > t ≥ 0, so b[0] ≥ 1)
  return b[0];
}

/*
 * `pooledQuantiles`' loops are functions of their own: with them in its body, V8 (Node 20) compiled the body on stack
 * replacement in a long loop of the first call, before the later ones had run, and kept entering that code on later
 * calls only to deoptimise at them (19 compiles of the function in one default report).
 */

/** For each rank (increasing) the high-16-bit bucket holding it (non-decreasing) and its rank inside the bucket. */
function locateRanks(ranks: readonly number[], high: Int32Array, bucketOf: Int32Array, within: Float64Array): void {
  let below = 0;
  let b = 0;
  for (let i = 0; i < ranks.length; i++) {
    const r = ranks[i];
    while (below + high[b] <= r) below += high[b++];
    bucketOf[i] = b;
    within[i] = r - below;
  }
}

/**
 * Marks the buckets of the ranks (`bucketOf`, non-decreasing) in `wanted` and sets start[c] and fill[c] of each to
 * where its keys go when the marked buckets' keys are laid out in bucket order. @returns their total.
 */
function bucketStarts(bucketOf: Int32Array, high: Int32Array, wanted: Uint8Array, start: Int32Array, fill: Int32Array): number {
  let gathered = 0;
  for (let i = 0; i < bucketOf.length; i++) {
    const c = bucketOf[i];
    if (wanted[c] !== 0) continue;
    wanted[c] = 1;
    start[c] = gathered;
    fill[c] = gathered;
    gathered += high[c];
  }
  return gathered;
}

/** Counts the low 16 bits of keys[from..to) into `low` (all zeros before) and their top 8 bits into `coarse` (zeroed here). */
function countLow(keys: Uint32Array, from: number, to: number, low: Int32Array, coarse: Int32Array): void {
  coarse.fill(0);
  for (let k = from; k < to; k++) {
    const l = keys[k] & 0xffff;
    low[l]++;
    coarse[l >>> 8]++;
  }
}

/** Zeroes the entries of `low` that keys[from..to) counted. */
function clearLow(keys: Uint32Array, from: number, to: number, low: Int32Array): void {
  for (let k = from; k < to; k++) low[keys[k] & 0xffff] = 0;
}

/** The low 16 bits of the key of rank `within` in a counted bucket: through the coarse counts, then the fine ones. */
function lowRank(low: Int32Array, coarse: Int32Array, within: number): number {
  let seen = 0;
  let bin = 0;
  while (seen + coarse[bin] <= within) seen += coarse[bin++];
  let l = bin << 8;
  while (seen + low[l] <= within) seen += low[l++];
  return l;
}

/** Adds to high[h] the number of floats (given by their bits) whose key has high 16 bits h. */
function countHigh(bits: Int32Array, high: Int32Array): void {
  for (let i = 0; i < bits.length; i++) high[floatKey(bits[i]) >>> 16]++;
}

/** Appends the key of every float whose high 16 bits are a wanted bucket at fill[bucket]++. */
function gatherKeys(bits: Int32Array, wanted: Uint8Array, fill: Int32Array, keys: Uint32Array): void {
  for (let i = 0; i < bits.length; i++) {
    const key = floatKey(bits[i]);
    const c = key >>> 16;
    if (wanted[c] !== 0) keys[fill[c]++] = key;
  }
}
