import { describe, expect, it } from 'vitest';
import { InvalidModelError, SolverError } from '../../src/errors.ts';
import { solveSqdFixedPoint } from '../../src/meanfield/fixedPoint.ts';
import { relaxationTime, solveTransient } from '../../src/meanfield/transient.ts';
import { warmupTime } from '../../src/meanfield/warmup.ts';
import { maxAbsDiff, sqd } from './helpers.ts';

describe('solveTransient', () => {
  it('solveTransient(d = 2, λ = 0.9, t = 0..3 step 0.5) returns no negative tail fraction (odex left s_7(0.5) = −8.8e−67)', () => {
    const tr = solveTransient(sqd(0.9, 2), { times: [0, 0.5, 1, 1.5, 2, 2.5, 3] });
    for (const row of tr.tail) for (const s of row) expect(s).toBeGreaterThanOrEqual(0);
    // the projection did act here, and moved nothing by more than round-off
    expect(tr.diagnostics.clamped).toBeGreaterThan(0);
    expect(tr.diagnostics.clamped).toBeLessThan(1e-20);
  });

  it('solveTransient(model, { times }) from empty reaches the fixed point within 1e−8 by t = 1000 (d = 2, λ = 0.9)', () => {
    const model = sqd(0.9, 2);
    const tr = solveTransient(model, { times: [0, 10, 200, 1000] });
    const fp = solveSqdFixedPoint(model);
    expect(tr.tail.length).toBe(4);
    expect(tr.tail[0].slice(1).every((s) => s === 0)).toBe(true);
    expect(maxAbsDiff(tr.tail[3], fp.tail)).toBeLessThan(1e-8);
    expect(Math.abs(tr.meanQueueLength[3] - fp.meanQueueLength)).toBeLessThan(1e-8);
    // theory.md §2: at t = 200 the error is still around 1e−7.
    expect(maxAbsDiff(tr.tail[2], fp.tail)).toBeGreaterThan(1e-9);
    expect(tr.diagnostics.nAccept).toBeGreaterThan(0);
    expect(tr.diagnostics.topLevelMass).toBeLessThan(1e-12);
  });

  it('solveTransient(model, { times }) from empty rises monotonically (the ODE is cooperative)', () => {
    const tr = solveTransient(sqd(0.7, 3), { times: [0, 0.5, 1, 2, 4, 8, 16] });
    for (let j = 1; j < tr.tail.length; j++) {
      for (let i = 1; i < tr.tail[j].length; i++) expect(tr.tail[j][i]).toBeGreaterThanOrEqual(tr.tail[j - 1][i] - 1e-12);
    }
  });

  it('solveTransient(model, { times }) matches the M/M/1 transient mean at d = 1 (E[Q(t)] ≤ λt, → λ/(1 − λ))', () => {
    const tr = solveTransient(sqd(0.5, 1), { times: [0, 1, 400] });
    expect(tr.meanQueueLength[1]).toBeLessThan(0.5);
    expect(tr.meanQueueLength[2]).toBeCloseTo(1, 9);
  });

  it('solveTransient(model, { times, from }) drains a non-empty start (all queues at 5) to the fixed point', () => {
    const model = sqd(0.9, 2);
    const from = [1, 1, 1, 1, 1, 1];
    const tr = solveTransient(model, { times: [0, 1, 600], from });
    expect(tr.tail[0].slice(0, 6)).toEqual(from);
    expect(tr.meanQueueLength[0]).toBe(5);
    expect(tr.meanQueueLength[1]).toBeLessThan(5);
    expect(tr.diagnostics.truncationLevel).toBeGreaterThan(5);
    expect(0.9 * 600 * tr.diagnostics.topLevelMass ** 2).toBeLessThan(1e-12);
    expect(maxAbsDiff(tr.tail[2], solveSqdFixedPoint(model).tail)).toBeLessThan(1e-8);
  });

  it('solveTransient(model, { times }) starts at times[0] > 0 and samples exactly the requested instants', () => {
    const a = solveTransient(sqd(0.8, 2), { times: [0, 3, 7] });
    const b = solveTransient(sqd(0.8, 2), { times: [3, 7], from: a.tail[1] });
    expect(b.times).toEqual([3, 7]);
    expect(maxAbsDiff(b.tail[1], a.tail[2])).toBeLessThan(1e-9);
  });

  it('solveTransient(model, { times }) with service mean 2 is the unit-mean trajectory at t/2', () => {
    const unit = solveTransient(sqd(0.9, 2), { times: [0, 5, 20] });
    const slow = solveTransient(sqd(0.45, 2, { service: { kind: 'exponential', mean: 2 } }), { times: [0, 10, 40] });
    expect(maxAbsDiff(slow.tail[2], unit.tail[2])).toBeLessThan(1e-9);
  });

  it('solveTransient(model, { maxSteps: 5 }) raises SolverError (odex MaxStepsExceeded is not a result)', () => {
    expect(() => solveTransient(sqd(0.9, 2), { times: [0, 1000], maxSteps: 5 })).toThrow(SolverError);
    expect(() => solveTransient(sqd(0.9, 2), { times: [0, 1000], maxSteps: 5 })).toThrow(/MaxStepsExceeded/);
  });

  it('solveTransient(model, options) throws InvalidModelError on bad times, from or truncationLevel', () => {
    const model = sqd(0.9, 2);
    expect(() => solveTransient(model, { times: [] })).toThrow(InvalidModelError);
    expect(() => solveTransient(model, { times: [0, 2, 1] })).toThrow(/strictly increasing/);
    expect(() => solveTransient(model, { times: [-1, 2] })).toThrow(InvalidModelError);
    expect(() => solveTransient(model, { times: [0, 1], from: [0.5, 0.2] })).toThrow(InvalidModelError);
    expect(() => solveTransient(model, { times: [0, 1], from: [1, 0.2, 0.5] })).toThrow(InvalidModelError);
    expect(() => solveTransient(model, { times: [0, 1], from: [1, 1, 1], truncationLevel: 1 })).toThrow(InvalidModelError);
  });
});

