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
  /** The same for a part's own buckets (`pooledQuantilesAndFractions`' `own`), marked with bit 2 of `wanted`. */
  ownStart: new Int32Array(RADIX),
  ownFill: new Int32Array(RADIX),
  /** Per part: its values in buckets below each of the (up to 3) fraction buckets (`gatherKeysAndCount`). */
  below: new Float64Array(3),
  /** Write cursors of `groupByHighBits` (set before use). */
  cursor: new Int32Array(RADIX),
  /** Counts of the two bytes of a bucket's low 16 bits (`pickRanks`), zeroed before each count. */
  coarse: new Int32Array(256),
  fine: new Int32Array(256),
};

/**
 * Order-preserving key of a float32 given by its bits (as int32): flip all bits of negatives, only the sign bit of
 * the others, so that unsigned comparison of keys is numeric comparison of the floats (−0 just below +0).
 */
function floatKey(bits: number): number {
  return (bits ^ ((bits >> 31) | 0x80000000)) >>> 0;
}

/** The bits (as int32) of the float32 whose `floatKey` is `key`. */
function keyBits(key: number): number {
  return key & 0x80000000 ? key ^ 0x80000000 : ~key;
}

/** The float32 whose `floatKey` is `key`. */
function keyFloat(key: number): number {
  const bits = new Int32Array(1);
  bits[0] = keyBits(key);
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
 * @param parts samples, every entry used (pass subarrays for prefixes; NaN not allowed): float32 values, or the low
 *   bits of a sample grouped by bucket (`groupByHighBits`) with its `bucketSpan` in `grouped`.
 * @param ps probabilities in [0, 1].
 * @param high the `radixHistogram` of `parts` when the caller has it (the counting pass is then skipped; it is read,
 *   not changed).
 * @param grouped per part, the `bucketSpan` of a grouped part (undefined for float32 values).
 * @returns one quantile per p, in the order of `ps`.
 * @throws {InvalidModelError} if the parts hold no value, a p is outside [0, 1], or a grouped part has no span.
 * @example pooledQuantiles([Float32Array.of(3, 1), Float32Array.of(2, 4)], [0.5]) // [2.5]
 */
export function pooledQuantiles(
  parts: readonly (Float32Array | Uint16Array)[],
  ps: readonly number[],
  high?: Int32Array,
  grouped: readonly (BucketSpan | undefined)[] = [],
): number[] {
  return pooledQuantilesAndFractions(parts, ps, 0, high, [], grouped).quantiles;
}

/**
 * The nonzero part of a `radixHistogram`: counts[c − from] values in bucket c for c in [from, from + counts.length),
 * none elsewhere. A few kB where the histogram is 256 kB (a run's response times span a few hundred buckets): what a
 * grouped sample (`groupByHighBits`) carries to the thread that pools it.
 */
export interface BucketSpan {
  readonly from: number;
  readonly counts: Int32Array;
}

/** The `BucketSpan` of a histogram (a copy; from 0 with no counts when it counts nothing). */
export function bucketSpan(high: Int32Array): BucketSpan {
  let from = 0;
  while (from < high.length && high[from] === 0) from++;
  let to = high.length;
  while (to > from && high[to - 1] === 0) to--;
  return from === to ? { from: 0, counts: new Int32Array(0) } : { from, counts: high.slice(from, to) };
}

/** Adds a span's counts to the histogram `high` (2^16 entries). */
export function addBucketSpan(high: Int32Array, span: BucketSpan): void {
  const { from, counts } = span;
  for (let i = 0; i < counts.length; i++) high[from + i] += counts[i];
}

/**
 * A float32 sample grouped by bucket, in half its bytes: the low 16 bits of its values' keys, reordered stably by the
 * high 16 bits (a counting sort on the sample's `radixHistogram`, one pass), so that each bucket's values lie in one
 * run, the buckets in increasing order; the bucket of each run is known from the sample's `bucketSpan`, so a value's
 * key is (bucket << 16) | low, exactly. A pooled selection over grouped parts (`pooledQuantilesAndFractions`'
 * `grouped`) then copies the runs of the few buckets it needs instead of reading every value: the pass over the pooled
 * sample moves into the threads that made the parts, one per part. Half the bytes of the float32 values: a part sent
 * to the thread that pools it is external memory there, and V8 answers every few MB of it with a full mark of that
 * thread's heap (`npm start`'s main thread: ~54 of them for ~1.35 GB received). Quantiles and fractions of a sample do
 * not depend on its order; `groupedValues` gives the floats back.
 * @param values the sample (every entry; NaN not allowed). @param high its `radixHistogram` (read, not changed).
 * @param out receives the grouped low 16 bits (length ≥ values.length).
 * @returns `out` (its first values.length entries).
 * @throws {InvalidModelError} if `out` is too short or shares `values`' buffer, or `high` does not count values.length
 *   values.
 */
export function groupByHighBits(values: Float32Array, high: Int32Array, out: Uint16Array): Uint16Array {
  if ((out.buffer as ArrayBufferLike) === values.buffer || out.length < values.length)
    throw new InvalidModelError(`groupByHighBits needs a separate output of ≥ ${values.length} entries, got ${out.length}`);
  const cursor = scratch.cursor;
  let total = 0;
  for (let c = 0; c < RADIX; c++) {
    cursor[c] = total;
    total += high[c];
  }
  if (total !== values.length) throw new InvalidModelError(`the histogram counts ${total} values, the sample holds ${values.length}`);
  scatterByHighBits(new Int32Array(values.buffer, values.byteOffset, values.length), out, cursor);
  return out;
}

/**
 * The float32 values of a sample grouped by bucket (`groupByHighBits`' low bits `lows`, `span` its `bucketSpan`), in
 * the grouped order: bucket by bucket, each in the order the sample held them.
 * @throws {InvalidModelError} if the span does not count lows.length values.
 */
export function groupedValues(lows: Uint16Array, span: BucketSpan): Float32Array {
  const { from, counts } = span;
  let total = 0;
  for (let i = 0; i < counts.length; i++) total += counts[i];
  if (total !== lows.length) throw new InvalidModelError(`the span counts ${total} values, the grouped sample holds ${lows.length}`);
  const keys = new Uint32Array(lows.length);
  for (let i = 0, at = 0; i < counts.length; i++) at = copyKeys(lows, at, at + counts[i], from + i, keys, at);
  const bits = new Int32Array(keys.length);
  for (let k = 0; k < keys.length; k++) bits[k] = keyBits(keys[k]);
  return new Float32Array(bits.buffer);
}

/**
 * Where the type-7 quantiles of `ps` of one float32 sample lie in its `radixHistogram`: the ranks they need, the
 * high-16-bit bucket of each, its rank inside the bucket and the bucket's size. Plain data (it crosses threads with a
 * simulation unit): `pooledQuantilesAndFractions` picks those values out in the pass it makes over the pooled sample.
 */
export interface QuantileLocation {
  /** Values in the sample. */
  readonly count: number;
  readonly ps: readonly number[];
  /** 0-based ranks ⌊h⌋ and ⌊h⌋ + 1 every p needs, increasing. */
  readonly ranks: readonly number[];
  /** High 16 bits of each rank's key (non-decreasing), its rank inside that bucket, and the bucket's size. */
  readonly bucket: Int32Array;
  readonly within: Float64Array;
  readonly size: Int32Array;
}

/**
 * Locates the type-7 quantiles of `ps` of a float32 sample of `count` values in its `radixHistogram` `high`.
 * @returns the location, for `pooledQuantilesAndFractions`' `own`. @throws {InvalidModelError} if count < 1 or a p is
 * outside [0, 1].
 */
export function locateQuantiles(count: number, ps: readonly number[], high: Int32Array): QuantileLocation {
  const ranks = ranksNeeded(count, count, ps);
  const bucket = new Int32Array(ranks.length);
  const within = new Float64Array(ranks.length);
  locateRanks(ranks, high, bucket, within);
  return { count, ps: [...ps], ranks, bucket, within, size: Int32Array.from(bucket, (c) => high[c]) };
}

/**
 * In one pass over each part (no copy, no reordering): the type-7 quantiles of the concatenation of `parts` for each
 * p; each part's fraction of values ≤ each of the first `atMost` of those quantiles (what `fractionsAtMost(parts,
 * quantiles.slice(0, atMost))` gives, the same numbers); and, for each part with a location in `own`, the quantiles of
 * that part alone (what `pooledQuantiles([part], own[i].ps)` gives). The simulator's summaries of a run: pooled
 * percentiles and ccdf, the fractions their sectioning intervals need, and each replication's own percentiles, in one
 * pass where these took three (up to 4.5 % of a FIFO run's instructions).
 * How the fractions come out of the selection: a part's values ≤ t are those whose key is ≤ the key of T, the largest
 * float32 ≤ t; t, a pooled quantile, lies between the order statistics x_(⌊h⌋) and x_(⌊h⌋+1), whose buckets the pass
 * gathers, and no pooled value lies strictly between those two. So the count is the part's values in buckets below
 * x_(⌊h⌋)'s (three counters the pass keeps, arithmetic, no branch) plus its keys ≤ key(T) in the two gathered buckets
 * (each part's keys lie contiguous in a bucket's run: the pass notes where each part's run ends). Signed zeros are
 * the exception (−0 and +0 are equal, their keys are not): a threshold of 0 whose key lies past both order statistics'
 * buckets is counted by a pass of its own (`fractionsAtMost`).
 * @param parts samples, every entry used (NaN not allowed): float32 values, or the low bits of a sample grouped by
 *   bucket (`groupByHighBits`, a Uint16Array) whose `bucketSpan` is given in `grouped`.
 * @param ps probabilities in [0, 1].
 * @param atMost fractions are wanted at the quantiles of ps[0..atMost): 0 to 3.
 * @param high the `radixHistogram` of `parts` when the caller has it (read, not changed; default: counted, from the
 *   spans for grouped parts).
 * @param own per part, a `locateQuantiles` of that part (its own histogram) or undefined for none.
 * @param grouped per part, the `bucketSpan` of a grouped part, or undefined for float32 values: a grouped part's values
 *   in the buckets wanted are copied run by run, not searched for in a pass over it (the same numbers).
 * @returns `quantiles` (one per p, in the order of `ps`), `fractions[j][i]` of part i at quantile j < atMost, and
 *   `own[i]` (one per p of own[i].ps, or undefined).
 * @throws {InvalidModelError} if the parts hold no value, a p is outside [0, 1], atMost is not 0..min(3, ps.length),
 *   or a grouped part has no span (or a float32 part one).
 * @example pooledQuantilesAndFractions([Float32Array.of(3, 1), Float32Array.of(2, 4)], [0.5], 1).fractions // [[0.5, 0.5]]
 */
export function pooledQuantilesAndFractions(
  parts: readonly (Float32Array | Uint16Array)[],
  ps: readonly number[],
  atMost: number,
  high?: Int32Array,
  own: readonly (QuantileLocation | undefined)[] = [],
  grouped: readonly (BucketSpan | undefined)[] = [],
): { quantiles: number[]; fractions: number[][]; own: (number[] | undefined)[] } {
  let count = 0;
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] instanceof Uint16Array !== (grouped[i] !== undefined))
      throw new InvalidModelError(`part ${i}: a grouped sample (Uint16Array) comes with its bucket span, float32 values without one`);
    count += parts[i].length;
  }
  if (high === undefined) {
    high = new Int32Array(RADIX);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i];
      const span = grouped[i];
      if (span !== undefined) addBucketSpan(high, span);
      else radixHistogram([part as Float32Array], high);
    }
  }
  const ranks = ranksNeeded(count, count, ps);
  if (!(Number.isInteger(atMost) && atMost >= 0 && atMost <= Math.min(3, ps.length)))
    throw new InvalidModelError(`fractions are counted at 0 to 3 of the quantiles, got ${atMost}`);
  // The bucket of each rank and its rank inside the bucket; mark those buckets.
  const bucketOf = new Int32Array(ranks.length);
  const within = new Float64Array(ranks.length);
  const { wanted, start, fill, ownStart, ownFill, below } = scratch;
  locateRanks(ranks, high, bucketOf, within);
  // For the fractions: the buckets of x_(⌊h⌋) (lowB) and x_(⌊h⌋+1) (upB) of each p; unused slots count nothing (bucket 0).
  const lowB = new Int32Array(3);
  const upB = new Int32Array(3);
  for (let j = 0; j < atMost; j++) {
    const k = Math.floor((count - 1) * ps[j]);
    lowB[j] = bucketOf[ranks.indexOf(k)];
    upB[j] = k + 1 < count ? bucketOf[ranks.indexOf(k + 1)] : lowB[j];
  }
  const R = parts.length;
  const prefix = new Float64Array(3 * R); // part i's values in buckets below lowB[j]
  const runEnd = new Int32Array(6 * R); // where part i's keys end in the runs of lowB[j] and upB[j]
  const ownValues: (number[] | undefined)[] = [];
  // Level 2: gather the keys of the marked buckets (few: at most two per p), grouped by bucket, and each part's keys
  // of its own buckets apart. Only the marked entries of the scratch arrays are set and read; `wanted` is all zeros
  // again on return.
  let keys: Uint32Array;
  try {
    keys = new Uint32Array(bucketStarts(bucketOf, high, wanted, start, fill));
    for (let i = 0; i < R; i++) {
      const part = parts[i];
      const loc = own[i];
      const ownKeys = new Uint32Array(loc === undefined ? 0 : markOwn(loc, wanted, ownStart, ownFill));
      const span = grouped[i];
      // the counters and the second bit cost ~50 % more per value: the plain loop where none is asked for
      if (span !== undefined) gatherRuns(part as Uint16Array, span, bucketOf, loc, wanted, fill, keys, ownFill, ownKeys, lowB, below);
      else {
        const bits = new Int32Array(part.buffer, part.byteOffset, part.length);
        if (atMost === 0 && loc === undefined) gatherKeys(bits, wanted, fill, keys);
        else gatherKeysAndCount(bits, wanted, fill, keys, ownFill, ownKeys, lowB, below);
      }
      for (let j = 0; j < 3; j++) {
        prefix[3 * i + j] = below[j];
        runEnd[6 * i + 2 * j] = fill[lowB[j]];
        runEnd[6 * i + 2 * j + 1] = fill[upB[j]];
      }
      if (loc === undefined) {
        ownValues.push(undefined);
        continue;
      }
      for (let r = 0; r < loc.bucket.length; r++) wanted[loc.bucket[r]] &= 1;
      const starts = Int32Array.from(loc.bucket, (c) => ownStart[c]);
      const value = pickRanks(ownKeys, loc.ranks, loc.bucket, loc.within, starts, loc.size);
      ownValues.push(interpolate(loc.count, loc.ps, (k) => value.get(k) as number));
    }
  } finally {
    for (let i = 0; i < bucketOf.length; i++) wanted[bucketOf[i]] = 0;
    for (const loc of own) if (loc !== undefined) for (let r = 0; r < loc.bucket.length; r++) wanted[loc.bucket[r]] = 0;
  }
  const value = pickRanks(
    keys,
    ranks,
    bucketOf,
    within,
    Int32Array.from(bucketOf, (c) => start[c]),
    Int32Array.from(bucketOf, (c) => high[c]),
  );
  const quantiles = interpolate(count, ps, (k) => value.get(k) as number);
  const fractions: number[][] = [];
  for (let j = 0; j < atMost; j++) {
    const t = thresholdKey(quantiles[j]);
    if (t >= 0 && (t >>> 16 < lowB[j] || t >>> 16 > upB[j])) {
      // only with signed zeros: t = ±0 between x_(⌊h⌋) = x_(⌊h⌋+1) = −0 has the key of +0, past both; a pass of its own
      const values = parts.map((part, i) => (part instanceof Float32Array ? part : groupedValues(part, grouped[i] as BucketSpan)));
      fractions.push(fractionsAtMost(values, [quantiles[j]])[0]);
      continue;
    }
    const f: number[] = [];
    for (let i = 0; i < R; i++) {
      let n = 0;
      if (t >= 0) {
        // part i's run in a bucket starts where part i − 1's ended (part 0: at the bucket's start)
        const from = (b: number, slot: number) => (i === 0 ? start[b] : runEnd[6 * (i - 1) + 2 * j + slot]);
        n = prefix[3 * i + j] + countKeysAtMost(keys, from(lowB[j], 0), runEnd[6 * i + 2 * j], t);
        if (upB[j] !== lowB[j]) n += countKeysAtMost(keys, from(upB[j], 1), runEnd[6 * i + 2 * j + 1], t);
      }
      f.push(n / parts[i].length);
    }
    fractions.push(f);
  }
  return { quantiles, fractions, own: ownValues };
}

