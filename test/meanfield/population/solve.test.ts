import { describe, expect, it } from 'vitest';
import { lyap } from 'mathjs';
import { SolverError } from '../../../src/errors.ts';
import { solveTransient } from '../../../src/meanfield/transient.ts';
import { refine, refinedEstimate, lyapunovResidual } from '../../../src/meanfield/refined.ts';
import {
  bindingTruncation,
  parsePopulationModel,
  populationFixedPoint,
  populationRefined,
  populationTransient,
  refinedAt,
  solveLyapunovDense,
} from '../../../src/meanfield/population/index.ts';
import { sqd } from '../helpers.ts';
import { shipped, thresholdFixedPoint } from './helpers.ts';

const closedForm = (lambda: number, d: number, K: number) => Array.from({ length: K }, (_, i) => lambda ** ((d ** (i + 1) - 1) / (d - 1)));

describe('populationFixedPoint', () => {
  it.each([
    [0.9, 2],
    [0.99, 2],
    [0.95, 3],
  ])('populationFixedPoint(jsq-d.json) equals λ^((d^i−1)/(d−1)) to 1e-8 at λ = %s, d = %s (theory.md §2)', (lambda, d) => {
    const fp = populationFixedPoint(shipped('jsq-d.json', { lambda, d, K: 30 }));
    const exact = closedForm(lambda, d, 30);
    fp.x.forEach((v, i) => expect(Math.abs(v - exact[i])).toBeLessThan(1e-8));
    expect(fp.residual).toBeLessThanOrEqual(1e-12);
    expect(fp.observables.meanResponseTime).toBeCloseTo(
      ({ '0.9,2': 2.6141, '0.99,2': 5.432, '0.95,3': 2.5351 } as Record<string, number>)[`${lambda},${d}`],
      4,
    );
  });

  it.each([
    [0.9, 2],
    [0.95, 3],
    [0.7, 5],
  ])(
    'populationFixedPoint(threshold-probe.json) equals the independent level-crossing recursion to 1e-10 at λ = %s, T = %s',
    (lambda, T) => {
      const K = 100; // the tail decays like (λ s_T)^i: below 1e-12 by i = 100 in these cases
      const fp = populationFixedPoint(shipped('threshold-probe.json', { lambda, T, K }));
      const oracle = thresholdFixedPoint(lambda, T, K);
      fp.x.forEach((v, i) => expect(Math.abs(v - oracle[i])).toBeLessThan(1e-10));
      expect(fp.x[0]).toBeCloseTo(lambda, 10); // the busy fraction is the load
    },
  );

  it('populationFixedPoint(threshold-probe.json) at T = 1 gives E[Q] = λ/(1 − λ²) (s_i = λ^(2i−1))', () => {
    const fp = populationFixedPoint(shipped('threshold-probe.json', { lambda: 0.8, T: 1, K: 120 }));
    expect(fp.observables.meanQueueLength).toBeCloseTo(0.8 / (1 - 0.64), 10);
  });

  it('populationFixedPoint(model) falls back to the ODE when Newton fails (singular Jacobian at the start)', () => {
    const m = parsePopulationModel({
      name: 'quadratic',
      variables: ['x'],
      transitions: [
        { change: { x: 1 }, rate: '1' },
        { change: { x: -1 }, rate: 'x^2' },
      ],
    });
    const fp = populationFixedPoint(m);
    expect(fp.diagnostics.method).toBe('ode+newton');
    expect(fp.x[0]).toBeCloseTo(1, 12);
  });

  it.each([1, 1.0001])(
    'populationFixedPoint(JSQ(2), K = 20, λ = %s) finds the truncated root from full levels (ODE too slow at ρ ≈ 1): top level binds, flow balances',
    (lambda) => {
      const m = shipped('jsq-d.json', { lambda });
      const fp = populationFixedPoint(m);
      expect(fp.diagnostics.method).toBe('full+newton');
      expect(bindingTruncation(m, fp.x)).toBeDefined();
      // departures s_1 = accepted arrivals λ(1 − s_K^d) (arrivals at level K are lost), and each level balances
      const s = [1, ...fp.x, 0];
      expect(s[1]).toBeCloseTo(lambda * (1 - s[20] ** 2), 10);
      for (let i = 1; i <= 20; i++) expect(lambda * (s[i - 1] ** 2 - s[i] ** 2)).toBeCloseTo(s[i] - s[i + 1], 10);
    },
  );
});

