/**
 * Departure clocks of the priority engine, one per server (ids 0..n−1), in a tournament (winner) tree: leaf
 * `leaves + id` holds clock id's time (+∞ when the server is idle) and every inner node the least (time, id) of its
 * subtree, so the next departure is node 1. Setting a clock is one walk from its leaf towards the root, one
 * comparison per level, stopping where the winner no longer changes. Chosen over an indexed binary heap: the
 * engine's commonest step, the departing server's clock jumping ahead, cost a heap sift-down with two comparisons and
 * a position store per level (about a fifth of an SRPT run); here it is one comparison per level, with no position
 * index and no separate push, pop or re-key. Ties: at equal times the lower id wins, as in heap.ts, so (time, id) is a
 * strict order and the winner sequence is that of any correct priority queue.
 *
 * Callers write the time into `keys[leaves + id]` and then call `ctFix(tree, id)`: the time never passes through a
 * call argument, so a call that V8 does not inline does not box it into a heap number.
 */

/** Clock storage for ids 0..n−1; inner node i has children 2i and 2i + 1; the root is node 1. */
export interface ClockTree {
  /** Number of leaves, a power of two ≥ n; clock id sits at node leaves + id. */
  readonly leaves: number;
  /** Time of each node's winner (+∞: idle server or empty subtree). */
  readonly keys: Float64Array;
  /** Clock id of each node's winner. */
  readonly ids: Int32Array;
}

/** A tree of n ≥ 1 clocks, all at +∞ (every server idle). */
export function createClockTree(n: number): ClockTree {
  let leaves = 1;
  while (leaves < n) leaves *= 2;
  const keys = new Float64Array(2 * leaves).fill(Infinity);
  const ids = new Int32Array(2 * leaves);
  for (let j = 0; j < leaves; j++) ids[leaves + j] = j;
  for (let i = leaves - 1; i >= 1; i--) ids[i] = ids[2 * i]; // all +∞: the lower id (the left one) wins
  return { leaves, keys, ids };
}

/** Restores the winners on clock id's path after the caller wrote its new time into `keys[leaves + id]`. */
export function ctFix(tree: ClockTree, id: number): void {
  const { keys, ids } = tree;
  let i = tree.leaves + id;
  let k = keys[i];
  let w = id;
  while (i > 1) {
    // A branch here, unlike ctFixWinner: the walk usually stops after a level or two (measured 3 % faster).
    const s = i ^ 1;
    const sk = keys[s];
    if (sk < k || (sk === k && ids[s] < w)) {
      k = sk;
      w = ids[s];
    }
    i >>= 1;
    if (keys[i] === k && ids[i] === w) return; // this node's winner is unchanged, and so is every node above
    keys[i] = k;
    ids[i] = w;
  }
}

/** 1 if node i's sibling holds a smaller (time, id) than node i, else 0; arithmetic, no branch (a coin toss for the predictor). */
function siblingWins(keys: Float64Array, ids: Int32Array, i: number): number {
  const s = i ^ 1;
  const k = keys[i];
  const sk = keys[s];
  return +(sk < k) | (+(sk === k) & +(ids[s] < ids[i]));
}

/**
 * `ctFix` for the clock that is the current winner (node 1's id), after the caller wrote its new time into its leaf:
 * every node on its path held it, so every one is replayed, without `ctFix`'s test for an unchanged winner.
 */
export function ctFixWinner(tree: ClockTree, id: number): void {
  const { keys, ids } = tree;
  let i = tree.leaves + id;
  while (i > 1) {
    const win = i ^ siblingWins(keys, ids, i);
    i >>= 1;
    keys[i] = keys[win];
    ids[i] = ids[win];
  }
}