/**
 * Marks the buckets of a part's own ranks with bit 2 of `wanted` and sets ownStart[c] and ownFill[c] of each to
 * where its keys go, the buckets in rank order. @returns their total.
 */
function markOwn(loc: QuantileLocation, wanted: Uint8Array, ownStart: Int32Array, ownFill: Int32Array): number {
  let gathered = 0;
  for (let r = 0; r < loc.bucket.length; r++) {
    const c = loc.bucket[r];
    if ((wanted[c] & 2) !== 0) continue;
    wanted[c] |= 2;
    ownStart[c] = gathered;
    ownFill[c] = gathered;
    gathered += loc.size[r];
  }
  return gathered;
}

/**
 * The value of each rank from keys gathered by bucket: rank ranks[i] is the within[i]-th smallest of the keys
 * keys[starts[i] .. starts[i] + sizes[i]) of its bucket bucketOf[i] (non-decreasing). In each bucket, count the top
 * byte of its keys' low 16 bits (`coarse`, once a bucket) and walk to the rank's bin; then count the low byte of the
 * keys in that bin (`fine`, once a bin: ranks k and k + 1 mostly share one) and walk to the rank. Two 256-entry counts
 * that stay in the first-level cache, where one count of all 16 bits into 2^16 entries and a pass to zero them after
 * took ~40 % more time (248 000 keys of 58 buckets, 116 ranks: 0.88 against 1.31 ms, median CPU of 41).
 */