describe('populationRefined', () => {
  it('populationRefined(jsq-d.json) gives ΣV = 3.9864 at λ = 0.9, d = 2 and agrees with refine(...) to 1e-8 (theory.md §6, §10)', () => {
    const r = populationRefined(shipped('jsq-d.json'));
    const builtin = refine(sqd(0.9, 2));
    const sumV = r.V.reduce((a, v) => a + v, 0);
    expect(sumV).toBeCloseTo(3.9864, 4);
    expect(Math.abs(sumV - builtin.sumV)).toBeLessThan(1e-8);
    expect(Math.abs(r.observables.meanQueueLength.coefficient - builtin.sumV)).toBeLessThan(1e-8);
    r.V.forEach((v, i) => expect(Math.abs(v - (builtin.V[i + 1] ?? 0))).toBeLessThan(1e-8));
    expect(r.lyapunovResidual).toBeLessThan(1e-12);
    expect(r.diagnostics.lyapunovSolver).toBe('banded');
  });

  it('refinedAt(result, n) gives E[Q_10] ≈ 2.7513, E[Q_100] ≈ 2.3925 and E[T_n] = E[Q_n]/λ, as refinedEstimate', () => {
    const r = populationRefined(shipped('jsq-d.json'));
    const builtin = refine(sqd(0.9, 2));
    for (const [n, q] of [
      [10, 2.7513],
      [100, 2.3925],
    ]) {
      const est = refinedAt(r, n);
      expect(est.observables.meanQueueLength).toBeCloseTo(q, 4);
      expect(est.observables.meanResponseTime).toBeCloseTo(refinedEstimate(builtin, n).meanResponseTime, 10);
    }
  });

  it('populationRefined(jsq-d.json) agrees with refine(...) to 1e-8 at λ = 0.95, d = 3', () => {
    const r = populationRefined(shipped('jsq-d.json', { lambda: 0.95, d: 3 }));
    expect(Math.abs(r.observables.meanQueueLength.coefficient - refine(sqd(0.95, 3)).sumV)).toBeLessThan(1e-8);
  });

  it('populationRefined(threshold-probe.json) solves AW + WAᵀ + Q = 0 for a non-tridiagonal A, and V is independent of K', () => {
    const r60 = populationRefined(shipped('threshold-probe.json', { lambda: 0.8, K: 40 }));
    const r90 = populationRefined(shipped('threshold-probe.json', { lambda: 0.8, K: 60 }));
    expect(r60.diagnostics.lyapunovSolver).toBe('sign-function');
    expect(r60.lyapunovResidual).toBeLessThan(1e-12);
    expect(r60.observables.meanQueueLength.coefficient).toBeGreaterThan(0); // finite-n queues are longer (theory.md §8)
    expect(Math.abs(r60.observables.meanQueueLength.coefficient - r90.observables.meanQueueLength.coefficient)).toBeLessThan(1e-6);
  });

  it('populationRefined(model) for an observable non-linear in x adds ½ Σ ∂²g W (here g = s1², coefficient 2π₁V₁ + W₁₁)', () => {
    const m = parsePopulationModel({
      name: 'jsq',
      parameters: { lambda: 0.9, d: 2, K: 12 },
      variables: { vector: 's', from: 1, to: 'K' },
      constants: { s0: 1, 's{K+1}': 0 },
      transitions: [
        { for: 'i', from: 1, to: 'K', change: { 's{i}': 1 }, rate: 'lambda * (s{i-1}^d - s{i}^d)' },
        { for: 'i', from: 1, to: 'K', change: { 's{i}': -1 }, rate: 's{i} - s{i+1}' },
      ],
      observables: { square: 's1^2', secondMoment: { for: 'i', from: 1, to: 'K', sum: '(2*{i} - 1) * s{i}' } },
    });
    const r = populationRefined(m);
    expect(r.observables.square.coefficient).toBeCloseTo(2 * r.fixedPoint.x[0] * r.V[0] + r.W[0][0], 13);
    expect(r.observables.secondMoment.coefficient).toBeCloseTo(
      r.V.reduce((a, v, i) => a + (2 * i + 1) * v, 0),
      12,
    );
  });

  it('populationRefined(model) for 50 variables (threshold, K = 50; JSQ(2), K = 50) takes well under 5 s (printed)', () => {
    for (const [file, overrides] of [
      ['threshold-probe.json', { K: 50 }],
      ['jsq-d.json', { K: 50 }],
    ] as const) {
      const start = performance.now();
      const r = populationRefined(shipped(file, overrides));
      const ms = performance.now() - start;
      console.info(
        `populationRefined ${file} K = 50: ${ms.toFixed(0)} ms (fixed point + derivatives + Lyapunov + V), ${r.diagnostics.lyapunovSolver}`,
      );
      expect(r.lyapunovResidual).toBeLessThan(1e-12);
    }
  });
});