describe('relaxationTime', () => {
  it('relaxationTime(model) at d = 2 is ≈ 2.3, 4.1, 13, 27, 140 at λ = 0.5, 0.7, 0.9, 0.95, 0.99 (±10%, theory.md §2)', () => {
    const expected = [2.3, 4.1, 13, 27, 140];
    [0.5, 0.7, 0.9, 0.95, 0.99].forEach((lambda, i) => {
      expect(Math.abs(relaxationTime(sqd(lambda, 2)) / expected[i] - 1)).toBeLessThan(0.1);
    });
  });

  it('relaxationTime(model) at d = 1 is 1/(1 − √λ)² (≈ 4·10⁴ at λ = 0.99)', () => {
    for (const lambda of [0.5, 0.9, 0.99]) {
      expect(relaxationTime(sqd(lambda, 1))).toBeCloseTo(1 / (1 - Math.sqrt(lambda)) ** 2, 9);
    }
  });

  it('relaxationTime(model) is the observed decay time of the ODE error (d = 2, λ = 0.9)', () => {
    const model = sqd(0.9, 2);
    const fp = solveSqdFixedPoint(model);
    const tr = solveTransient(model, { times: [0, 100, 150] });
    const e1 = maxAbsDiff(tr.tail[1], fp.tail);
    const e2 = maxAbsDiff(tr.tail[2], fp.tail);
    expect(Math.abs(50 / Math.log(e1 / e2) / relaxationTime(model) - 1)).toBeLessThan(0.05);
  });
});

describe('warmupTime', () => {
  it('warmupTime(model) is 2 × the ODE time to 1e−3, and the ODE is within 1e−3 exactly then (d = 2, λ = 0.9)', () => {
    const model = sqd(0.9, 2);
    const w = warmupTime(model);
    expect(w.method).toBe('ode');
    expect(w.warmupTime).toBeCloseTo(Math.max(2 * w.timeToTolerance, 3 * w.relaxationTime), 12);
    const fp = solveSqdFixedPoint(model);
    const tr = solveTransient(model, { times: [0, 0.99 * w.timeToTolerance, w.timeToTolerance * 1.0000001] });
    expect(maxAbsDiff(tr.tail[1], fp.tail)).toBeGreaterThan(1e-3);
    expect(maxAbsDiff(tr.tail[2], fp.tail)).toBeLessThanOrEqual(1e-3);
  });

  it('warmupTime(model, { minRelaxationTimes }) never returns less than that many relaxation times', () => {
    const w = warmupTime(sqd(0.5, 5), { minRelaxationTimes: 50 });
    expect(w.warmupTime).toBeCloseTo(50 * w.relaxationTime, 12);
  });

  it('warmupTime(model) at d = 1 uses the coupling bound τ·ln((1 + √λ)/tolerance) without integrating', () => {
    const w = warmupTime(sqd(0.99, 1), { tolerance: 1e-3 });
    const tau = 1 / (1 - Math.sqrt(0.99)) ** 2;
    expect(w.method).toBe('coupling-bound');
    expect(w.timeToTolerance).toBeCloseTo(tau * Math.log((1 + Math.sqrt(0.99)) / 1e-3), 6);
  });

  it('warmupTime(model) at d = 1 bounds the true M/M/1 time to tolerance (ODE check at λ = 0.5)', () => {
    const model = sqd(0.5, 1);
    const w = warmupTime(model, { tolerance: 1e-3 });
    const tr = solveTransient(model, { times: [0, w.timeToTolerance] });
    expect(maxAbsDiff(tr.tail[1], solveSqdFixedPoint(model).tail)).toBeLessThanOrEqual(1e-3);
  });

  it('warmupTime(model, options) throws InvalidModelError on tolerance ≤ 0 or safetyFactor < 1', () => {
    expect(() => warmupTime(sqd(0.9, 2), { tolerance: 0 })).toThrow(InvalidModelError);
    expect(() => warmupTime(sqd(0.9, 2), { safetyFactor: 0.5 })).toThrow(InvalidModelError);
  });
});

describe('solveTransient progress', () => {
  it('onProgress sees the fraction of the horizon after every step, non-decreasing, ending at 1', () => {
    const seen: number[] = [];
    solveTransient(sqd(0.9, 2), { times: [0, 5, 10], onProgress: (f) => seen.push(f) });
    expect(seen.length).toBeGreaterThan(3);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
    expect(seen[0]).toBeGreaterThan(0);
    expect(seen[seen.length - 1]).toBeCloseTo(1, 12);
  });
});
