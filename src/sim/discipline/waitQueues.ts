/**
 * Per-server priority queues of waiting jobs for the size- and prediction-based disciplines (theory.md §1:
 * smallest key first, equal keys FIFO), ordered by (key, arrival sequence number). All queues share one power-of-two
 * capacity in two flat typed arrays (server j owns entries [j·cap, (j+1)·cap)), doubled for every server when one
 * fills, so the hot loop never allocates. Two orders of the entries, one per user, never mixed on one queue: a
 * binary min-heap (`waitPush`, `waitPop`: the sharing engine, whose queues grow long) or a sorted array, decreasing,
 * the first job last (`sortedPush`: the priority engine, whose queues are short). Keys are frozen while a job waits
 * (its age only changes in service), so an entry never needs re-keying.
 */

export class WaitQueues {
  /** Waiting jobs per server (the job in service is not counted). */
  readonly len: Int32Array;
  cap: number;
  shift: number;
  /** Job slot and key of each heap entry. */
  slot: Int32Array;
  key: Float64Array;
  /**
   * Key of the next `waitPush`, written here by the caller: a double passed as an argument to a call that V8 does
   * not inline is boxed into a heap number, one allocation per push.
   */
  readonly pushKey = new Float64Array(1);

  constructor(
    readonly n: number,
    initialCapacity = 8,
  ) {
    let shift = 2;
    while (1 << shift < initialCapacity) shift++;
    this.shift = shift;
    this.cap = 1 << shift;
    this.len = new Int32Array(n);
    this.slot = new Int32Array(n << shift);
    this.key = new Float64Array(n << shift);
  }

  /** Doubles every heap's capacity. */
  grow(): void {
    const { n, shift } = this;
    const ns = shift + 1;
    const slot = new Int32Array(n << ns);
    const key = new Float64Array(n << ns);
    for (let j = 0; j < n; j++) {
      const l = this.len[j];
      slot.set(this.slot.subarray(j << shift, (j << shift) + l), j << ns);
      key.set(this.key.subarray(j << shift, (j << shift) + l), j << ns);
    }
    this.slot = slot;
    this.key = key;
    this.shift = ns;
    this.cap = 1 << ns;
  }
}

/**
 * Adds job `slot` to server j's queue under the key in `q.pushKey[0]`.
 * @param rec the job pool's records (JobPool.rec): their arrival sequence numbers, rec[slot·4 + 3], are the FIFO
 *   tie-break.
 */
export function waitPush(q: WaitQueues, j: number, slot: number, rec: Float64Array): void {
  const key = q.pushKey[0];
  const l = q.len[j];
  if (l === q.cap) q.grow();
  const base = j << q.shift;
  const keys = q.key;
  const slots = q.slot;
  const sq = rec[(slot << 2) + 3];
  let i = l;
  while (i > 0) {
    const p = (i - 1) >> 1;
    const pk = keys[base + p];
    if (pk < key || (pk === key && rec[(slots[base + p] << 2) + 3] < sq)) break;
    keys[base + i] = pk;
    slots[base + i] = slots[base + p];
    i = p;
  }
  keys[base + i] = key;
  slots[base + i] = slot;
  q.len[j] = l + 1;
}

/** Removes and returns server j's first job (least key, then least sequence number). Requires len[j] ≥ 1. */
export function waitPop(q: WaitQueues, j: number, rec: Float64Array): number {
  const base = j << q.shift;
  const keys = q.key;
  const slots = q.slot;
  const top = slots[base];
  const size = q.len[j] - 1;
  q.len[j] = size;
  if (size === 0) return top;
  const key = keys[base + size];
  const slot = slots[base + size];
  const sq = rec[(slot << 2) + 3];
  let i = 0;
  for (;;) {
    let c = 2 * i + 1;
    if (c >= size) break;
    let ck = keys[base + c];
    let cs = slots[base + c];
    const c2 = c + 1;
    if (c2 < size) {
      const k2 = keys[base + c2];
      const s2 = slots[base + c2];
      if (k2 < ck || (k2 === ck && rec[(s2 << 2) + 3] < rec[(cs << 2) + 3])) {
        c = c2;
        ck = k2;
        cs = s2;
      }
    }
    if (key < ck || (key === ck && sq < rec[(cs << 2) + 3])) break;
    keys[base + i] = ck;
    slots[base + i] = cs;
    i = c;
  }
  keys[base + i] = key;
  slots[base + i] = slot;
  return top;
}

/**
 * Adds job `slot` to server j's queue under the key in `q.pushKey[0]`, for a queue kept as a sorted array rather than
 * a heap: entries [j·cap, j·cap + len) in decreasing (key, arrival sequence number) order, so the first job is the
 * last entry (the priority engine pops it in its loop). Not to be mixed with `waitPush`/`waitPop` on one queue.
 * @param rec the job pool's records (JobPool.rec), for the FIFO tie-break at equal keys.
 */
export function sortedPush(q: WaitQueues, j: number, slot: number, rec: Float64Array): void {
  const key = q.pushKey[0];
  const l = q.len[j];
  if (l === q.cap) q.grow();
  const base = j << q.shift;
  const keys = q.key;
  const slots = q.slot;
  const sq = rec[(slot << 2) + 3];
  let i = base + l;
  while (i > base) {
    const pk = keys[i - 1];
    if (pk > key || (pk === key && rec[(slots[i - 1] << 2) + 3] > sq)) break;
    keys[i] = pk;
    slots[i] = slots[i - 1];
    i--;
  }
  keys[i] = key;
  slots[i] = slot;
  q.len[j] = l + 1;
}
