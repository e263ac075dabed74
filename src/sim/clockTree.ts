/**
 * Departure clocks of the priority engine, one per server (ids 0..n−1), in a tournament (winner) tree: `times[id]`
 * holds clock id's time (+∞ when the server is idle), leaf `leaves + id` stands for clock id, and every inner node
 * holds the id of the least (time, id) of its subtree, so the next departure is clock `ids[1]`, at `times[ids[1]]`.
 * Setting a clock is one walk from its leaf towards the root, one comparison per level, stopping where the winner no
 * longer changes. Chosen over an indexed binary heap: the engine's commonest step, the departing server's clock
 * jumping ahead, cost a heap sift-down with two comparisons and a position store per level (about a fifth of an SRPT
 * run); here it is one comparison per level, with no position index and no separate push, pop or re-key. Ties: at
 * equal times the lower id wins, as in heap.ts, so (time, id) is a strict order and the winner sequence is that of
 * any correct priority queue.
 *
 * Inner nodes hold ids only, not times: a walk carries its winner's (time, id) up the path and reads only the
 * sibling's winner id and that clock's time, which do not depend on the walk's earlier levels, so the processor
 * fetches them ahead; the comparisons chain only through registers and one load of the winner's time per level
 * (inner nodes holding a copy of their winner's time as well made every level wait for the store of the level
 * below).
 *
 * Callers write the time into `times[id]` and then call `ctFix(tree, id)`: the time never passes through a call
 * argument, so a call that V8 does not inline does not box it into a heap number.
 */

/** Clock storage for ids 0..n−1; inner node i has children 2i and 2i + 1; the root is node 1. */
export interface ClockTree {
  /** Number of leaves, a power of two ≥ n; clock id sits at node leaves + id. */
  readonly leaves: number;
  /** Time of each clock (+∞: idle server, or an id ≥ n filling the last leaves). */
  readonly times: Float64Array;
  /** Clock id of each node's winner (of clock id itself at its leaf). */
  readonly ids: Int32Array;
}

/** A tree of n ≥ 1 clocks, all at +∞ (every server idle). */
export function createClockTree(n: number): ClockTree {
  let leaves = 1;
  while (leaves < n) leaves *= 2;
  const times = new Float64Array(leaves).fill(Infinity);
  const ids = new Int32Array(2 * leaves);
  for (let j = 0; j < leaves; j++) ids[leaves + j] = j;
  for (let i = leaves - 1; i >= 1; i--) ids[i] = ids[2 * i]; // all +∞: the lower id (the left one) wins
  return { leaves, times, ids };
}

/** Restores the winners on clock id's path after the caller wrote its new time into `times[id]`. */
export function ctFix(tree: ClockTree, id: number): void {
  const { times, ids } = tree;
  let i = tree.leaves + id;
  let k = times[id];
  let w = id;
  while (i > 1) {
    // A branch here, unlike ctFixWinner: the walk usually stops after a level or two (measured 3 % faster).
    const sw = ids[i ^ 1];
    const sk = times[sw];
    if (sk < k || (sk === k && sw < w)) {
      k = sk;
      w = sw;
    }
    i >>= 1;
    // Another clock that already won this node: its time is unchanged, so is this node and every node above.
    if (ids[i] === w && w !== id) return;
    ids[i] = w;
  }
}

/**
 * `ctFix` for the clock that is the current winner (node 1's id), after the caller wrote its new time into
 * `times[id]`: every node on its path held it, so every one is replayed, without `ctFix`'s test for an unchanged
 * winner, and by arithmetic rather than branches (whether the sibling's subtree wins is a coin toss for the predictor).
 */
export function ctFixWinner(tree: ClockTree, id: number): void {
  const { times, ids } = tree;
  let i = tree.leaves + id;
  let k = times[id];
  let w = id;
  while (i > 1) {
    const sw = ids[i ^ 1];
    const sk = times[sw];
    // (sk, sw) < (k, w); `<=` rather than `===` for the tie (the same for times, never NaN): a double `===` costs a
    // parity test and a branch in V8's code, on the chain from one level to the next.
    const siblingWins = +(sk < k) | (+(sk <= k) & +(sw < w));
    w ^= (w ^ sw) & -siblingWins;
    k = times[w];
    i >>= 1;
    ids[i] = w;
  }
}

