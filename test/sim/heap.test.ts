import { describe, expect, it } from 'vitest';
import { heapPopTop, heapPush, heapReplaceTop } from '../../src/sim/heap.ts';

/** A small deterministic stream of uniforms (the test needs no particular law). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('clock heap (heap.ts)', () => {
  it('pops clocks in (time, id) order, equal times by the lower id', () => {
    const u = lcg(7);
    const n = 300;
    const keys = new Float64Array(n);
    const ids = new Int32Array(n);
    let size = 0;
    const live = new Map<number, number>();
    for (let j = 0; j < n; j++) {
      const key = Math.floor(u() * 30);
      size = heapPush(keys, ids, size, key, j);
      live.set(j, key);
    }
    for (let step = 0; step < 3000 && size > 0; step++) {
      let best = -1;
      for (const [j, key] of live) if (best < 0 || key < live.get(best)! || (key === live.get(best)! && j < best)) best = j;
      expect(ids[0]).toBe(best);
      expect(keys[0]).toBe(live.get(best));
      if (u() < 0.8) {
        // the root's clock moves ahead (a departure that starts the server's next job)
        const key = keys[0] + Math.floor(u() * 10);
        heapReplaceTop(keys, ids, size, key, best);
        live.set(best, key);
      } else {
        size = heapPopTop(keys, ids, size);
        live.delete(best);
      }
    }
  });
});
