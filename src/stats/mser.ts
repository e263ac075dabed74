/**
 * MSER-m truncation of an output series (the Marginal Standard Error Rule): cut the series into consecutive batch
 * means Z_1..Z_b of m observations (m = 5: MSER-5), and choose the truncation d* (in batches) minimising
 *   MSER(d) = Σ_{i>d} (Z_i − Z̄_d)² / (b − d)²,   Z̄_d = mean of Z_{d+1..b},
 * i.e. the squared standard error of the truncated mean, traded against the data thrown away.
 * d* is searched over the first half only, d ≤ ⌊b/2⌋ (White's rule: a truncation point in the second half is no
 * truncation point, the run is too short to tell). Searching every d ≤ b − 2 and reading a d* > b/2 as "too short"
 * (the rule before) let the tail decide: with k = 2 batches left MSER(d) = (Z_{b−1} − Z_b)²/8, one difference of two
 * neighbouring, positively correlated batch means, and it undercut the whole series' statistic on 15 % of stationary
 * M/M/1 runs (ρ = 0.9, 5 × 20 000 jobs: scripts/mser-too-short.ts; of 104 such minima in 600 runs all had k = 2).
 * The run is now "too short to confirm" (`tooShort`) when the first-half minimum sits on the half itself,
 * d* = ⌊b/2⌋: MSER was still falling there, so the transient may reach past the middle.
 * Sources: K. P. White Jr., "An effective truncation heuristic for bias reduction in simulation output",
 * Simulation 69(6), 1997; W. W. Franklin, K. P. White Jr., "Stationarity tests and MSER-5: exploring the
 * intuition behind mean-squared-error-reduction in warm-up period determination", Proc. WSC 2008.
 */
import { InvalidModelError } from '../errors.ts';

/** Outcome of `mser`. */
export interface MserResult {
  /** Optimal truncation d* in batches, over d ≤ ⌊b/2⌋. */
  readonly truncationBatches: number;
  /** d* · m: observations to discard. */
  readonly truncation: number;
  /** d* / b: fraction of the series to discard (≤ 0.5). */
  readonly fraction: number;
  /** Number of batches b. */
  readonly batches: number;
  /** MSER(d*). */
  readonly statistic: number;
  /** d* = ⌊b/2⌋: the minimum sits on the half, MSER still falling there: the run is too short to confirm the warm-up. */
  readonly tooShort: boolean;
}

/**
 * Batch means of m consecutive values of values[0..count) (a last partial batch is dropped).
 * @param make allocates the result of b entries (default: a new Float64Array; the simulator passes recycled ones).
 * @returns ⌊count/m⌋ means. @throws {InvalidModelError} if m is not an integer ≥ 1.
 */
export function batchMeansOf(
  values: ArrayLike<number>,
  count: number,
  m: number,
  make: (b: number) => Float64Array = (b) => new Float64Array(b),
): Float64Array {
  if (!(Number.isInteger(m) && m >= 1)) throw new InvalidModelError(`batch size must be an integer ≥ 1, got ${m}`);
  const b = Math.floor(Math.min(count, values.length) / m);
  const out = make(b);
  for (let i = 0; i < b; i++) {
    let s = 0;
    for (let j = 0; j < m; j++) s += values[i * m + j];
    out[i] = s / m;
  }
  return out;
}

/**
 * MSER on a series of batch means (already batched: pass `batchMeansOf(x, count, 5)` for MSER-5), d* over d ≤ ⌊b/2⌋.
 * @param z batch means Z_1..Z_b in run order, b ≥ 3, finite. @param batchSize m, to express d* in observations.
 * @returns `{ truncationBatches, truncation, fraction, batches, statistic, tooShort }`; O(b) by suffix sums.
 * @throws {InvalidModelError} if b < 3 or a value is not finite.
 * @example mser(Float64Array.of(9, 5, 1, 1, 1, 1), 5).truncationBatches // 2
 */
