/**
 * Binary min-heap of event clocks with a position index (`pos[id]` = where clock `id` sits, −1 if absent), so a
 * clock can be re-keyed in place in O(log n). The priority engine needs this: a preemption moves the server's
 * departure time (earlier or later). Chosen over lazy deletion with version stamps because the heap then never
 * holds more than n clocks (one departure per server; the engine keeps its arrival clock apart), a pop never
 * meets a stale entry, and the cost is one extra Int32 store per sift step. Same layout, plain-function style and
 * tie rule as heap.ts. Ids are distinct, so (key, id) is a strict order and the pop sequence does not depend on
 * the layout.
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

/**
 * Restores heap order after the caller raised the root's key in place (`keys[0] = key`, key ≥ the old one; the
 * root keeps its id). The priority engine's departure step: the server's next job starts at once. Taking the key
 * through the array rather than as an argument spares a boxed double per call when the call is not inlined.
 */
export function ihRaiseTop(h: IndexedHeap, size: number): void {
  siftDown(h, size, 0, h.keys[0], h.ids[0]);
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
