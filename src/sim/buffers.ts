/**
 * Recycled buffers of one thread for the per-replication arrays of a run (the response-time buffer, its batch-5
 * series, the radix histogram of its sample): `simulate` runs hundreds of replications in a pool worker, and each used
 * to allocate ~3 MB of fresh typed arrays. V8 counts typed-array memory as external and answers each ~20–60 MB of it
 * with a full mark of the thread's heap: the `npm start` preset made its worker run ~85 major GCs, whose concurrent
 * marking on V8's helper threads cost ~10 s of CPU of ~55 and took the second core from the other worker (issue 9).
 *
 * Ownership is explicit: `takeFloat32` / `takeFloat64` / `takeInt32` hand out a zero-filled array of exactly the
 * length asked; its owner gives it back with `recycle` once nothing reads it (a view is given back by its buffer, so
 * a prefix view recycles the whole array). Only buffers this thread handed out are kept, each once (a second
 * `recycle` of one buffer, a foreign or a transferred/detached buffer is ignored), and at most
 * `MAX_FREE_BYTES` of them, so the free list never holds a buffer that something else may still write. Where
 * `recycle` is never called (a caller keeps its arrays), the arrays are collected as before.
 */

/** Most bytes kept free per thread (a few replications' buffers of the largest default runs). */
const MAX_FREE_BYTES = 64 * 2 ** 20;

/** Free buffers by byte length, and their total size. */
const free = new Map<number, ArrayBuffer[]>();
let freeBytes = 0;
/** Buffers this thread handed out and not yet given back. */
const issued = new WeakSet<ArrayBuffer>();
/** Off: `recycle` keeps nothing (tests that read a run's arrays after it ended). */
let recycling = true;

function takeBuffer(bytes: number): ArrayBuffer {
  const list = free.get(bytes);
  const buffer = list?.pop();
  if (buffer === undefined) {
    const fresh = new ArrayBuffer(bytes);
    issued.add(fresh);
    return fresh;
  }
  freeBytes -= bytes;
  issued.add(buffer);
  new Uint8Array(buffer).fill(0);
  return buffer;
}

/** A zero-filled Float32Array of `length` entries (a recycled buffer when one of that size is free). */
export function takeFloat32(length: number): Float32Array {
  return new Float32Array(takeBuffer(4 * length));
}

/** A zero-filled Float64Array of `length` entries. */
export function takeFloat64(length: number): Float64Array {
  return new Float64Array(takeBuffer(8 * length));
}

/** A zero-filled Int32Array of `length` entries. */
export function takeInt32(length: number): Int32Array {
  return new Int32Array(takeBuffer(4 * length));
}

/** A zero-filled Uint16Array of `length` entries (a sample grouped by bucket: stats/quantile.ts `groupByHighBits`). */
export function takeUint16(length: number): Uint16Array {
  return new Uint16Array(takeBuffer(2 * length));
}

/**
 * Gives the buffer under `array` back for the next `take*` of its size, or a shared buffer another thread lent
 * (`lendShared`) back to that thread. The caller must not read or write it (nor any other view on it) afterwards.
 * Ignores undefined, buffers not handed out by this thread's `take*` nor lent (or given back already), empty and
 * detached ones, and buffers beyond `MAX_FREE_BYTES` of free space.
 */
export function recycle(array: Float32Array | Float64Array | Int32Array | Uint16Array | undefined): void {
  if (array === undefined || !recycling) return;
  if (isShared(array.buffer)) return giveBackShared(array.buffer);
  const buffer = array.buffer as ArrayBuffer;
  if (!issued.has(buffer)) return;
  issued.delete(buffer);
  const bytes = buffer.byteLength;
  if (bytes === 0 || freeBytes + bytes > MAX_FREE_BYTES) return;
  const list = free.get(bytes);
  if (list) list.push(buffer);
  else free.set(bytes, [buffer]);
  freeBytes += bytes;
}

/*
 * Shared buffers across threads. A pool worker posts a replication's arrays as copies on SharedArrayBuffers (a
 * transferred ArrayBuffer counts as external memory of the receiving thread and set off its full GCs: pool worker,
 * src/cli/workers/simulateWorker.ts). A shared buffer's memory is freed only once every thread that held it has
 * collected its handle, and the pool's main thread collects rarely, so fresh ones each replication doubled the default
 * report's peak memory. Instead the receiving thread lends each back (`lendShared`): its `recycle` hands the buffer to
 * the lender's `giveBack` (the pool posts it to its worker), and the worker keeps it (`keepShared`) for its next copy
 * of that byte length (`takeShared`). A copy overwrites every byte of the buffer it takes, so nothing of a former
 * content survives in it.
 */