export function mser(z: ArrayLike<number>, batchSize = 5): MserResult {
  const b = z.length;
  if (b < 3) throw new InvalidModelError(`MSER needs at least 3 batch means, got ${b}`);
  const half = Math.floor(b / 2);
  const centre = z[b - 1];
  mserWalk(z, half, centre, walk);
  const best = walk[0];
  const bestD = walk[1];
  const s2 = walk[2];
  // A value that is not finite makes s2 infinite or NaN: find the first one in walk order (the check sits here rather
  // than in the loop, where it cost about a third of the loop's time; the same error for the same series).
  if (!Number.isFinite(s2)) {
    for (let i = b - 1; i >= 0; i--) {
      if (!Number.isFinite(z[i] - centre)) throw new InvalidModelError(`MSER batch mean ${i} is not finite: ${z[i]}`);
    }
  }
  return {
    truncationBatches: bestD,
    truncation: bestD * batchSize,
    fraction: bestD / b,
    batches: b,
    statistic: best,
    tooShort: bestD === half,
  };
}

/** `mserWalk`'s outputs: MSER(d*), d*, and Σ(Z_i − Z_b)² over the whole series. */
const walk = new Float64Array(3);

/**
 * `mser`'s walk, a function of its own: in `mser`'s body V8 (Node 20) compiled the loop on stack replacement in the
 * first long series, deoptimised after it (code with no type feedback yet) and re-entered that code on later calls.
 * Walks d from b − 1 down to 0, adding Z_{d+1} to the suffix sums (centred on the last value to limit cancellation);
 * the statistic is read for d ≤ ⌊b/2⌋ only (b ≥ 3 leaves k = b − d ≥ 2 batches there). Writes best, d*, s2 to `out`.
 */
function mserWalk(z: ArrayLike<number>, half: number, centre: number, out: Float64Array): void {
  const b = z.length;
  let s1 = 0;
  let s2 = 0;
  let best = Infinity;
  let bestD = 0;
  for (let i = b - 1; i >= 0; i--) {
    const x = z[i] - centre;
    s1 += x;
    s2 += x * x;
    if (i > half) continue;
    const k = b - i; // batches kept when d = i
    // k² as a float64 product (exact: k < 2^26): \`k * k\` took int32 feedback from short series and deoptimised on the
    // first series past 46 341 batches (overflow), e.g. the first long run after a short one (node --trace-deopt)
    const stat = Math.max(0, s2 - (s1 * s1) / k) / Math.pow(k, 2);
    if (stat <= best) {
      best = stat;
      bestD = i;
    }
  }
  out[0] = best;
  out[1] = bestD;
  out[2] = s2;
}

/** Head and tail means of a series for a Geweke-style initial-bias test (`headTailMeans`). */
export interface HeadTailMeans {
  /** Mean of the first ⌈headFraction·k⌉ kept values (k = values kept after the trim). */
  readonly head: number;
  /** Mean of the last ⌊tailFraction·k⌋ kept values. */
  readonly tail: number;
  /** Values in the head and in the tail. */
  readonly headCount: number;
  readonly tailCount: number;
}

/**
 * The means over the head and the tail of a series of batch means, after `trim` values are dropped at each end:
 * Geweke's comparison of the first 10 % with the last 50 % of a run's output (the stationary part agrees with itself;
 * an initial transient leaves the head apart from the tail).
 * Source: J. Geweke, "Evaluating the accuracy of sampling-based approaches to the calculation of posterior moments",
 * Bayesian Statistics 4 (1992); theory.md §8 "Warm-up".
 * @param z batch means in run order. @param trim values left out at each end (integer ≥ 0).
 * @param headFraction share of the kept values in the head (default 0.1). @param tailFraction in the tail (default 0.5).
 * @returns `{ head, tail, headCount, tailCount }`, or null when fewer than 20 values are kept (a head of under 2 batch means).
 */
export function headTailMeans(z: ArrayLike<number>, trim = 0, headFraction = 0.1, tailFraction = 0.5): HeadTailMeans | null {
  const kept = z.length - 2 * trim;
  if (!(kept >= 20)) return null;
  const h = Math.ceil(headFraction * kept);
  const t = Math.floor(tailFraction * kept);
  let head = 0;
  for (let i = trim; i < trim + h; i++) head += z[i];
  let tail = 0;
  for (let i = trim + kept - t; i < trim + kept; i++) tail += z[i];
  return { head: head / h, tail: tail / t, headCount: h, tailCount: t };
}
