import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/model.ts';
import { createClockTree4, ct4Fix, type ClockTree4 } from '../../src/sim/clockTree.ts';
import { simulate } from '../../src/sim/simulate.ts';

/** The least (time, id) of clocks 0..n−1 by brute force. */
function leastClock(times: Float64Array, n: number): number {
  let w = 0;
  for (let j = 1; j < n; j++) if (times[j] < times[w] || (times[j] === times[w] && j < w)) w = j;
  return w;
}

/** Every inner node of the 4-ary tree holds the least (time, id) of its four children's winners. */
function consistent(tree: ClockTree4): boolean {
  const { first, times, ids } = tree;
  for (let i = first - 1; i >= 1; i--) {
    let w = ids[4 * i - 2];
    for (let c = 4 * i - 1; c <= 4 * i + 1; c++) {
      const x = ids[c];
      if (times[x] < times[w] || (times[x] === times[w] && x < w)) w = x;
    }
    if (ids[i] !== w) return false;
  }
  return true;
}

/** A small deterministic stream of uniforms (the test needs no particular law). */
function lcg(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe('4-ary clock tree (clockTree.ts)', () => {
  it('its winner is the least (time, id) after every change, ties to the lower id, for any n', () => {
    for (const n of [1, 2, 3, 4, 5, 16, 17, 100, 1000]) {
      const tree = createClockTree4(n);
      expect(tree.ids[1]).toBe(0); // all idle (+∞): the lowest id
      const u = lcg(n);
      for (let step = 0; step < 4000; step++) {
        // times from a small set (many ties), +∞ (idle) now and then; every third step the winner's own clock
        const id = step % 3 === 0 ? tree.ids[1] : Math.floor(u() * n);
        tree.times[id] = u() < 0.1 ? Infinity : Math.floor(u() * 20);
        ct4Fix(tree, id);
        expect(tree.ids[1]).toBe(leastClock(tree.times, n));
      }
      expect(consistent(tree)).toBe(true);
    }
  });
});

describe("the priority engine's tree walks (written out in its loop, five levels, then a loop)", () => {
  it('FIFO through the priority engine is the FIFO event engine, bit for bit, at every depth of the tree', () => {
    // n = 2 … 17: one or two levels; 1000: five, all written out; 1025 and 5000: six and seven, the loop above them.
    // The event engine's binary heap orders departures by (time, id) as the tree does, so any walk that leaves a wrong
    // winner changes the order of departures and the numbers.
    const model = parseModel({ lambda: 0.9, d: 2, sampling: 'without-replacement' });
    for (const n of [2, 3, 17, 1000, 1025, 5000]) {
      const options = { n, jobs: 4 * n + 2000, replications: 2, seed: 3, warmupTime: 5 };
      const numbers = (r: ReturnType<typeof simulate>) => {
        const { meanResponseTime, meanQueueLength, tail, meanSlowdown, responseTimePercentiles, events, perReplication } = r;
        return { meanResponseTime, meanQueueLength, tail, meanSlowdown, responseTimePercentiles, events, perReplication };
      };
      const a = simulate(model, { ...options, engine: 'event' });
      const b = simulate(model, { ...options, engine: 'priority' });
      expect([a.engine, b.engine]).toEqual(['event', 'priority']);
      expect(numbers(b), `n = ${n}`).toEqual(numbers(a));
    }
  });
});