function pickRanks(
  keys: Uint32Array,
  ranks: readonly number[],
  bucketOf: Int32Array,
  within: Float64Array,
  starts: Int32Array,
  sizes: Int32Array,
): Map<number, number> {
  const value = new Map<number, number>();
  const { coarse, fine } = scratch;
  let counted = -1;
  let fineBin = -1;
  for (let i = 0; i < ranks.length; i++) {
    const c = bucketOf[i];
    const from = starts[i];
    const to = from + sizes[i];
    if (counted < 0 || c !== bucketOf[counted]) {
      countCoarse(keys, from, to, coarse);
      counted = i;
      fineBin = -1;
    }
    const bin = binOf(coarse, within[i]);
    if (bin !== fineBin) {
      countFine(keys, from, to, bin, fine);
      fineBin = bin;
    }
    value.set(ranks[i], keyFloat(((c << 16) | (bin << 8) | binOf(fine, within[i] - sumBelow(coarse, bin))) >>> 0));
  }
  return value;
}

/** The `floatKey` of the largest float32 ≤ t (t compared as a double, −0 as +0); −1 for NaN (nothing is ≤ NaN). */
function thresholdKey(t: number): number {
  if (Number.isNaN(t)) return -1;
  const f = new Float32Array(1);
  f[0] = t + 0;
  const key = floatKey(new Int32Array(f.buffer)[0]);
  return f[0] > t ? key - 1 : key; // rounded up: the float32 just below in key order
}

