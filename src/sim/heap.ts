/**
 * Binary min-heap of event clocks in two parallel typed arrays (`keys`: event times, `ids`: clock owner).
 * Plain functions over the arrays rather than a class, so the engine keeps the arrays in locals; no allocation after
 * construction. The engine owns the size counter. The FIFO engine writes `heapReplaceTop` out in its loop (V8 does not
 * inline it at its size, and a call boxes its double argument); the two must stay the same sift (test/sim/heap.test.ts
 * checks this one's order, the hash scripts the engine's results).
 * Source: the classic array heap (Williams 1964), as in ../shared/bench/reference-sim.c; `replaceTop` merges a
 * pop and a push into one sift-down, and takes its levels two at a time (its note says why: the same heap results).
 * Equal times (trace replays: zero gaps, size-0 jobs, integer seconds) are ordered by id, lower first: the FIFO engine
 * gives departures ids 0..n−1, so at equal times they leave server by server in index order (and before an arrival at
 * the same time, which that engine keeps outside the heap). The tie test runs only when two keys are equal, so the hot path is one comparison as before.
 *
 * Kept after measuring other event lists with the same event order (any correct priority queue gives it: (time, id) is
 * a strict order), in instructions per event of a warmed-up `simulate` of the bench's FIFO row (cachegrind,
 * `node --single-threaded`, the difference of runs with and without 4·10⁶ events; repeat runs within ±0.3): this heap
 * written out in the engine 1082.5; a bottom-up sift (the hole down the path of smaller children, then the new clock up)
 * 1110.8; times and ids interleaved in one Float64Array (one map check and one data pointer instead of two) 1109.3;
 * the winner tree of clockTree.ts, called through ctFix/ctFixWinner 1099.8, written out in the loop 1089.3. In V8's
 * code each typed-array access costs a bounds check, and per array and basic block a map check and reloads of length
 * and data pointer, so a scheme wins only by touching fewer elements; none of these did.
 */

/** Event-list storage for at most `capacity` clocks. */
export interface HeapArrays {
  readonly keys: Float64Array;
  readonly ids: Int32Array;
}

/** Allocates a heap able to hold `capacity` clocks. */
export function createHeap(capacity: number): HeapArrays {
  return { keys: new Float64Array(capacity), ids: new Int32Array(capacity) };
}

/**
 * Inserts clock `id` firing at `key`.
 * @returns the new size (size + 1). The caller guarantees size < capacity.
 */
export function heapPush(keys: Float64Array, ids: Int32Array, size: number, key: number, id: number): number {
  let i = size;
  while (i > 0) {
    const p = (i - 1) >> 1;
    const pk = keys[p];
    if (pk < key || (pk === key && ids[p] < id)) break; // equal times: lower id first
    keys[i] = pk;
    ids[i] = ids[p];
    i = p;
  }
  keys[i] = key;
  ids[i] = id;
  return size + 1;
}

/**
 * Replaces the root (the earliest clock) by clock `id` at `key` and sifts it down; size unchanged. Requires size ≥ 1.
 * (Also the sift of `heapPopTop`, so that the engines inline one function, not a wrapper around it.)
 */
export function heapReplaceTop(keys: Float64Array, ids: Int32Array, size: number, key: number, id: number): void {
  let i = 0;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= size) break;
    const c2 = c + 1;
    const g = 2 * c + 1; // the first of i's four grandchildren g … g + 3
    if (g + 3 < size) {
      // Two levels from one round of loads: the smaller child m of i, and the smaller of each child's two children,
      // compared before m is known, so that m's smaller child is picked by integer arithmetic. One level was a chain
      // of a load, a comparison and the next level's load; here the comparisons of both levels wait for one load.
      // Equal times (trace replays) take a branch that is otherwise never taken; the ids are read only then.
      const k1 = keys[c];
      const k2 = keys[c2];
      const g0 = keys[g];
      const g1 = keys[g + 1];
      const g2 = keys[g + 2];
      const g3 = keys[g + 3];
      const b = k2 === k1 ? +(ids[c2] < ids[c]) : +(k2 < k1);
      const ba = g1 === g0 ? +(ids[g + 1] < ids[g]) : +(g1 < g0);
      const bb = g3 === g2 ? +(ids[g + 3] < ids[g + 2]) : +(g3 < g2);
      const m = c + b;
      const gm = g + 2 * b + (ba ^ ((ba ^ bb) & -b)); // b ? bb : ba, without a branch
      const mk = keys[m];
      if (mk > key || (mk === key && ids[m] > id)) break;
      keys[i] = mk;
      ids[i] = ids[m];
      i = m;
      const gk = keys[gm];
      if (gk > key || (gk === key && ids[gm] > id)) break;
      keys[i] = gk;
      ids[i] = ids[gm];
      i = gm;
      continue;
    }
    if (c2 < size) {
      // The smaller child without a branch (a branch on it is mispredicted about half the time): +(a < b) is 0 or 1.
      const k1 = keys[c];
      const k2 = keys[c2];
      c += k2 === k1 ? +(ids[c2] < ids[c]) : +(k2 < k1);
    }
    const ck = keys[c];
    if (ck > key || (ck === key && ids[c] > id)) break;
    keys[i] = ck;
    ids[i] = ids[c];
    i = c;
  }
  keys[i] = key;
  ids[i] = id;
}

/**
 * Removes the root. Requires size ≥ 1.
 * @returns the new size (size − 1).
 */
export function heapPopTop(keys: Float64Array, ids: Int32Array, size: number): number {
  const last = size - 1;
  if (last > 0) heapReplaceTop(keys, ids, last, keys[last], ids[last]);
  return last;
}
