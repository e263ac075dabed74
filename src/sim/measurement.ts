/**
 * The measurement window of one run (theory.md §8): warm-up until `warmupTime` (or, in replay, until the
 * arrival with sequence number `stopSeq`); then the next `jobs` arrivals are measured; the run goes on (with
 * arrivals) until every measured job has left, so the customer averages are not biased by dropping the slow ones
 * (which matters under SJF/SRPT). Time averages (tail, queue length, workload) cover
 * [windowStart, arrival time of the last measured job].
 *
 * Per measured job the engines record its response time T in `responses[k]`, k = its arrival rank in the window
 * (event engines; the race engine uses completion order), and accumulate ΣT and ΣT/S.
 */
import { takeFloat32 } from './buffers.ts';

/** Most response times kept per run for percentiles; longer runs keep a systematic sample (every stride-th job). */
export const PERCENTILE_SAMPLE_CAP = 8_000_000;

/** Phases of a run, in order. */
export const [WARMUP, MEASURING, DRAINING, DONE] = [0, 1, 2, 3];

/** The running totals of a `Measurement` that the engines keep in locals while their loop runs. */
export type MeasuredTotals = Pick<
  Measurement,
  'measuredArrivals' | 'measuredInSystem' | 'sumResponse' | 'sumSlowdown' | 'slowdownJobs' | 'completed'
>;

export class Measurement {
  /** One of WARMUP, MEASURING, DRAINING, DONE. */
  phase = WARMUP;
  measuredArrivals = 0;
  measuredInSystem = 0;
  /** Arrival time of the last measured job; +∞ until it has arrived. */
  lastMeasured = Infinity;
  /** Sequence number (0-based arrival count) of the first measured job; +∞ during the warm-up. */
  firstSeq = Infinity;
  /** Σ response times of measured jobs that have left (time units) and their number. */
  sumResponse = 0;
  completed = 0;
  /** Σ T/S over measured jobs with S > 0, and their number (jobs of size 0 have no slowdown). */
  sumSlowdown = 0;
  slowdownJobs = 0;
  /**
   * Response times of a systematic sample of the measured jobs, for percentiles: job k is kept at index k/stride
   * when k is a multiple of `stride`; float32, so at most PERCENTILE_SAMPLE_CAP values (32 MB) whatever `jobs` is.
   * With `exactResponses` (per-job export): float64, every job (stride 1). The float32 buffer is a recycled one
   * (buffers.ts): `simulate`'s collector gives it back once the run's percentiles are read.
   */
  readonly responses: Float32Array | Float64Array;
  /** Keep every stride-th measured job for percentiles (1 up to PERCENTILE_SAMPLE_CAP jobs). */
  readonly stride: number;
  /** Start and end of the time-average window. */
  windowStart = NaN;
  windowEnd = NaN;

  /**
   * @param warmupTime start of the window (+∞: never measure by time, as in trajectories and replay).
   * @param jobs arrivals to measure (+∞ allowed when never measuring).
   * @param stopSeq the warm-up ends just before arrival number `stopSeq` (replay), −1 for none.
   * @param exactResponses keep every response time in float64 (per-job records; the caller bounds `jobs`).
   */
  constructor(
    readonly warmupTime: number,
    readonly jobs: number,
    readonly stopSeq = -1,
    exactResponses = false,
  ) {
    const n = Number.isFinite(jobs) ? jobs : 0;
    this.stride = exactResponses ? 1 : Math.max(1, Math.ceil(n / PERCENTILE_SAMPLE_CAP));
    this.responses = exactResponses ? new Float64Array(n) : takeFloat32(Math.ceil(n / this.stride));
  }

  /** Stores the running totals an engine's hot loop kept in locals (called when the loop returns). */
  save(totals: MeasuredTotals): void {
    // Field by field: the engines' loops inline this as plain stores (Object.assign is a generic copy).
    this.measuredArrivals = totals.measuredArrivals;
    this.measuredInSystem = totals.measuredInSystem;
    this.sumResponse = totals.sumResponse;
    this.sumSlowdown = totals.sumSlowdown;
    this.slowdownJobs = totals.slowdownJobs;
    this.completed = totals.completed;
  }