/**
 * A 4-ary tournament tree of the same clocks (the priority engine's): node 1 is the root, the children of node i are
 * 4i − 2 … 4i + 1, the parent of node x is ⌊(x − 2)/4⌋ + 1, and clock id sits at leaf `first + id`. Half the levels of
 * the binary tree (5 rather than 10 for 1000 servers). A walk's chain from one level to the next is still one
 * comparison of the carried winner with one rival and one load of the new winner's time: the rival is the least of the
 * node's three other children, found from times that do not depend on the walk (the processor works them out ahead).
 * The same (time, id) order, so the same winner sequence as the binary tree.
 */
export interface ClockTree4 {
  /** Node of clock 0; clock id sits at node first + id. Leaves: a power of four ≥ n. */
  readonly first: number;
  /** Time of each clock (+∞: idle server, or an id ≥ n filling the last leaves). */
  readonly times: Float64Array;
  /** Clock id of each node's winner (of clock id itself at its leaf); node 0 unused. */
  readonly ids: Int32Array;
}

/** A 4-ary tree of n ≥ 1 clocks, all at +∞ (every server idle). */
export function createClockTree4(n: number): ClockTree4 {
  let leaves = 1;
  while (leaves < n) leaves *= 4;
  const first = (leaves + 2) / 3; // after the (leaves − 1)/3 inner nodes 1 …
  const times = new Float64Array(leaves).fill(Infinity);
  const ids = new Int32Array(first + leaves);
  for (let j = 0; j < leaves; j++) ids[first + j] = j;
  for (let i = first - 1; i >= 1; i--) ids[i] = ids[4 * i - 2]; // all +∞: the lowest id (the first child) wins
  return { first, times, ids };
}

/**
 * The least (time, id) of the three children of x's parent other than x (`ct4Fix`): loads that do not depend on the
 * walk's winner, compared without a branch. A node's children hold increasing ranges of ids (every id under child
 * g + 1 is above every id under child g), so the three are taken in index order and a later one wins only when its
 * time is strictly less: the id tie-break is the order of the comparisons, with no comparison of ids.
 */
export function rivalOf(times: Float64Array, ids: Int32Array, x: number): number {
  const q = x - 2;
  const g = (q & ~3) + 2;
  const p = q & 3; // x's place among its parent's children g … g + 3
  // the other three in index order: 1, 2, 3 (p = 0); 0, 2, 3 (p = 1); 0, 1, 3 (p = 2); 0, 1, 2 (p = 3)
  const a = ids[g + +(p === 0)];
  const b = ids[g + 1 + +(p <= 1)];
  const c = ids[g + 3 - +(p === 3)];
  const ab = a ^ ((a ^ b) & -+(times[b] < times[a]));
  return ab ^ ((ab ^ c) & -+(times[c] < times[ab]));
}

/**
 * `ctFix` on a 4-ary tree: restores the winners on clock id's path after the caller wrote its time into `times[id]`,
 * whether the clock was the winner (every node on its path is then replayed: the early stop cannot fire, as there
 * ids[i] === w means w === id) or not. The rival comparison without a branch (a coin toss for the predictor); the
 * engines write this walk out in their loops.
 */
export function ct4Fix(tree: ClockTree4, id: number): void {
  const { times, ids } = tree;
  let i = tree.first + id;
  let k = times[id];
  let w = id;
  while (i > 1) {
    const sw = rivalOf(times, ids, i);
    const sk = times[sw];
    // (sk, sw) < (k, w); `<=` for the tie (the same for times, never NaN)
    const rivalWins = +(sk < k) | (+(sk <= k) & +(sw < w));
    w ^= (w ^ sw) & -rivalWins;
    k = times[w];
    i = ((i - 2) >> 2) + 1;
    // Another clock that already won this node: its time is unchanged, so is this node and every node above.
    if (ids[i] === w && w !== id) return;
    ids[i] = w;
  }
}
