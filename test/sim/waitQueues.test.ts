/**
 * The wait queues' two orders (src/sim/discipline/waitQueues.ts): the heap (`waitPush`/`waitPop`, sharing engine) and
 * the sorted array (`sortedPush`, the priority engine, which pops the last entry in its loop) serve the same jobs in
 * the same order: least key first, equal keys by arrival sequence number. Checked against a plain sort, with many
 * ties, pushes and pops interleaved, and growth.
 */
import { describe, expect, it } from 'vitest';
import { WaitQueues, sortedPush, waitPop, waitPush } from '../../src/sim/discipline/waitQueues.ts';

/** Records as JobPool lays them out: four doubles per slot, the sequence number at + 3. */
function records(seqs: number[]): Float64Array {
  const rec = new Float64Array(4 * seqs.length);
  seqs.forEach((s, slot) => (rec[4 * slot + 3] = s));
  return rec;
}

/** A small deterministic stream (LCG) of integers in [0, m). */
function stream(seed: number) {
  let x = seed >>> 0;
  return (m: number) => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x % m;
  };
}

describe('wait queues: heap and sorted array', () => {
  it('serve jobs least key first, equal keys by arrival number, through interleaved pushes, pops and growth', () => {
    const jobs = 300;
    const next = stream(7);
    const keys = Array.from({ length: jobs }, () => next(6)); // 6 key values: many ties
    // distinct arrival numbers (as in the engine), in shuffled order
    const seqs = Array.from({ length: jobs }, (_, i) => i);
    for (let i = jobs - 1; i > 0; i--) {
      const k = next(i + 1);
      [seqs[i], seqs[k]] = [seqs[k], seqs[i]];
    }
    const rec = records(seqs);
    const heap = new WaitQueues(3, 4);
    const sorted = new WaitQueues(3, 4);
    const model: number[] = []; // slots waiting at server 1
    const served: [number[], number[], number[]] = [[], [], []];
    const before = (a: number, b: number) => keys[a] - keys[b] || seqs[a] - seqs[b];
    for (let slot = 0; slot < jobs; slot++) {
      heap.pushKey[0] = sorted.pushKey[0] = keys[slot];
      waitPush(heap, 1, slot, rec);
      sortedPush(sorted, 1, slot, rec);
      model.push(slot);
      // the sorted queue's entries stay decreasing in (key, seq)
      const base = 1 << sorted.shift;
      for (let i = base + 1; i < base + sorted.len[1]; i++) expect(before(sorted.slot[i - 1], sorted.slot[i])).toBeGreaterThan(0);
      if (next(3) === 0) {
        for (let k = 1 + next(3); k > 0 && model.length > 0; k--) {
          model.sort(before);
          served[0].push(model.shift()!);
          served[1].push(waitPop(heap, 1, rec));
          const last = --sorted.len[1];
          served[2].push(sorted.slot[(1 << sorted.shift) + last]);
        }
      }
    }
    expect(sorted.cap).toBeGreaterThan(4); // grew
    expect(served[0].length).toBeGreaterThan(50);
    expect(served[1]).toEqual(served[0]);
    expect(served[2]).toEqual(served[0]);
    expect([heap.len[0], heap.len[2], sorted.len[0], sorted.len[2]]).toEqual([0, 0, 0, 0]); // other servers untouched
  });
});
