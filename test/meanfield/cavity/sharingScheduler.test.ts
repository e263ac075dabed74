/**
 * The cavity queue's sharing server (PS, LAS): by hand on a few jobs, then the cavity queue with acceptance 1 (an
 * M/G/1 queue) against M/G/1-PS E[S]/(1 − ρ) and the M/G/1-FB formula (mg1/sharing.ts) for hyperexponential sizes.
 */
import { describe, expect, it } from 'vitest';
import { runCavityQueue, batchRatioEstimate } from '../../../src/meanfield/cavity/index.ts';
import { SharingScheduler } from '../../../src/meanfield/cavity/sharingScheduler.ts';
import { sharingMeans } from '../../../src/meanfield/mg1/sharing.ts';
import { SizeLaw } from '../../../src/meanfield/mg1/sizeLaw.ts';
import { DEFAULT_CONVENTIONS, parseModel } from '../../../src/model/model.ts';
import { predictionModel } from '../../../src/model/prediction/index.ts';
import { serviceDistribution } from '../../../src/model/service/index.ts';
import { Rng } from '../../../src/stats/rng.ts';

/** Jobs of the given sizes all at t = 0, served to the end. @returns completion times by size. */
function drain(discipline: 'ps' | 'las', sizes: number[]): [number, number][] {
  const q = new SharingScheduler(discipline);
  for (const s of sizes) q.arrive(0, s, s);
  let t = 0;
  const out: [number, number][] = [];
  while (q.jobs > 0) {
    const dt = q.nextEventIn();
    q.advance(dt);
    t += dt;
    const id = q.complete();
    if (id >= 0) out.push([q.pool.size(id), t]);
  }
  return out;
}

describe('SharingScheduler', () => {
  it('PS and LAS with simultaneous arrivals: equal shares, the smallest leaves first', () => {
    // sizes 1, 2, 3 at t = 0: 3 share until t = 3 (1 done), 2 share until 5 (2 done), then 6 — the same for both
    for (const d of ['ps', 'las'] as const) {
      const out = drain(d, [3, 1, 2]);
      expect(out.map(([s]) => s)).toEqual([1, 2, 3]);
      out.forEach(([, t], k) => expect(t).toBeCloseTo([3, 5, 6][k], 12));
    }
  });

  it('LAS: a later arrival preempts the old group, then they merge', () => {
    const q = new SharingScheduler('las');
    q.arrive(0, 3, 3);
    q.advance(1); // job 1 attained 1
    q.arrive(1, 2, 2); // served alone until it reaches 1 (t = 2), then both share
    expect(q.nextEventIn()).toBeCloseTo(1, 12);
    q.advance(1);
    expect(q.complete()).toBe(-1); // merge
    expect(q.nextEventIn()).toBeCloseTo(2, 12); // both at 1, the size-2 job needs 1 more at rate 1/2
  });

  for (const discipline of ['ps', 'las'] as const) {
    it(`the cavity queue with acceptance 1 is M/G/1-${discipline.toUpperCase()} (hyperexp:10, λ = 0.7)`, () => {
      const lambda = 0.7;
      const model = parseModel({ lambda, d: 1, selection: 'random', service: 'hyperexp:10' });
      const exact = sharingMeans(new SizeLaw(model.service, lambda), discipline, 1e-10).meanResponseTime;
      const out = runCavityQueue({
        discipline,
        conventions: DEFAULT_CONVENTIONS,
        service: serviceDistribution(model.service),
        prediction: predictionModel(model.prediction),
        potentialRate: lambda,
        acceptance: { probability: () => 1 },
        warmup: 500,
        horizon: 200_000,
        batches: 20,
        rng: new Rng(17n),
        levels: false,
      });
      const { estimate } = batchRatioEstimate(out.responseSum, out.completed);
      // 99.9 % interval: t_{19}(0.9995)/t_{19}(0.975) ≈ 1.85
      expect(Math.abs(estimate.mean - exact), `${estimate.mean} ± ${estimate.halfWidth} vs ${exact}`).toBeLessThan(
        1.85 * estimate.halfWidth,
      );
      expect(estimate.halfWidth).toBeLessThan(0.1 * exact);
    });
  }
});
