/**
 * A single-server, work-conserving, preemptive-resume queue under any discipline of theory.md §1: jobs in a JobPool
 * (src/jobs/jobPool.ts: typed arrays with a free-slot stack, `rem` kept at the current time), waiting jobs in a binary heap keyed by (key, arrival sequence) — smallest key first, equal
 * keys FIFO. Waiting keys are frozen; the in-service key never increases, so preemption is tested only at an
 * arrival: the arrival preempts iff its key is strictly below the in-service job's current key.
 *
 * Keys (S size, Y prediction, a age = S − remaining): FIFO arrival time; SJF S; PSJF S (or S − a under
 * `psjfPreemption: 'remaining'`); SRPT S − a; SPJF Y; PSPJF Y (or Y − a); SPRPT Y − a (clipped at 0 under
 * `sprptOverrun: 'zero'`). Source: theory.md §1 (table, conventions).
 */
import { JobPool } from '../../jobs/jobPool.ts';
import { InvalidModelError } from '../../errors.ts';
import { DISCIPLINE_TABLE, unknownPolicy, type Conventions, type Discipline } from '../../model/model.ts';

/** What orders the queue: arrival time, size S, remaining size S − a, prediction Y, Y − a, or (Y − a)^+. */
const KEY = { arrival: 0, size: 1, remaining: 2, prediction: 3, predictionLessAge: 4, predictionLessAgeClipped: 5 } as const;

/**
 * A discipline's key kind under the conventions, from its row of the discipline table (model/policy): the rank key,
 * with `psjfPreemption: 'remaining'` turning a preemptive size (prediction) rank into S − a (Y − a) and
 * `sprptOverrun: 'zero'` clipping Y − a at 0 (theory.md §1 table, conventions).
 * @throws {InvalidModelError} for a discipline that is not a priority server (this queue serves one job at a time).
 */
function keyKindOf(discipline: Discipline, c: Conventions): number {
  const row = DISCIPLINE_TABLE[discipline];
  if (row.server !== 'priority' || row.rank === undefined) {
    throw new InvalidModelError(`the cavity queue serves priority disciplines only, not ${discipline} (${row.server} server)`);
  }
  const rank = row.rank;
  switch (rank) {
    case 'arrival':
      return KEY.arrival;
    case 'size':
      return row.preemptive && c.psjfPreemption === 'remaining' ? KEY.remaining : KEY.size;
    case 'remaining size':
      return KEY.remaining;
    case 'predicted size':
      return row.preemptive && c.psjfPreemption === 'remaining' ? KEY.predictionLessAge : KEY.prediction;
    case 'predicted remaining':
      return c.sprptOverrun === 'zero' ? KEY.predictionLessAgeClipped : KEY.predictionLessAge;
    default:
      return unknownPolicy(rank, 'rank key');
  }
}

export class CavityScheduler {
  /** The jobs present, by id (arrival, size, pred, rem = remaining work now, seq); read them through the pool. */
  readonly pool = new JobPool(64);
  /** Frozen key of each waiting job, by id; as long as the pool. */
  private key = new Float64Array(this.pool.cap);
  private heap = new Int32Array(this.pool.cap);
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
    this.preemptive = DISCIPLINE_TABLE[discipline].preemptive;
    this.keyKind = keyKindOf(discipline, conventions);
  }

  /** The current key of job `id` (for the in-service job it may have decreased with its age). */
  private currentKey(id: number): number {
    const p = this.pool;
    switch (this.keyKind) {
      case KEY.arrival:
        return p.arrival(id);
      case KEY.size:
        return p.size(id);
      case KEY.remaining:
        return p.rem(id);
      case KEY.prediction:
        return p.pred[id];
      case KEY.predictionLessAge:
        return p.pred[id] - (p.size(id) - p.rem(id));
      default:
        return Math.max(0, p.pred[id] - (p.size(id) - p.rem(id)));
    }
  }

  /** Widens the key and heap arrays to the pool's capacity (after the pool grew). */
  private widen(): void {
    const key = new Float64Array(this.pool.cap);
    key.set(this.key);
    this.key = key;
    const heap = new Int32Array(this.pool.cap);
    heap.set(this.heap);
    this.heap = heap;
  }

  private less(a: number, b: number): boolean {
    const ka = this.key[a];
    const kb = this.key[b];
    return ka < kb || (ka === kb && this.pool.seq(a) < this.pool.seq(b));
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

  /** Time until the in-service job completes (+∞ when idle): the queue's next event (`CavityServer`). */
  nextEventIn(): number {
    return this.current < 0 ? Infinity : this.pool.rem(this.current);
  }

  /** Lets time pass by dt ≤ the in-service job's remaining work (the caller's event logic guarantees it). */
  advance(dt: number): void {
    if (this.current < 0) return;
    this.pool.setRem(this.current, this.pool.rem(this.current) - dt);
    this.workload -= dt;
  }

  /**
   * Predicted work left, P = Σ over present jobs of v(Y, a) under the `lpwWork` convention (theory.md §1, §5; the
   * simulator's lpwWork in sim/selection/leastWork.ts): 'clip' (Y − a)^+, 'signed' Y − a, 'static' Y; 0 when idle.
   * O(jobs present).
   */
  predictedWork(mode: Conventions['lpwWork']): number {
    if (this.current < 0) return 0;
    const p = this.pool;
    let sum = 0;
    for (let i = -1; i < this.heapSize; i++) {
      const id = i < 0 ? this.current : this.heap[i];
      const y = p.pred[id];
      if (mode === 'static') sum += y;
      else {
        const x = y - (p.size(id) - p.rem(id));
        sum += mode === 'clip' ? (x > 0 ? x : 0) : x;
      }
    }
    return sum;
  }

  /** Admits a job of size `size` > 0 and prediction `prediction` at time t. */
  arrive(t: number, size: number, prediction: number): void {
    const id = this.pool.alloc(t, size, prediction, this.nextSeq++);
    if (this.pool.cap > this.key.length) this.widen();
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
    this.pool.release(id);
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