  /** Number of response times held in `responses` once `completed` measured jobs have left. */
  get sampled(): number {
    return Math.ceil(this.completed / this.stride);
  }
}

/**
 * What `batchMeansOf(values, count, m)` and `radixHistogram([values.subarray(0, count)], high)` (stats/) give, the same
 * numbers, for a run's float32 response times: the means of ⌊count/m⌋ consecutive batches of m (summed in order from
 * the first, a last partial batch dropped) into `means`, and the count of each high 16 bits of the values'
 * order-preserving keys added to `high` (2^16 entries). Over one element type and without the generic calls; for the
 * simulator's m = 5 one pass, five values a step (`batch5SumsAndCount`): 2.25 million values (one replication of
 * `npm run bench`) in 5.2 ms against 11.1 ms for the two passes it replaces (min of 21, load ~8 on 2 cores).
 * @param values response times (no NaN). @param count entries used, ≤ values.length. @param m batch size, integer ≥ 1.
 * @param means receives ⌊count/m⌋ means (its length at least that). @param high counts to add to.
 */
export function batchMeansAndHistogram(values: Float32Array, count: number, m: number, means: Float64Array, high: Int32Array): void {
  const bits = new Int32Array(values.buffer, values.byteOffset, count);
  if (m === 5) {
    const b = Math.floor(count / 5);
    batch5SumsAndCount(values, bits, b, means, high);
    countHighBits(bits.subarray(5 * b), high);
    return;
  }
  // Two loops, two functions: in one body V8 (Node 20) compiled the first loop on stack replacement and deoptimised
  // on reaching the second, which had no type feedback yet, and re-entered that stale code on the next replication.
  batchSums(values, Math.floor(count / m), m, means);
  countHighBits(bits, high);
}

/**
 * means[k] = mean of values[5k .. 5k + 5), k < b, summed in order from 0 as `batchSums` does (0 + x₀: a batch of five
 * −0 gives +0 there too), and high[h]++ for each of those values' key high bits h (`countHighBits`). Five independent
 * counts a step let the processor overlap their loads and stores: one pass at about half the time of the two.
 */
function batch5SumsAndCount(values: Float32Array, bits: Int32Array, b: number, means: Float64Array, high: Int32Array): void {
  for (let k = 0, i = 0; k < b; k++, i += 5) {
    const x0 = bits[i];
    const x1 = bits[i + 1];
    const x2 = bits[i + 2];
    const x3 = bits[i + 3];
    const x4 = bits[i + 4];
    high[(x0 ^ ((x0 >> 31) | 0x80000000)) >>> 16]++;
    high[(x1 ^ ((x1 >> 31) | 0x80000000)) >>> 16]++;
    high[(x2 ^ ((x2 >> 31) | 0x80000000)) >>> 16]++;
    high[(x3 ^ ((x3 >> 31) | 0x80000000)) >>> 16]++;
    high[(x4 ^ ((x4 >> 31) | 0x80000000)) >>> 16]++;
    means[k] = (0 + values[i] + values[i + 1] + values[i + 2] + values[i + 3] + values[i + 4]) / 5;
  }
}

/** means[k] = mean of values[k·m .. k·m + m), k < b, each batch summed in order from its first value. */
function batchSums(values: Float32Array, b: number, m: number, means: Float64Array): void {
  for (let k = 0; k < b; k++) {
    let s = 0;
    for (let i = k * m, end = i + m; i < end; i++) s += values[i];
    means[k] = s / m;
  }
}

/** Adds 1 to high[h] for each float (its bits) whose order-preserving key has high 16 bits h (quantile.ts's floatKey). */
function countHighBits(bits: Int32Array, high: Int32Array): void {
  for (let i = 0; i < bits.length; i++) {
    const x = bits[i];
    high[(x ^ ((x >> 31) | 0x80000000)) >>> 16]++;
  }
}