/** Keys in keys[from..to) that are ≤ t. */
function countKeysAtMost(keys: Uint32Array, from: number, to: number, t: number): number {
  let n = 0;
  for (let k = from; k < to; k++) if (keys[k] <= t) n++;
  return n;
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

/** coarse[b] = keys of keys[from..to) whose bits 8–15 are b (coarse zeroed first). */
function countCoarse(keys: Uint32Array, from: number, to: number, coarse: Int32Array): void {
  coarse.fill(0);
  for (let k = from; k < to; k++) coarse[(keys[k] >>> 8) & 0xff]++;
}

/** fine[b] = keys of keys[from..to) whose bits 8–15 are `bin` and bits 0–7 are b (fine zeroed first). */
function countFine(keys: Uint32Array, from: number, to: number, bin: number, fine: Int32Array): void {
  fine.fill(0);
  for (let k = from; k < to; k++) {
    const key = keys[k];
    if (((key >>> 8) & 0xff) === bin) fine[key & 0xff]++;
  }
}

/** The bin of rank `within` (0-based) among counts: the first b with counts[0] + … + counts[b] > within. */
function binOf(counts: Int32Array, within: number): number {
  let seen = 0;
  let b = 0;
  while (seen + counts[b] <= within) seen += counts[b++];
  return b;
}

/** counts[0] + … + counts[bin − 1]. */
function sumBelow(counts: Int32Array, bin: number): number {
  let seen = 0;
  for (let b = 0; b < bin; b++) seen += counts[b];
  return seen;
}

/** Adds to high[h] the number of floats (given by their bits) whose key has high 16 bits h. */
function countHigh(bits: Int32Array, high: Int32Array): void {
  for (let i = 0; i < bits.length; i++) high[floatKey(bits[i]) >>> 16]++;
}

/** Appends the key of every float whose high 16 bits are a wanted bucket (bit 1) at fill[bucket]++. */
function gatherKeys(bits: Int32Array, wanted: Uint8Array, fill: Int32Array, keys: Uint32Array): void {
  for (let i = 0; i < bits.length; i++) {
    const key = floatKey(bits[i]);
    const c = key >>> 16;
    if (wanted[c] !== 0) keys[fill[c]++] = key;
  }
}

/**
 * Appends the key of every float (given by its bits) whose high 16 bits c are a wanted bucket: at fill[c]++ in `keys`
 * when bit 1 of wanted[c] is set, at ownFill[c]++ in `ownKeys` when bit 2 is; and counts into below[j] the floats
 * whose c is below lowB[j] (j < 3; arithmetic: c − lowB[j] < 0, both in [0, 2^16)).
 */
function gatherKeysAndCount(
  bits: Int32Array,
  wanted: Uint8Array,
  fill: Int32Array,
  keys: Uint32Array,
  ownFill: Int32Array,
  ownKeys: Uint32Array,
  lowB: Int32Array,
  below: Float64Array,
): void {
  const b0 = lowB[0];
  const b1 = lowB[1];
  const b2 = lowB[2];
  let n0 = 0;
  let n1 = 0;
  let n2 = 0;
  for (let i = 0; i < bits.length; i++) {
    const key = floatKey(bits[i]);
    const c = key >>> 16;
    n0 += (c - b0) >>> 31;
    n1 += (c - b1) >>> 31;
    n2 += (c - b2) >>> 31;
    const w = wanted[c];
    if (w !== 0) {
      if ((w & 1) !== 0) keys[fill[c]++] = key;
      if ((w & 2) !== 0) ownKeys[ownFill[c]++] = key;
    }
  }
  below[0] = n0;
  below[1] = n1;
  below[2] = n2;
}

const NO_BUCKETS = new Int32Array(0);

/**
 * out[cursor[c]++] = the low 16 bits of the key of each float (its bits) of `bits` in order, c the high 16 bits of
 * that key. Eight values a step, stored in order (so the same output): the stores to ~2000 bucket runs miss the
 * first-level cache, and eight independent ones a step overlap those misses (2.25 million response times of the race
 * engine: 7.8 ms against 16.0 ms one a step and 9.4 ms four a step, median CPU time of 25, load ~8; 500 000: 1.7
 * against 3.6 ms; measured with 32-bit stores).
 */
function scatterByHighBits(bits: Int32Array, out: Uint16Array, cursor: Int32Array): void {
  const n = bits.length;
  let i = 0;
  for (; i + 8 <= n; i += 8) {
    const x0 = bits[i];
    const x1 = bits[i + 1];
    const x2 = bits[i + 2];
    const x3 = bits[i + 3];
    const x4 = bits[i + 4];
    const x5 = bits[i + 5];
    const x6 = bits[i + 6];
    const x7 = bits[i + 7];
    const k0 = x0 ^ ((x0 >> 31) | 0x80000000);
    out[cursor[k0 >>> 16]++] = k0;
    const k1 = x1 ^ ((x1 >> 31) | 0x80000000);
    out[cursor[k1 >>> 16]++] = k1;
    const k2 = x2 ^ ((x2 >> 31) | 0x80000000);
    out[cursor[k2 >>> 16]++] = k2;
    const k3 = x3 ^ ((x3 >> 31) | 0x80000000);
    out[cursor[k3 >>> 16]++] = k3;
    const k4 = x4 ^ ((x4 >> 31) | 0x80000000);
    out[cursor[k4 >>> 16]++] = k4;
    const k5 = x5 ^ ((x5 >> 31) | 0x80000000);
    out[cursor[k5 >>> 16]++] = k5;
    const k6 = x6 ^ ((x6 >> 31) | 0x80000000);
    out[cursor[k6 >>> 16]++] = k6;
    const k7 = x7 ^ ((x7 >> 31) | 0x80000000);
    out[cursor[k7 >>> 16]++] = k7;
  }
  for (; i < n; i++) {
    const key = floatKey(bits[i]);
    out[cursor[key >>> 16]++] = key;
  }
}

/**
 * `gatherKeysAndCount` for a part grouped by bucket (`groupByHighBits`, `span` its counts): the same keys in the same
 * order and the same counts below lowB[j], from the runs of the wanted buckets (the rank buckets `bucketOf`, non-
 * decreasing, and the part's own `loc.bucket`) and the counts below them, not from a pass over the part.
 */
function gatherRuns(
  lows: Uint16Array,
  span: BucketSpan,
  bucketOf: Int32Array,
  loc: QuantileLocation | undefined,
  wanted: Uint8Array,
  fill: Int32Array,
  keys: Uint32Array,
  ownFill: Int32Array,
  ownKeys: Uint32Array,
  lowB: Int32Array,
  below: Float64Array,
): void {
  below.fill(0);
  const own: ArrayLike<number> = loc === undefined ? NO_BUCKETS : loc.bucket;
  const { from, counts } = span;
  const to = from + counts.length;
  let offset = 0; // values of the part in buckets below b (none below `from`)
  let b = from;
  // the wanted buckets in increasing order: a merge of the two non-decreasing lists, each bucket once
  for (let i = 0, k = 0; i < bucketOf.length || k < own.length;) {
    const c = k >= own.length || (i < bucketOf.length && bucketOf[i] <= own[k]) ? bucketOf[i] : own[k];
    while (i < bucketOf.length && bucketOf[i] === c) i++;
    while (k < own.length && own[k] === c) k++;
    while (b < c && b < to) offset += counts[b++ - from];
    const end = c >= from && c < to ? offset + counts[c - from] : offset;
    const w = wanted[c];
    if ((w & 1) !== 0) fill[c] = copyKeys(lows, offset, end, c, keys, fill[c]);
    if ((w & 2) !== 0) ownFill[c] = copyKeys(lows, offset, end, c, ownKeys, ownFill[c]);
    for (let j = 0; j < 3; j++) if (lowB[j] === c) below[j] = offset;
  }
}

/** keys[at++] = (bucket << 16) | low for each low of lows[from..to) (a run of that bucket); @returns the next `at`. */
function copyKeys(lows: Uint16Array, from: number, to: number, bucket: number, keys: Uint32Array, at: number): number {
  const high = bucket << 16;
  for (let k = from; k < to; k++) keys[at++] = high | lows[k];
  return at;
}
