/**
 * `supermarket simulate --threads k`: the replications on the worker pool (src/cli/pool.ts, simulateOnPool) give the
 * JSON of the one-thread run number for number (timing fields aside), including a precision-driven run whose last
 * round ran a replication past the stop (dropped, as the one-thread run never ran it).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

const TIMINGS = new Set(['wallSeconds', 'eventsPerSecond']);
const numbers = (stdout: string) => JSON.stringify(JSON.parse(stdout), (k, v) => (TIMINGS.has(k) ? undefined : v));

async function both(args: string) {
  const one = await runCli(`${args} --threads 1`);
  const two = await runCli(`${args} --threads 2`);
  expect(one.stderr).toBe('');
  expect(two.stderr).toBe('');
  expect([one.status, two.status]).toEqual([0, 0]);
  return { one: JSON.parse(one.stdout), two: JSON.parse(two.stdout), same: numbers(one.stdout) === numbers(two.stdout) };
}

describe('simulate --threads', () => {
  it('3 replications: the same JSON for 1 and 2 threads', async () => {
    const r = await both('simulate --lambda 0.9 --d 2 --n 20 --jobs 2000 --replications 3 --seed 4 --warmup 10 --json');
    expect(r.one.replications).toBe(3);
    expect(r.one.seeds.replications).toHaveLength(3);
    expect(r.same).toBe(true);
  });

  it('a precision run stopping at 10 replications, the first the rule is checked at (2 threads ran the 11th): the same JSON', async () => {
    const r = await both(
      'simulate --lambda 0.8 --d 2 --n 30 --jobs 3000 --replications 5 --seed 2 --warmup 10 --precision 0.1 --max-replications 30 --json',
    );
    expect(r.one.precision.stoppedBy).toBe('precision');
    expect(r.one.replications).toBe(10);
    expect(r.two.perReplication).toHaveLength(10);
    expect(r.same).toBe(true);
  });
});
