import { describe, expect, it } from 'vitest';
import { CavityScheduler } from '../../../src/meanfield/cavity/index.ts';
import { DEFAULT_CONVENTIONS } from '../../../src/model/model.ts';

/** 200 job sizes, a permutation of 1..200: past the pool's first capacity of 64, so the pool and the heap beside it grow. */
const sizes = Array.from({ length: 200 }, (_, i) => 1 + ((i * 37) % 200));

/** All jobs arrive at t = 0; serves them to the end. @returns the sizes in completion order. */
function drain(discipline: 'fifo' | 'sjf' | 'srpt'): number[] {
  const q = new CavityScheduler(discipline, DEFAULT_CONVENTIONS);
  for (const s of sizes) q.arrive(0, s, s);
  const order: number[] = [];
  while (q.jobs > 0) {
    q.advance(q.pool.rem[q.current]);
    order.push(q.pool.size[q.complete()]);
  }
  return order;
}

describe('CavityScheduler job records (JobPool)', () => {
  it('FIFO serves in arrival order', () => expect(drain('fifo')).toEqual(sizes));
  it('SJF serves the first arrival, then the rest smallest first', () => {
    const rest = sizes.slice(1).sort((a, b) => a - b);
    expect(drain('sjf')).toEqual([sizes[0], ...rest]);
  });
  it('SRPT preempts at each smaller arrival, then serves smallest remaining first', () => {
    // all arrive at t = 0 with no service in between: the smallest is in service, the others wait by size
    expect(drain('srpt')).toEqual([...sizes].sort((a, b) => a - b));
  });
});
