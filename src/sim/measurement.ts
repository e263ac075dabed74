/**
 * The measurement window of one replication (theory.md §8): warm-up until `warmupTime`; then the next `jobs`
 * arrivals are measured; the run goes on (with arrivals) until every measured job has left, so their mean
 * response time is not biased by dropping the slow ones. Time averages (tail, queue length) cover
 * [warmupTime, arrival time of the last measured job].
 */

export const WARMUP = 0;
export const MEASURING = 1;
export const DRAINING = 2;
export const DONE = 3;

export class Measurement {
  /** One of WARMUP, MEASURING, DRAINING, DONE. */
  phase = WARMUP;
  measuredArrivals = 0;
  measuredInSystem = 0;
  /** Arrival time of the last measured job; +∞ until it has arrived. */
  lastMeasured = Infinity;
  /** Σ response times of measured jobs that have left (time units) and their number. */
  sumResponse = 0;
  completed = 0;
  /** End of the time-average window (= lastMeasured once known). */
  windowEnd = NaN;

  /**
   * @param warmupTime start of the window (+∞: never measure, as in trajectories).
   * @param jobs arrivals to measure (+∞ allowed when never measuring).
   */
  constructor(readonly warmupTime: number, readonly jobs: number) {}

  /** True if a job that arrived at time a is one of the measured jobs. */
  isMeasured(a: number): boolean {
    return a > this.warmupTime && a <= this.lastMeasured;
  }
}
