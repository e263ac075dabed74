/**
 * The batch warm-up (theory.md §8 "Warm-up", §15): SQ(d,K) and BSQ read their own tail ODE from empty (2 × the time
 * from which it stays within the tolerance of the fixed point), not the SQ(⌊d/K⌋) rule; d = K at high load, whose ODE
 * is still moving at t = 250, keeps the SQ(1) rule (conservative). LL(d,K) reads its batch workload PIDE the same way.
 */
import { describe, expect, it } from 'vitest';
import { batchTransient, lldkFixedPoint, sqdkFixedPoint } from '../../src/meanfield/batch.ts';
import { lwlTransient } from '../../src/meanfield/lwl/transient.ts';
import { simulationWarmup } from '../../src/meanfield/warmup.ts';
import { parseModel } from '../../src/model/model.ts';

describe('batch warm-up from the batch tail ODE', () => {
  it('SQ(3,2) at λ = 0.9: 2 × the time from which the ODE stays within 1e−3 of the fixed point (was 5000 from SQ(1))', () => {
    const model = parseModel({ lambda: 0.9, d: 3, batch: 2 });
    const w = simulationWarmup(model);
    expect(w.rule).toMatch(/^auto: SQ\(d,K\) batch tail ODE warm-up 210\.0 /);
    const half = w.time / 2;
    expect(Number.isInteger(half)).toBe(true);
    const star = sqdkFixedPoint(0.9, 3, 2).tail!;
    const times = Array.from({ length: 251 }, (_, j) => j);
    const tr = batchTransient(model, { times, tolerance: 1e-8 });
    const far = (row: number[]) => Math.max(...row.map((v, k) => Math.abs(v - (star[k] ?? 0))));
    expect(far(tr.tail[half - 1])).toBeGreaterThan(1e-3);
    for (let t = half; t <= 250; t++) expect(far(tr.tail[t])).toBeLessThanOrEqual(1e-3);
    expect(w.time).toBeLessThan(500);
    // sizes with SCV 4 stretch it like every other rule: × (1 + SCV)/2
    expect(simulationWarmup(parseModel({ lambda: 0.9, d: 3, batch: 2, service: 'hyperexp:4' })).time).toBeCloseTo(2.5 * w.time, 9);
  });

  it('BSQ reads its own ODE too; SQ(2,2) at λ = 0.9 (random routing of the pair) keeps the SQ(1) rule', () => {
    expect(simulationWarmup(parseModel({ lambda: 0.8, d: 2, batch: 3, batchDispatch: 'whole' })).rule).toMatch(
      /^auto: BSQ batch tail ODE warm-up/,
    );
    expect(simulationWarmup(parseModel({ lambda: 0.9, d: 2, batch: 2 })).rule).toMatch(/^auto: SQ\(1\) mean-field warm-up/);
  });
});

describe('LL(d,K) warm-up from the batch workload PIDE', () => {
  it('LL(3,2) at λ = 0.9: 2 × the time the PIDE (Δ = 0.05) takes to settle, 146 (was 5000 from SQ(1)); the end it settles to is the LL(d,K) fixed point', () => {
    const model = parseModel({ lambda: 0.9, d: 3, batch: 2, selection: 'lwl' });
    const w = simulationWarmup(model);
    expect(w.rule).toMatch(/^auto: LL\(d,K\) batch workload PIDE warm-up 146\.0 /);
    // the finer scheme (Δ = 0.01, 80 CPU s, measured once) settles at t = 75: 2 × 75 = 150
    expect(Math.abs(w.time - 150)).toBeLessThanOrEqual(10);
    const tr = lwlTransient(model, { times: [0, w.time / 2, 250], step: 0.05 });
    const exact = lldkFixedPoint(0.9, 3, 2).meanQueueLength; // E[U] = ρ(E[W] + 1) = 2.3160
    // the scheme's own stationary point: E[U] 2.279, off by its first-order error (1.6 %); at the half warm-up within 1 %
    expect(Math.abs(tr.meanWorkload[2] - exact) / exact).toBeLessThan(0.02);
    expect(Math.abs(tr.meanWorkload[1] - tr.meanWorkload[2]) / exact).toBeLessThan(0.01);
  });

  it('LL(2,2) at λ = 0.9 (the PIDE still moving at t = 200) keeps the SQ(1) rule, as SQ(2,2) does', () => {
    expect(simulationWarmup(parseModel({ lambda: 0.9, d: 2, batch: 2, selection: 'lwl' })).rule).toMatch(
      /^auto: SQ\(1\) mean-field warm-up/,
    );
  });
});
