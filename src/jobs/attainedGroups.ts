/**
 * Least attained service (LAS, also called foreground–background, FB) for one or many servers, in O(log k) amortised
 * per event (k jobs at the server). LAS serves the jobs with the least attained service a, sharing the server equally
 * among them (Kleinrock, Queueing Systems II, 1976, §4.7; Schrage 1967). At a server the jobs form *groups* of equal
 * attained service; the lowest group is served, each of its m jobs gaining service at rate 1/m. A group's level only
 * grows while it is served, and an arrival (a = 0) starts a new lowest group (or joins the lowest one when that one is
 * still at a = 0), so the groups of a server are a stack ordered by level: the served group on top, strictly higher
 * levels below. The top group either
 *   - completes its smallest job when its level reaches that job's size S (the job leaves), or
 *   - reaches the level of the group below it and merges with it;
 * whichever comes first is the server's next internal event. Within a group the completion order is by size, so each
 * group is a pairing heap (Fredman, Sedgewick, Sleator & Tarjan, Algorithmica 1986) on (S, arrival number) over the
 * jobs' pool slots: meld O(1), delete-min O(log k) amortised; merging two groups is one meld.
 *
 * Storage: typed arrays only, no allocation per event (the arrays double with the pool or the group count). The
 * server's next event time is written into `clock[j]` (the caller's clock array: the engine's clock tree, a cavity
 * queue's own slot), never passed as a call result, so no double is boxed. Ties: a merge goes before a completion at
 * the same time (the completion then follows at the same instant). Levels are snapped to the exact target at each
 * event (the merged-into group's level, the completed job's size), so round-off does not accumulate.
 * Shared by the simulator's sharing engine (src/sim/sharingEngine.ts) and the cavity queue
 * (src/meanfield/cavity/sharingScheduler.ts); imports only the job pool.
 */
import type { JobPool } from './jobPool.ts';

export class AttainedGroups {
  /** Pairing-heap links by job slot: first child and next sibling (−1 none). */
  child: Int32Array;
  sibling: Int32Array;
  /** Group records: heap root (job slot), jobs in the group, next group down the stack (−1 none), level (attained service of each member). */
  gRoot: Int32Array;
  gCount: Int32Array;
  gNext: Int32Array;
  gLevel: Float64Array;
  private gFree: Int32Array;
  private gFreeCount: number;
  /** Served (top) group of each server, −1 when idle. */
  readonly top: Int32Array;
  /** Time at which the top group's level was last written (its level now is gLevel + (t − segStart)/gCount). */
  readonly segStart: Float64Array;
  /** 1 when server j's next event (at clock[j]) is a merge, 0 when it is a completion. */
  readonly mergeNext: Uint8Array;

  /**
   * @param n servers. @param pool the jobs (size and seq are read through it: it may grow).
   * @param clock the caller's clock array, length ≥ n: clock[j] is set to server j's next event time (+∞ when idle).
   */
  constructor(
    n: number,
    readonly pool: JobPool,
    readonly clock: Float64Array,
  ) {
    this.child = new Int32Array(pool.cap).fill(-1);
    this.sibling = new Int32Array(pool.cap).fill(-1);
    const g = Math.max(16, n);
    this.gRoot = new Int32Array(g);
    this.gCount = new Int32Array(g);
    this.gNext = new Int32Array(g);
    this.gLevel = new Float64Array(g);
    this.gFree = new Int32Array(g);
    for (let i = 0; i < g; i++) this.gFree[i] = g - 1 - i;
    this.gFreeCount = g;
    this.top = new Int32Array(n).fill(-1);
    this.segStart = new Float64Array(n);
    this.mergeNext = new Uint8Array(n);
  }

  /** (S, seq) order of two job slots: true when a completes before b. */
  private less(a: number, b: number): boolean {
    const pool = this.pool;
    const sa = pool.size(a);
    const sb = pool.size(b);
    return sa < sb || (sa === sb && pool.seq(a) < pool.seq(b));
  }

  /** Melds two pairing heaps (roots a, b with no siblings; −1 = empty); returns the new root. */
  private meld(a: number, b: number): number {
    if (a < 0) return b;
    if (b < 0) return a;
    if (this.less(b, a)) {
      const x = a;
      a = b;
      b = x;
    }
    this.sibling[b] = this.child[a];
    this.child[a] = b;
    return a;
  }

