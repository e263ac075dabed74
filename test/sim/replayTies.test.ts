import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { simulateReplay } from '../../src/sim/index.ts';

// Equal-time events (heap.ts tie rule): a departure due at the same instant as an arrival leaves first.
// Trace: A at 0 (size 3), B at 1 (size 0), C at 1 (size 2), D at 10 (size 1); n = 2, JSQ(2) without replacement
// (both servers sampled, so selection is deterministic except for the first tie). B joins the idle server and
// leaves at once; departures first, C then finds that server idle: T = 3, 0, 2, 1, mean 1.5. (Arrival first,
// C would tie 1–1 with A's server and wait there half the time: mean 2.)
const workload = { arrivals: Float64Array.from([0, 1, 1, 10]), sizes: Float64Array.from([3, 0, 2, 1]) };

describe('simulateReplay at equal times', () => {
  for (const discipline of ['fifo', 'srpt'] as const) {
    it(`simulateReplay(JSQ(2) ${discipline}, n = 2) with a size-0 job and an arrival at the same instant gives mean 1.5 for every seed`, () => {
      const model = parseModel({ lambda: 0.5, d: 2, sampling: 'without-replacement', discipline });
      for (let seed = 1; seed <= 20; seed++) {
        const r = simulateReplay(model, workload, { n: 2, seed, warmupJobs: 0 }); // 4 jobs: the means alone (noInterval)
        expect(r.meanResponseTime.mean, `seed ${seed}`).toBe(1.5);
        expect(r.zeroSizeJobs).toBe(1);
      }
    });
  }
});
