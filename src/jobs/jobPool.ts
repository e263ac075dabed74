/**
 * Job records of a queue: one slot per job in the system, recycled through a free-slot stack (the slot freed last is
 * taken first). A job's arrival time, true size S, remaining true work and arrival sequence number are one record of
 * `rec`, four doubles at rec[(slot << J_SHIFT) + J_*] (32 bytes: the fields an event reads come in one or two cache
 * lines instead of four); the prediction Y, read only by the predicted disciplines and LPW, is kept apart in `pred`.
 * The hot loops (here, the priority engine's, waitQueues.ts) write the layout as literals, slot << 2 and + 0..3 for
 * J_ARRIVAL, J_SIZE, J_REM, J_SEQ: an imported (or exported) constant is a module variable, loaded at run time and
 * larger bytecode, which cost the priority engine's loop V8's inlining of `alloc` (node --trace-turbo-inlining) and
 * ~5 % more instructions (cachegrind). Capacity doubles on demand (amortised; never inside a steady state). Shared by the simulator's priority and sharing
 * engines (src/sim/priorityEngine.ts, sharingEngine.ts), the redundancy engine and the cavity queue
 * (src/meanfield/cavity/scheduler.ts); imports nothing. The methods stay small and monomorphic: the engines call them
 * once per job.
 */

/** log2 of a record's length in doubles: slot s's record starts at rec[s << J_SHIFT]. */
export const J_SHIFT = 2;
/** Offset of the arrival time in a record. */
export const J_ARRIVAL = 0;
/** Offset of the true size S (service time) in a record. */
export const J_SIZE = 1;
/**
 * Offset of the remaining true work S − a (S at `alloc`), as the pool's user keeps it: the priority engine at the end
 * of the job's last service segment (not under SRPT, whose queue key holds that number), the cavity queue at the
 * current time.
 */
export const J_REM = 2;
/** Offset of the arrival sequence number (the FIFO tie-break; −1 for jobs of an initial state) in a record. */
export const J_SEQ = 3;

export class JobPool {
  /** Records by slot: rec[(slot << J_SHIFT) + J_ARRIVAL | J_SIZE | J_REM | J_SEQ]. */
  rec: Float64Array;
  /** Prediction Y by slot (not written when the pool was made without `predictions`). */
  pred: Float64Array;
  /** Free slots in free[0..freeCount). */
  free: Int32Array;
  freeCount: number;
  cap: number;

  /**
   * @param predictions whether `alloc` stores each job's prediction in `pred` (a user that never reads it saves a
   *   store to another cache line per job).
   */
  constructor(
    initialCapacity: number,
    readonly predictions = true,
  ) {
    this.cap = Math.max(16, initialCapacity);
    this.rec = new Float64Array(this.cap << 2);
    this.pred = new Float64Array(this.cap);
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
    const rec = this.rec;
    const b = s << 2; // J_SHIFT
    rec[b] = arrival;
    rec[b + 1] = size;
    rec[b + 2] = size; // rem
    rec[b + 3] = seq;
    if (this.predictions) this.pred[s] = pred;
    return s;
  }

  /** Returns `slot` to the free stack; its fields stay readable until the next `alloc`. */
  release(slot: number): void {
    this.free[this.freeCount++] = slot;
  }

  /** Arrival time of the job in `slot`. */
  arrival(slot: number): number {
    return this.rec[slot << 2]; // J_ARRIVAL
  }

  /** True size S of the job in `slot`. */
  size(slot: number): number {
    return this.rec[(slot << 2) + 1]; // J_SIZE
  }

  /** Remaining true work of the job in `slot` (see J_REM). */
  rem(slot: number): number {
    return this.rec[(slot << 2) + 2]; // J_REM
  }

  /** Sets the remaining true work of the job in `slot`. */
  setRem(slot: number, r: number): void {
    this.rec[(slot << 2) + 2] = r; // J_REM
  }

  /** Arrival sequence number of the job in `slot`. */
  seq(slot: number): number {
    return this.rec[(slot << 2) + 3]; // J_SEQ
  }

  private grow(): void {
    const old = this.cap;
    const cap = old * 2;
    const rec = new Float64Array(cap << 2);
    rec.set(this.rec);
    this.rec = rec;
    const pred = new Float64Array(cap);
    pred.set(this.pred);
    this.pred = pred;
    this.free = new Int32Array(cap);
    for (let i = 0; i < old; i++) this.free[i] = cap - 1 - i;
    this.freeCount = old;
    this.cap = cap;
  }
}
