/**
 * The race engine's kernel memory is reused across runs on one thread (issue 9: `release` returns it to a per-thread
 * free list): a run on a reused memory must give what the same run gives on a fresh one. Each run below first runs on
 * a fresh kernel; then the runs go one after another on one kernel whose memory is filled with garbage (all bytes
 * 0xff: NaN doubles, −1 integers) before each, and each must equal its own fresh run, number for number. Runs differ
 * in n, rule, ring capacity (one grows its rings, so its memory grows and the next run gets a larger, used memory)
 * and start state (a trajectory from a non-empty state).
 */
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/model.ts';
import { simulate, simulateTrajectory } from '../../src/sim/index.ts';
import { dropFreeKernels, freeKernelMemories } from '../../src/sim/race.ts';

/** Page 0 is the AssemblyScript module's own (static data, written at instantiation); JS lays out everything after it. */
const MODULE_PAGE = 65536;

const timingFree = (r: object) => JSON.stringify({ ...r, wallSeconds: 0, eventsPerSecond: 0 });

const runs: [string, () => string][] = [
  [
    'simulate n = 1000, JSQ(2) without replacement',
    () =>
      timingFree(
        simulate(parseModel({ lambda: 0.9, d: 2, sampling: 'without-replacement' }), {
          n: 1000,
          engine: 'race',
          seed: 11,
          replications: 2,
          jobs: 10_000,
          warmupTime: 10,
        }),
      ),
  ],
  [
    'simulate n = 3, λ = 0.97, JSQ(1) (rings grow)',
    () =>
      timingFree(
        simulate(parseModel({ lambda: 0.97, d: 1 }), { n: 3, engine: 'race', seed: 5, replications: 2, jobs: 10_000, warmupTime: 0 }),
      ),
  ],
  [
    'trajectory n = 200, JSQ(3), from a non-empty state',
    () =>
      JSON.stringify(
        simulateTrajectory(parseModel({ lambda: 0.95, d: 3 }), {
          n: 200,
          times: [0, 1, 2, 5],
          from: [1, 0.9, 0.5, 0.2],
          replications: 2,
          seed: 3,
        }),
      ),
  ],
  [
    'simulate n = 70 000, JSQ(2) with replacement (Lemire draws)',
    () =>
      timingFree(
        simulate(parseModel({ lambda: 0.85, d: 2 }), {
          n: 70_000,
          engine: 'race',
          seed: 2,
          replications: 2,
          jobs: 10_000,
          warmupTime: 0.2,
        }),
      ),
  ],
];

describe('race kernel reuse (issue 9)', () => {
  it('each run on a reused, garbage-filled memory equals its run on a fresh one', () => {
    const fresh = runs.map(([, run]) => {
      dropFreeKernels();
      return run();
    });
    dropFreeKernels();
    // twice round, so every run follows another one
    for (const round of [0, 1]) {
      runs.forEach(([label, run], i) => {
        for (const memory of freeKernelMemories()) new Uint8Array(memory.buffer, MODULE_PAGE).fill(0xff);
        expect(run(), `${label}, round ${round}`).toBe(fresh[i]);
        // one kernel served every run: each engine took the one the previous run released
        expect(freeKernelMemories()).toHaveLength(1);
      });
    }
  });
});
