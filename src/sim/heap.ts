/**
 * Binary min-heap of event clocks in two parallel typed arrays (`keys`: event times, `ids`: clock owner).
 * Plain functions over the arrays rather than a class, so the engine keeps the arrays in locals and V8 inlines
 * every call into the hot loop; no allocation after construction. The engine owns the size counter.
 * Source: the classic array heap (Williams 1964), as in ../shared/bench/reference-sim.c; `replaceTop` merges a
 * pop and a push into one sift-down.
 * Equal times (trace replays: zero gaps, size-0 jobs, integer seconds) are ordered by id, lower first: the FIFO engine
 * gives departures ids 0..n−1, so at equal times they leave server by server in index order (and before an arrival at
 * the same time, which that engine keeps outside the heap). The tie test runs only when two keys are equal, so the hot path is one comparison as before.
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
    if (c2 < size) {
      // The smaller child without a branch (a branch on it is mispredicted about half the time): +(a < b) is 0 or 1.
      // Equal times (trace replays) take a branch that is otherwise never taken, so the ids are read only then (as
      // one expression with both, the ids were read at every level: ~3 % of the FIFO engine's loop).
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
