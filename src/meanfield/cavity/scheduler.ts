/**
 * A single-server, work-conserving, preemptive-resume queue under any discipline of theory.md §1: jobs in typed
 * arrays with a free list, waiting jobs in a binary heap keyed by (key, arrival sequence) — smallest key first, equal
 * keys FIFO. Waiting keys are frozen; the in-service key never increases, so preemption is tested only at an
 * arrival: the arrival preempts iff its key is strictly below the in-service job's current key.
 *
 * Keys (S size, Y prediction, a age = S − remaining): FIFO arrival time; SJF S; PSJF S (or S − a under
 * `psjfPreemption: 'remaining'`); SRPT S − a; SPJF Y; PSPJF Y (or Y − a); SPRPT Y − a (clipped at 0 under
 * `sprptOverrun: 'zero'`). Source: theory.md §1 (table, conventions).
 */
import type { Conventions, Discipline } from '../../model/model.ts';

/** What orders the queue: arrival time, size S, remaining size S − a, prediction Y, Y − a, or (Y − a)^+. */
const KEY = { arrival: 0, size: 1, remaining: 2, prediction: 3, predictionLessAge: 4, predictionLessAgeClipped: 5 } as const;

/** Each discipline's key under the conventions, and whether an arrival may preempt (theory.md §1 table). */
const DISCIPLINES: Record<Discipline, { readonly preemptive: boolean; key(c: Conventions): number }> = {
  fifo: { preemptive: false, key: () => KEY.arrival },
  sjf: { preemptive: false, key: () => KEY.size },
  psjf: { preemptive: true, key: (c) => (c.psjfPreemption === 'remaining' ? KEY.remaining : KEY.size) },
  srpt: { preemptive: true, key: () => KEY.remaining },
  spjf: { preemptive: false, key: () => KEY.prediction },
  pspjf: { preemptive: true, key: (c) => (c.psjfPreemption === 'remaining' ? KEY.predictionLessAge : KEY.prediction) },
  sprpt: { preemptive: true, key: (c) => (c.sprptOverrun === 'zero' ? KEY.predictionLessAgeClipped : KEY.predictionLessAge) },
};

export class CavityScheduler {
  /** Job fields by id. */
  size = new Float64Array(64);
  remaining = new Float64Array(64);
  prediction = new Float64Array(64);
  arrival = new Float64Array(64);
  private key = new Float64Array(64);
  private seq = new Float64Array(64);
  private free = new Int32Array(64);
  private freeCount = 64;
  private heap = new Int32Array(64);
  private heapSize = 0;
  private nextSeq = 0;
  /** Job in service, or −1 when idle. */
  current = -1;
  /** Jobs present (in service + waiting). */
  jobs = 0;
  /** Total remaining work (time units). */
  workload = 0;
  private readonly preemptive: boolean;
  /** One of KEY. */
  private readonly keyKind: number;

  constructor(discipline: Discipline, conventions: Conventions) {
    this.preemptive = DISCIPLINES[discipline].preemptive;
    this.keyKind = DISCIPLINES[discipline].key(conventions);
    for (let i = 0; i < 64; i++) this.free[i] = 63 - i;
  }

  /** The current key of job `id` (for the in-service job it may have decreased with its age). */
  private currentKey(id: number): number {
    switch (this.keyKind) {
      case KEY.arrival:
        return this.arrival[id];
      case KEY.size:
        return this.size[id];
      case KEY.remaining:
        return this.remaining[id];
      case KEY.prediction:
        return this.prediction[id];
      case KEY.predictionLessAge:
        return this.prediction[id] - (this.size[id] - this.remaining[id]);
      default:
        return Math.max(0, this.prediction[id] - (this.size[id] - this.remaining[id]));
    }
  }

  private grow(): void {
    const n = this.size.length;
    const g = (a: Float64Array) => {
      const b = new Float64Array(2 * n);
      b.set(a);
      return b;
    };
    this.size = g(this.size);
    this.remaining = g(this.remaining);
    this.prediction = g(this.prediction);
    this.arrival = g(this.arrival);
    this.key = g(this.key);
    this.seq = g(this.seq);
    const free = new Int32Array(2 * n);
    for (let i = 0; i < n; i++) free[i] = 2 * n - 1 - i;
    this.free = free;
    this.freeCount = n;
    const heap = new Int32Array(2 * n);
    heap.set(this.heap);
    this.heap = heap;
  }

  private less(a: number, b: number): boolean {
    const ka = this.key[a];
    const kb = this.key[b];
    return ka < kb || (ka === kb && this.seq[a] < this.seq[b]);
  }

  private push(id: number): void {
    const h = this.heap;
    let i = this.heapSize++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.less(id, h[parent])) break;
      h[i] = h[parent];
      i = parent;
    }
    h[i] = id;
  }

  private pop(): number {
    const h = this.heap;
    const top = h[0];
    const last = h[--this.heapSize];
    const n = this.heapSize;
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
    return top;
  }

  /** Lets time pass by dt ≤ the in-service job's remaining work (the caller's event logic guarantees it). */
  advance(dt: number): void {
    if (this.current < 0) return;
    this.remaining[this.current] -= dt;
    this.workload -= dt;
  }

  /** Admits a job of size `size` > 0 and prediction `prediction` at time t. */
  arrive(t: number, size: number, prediction: number): void {
    if (this.freeCount === 0) this.grow();
    const id = this.free[--this.freeCount];
    this.size[id] = size;
    this.remaining[id] = size;
    this.prediction[id] = prediction;
    this.arrival[id] = t;
    this.seq[id] = this.nextSeq++;
    this.jobs++;
    this.workload += size;
    const cur = this.current;
    if (cur < 0) {
      this.current = id;
      return;
    }
    this.key[id] = this.currentKey(id);
    if (this.preemptive) {
      const curKey = this.currentKey(cur);
      if (this.key[id] < curKey) {
        this.key[cur] = curKey;
        this.push(cur);
        this.current = id;
        return;
      }
    }
    this.push(id);
  }

  /** The in-service job completes: frees it and starts the next. @returns the completed job's id (fields stay readable until the next arrival). */
  complete(): number {
    const id = this.current;
    this.free[this.freeCount++] = id;
    this.jobs--;
    if (this.jobs === 0) {
      this.workload = 0; // clear round-off
      this.current = -1;
    } else {
      this.current = this.pop();
    }
    return id;
  }
}