  /** Removes root r of a pairing heap (two-pass pairing of its children); returns the new root (−1 if empty). */
  private deleteMin(r: number): number {
    const sibling = this.sibling;
    let c = this.child[r];
    this.child[r] = -1;
    if (c < 0) return -1;
    // first pass: meld pairs left to right, the results stacked through `sibling` (last pair on top)
    let acc = -1;
    while (c >= 0) {
      const a = c;
      const b = sibling[a];
      if (b < 0) {
        sibling[a] = acc;
        acc = a;
        break;
      }
      c = sibling[b];
      sibling[a] = -1;
      sibling[b] = -1;
      const m = this.meld(a, b);
      sibling[m] = acc;
      acc = m;
    }
    // second pass: meld the stacked results right to left
    let result = acc;
    acc = sibling[result];
    sibling[result] = -1;
    while (acc >= 0) {
      const next = sibling[acc];
      sibling[acc] = -1;
      result = this.meld(result, acc);
      acc = next;
    }
    return result;
  }

  private newGroup(root: number, level: number, next: number): number {
    if (this.gFreeCount === 0) this.growGroups();
    const g = this.gFree[--this.gFreeCount];
    this.gRoot[g] = root;
    this.gCount[g] = 1;
    this.gLevel[g] = level;
    this.gNext[g] = next;
    return g;
  }

  private freeGroup(g: number): void {
    this.gFree[this.gFreeCount++] = g;
  }

  private growGroups(): void {
    const old = this.gRoot.length;
    const cap = 2 * old;
    const widen32 = (a: Int32Array) => {
      const b = new Int32Array(cap);
      b.set(a);
      return b;
    };
    this.gRoot = widen32(this.gRoot);
    this.gCount = widen32(this.gCount);
    this.gNext = widen32(this.gNext);
    const level = new Float64Array(cap);
    level.set(this.gLevel);
    this.gLevel = level;
    this.gFree = new Int32Array(cap);
    for (let i = 0; i < old; i++) this.gFree[i] = cap - 1 - i;
    this.gFreeCount = old;
  }

  private growLinks(): void {
    const cap = this.pool.cap;
    const child = new Int32Array(cap).fill(-1);
    child.set(this.child);
    this.child = child;
    const sibling = new Int32Array(cap).fill(-1);
    sibling.set(this.sibling);
    this.sibling = sibling;
  }

  /** Sets clock[j] and mergeNext[j] from server j's top group, whose level was just written at time t. */
  private schedule(j: number, t: number): void {
    const g = this.top[j];
    if (g < 0) {
      this.clock[j] = Infinity;
      return;
    }
    const m = this.gCount[g];
    const level = this.gLevel[g];
    const done = t + (this.pool.size(this.gRoot[g]) - level) * m;
    const below = this.gNext[g];
    const merge = below >= 0 ? t + (this.gLevel[below] - level) * m : Infinity;
    if (merge <= done) {
      this.clock[j] = merge;
      this.mergeNext[j] = 1;
    } else {
      this.clock[j] = done;
      this.mergeNext[j] = 0;
    }
  }

  /** Job slot x (no service yet) joins server j at time t; clock[j] is updated. */
  add(j: number, x: number, t: number): void {
    if (this.pool.cap > this.child.length) this.growLinks();
    this.child[x] = -1;
    this.sibling[x] = -1;
    const g = this.top[j];
    if (g < 0) {
      this.top[j] = this.newGroup(x, 0, -1);
    } else {
      const level = this.gLevel[g] + (t - this.segStart[j]) / this.gCount[g];
      if (level > 0) {
        this.gLevel[g] = level; // frozen while it waits
        this.top[j] = this.newGroup(x, 0, g);
      } else {
        this.gLevel[g] = 0;
        this.gRoot[g] = this.meld(this.gRoot[g], x);
        this.gCount[g]++;
      }
    }
    this.segStart[j] = t;
    this.schedule(j, t);
  }

  /**
   * Server j's event at time t = clock[j]: a merge of its top group into the one below (returns −1), or the
   * completion of the top group's smallest job (returns its slot; the caller releases it from the pool).
   * clock[j] is updated.
   */
  fire(j: number, t: number): number {
    const g = this.top[j];
    let out = -1;
    if (this.mergeNext[j] === 1) {
      const below = this.gNext[g];
      this.gRoot[below] = this.meld(this.gRoot[g], this.gRoot[below]);
      this.gCount[below] += this.gCount[g];
      this.freeGroup(g);
      this.top[j] = below;
    } else {
      const r = this.gRoot[g];
      out = r;
      this.gLevel[g] = this.pool.size(r);
      this.gRoot[g] = this.deleteMin(r);
      if (--this.gCount[g] === 0) {
        this.top[j] = this.gNext[g];
        this.freeGroup(g);
      }
    }
    this.segStart[j] = t;
    this.schedule(j, t);
    return out;
  }
}
