/**
 * Dispatcher memory in the sharing engine (PS, LAS; sim/memory.ts as in the FIFO and priority engines) and its mean
 * field through FIFO (capabilities.ts `memoryFifoTwin`; theory.md §12): JSQ(2) + PS with memory at n = 500 against
 * the reduced-rate fixed point (within the CI plus 1/n), JIQ with PS and LAS, and the capability's refusals. Longer
 * runs, other laws: scripts/memory-sharing-check.ts.
 */
import { describe, expect, it } from 'vitest';
import { meanFieldCapabilities } from '../../src/meanfield/capabilities.ts';
import { solveMeanField, solveMeanFieldTransient } from '../../src/meanfield/solve.ts';
import { parseModel } from '../../src/model/model.ts';
import { simulate } from '../../src/sim/simulate.ts';

describe('JSQ(2) + PS with memory against the reduced-rate fixed point', () => {
  const n = 500;
  for (const memory of ['cp', 'ism:2']) {
    it(`memory ${memory}, exponential sizes, n = ${n}`, () => {
      const model = parseModel({ lambda: 0.85, d: 2, discipline: 'ps', memory });
      const mf = solveMeanField(model);
      expect(mf.kind).toBe('exact');
      // the value is the FIFO model's with the same memory (same queue-length process), an independent solve
      expect(mf.meanResponseTime).toBeCloseTo(solveMeanField(parseModel({ lambda: 0.85, d: 2, memory })).meanResponseTime, 12);
      const r = simulate(model, { n, jobs: 20_000, replications: 5, seed: 11, warmupTime: 60 });
      expect(r.engine).toBe('sharing');
      const e = r.meanResponseTime;
      expect(Math.abs(e.mean - mf.meanResponseTime)).toBeLessThanOrEqual(e.halfWidth + 1 / n);
      const pi0 = r.memory!.emptyFraction;
      expect(Math.abs(pi0.mean - mf.reduction!.pi0)).toBeLessThanOrEqual(pi0.halfWidth + 1 / n);
    });
  }
});

describe('JIQ with a sharing server', () => {
  for (const discipline of ['ps', 'las']) {
    it(`--selection jiq with ${discipline} at n = 500, λ = 0.8: jobs join idle servers (E[T] → E[S] = 1)`, () => {
      const model = parseModel({ lambda: 0.8, d: 1, selection: 'jiq', discipline, service: 'hyperexp:3' });
      const r = simulate(model, { n: 500, jobs: 10_000, replications: 3, seed: 5, warmupTime: 10 });
      expect(r.engine).toBe('sharing');
      expect(Math.abs(r.meanResponseTime.mean - 1)).toBeLessThanOrEqual(r.meanResponseTime.halfWidth + 1 / 500);
      expect(r.memory!.emptyFraction.mean).toBeLessThan(1e-2);
      expect(solveMeanField(model).meanResponseTime).toBe(1);
    });
  }
});

describe('the mean field of memory with a sharing server', () => {
  const cap = (spec: Record<string, unknown>) =>
    meanFieldCapabilities(parseModel({ lambda: 0.85, d: 2, memory: 'cp', ...spec })).fixedPoint;
  it('PS with other laws: the exponential value, kind approximation (insensitivity, checked by simulation)', () => {
    const c = cap({ discipline: 'ps', service: 'hyperexp:10' });
    expect(c.available && c.kind).toBe('approximation');
    const m = parseModel({ lambda: 0.85, d: 2, memory: 'cp', discipline: 'ps', service: 'hyperexp:10' });
    expect(solveMeanField(m).kind).toBe('approximation');
    expect(solveMeanField(m).meanResponseTime).toBeCloseTo(
      solveMeanField(parseModel({ lambda: 0.85, d: 2, memory: 'cp' })).meanResponseTime,
      12,
    );
  });
  it('LAS is exact with exponential sizes only; LWL(d) with a sharing server is refused with a reason', () => {
    expect(cap({ discipline: 'las' }).available).toBe(true);
    const las = cap({ discipline: 'las', service: 'hyperexp:3' });
    expect(!las.available && las.reason).toMatch(/LAS \(exponential sizes\)/);
    const lwl = cap({ discipline: 'ps', selection: 'lwl' });
    expect(!lwl.available && lwl.reason).toMatch(/LWL\(d\) probes work/);
    const sjf = cap({ discipline: 'sjf' });
    expect(!sjf.available && sjf.reason).toMatch(/covers FIFO servers/);
  });

  it('the transient: PS and LAS with exponential sizes run the FIFO memory ODE (same queue lengths); other laws refused', () => {
    const times = [0, 2, 10];
    const fifo = solveMeanFieldTransient(parseModel({ lambda: 0.85, d: 2, memory: 'ism:2' }), times);
    for (const discipline of ['ps', 'las']) {
      const model = parseModel({ lambda: 0.85, d: 2, memory: 'ism:2', discipline });
      const tr = solveMeanFieldTransient(model, times);
      expect(tr.solver).toBe('memory-cavity-ode');
      if (tr.solver !== 'memory-cavity-ode' || fifo.solver !== 'memory-cavity-ode') continue;
      expect(tr.result.tail).toEqual(fifo.result.tail);
      expect(tr.result.tail[2][1]).toBeGreaterThan(0);
    }
    const ps = meanFieldCapabilities(
      parseModel({ lambda: 0.85, d: 2, memory: 'ism:2', discipline: 'ps', service: 'hyperexp:2' }),
    ).transient;
    expect(ps.available).toBe(false);
  });
});
