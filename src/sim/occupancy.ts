/**
 * Occupancy counts c_i = #servers with ≥ i jobs and their lazily integrated time areas ∫c_i dt. Each event
 * changes exactly one c_i by ±1, so the engine adds c_i·(t − last_i) to area_i just before the change: O(1) per
 * event. The time-average tail is s_i = area_i/(n·window) and the mean queue length per server is Σ_{i≥1} s_i.
 * Arrays cover every level a queue can reach (they grow with the job store), so nothing is clipped.
 */

export class Occupancy {
  /** c_i for i = 0..levels−1 (c_0 = n). */
  count: Int32Array;
  /** ∫ c_i dt since `begin`, up to last_i. */
  area: Float64Array;
  /** Time up to which area_i is integrated. */
  last: Float64Array;

  constructor(
    readonly n: number,
    levels: number,
  ) {
    this.count = new Int32Array(levels);
    this.area = new Float64Array(levels);
    this.last = new Float64Array(levels);
    this.count[0] = n;
  }

  /** Makes room for levels 0..levels−1 (at least). */
  ensureLevels(levels: number): void {
    if (levels <= this.count.length) return;
    const size = Math.max(levels, 2 * this.count.length);
    const count = new Int32Array(size);
    count.set(this.count);
    const area = new Float64Array(size);
    area.set(this.area);
    const last = new Float64Array(size);
    last.set(this.last);
    this.count = count;
    this.area = area;
    this.last = last;
  }

  /** Starts integrating at time t (areas reset to 0). */
  begin(t: number): void {
    this.area.fill(0);
    this.last.fill(t);
  }

  /** Closes every area at time t. */
  end(t: number): void {
    const { count, area, last } = this;
    for (let i = 0; i < count.length; i++) {
      area[i] += count[i] * (t - last[i]);
      last[i] = t;
    }
  }

  /** Sets the counts from the queue lengths `len` (used after an initial state is written). */
  recount(len: Int32Array): void {
    let max = 0;
    for (let j = 0; j < len.length; j++) if (len[j] > max) max = len[j];
    this.ensureLevels(max + 2);
    const count = this.count;
    count.fill(0);
    for (let j = 0; j < len.length; j++) for (let i = 0; i <= len[j]; i++) count[i]++;
  }

  /** Time-average tail s_0..s_maxLevel over a window of the given length (n·window normalises). */
  tail(maxLevel: number, window: number): number[] {
    const out: number[] = [];
    for (let i = 0; i <= maxLevel; i++) out.push(i < this.area.length ? this.area[i] / (this.n * window) : 0);
    out[0] = 1;
    return out;
  }

  /** Time-average jobs per server: Σ_{i≥1} area_i/(n·window). */
  meanQueueLength(window: number): number {
    let sum = 0;
    for (let i = 1; i < this.area.length; i++) sum += this.area[i];
    return sum / (this.n * window);
  }

  /** Current tail s_0..s_maxLevel (a snapshot, not a time average). */
  snapshot(maxLevel: number): number[] {
    const out: number[] = [];
    for (let i = 0; i <= maxLevel; i++) out.push(i < this.count.length ? this.count[i] / this.n : 0);
    return out;
  }
}
