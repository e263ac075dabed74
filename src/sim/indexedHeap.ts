/**
 * Binary min-heap of event clocks with a position index (`pos[id]` = where clock `id` sits, −1 if absent), so a
 * clock can be re-keyed in place in O(log n). The priority engine needs this: a preemption moves the server's
 * departure time (earlier or later). Chosen over lazy deletion with version stamps because the heap then never
 * holds more than n + 1 clocks (one arrival, one departure per server), a pop never meets a stale entry, and the
 * cost is one extra Int32 store per sift step. Same layout, plain-function style and tie rule as heap.ts.
 */

/** Clock storage for ids 0..capacity−1. */
export interface IndexedHeap {
  readonly keys: Float64Array;
  readonly ids: Int32Array;
  readonly pos: Int32Array;
}

export function createIndexedHeap(capacity: number): IndexedHeap {
  const pos = new Int32Array(capacity);
  pos.fill(-1);
  return { keys: new Float64Array(capacity), ids: new Int32Array(capacity), pos };
}

/** Moves (key, id) up from slot i. */
function siftUp(h: IndexedHeap, i: number, key: number, id: number): void {
  const { keys, ids, pos } = h;
  while (i > 0) {
    const p = (i - 1) >> 1;
    const pk = keys[p];
    if (pk < key || (pk === key && ids[p] < id)) break; // equal times: lower id first
    keys[i] = pk;
    const pid = ids[p];
    ids[i] = pid;
    pos[pid] = i;
    i = p;
  }
  keys[i] = key;
  ids[i] = id;
  pos[id] = i;
}

/** Moves (key, id) down from slot i in a heap of `size` entries. */
function siftDown(h: IndexedHeap, size: number, i: number, key: number, id: number): void {
  const { keys, ids, pos } = h;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= size) break;
    let ck = keys[c];
    const c2 = c + 1;
    if (c2 < size) {
      const k2 = keys[c2];
      if (k2 < ck || (k2 === ck && ids[c2] < ids[c])) {
        c = c2;
        ck = k2;
      }
    }
    if (ck > key || (ck === key && ids[c] > id)) break;
    keys[i] = ck;
    const cid = ids[c];
    ids[i] = cid;
    pos[cid] = i;
    i = c;
  }
  keys[i] = key;
  ids[i] = id;
  pos[id] = i;
}

/** Inserts clock `id` (absent) at `key`. @returns the new size. */
export function ihPush(h: IndexedHeap, size: number, key: number, id: number): number {
  siftUp(h, size, key, id);
  return size + 1;
}

/** Replaces the root by clock `id` at `key` (id is the root's id or absent). Requires size ≥ 1. */
export function ihReplaceTop(h: IndexedHeap, size: number, key: number, id: number): void {
  const old = h.ids[0];
  if (old !== id) h.pos[old] = -1;
  siftDown(h, size, 0, key, id);
}

/** Removes the root. Requires size ≥ 1. @returns the new size. */
export function ihPopTop(h: IndexedHeap, size: number): number {
  h.pos[h.ids[0]] = -1;
  const last = size - 1;
  if (last > 0) siftDown(h, last, 0, h.keys[last], h.ids[last]);
  return last;
}

/** Re-keys clock `id` (present) to `key`, sifting up or down. */
export function ihUpdate(h: IndexedHeap, size: number, id: number, key: number): void {
  const i = h.pos[id];
  if (key <= h.keys[i]) siftUp(h, i, key, id);
  else siftDown(h, size, i, key, id);
}