/** Most bytes of shared buffers kept free per thread; beyond it, the least recently used sizes go first. */
const MAX_SHARED_FREE_BYTES = 64 * 2 ** 20;

/** Free shared buffers by byte length, least recently used length first, and their total size. */
const sharedFree = new Map<number, SharedArrayBuffer[]>();
let sharedFreeBytes = 0;
/** Shared buffers taken here: fresh ones and free ones reused. */
const sharedTaken = { fresh: 0, reused: 0 };
/** Shared buffers another thread lent this one (`lendShared`), each with where its `recycle` gives it back. */
const lent = new WeakMap<SharedArrayBuffer, (buffer: SharedArrayBuffer) => void>();

/**
 * A SharedArrayBuffer of exactly `bytes` bytes: a free one given back (`keepShared`) when there is one of that length,
 * else a fresh one. Its content is undefined: the caller overwrites every byte before anything reads it.
 */
export function takeShared(bytes: number): SharedArrayBuffer {
  const list = sharedFree.get(bytes);
  const buffer = list?.pop();
  if (buffer === undefined) {
    sharedTaken.fresh++;
    return new SharedArrayBuffer(bytes);
  }
  sharedTaken.reused++;
  sharedFreeBytes -= bytes;
  // this length is now the most recently used
  sharedFree.delete(bytes);
  if (list!.length > 0) sharedFree.set(bytes, list!);
  return buffer;
}

/**
 * Keeps shared buffers given back to this thread for `takeShared`: at most `MAX_SHARED_FREE_BYTES`, dropping the least
 * recently used lengths first (a run's sizes change from one cell to the next). The caller must hold them no more.
 */
export function keepShared(buffers: readonly SharedArrayBuffer[]): void {
  for (const buffer of buffers) {
    const bytes = buffer.byteLength;
    if (bytes === 0 || bytes > MAX_SHARED_FREE_BYTES) continue;
    const list = sharedFree.get(bytes);
    if (list) list.push(buffer);
    else sharedFree.set(bytes, [buffer]);
    sharedFreeBytes += bytes;
  }
  for (const [bytes, list] of sharedFree) {
    if (sharedFreeBytes <= MAX_SHARED_FREE_BYTES) break;
    while (list.length > 0 && sharedFreeBytes > MAX_SHARED_FREE_BYTES) {
      list.shift();
      sharedFreeBytes -= bytes;
    }
    if (list.length === 0) sharedFree.delete(bytes);
  }
}

/** Shared buffers `takeShared` has handed out so far: fresh ones and reused ones (each a count). */
export function sharedBuffersTaken(): { fresh: number; reused: number } {
  return { ...sharedTaken };
}

/** Bytes of free shared buffers kept now (tests). */
export function freeSharedBytes(): number {
  return sharedFreeBytes;
}

/**
 * Marks the shared buffer under `array`, which another thread lent this one, to be handed to `giveBack` once this
 * thread gives it back with `recycle` (once: a second `recycle` is ignored). A shared buffer not lent is never given
 * back (it stays with whoever holds it, collected as before).
 */
export function lendShared(array: Float32Array | Float64Array | Uint16Array, giveBack: (buffer: SharedArrayBuffer) => void): void {
  if (isShared(array.buffer)) lent.set(array.buffer, giveBack);
}

/** Whether `buffer` is shared (a page that is not cross-origin isolated, e.g. the explorer's, has no SharedArrayBuffer). */
function isShared(buffer: ArrayBufferLike): buffer is SharedArrayBuffer {
  return typeof SharedArrayBuffer === 'function' && buffer instanceof SharedArrayBuffer;
}

function giveBackShared(buffer: SharedArrayBuffer): void {
  const giveBack = lent.get(buffer);
  if (giveBack === undefined) return;
  lent.delete(buffer);
  giveBack(buffer);
}

/** Bytes of free buffers kept now (tests). */
export function freeBufferBytes(): number {
  return freeBytes;
}

/**
 * Turns recycling on or off for this thread (tests that inspect a run's state after `simulate` returned, when its
 * buffers would already serve the next run); returns the previous setting.
 */
export function setBufferRecycling(on: boolean): boolean {
  const was = recycling;
  recycling = on;
  return was;
}
