/**
 * Response times of the tagged jobs of cavity runs, kept per independent unit (a restart of the JSQ or LPW cavity, a
 * batch of the LWL cavity queue), for the empirical response-time law of meanfield/responseTime.ts: the pooled
 * sample is the estimate, the units' spread its interval (sectioning, theory.md §8 "Quantiles").
 */

/** A growable float64 sample per unit. */
export class ResponseTimeSample {
  private readonly data: Float64Array[];
  private readonly counts: number[];
  constructor(units: number) {
    this.data = Array.from({ length: units }, () => new Float64Array(1024));
    this.counts = new Array<number>(units).fill(0);
  }

  /** Adds response time T (time units) to `unit`. */
  push(unit: number, T: number): void {
    let a = this.data[unit];
    const c = this.counts[unit];
    if (c === a.length) {
      const grown = new Float64Array(2 * a.length);
      grown.set(a);
      this.data[unit] = a = grown;
    }
    a[c] = T;
    this.counts[unit] = c + 1;
  }

  /** The units' samples, each sorted increasingly (copies trimmed to their counts). */
  sortedUnits(): Float64Array[] {
    return this.data.map((a, u) => a.slice(0, this.counts[u]).sort());
  }
}
