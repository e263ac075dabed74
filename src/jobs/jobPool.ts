/**
 * Job records of a queue: one slot per job in the system, in flat typed arrays (arrival time, true size S,
 * prediction Y, remaining true work, arrival sequence number), recycled through a free-slot stack (the slot freed
 * last is taken first). Capacity doubles on demand (amortised; never inside a steady state). Shared by the
 * simulator's priority engine (src/sim/priorityEngine.ts) and the cavity queue (src/meanfield/cavity/scheduler.ts);
 * imports nothing. The methods stay small and monomorphic: the engines call them once per job.
 */

export class JobPool {
  arrival: Float64Array;
  size: Float64Array;
  pred: Float64Array;
  /**
   * Remaining true work S − a (S at `alloc`), as the pool's user keeps it: the priority engine at the end of the
   * job's last service segment, the cavity queue at the current time.
   */
  rem: Float64Array;
  seq: Float64Array;
  /** Free slots in free[0..freeCount). */
  free: Int32Array;
  freeCount: number;
  cap: number;

  constructor(initialCapacity: number) {
    this.cap = Math.max(16, initialCapacity);
    this.arrival = new Float64Array(this.cap);
    this.size = new Float64Array(this.cap);
    this.pred = new Float64Array(this.cap);
    this.rem = new Float64Array(this.cap);
    this.seq = new Float64Array(this.cap);
    this.free = new Int32Array(this.cap);
    for (let i = 0; i < this.cap; i++) this.free[i] = this.cap - 1 - i;
    this.freeCount = this.cap;
  }

  /**
   * Takes a free slot (growing if none) and fills it; `rem` starts at `size`. The arrays may be replaced by the
   * growth: read them through the pool after an `alloc`, and compare `cap` to grow arrays kept beside the pool.
   * @returns the slot, in [0, cap).
   */
  alloc(arrival: number, size: number, pred: number, seq: number): number {
    if (this.freeCount === 0) this.grow();
    const s = this.free[--this.freeCount];
    this.arrival[s] = arrival;
    this.size[s] = size;
    this.pred[s] = pred;
    this.rem[s] = size;
    this.seq[s] = seq;
    return s;
  }

  /** Returns `slot` to the free stack; its fields stay readable until the next `alloc`. */
  release(slot: number): void {
    this.free[this.freeCount++] = slot;
  }

  private grow(): void {
    const old = this.cap;
    const cap = old * 2;
    const widen = (a: Float64Array) => {
      const b = new Float64Array(cap);
      b.set(a);
      return b;
    };
    this.arrival = widen(this.arrival);
    this.size = widen(this.size);
    this.pred = widen(this.pred);
    this.rem = widen(this.rem);
    this.seq = widen(this.seq);
    this.free = new Int32Array(cap);
    for (let i = 0; i < old; i++) this.free[i] = cap - 1 - i;
    this.freeCount = old;
    this.cap = cap;
  }
}
