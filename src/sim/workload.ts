/**
 * Per-server true workload U_j (remaining work of every job at server j), kept lazily as the time F_j at which
 * server j would empty without further arrivals: U_j(t) = (F_j − t)^+. An arrival of size S at time t sets
 * F_j ← max(F_j, t) + S. Every work-conserving discipline drains U at rate 1 while busy, so this path is the
 * same under all disciplines (theory.md §4: the workload process is discipline-free): it is updated only at
 * arrivals, from the same numbers, hence bit-identical across disciplines under common random numbers.
 *
 * While measuring it integrates ∫U_j dt and ∫1(U_j > w_k) dt for a grid w_k, lazily per server from the
 * server's last arrival: U decreases linearly between arrivals, so both integrals are closed forms.
 */

export class Workload {
  /** F_j: time at which server j would empty (time units). */
  readonly finish: Float64Array;
  /** Time up to which server j's integrals are accumulated. */
  readonly last: Float64Array;
  /** Σ_j ∫U_j dt over the window so far. */
  area = 0;
  /** areaAbove[k] = Σ_j ∫1(U_j > grid[k]) dt over the window so far. */
  readonly areaAbove: Float64Array;

  /** @param grid increasing workload levels w_k for the ccdf (may be empty). */
  constructor(
    readonly n: number,
    readonly grid: Float64Array,
  ) {
    this.finish = new Float64Array(n);
    this.last = new Float64Array(n);
    this.areaAbove = new Float64Array(grid.length);
  }

  /**
   * Adds server j's integrals over [last_j, t] (U_j(s) = (F_j − s)^+) and moves last_j to t. Called by the
   * engines at every measured arrival, so kept small enough for V8 to inline; the ccdf grid loop (empty unless
   * asked for, or under LWL/LPW) is a separate call.
   */
  accumulate(j: number, t: number): void {
    const from = this.last[j];
    this.last[j] = t;
    const u0 = this.finish[j] - from;
    if (!(u0 > 0)) return;
    const dt = t - from;
    this.area += workloadArea(u0, dt);
    if (this.grid.length > 0) this.accumulateAbove(u0, dt);
  }

  /**
   * ∫1(U_j > w_k) dt over a piece of length dt on which U_j falls linearly from u0 > 0. (Public for the FIFO event
   * engine, which writes `accumulate` out in its loop: V8's inlining budget is spent before that call.)
   */
  accumulateAbove(u0: number, dt: number): void {
    const grid = this.grid;
    const above = this.areaAbove;
    for (let k = 0; k < grid.length; k++) {
      const h = u0 - grid[k];
      if (!(h > 0)) break;
      above[k] += h < dt ? h : dt;
    }
  }

  /** Starts integrating at time t (areas reset to 0). */
  begin(t: number): void {
    this.area = 0;
    this.areaAbove.fill(0);
    this.last.fill(t);
  }

  /** Brings every server's integrals up to time t. */
  end(t: number): void {
    for (let j = 0; j < this.n; j++) this.accumulate(j, t);
  }
}

/** ∫_0^dt (u0 − s)^+ ds: the work integral over a piece of length dt on which U falls from u0 > 0 at rate 1. */
export function workloadArea(u0: number, dt: number): number {
  return u0 <= dt ? 0.5 * u0 * u0 : dt * (u0 - 0.5 * dt);
}