describe('solveLyapunovDense', () => {
  it('solveLyapunovDense(A, Q) recovers a known W from Q = −(AW + WAᵀ) for a dense Hurwitz 8×8 A, and matches mathjs lyap at 3×3', () => {
    const K = 8;
    const A = Array.from({ length: K }, (_, i) => Array.from({ length: K }, (_, j) => (i === j ? -3 - i : Math.sin(1 + 3 * i + 7 * j))));
    const known = Array.from({ length: K }, (_, i) => Array.from({ length: K }, (_, j) => (i === j ? 2 + i : 0.3 / (1 + Math.abs(i - j)))));
    const Q = known.map((row, i) =>
      row.map((_, j) => {
        let s = 0;
        for (let p = 0; p < K; p++) s -= A[i][p] * known[p][j] + known[i][p] * A[j][p];
        return s;
      }),
    );
    const W = solveLyapunovDense(A, Q);
    for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) expect(W[i][j]).toBeCloseTo(known[i][j], 12);
    expect(lyapunovResidual(A, W, Q)).toBeLessThan(1e-13);
    const A3 = [
      [-2, 1, 0.5],
      [0.3, -1, 0.2],
      [1, 0, -3],
    ];
    const Q3 = [
      [1, 0.2, 0],
      [0.2, 2, 0.1],
      [0, 0.1, 1],
    ];
    const Wm = lyap(A3, Q3) as unknown as number[][];
    solveLyapunovDense(A3, Q3).forEach((row, i) => row.forEach((v, j) => expect(v).toBeCloseTo(Wm[i][j], 4)));
  });

  it('solveLyapunovDense(A, Q) throws a SolverError when A is not Hurwitz', () => {
    expect(() =>
      solveLyapunovDense(
        [
          [1, 0],
          [0, -1],
        ],
        [
          [1, 0],
          [0, 1],
        ],
      ),
    ).toThrow(SolverError);
  });
});

describe('populationTransient', () => {
  it('populationTransient(jsq-d.json, t = 0..10 step 0.5) returns no negative fraction (odex left −3.6e−26)', () => {
    const tr = populationTransient(shipped('jsq-d.json'), { times: Array.from({ length: 21 }, (_, j) => j * 0.5) });
    for (const row of tr.x) for (const v of row) expect(v).toBeGreaterThanOrEqual(0);
    expect(tr.diagnostics.clamped).toBeGreaterThan(0);
    expect(tr.diagnostics.clamped).toBeLessThan(1e-20);
  });

  it('populationTransient(jsq-d.json) from empty equals the built-in solveTransient to 1e-7 and converges to the fixed point', () => {
    const times = [0, 1, 5, 20, 300];
    const tr = populationTransient(shipped('jsq-d.json', { K: 12 }), { times });
    const builtin = solveTransient(sqd(0.9, 2), { times, truncationLevel: 12 });
    tr.x.forEach((row, j) => row.forEach((v, i) => expect(Math.abs(v - builtin.tail[j][i + 1])).toBeLessThan(1e-7)));
    expect(tr.x[0]).toEqual(new Array(12).fill(0));
    const exact = closedForm(0.9, 2, 12);
    tr.x[4].forEach((v, i) => expect(Math.abs(v - exact[i])).toBeLessThan(1e-7));
    expect(tr.observables.meanQueueLength[4]).toBeCloseTo(2.3527, 4);
  });

  it('populationTransient(threshold-probe.json) from a full start converges to populationFixedPoint', () => {
    const m = shipped('threshold-probe.json', { lambda: 0.8, K: 40 });
    const from = Array.from({ length: 40 }, (_, i) => (i < 5 ? 1 : 0)); // E[Q] = 5 at t = 0; relaxation time ≈ 40
    const tr = populationTransient(m, { times: [0, 600], from });
    const fp = populationFixedPoint(m);
    tr.x[1].forEach((v, i) => expect(Math.abs(v - fp.x[i])).toBeLessThan(1e-7));
    expect(tr.diagnostics.finalDriftNorm).toBeLessThan(1e-8);
  });
});
