/**
 * Per-server job storage: one ring buffer per server, all of the same power-of-two capacity, laid out in two
 * flat typed arrays (`arrival` time, `size`, prediction `pred` and arrival sequence number `seq` of each job; slot of
 * server j's k-th job from the head is
 * (j << shift) + ((head[j] + k) & mask)). Capacity doubles for every server when one queue fills it, so growth
 * is amortised and the hot loop never allocates. FIFO reads the head; later disciplines (SJF, SRPT, …) can keep
 * their own index over the same slots.
 */
import { recycle, takeFloat64 } from './buffers.ts';

export class JobStore {
  /** Jobs present at each server (including the one in service), Q_j. */
  len: Int32Array;
  /** Ring index of each server's oldest job. */
  head: Int32Array;
  /** Ring capacity per server (power of two), its log2 and mask. */
  cap: number;
  shift: number;
  mask: number;
  /** Arrival time of each stored job (time units). */
  arrival: Float64Array;
  /** Size (service requirement, time units) of each stored job; empty if `withSizes` was false. */
  size: Float64Array;
  /** Prediction Y of each stored job (what LPW and the predicted disciplines see); empty without sizes. */
  pred: Float64Array;
  /** Arrival sequence number (0-based count of arrivals) of each stored job; empty without sizes. */
  seq: Float64Array;

  /**
   * @param n servers.
   * @param withSizes store job sizes (the race engine does not need them).
   * @param initialCapacity requested ring capacity per server, rounded up to a power of two ≥ 4.
   */
  constructor(
    readonly n: number,
    readonly withSizes: boolean,
    initialCapacity = defaultCapacity(n),
  ) {
    let shift = 2;
    while (1 << shift < initialCapacity) shift++;
    this.shift = shift;
    this.cap = 1 << shift;
    this.mask = this.cap - 1;
    this.len = new Int32Array(n);
    this.head = new Int32Array(n);
    this.arrival = takeFloat64(n * this.cap);
    this.size = takeFloat64(withSizes ? n * this.cap : 0);
    this.pred = takeFloat64(withSizes ? n * this.cap : 0);
    this.seq = takeFloat64(withSizes ? n * this.cap : 0);
  }

  /**
   * Gives the per-job arrays back to this thread's recycled buffers (buffers.ts) once the run that owned the store is
   * read (`runReplications`: one store per replication, up to 5 MB at n = 10⁴); the store is not used afterwards.
   */
  recycle(): void {
    for (const a of [this.arrival, this.size, this.pred, this.seq]) recycle(a);
  }

  /** Doubles every ring's capacity, unwrapping each ring to start at slot 0. */
  grow(): void {
    this.arrival = this.unwrapped(this.arrival);
    if (this.withSizes) {
      this.size = this.unwrapped(this.size);
      this.pred = this.unwrapped(this.pred);
      this.seq = this.unwrapped(this.seq);
    }
    this.head.fill(0);
    this.cap *= 2;
    this.shift += 1;
    this.mask = this.cap - 1;
  }

  /** A copy of one per-job array at twice the ring capacity, each server's jobs moved to slots 0..len−1 of its ring. */
  private unwrapped(from: Float64Array): Float64Array {
    const { n, shift, mask, head, len } = this;
    const to = new Float64Array(2 * from.length);
    for (let j = 0; j < n; j++) {
      for (let k = 0; k < len[j]; k++) to[(j << (shift + 1)) + k] = from[(j << shift) + ((head[j] + k) & mask)];
    }
    return to;
  }
}

/**
 * A small starting capacity that keeps n·cap modest for large n (rings grow on demand): at most 8, so the four per-job
 * arrays of n = 1000 servers take 256 kB and stay in cache (64 slots: 2 MB; ~6 % of an event run's CPU time); queues
 * longer than 8 are rare at any load where n is large, and growth is amortised. The race engine (no sizes) reads the
 * rings once, for the start state, and keeps its queues in records of its own (race.ts); its store had 64 slots per
 * server, 5 MB allocated and zeroed per replication at n = 10⁴.
 */
function defaultCapacity(n: number): number {
  return Math.max(4, Math.min(8, Math.floor(2 ** 20 / n)));
}
