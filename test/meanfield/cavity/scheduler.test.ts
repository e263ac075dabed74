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
    q.advance(q.pool.rem(q.current));
    order.push(q.pool.size(q.complete()));
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

describe('CavityScheduler.predictedWork (the lpwWork conventions of sim/selection/leastWork.ts)', () => {
  it('sums (Y − a)^+, Y − a or Y over the jobs present, 0 when idle', () => {
    const q = new CavityScheduler('fifo', DEFAULT_CONVENTIONS);
    expect(q.predictedWork('clip')).toBe(0);
    q.arrive(0, 3, 1); // in service: S = 3, Y = 1
    q.arrive(0, 2, 4); // waiting: S = 2, Y = 4, age 0
    q.advance(2.5); // the first job has age 2.5: overrun by 1.5
    expect(q.predictedWork('clip')).toBeCloseTo(0 + 4, 12);
    expect(q.predictedWork('signed')).toBeCloseTo(1 - 2.5 + 4, 12);
    expect(q.predictedWork('static')).toBeCloseTo(1 + 4, 12);
    q.advance(0.5);
    q.complete();
    q.advance(1); // the second job, age 1
    expect(q.predictedWork('clip')).toBeCloseTo(3, 12);
    q.advance(1);
    q.complete();
    expect(q.predictedWork('signed')).toBe(0);
  });
});
