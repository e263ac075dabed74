/**
 * The cavity queue's server under a sharing discipline (theory.md §5): processor sharing (PS) or least attained
 * service (LAS/FB), with the same contract as `CavityScheduler` (cavityQueue.ts's `CavityServer`): time passes by
 * `advance(dt)`, the next internal event is `nextEventIn()` away, `complete()` processes it.
 *   - PS: a virtual time V with dV/dt = 1/k (k jobs) and a binary heap of job ids on V₀ + S; the next completion is
 *     (min − V)·k away. V restarts at 0 when the queue empties.
 *   - LAS: the attained-service groups of src/jobs/attainedGroups.ts (the simulator's), on one server; an event is a
 *     completion or a merge of the served group into the next (then `complete()` returns −1).
 * Source: Kleinrock, Queueing Systems II (1976), §4.4, §4.7; Schrage 1967.
 */
import { AttainedGroups } from '../../jobs/attainedGroups.ts';
import { JobPool } from '../../jobs/jobPool.ts';

export class SharingScheduler {
  /** The jobs present, by id (arrival, size, pred, seq; `rem` is not kept); read them through the pool. */
  readonly pool = new JobPool(64);
  /** Jobs present. */
  jobs = 0;
  /** Total remaining work (time units). */
  workload = 0;
  /** Time since the start (LAS's groups run on absolute time). */
  private now = 0;
  private nextSeq = 0;
  // PS
  private virtual = 0;
  private key = new Float64Array(this.pool.cap);
  private heap = new Int32Array(this.pool.cap);
  // LAS
  private readonly clock = new Float64Array(1).fill(Infinity);
  private readonly groups: AttainedGroups;

  constructor(readonly discipline: 'ps' | 'las') {
    this.groups = new AttainedGroups(1, this.pool, this.clock);
  }

  private less(a: number, b: number): boolean {
    const ka = this.key[a];
    const kb = this.key[b];
    return ka < kb || (ka === kb && this.pool.seq(a) < this.pool.seq(b));
  }

  /** Time until the next completion (PS) or completion/merge (LAS); +∞ when empty. */
  nextEventIn(): number {
    if (this.jobs === 0) return Infinity;
    if (this.discipline === 'ps') return (this.key[this.heap[0]] - this.virtual) * this.jobs;
    return this.clock[0] - this.now;
  }

  /** Lets time pass by dt ≤ nextEventIn(). */
  advance(dt: number): void {
    this.now += dt;
    if (this.jobs === 0) return;
    if (this.discipline === 'ps') this.virtual += dt / this.jobs;
    this.workload -= dt;
  }

  /** Admits a job of size `size` ≥ 0 at time t (its arrival time, kept for the response). */
  arrive(t: number, size: number, prediction: number): void {
    const id = this.pool.alloc(t, size, prediction, this.nextSeq++);
    this.jobs++;
    this.workload += size;
    if (this.discipline === 'las') {
      this.groups.add(0, id, this.now);
      return;
    }
    if (this.pool.cap > this.key.length) {
      const key = new Float64Array(this.pool.cap);
      key.set(this.key);
      this.key = key;
      const heap = new Int32Array(this.pool.cap);
      heap.set(this.heap);
      this.heap = heap;
    }
    if (this.jobs === 1) this.virtual = 0;
    this.key[id] = this.virtual + size;
    const h = this.heap;
    let i = this.jobs - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(id, h[parent])) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = id;
  }

  /** Processes the event nextEventIn() from the last advance: returns the completed job's id, or −1 for a LAS merge. */
  complete(): number {
    let id: number;
    if (this.discipline === 'las') {
      id = this.groups.fire(0, this.now);
      if (id < 0) return -1;
    } else {
      const h = this.heap;
      id = h[0];
      this.virtual = this.key[id];
      const n = this.jobs - 1;
      const last = h[n];
      let i = 0;
      for (;;) {
        let c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && this.less(h[c + 1], h[c])) c++;
        if (!this.less(h[c], last)) break;
        h[i] = h[c];
        i = c;
      }
      if (n > 0) h[i] = last;
    }
    this.pool.release(id);
    if (--this.jobs === 0) this.workload = 0;
    return id;
  }
}
