/**
 * Batch arrivals (theory.md §15) in every event engine: the FIFO event engine, the priority engine (FIFO, SJF, SRPT, …)
 * and the sharing engine (PS, LAS) share the batch dispatcher (sim/batch.ts, made by the engine frame) and the job
 * source that gives a batch's jobs one arrival time. Checks: FIFO batches through the priority engine are the event
 * engine's, bit for bit (same stream); dispatch by work (LL(d,K), BLL) never reads the discipline, and every
 * work-conserving discipline drains work alike, so the workload path is the same for all of them; the M^X/M/1 closed
 * form; and the discipline-invariant mean queue length of exponential sizes under FIFO, PS and LAS.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { parseModel, type ModelInput } from '../../src/model/model.ts';
import { simulate, type SimulateOptions } from '../../src/sim/index.ts';
import { withPinnedPercentiles } from './pinnedPercentiles.ts';

const run = (input: ModelInput, options: Partial<SimulateOptions>) =>
  simulate(parseModel(input), { seed: 5, replications: 2, warmupTime: 20, ...options } as SimulateOptions);

/** The result's numbers (no timings, names or warnings). */
function numbers(r: ReturnType<typeof simulate>) {
  const { meanResponseTime, meanQueueLength, tail, meanSlowdown, responseTimePercentiles, meanWorkload, workloadCcdf, perReplication } = r;
  return { meanResponseTime, meanQueueLength, tail, meanSlowdown, responseTimePercentiles, meanWorkload, workloadCcdf, perReplication };
}

describe('batches in every engine (theory.md §15)', () => {
  it('K = 1 leaves the priority and sharing engines as they were (hashes pinned at 9b2f05f, before batches)', () => {
    const pinned = { srpt: 'ee8569646ec7cd10', ps: '788d118586c9da57', las: 'ecbc51bd8d721088' };
    const got: Record<string, string> = {};
    for (const discipline of ['srpt', 'ps', 'las'] as const) {
      const r = run({ lambda: 0.85, d: 2, discipline, service: 'weibull:0.5' }, { n: 20, jobs: 5000, engine: 'event' });
      got[discipline] = createHash('sha256')
        .update(JSON.stringify(numbers(withPinnedPercentiles(r)))) // percentile intervals as pinned
        .digest('hex')
        .slice(0, 16);
    }
    expect(got).toEqual(pinned);
  });

  it('FIFO batches through the priority engine are the event engine’s, bit for bit (spread and whole, JSQ and LWL)', () => {
    for (const batchDispatch of ['spread', 'whole'] as const)
      for (const selection of ['jsq', 'lwl'] as const)
        for (const service of ['exp', 'weibull:0.5']) {
          const model = { lambda: 0.8, d: 3, selection, service, batch: 2, batchDispatch };
          const a = run(model, { n: 30, jobs: 4000, engine: 'event' });
          const b = run(model, { n: 30, jobs: 4000, engine: 'priority' });
          expect([a.engine, b.engine]).toEqual(['event', 'priority']);
          expect(numbers(b), `${batchDispatch} ${selection} ${service}`).toEqual(numbers(a));
        }
  });

  it('dispatch by work reads no discipline: LL(3,2) and BLL give every discipline the FIFO workload path, bit for bit', () => {
    for (const batchDispatch of ['spread', 'whole'] as const) {
      const base = { lambda: 0.8, d: 3, selection: 'lwl' as const, service: 'hyperexp:3', batch: 2, batchDispatch };
      const fifo = run(base, { n: 25, jobs: 5000, workloadGrid: [0, 1, 3] });
      for (const discipline of ['sjf', 'srpt', 'psjf', 'ps', 'las'] as const) {
        const r = run({ ...base, discipline }, { n: 25, jobs: 5000, workloadGrid: [0, 1, 3] });
        expect(r.meanWorkload, `${batchDispatch} ${discipline}`).toEqual(fifo.meanWorkload);
        expect(r.workloadCcdf, `${batchDispatch} ${discipline}`).toEqual(fifo.workloadCcdf);
        // the jobs differ in their order of service, so response times differ (SRPT's are shorter)
        if (discipline === 'srpt') expect(r.meanResponseTime.mean).toBeLessThan(fifo.meanResponseTime.mean);
      }
    }
  });

  it('M^X/M/1 (n = 1, batches of K = 3, ρ = 0.6): E[N] = ρ(K + 1)/(2(1 − ρ)) = 3 under FIFO, PS and LAS; E[U] = 3 under SRPT too', () => {
    // N is a Markov chain with jumps +K at rate λ/K and −1 at rate 1 while busy, whatever the order of service that
    // does not read sizes (exponential sizes are memoryless); 0 = d/dt E[N²] gives E[N] = ρ(K + 1)/(2(1 − ρ)). The
    // workload of every work-conserving discipline is FIFO's, E[U] = E[N]·E[S] = 3 (SRPT too, whose E[N] is lower).
    // Each check allows 2 half-widths of the 95 % interval (about 4 standard errors): 8 checks, so a 1.96-SE bound would
    // fail a correct engine about one seed in three.
    const K = 3;
    const rho = 0.6;
    const exact = (rho * (K + 1)) / (2 * (1 - rho));
    const options = { n: 1, jobs: 60_000, replications: 8, warmupTime: 100, seed: 2 };
    for (const discipline of ['fifo', 'ps', 'las', 'srpt'] as const) {
      const r = run({ lambda: rho, d: 1, batch: K, batchDispatch: 'whole', discipline }, { ...options, engine: 'event' });
      const u = r.meanWorkload!;
      expect(Math.abs(u.mean - exact), `${discipline} E[U] ${u.mean} ± ${u.halfWidth}`).toBeLessThan(2 * u.halfWidth);
      const q = r.meanQueueLength;
      if (discipline === 'srpt') expect(q.mean + q.halfWidth, `SRPT E[N] ${q.mean}`).toBeLessThan(exact - 0.2);
      else expect(Math.abs(q.mean - exact), `${discipline} E[N] ${q.mean} ± ${q.halfWidth}`).toBeLessThan(2 * q.halfWidth);
    }
  });

  it('SQ(3,2) with exponential sizes: FIFO, PS and LAS share one queue-length law, so E[Q] agrees within CIs', () => {
    const options = { n: 50, jobs: 40_000, replications: 6, warmupTime: 60 };
    const model = { lambda: 0.85, d: 3, batch: 2 };
    const fifo = run(model, { ...options, seed: 11 });
    for (const discipline of ['ps', 'las'] as const) {
      const r = run({ ...model, discipline }, { ...options, seed: 12 });
      const gap = Math.abs(r.meanQueueLength.mean - fifo.meanQueueLength.mean);
      // 2 combined half-widths (about 4 standard errors of the difference): a calibrated bound for two checks
      const combined = 2 * Math.hypot(r.meanQueueLength.halfWidth, fifo.meanQueueLength.halfWidth);
      expect(gap, `${discipline} ${r.meanQueueLength.mean} vs FIFO ${fifo.meanQueueLength.mean} ± ${combined}`).toBeLessThan(combined);
    }
  });
});
