import { describe, expect, it } from 'vitest';
import { ConvergenceError, InvalidModelError } from '../../src/errors.ts';
import { generatorResidual, stationaryGaussSeidel, type ColumnGenerator } from '../../src/numerics/stationary.ts';

/** M/M/1/K generator by columns: up rate λ, down rate μ; stationary law ∝ (λ/μ)^k. */
function mm1k(lambda: number, mu: number, K: number): ColumnGenerator {
  const inStart = new Int32Array(K + 2);
  const from: number[] = [];
  const rate: number[] = [];
  const outRate = new Float64Array(K + 1);
  for (let j = 0; j <= K; j++) {
    if (j > 0) {
      from.push(j - 1);
      rate.push(lambda);
    }
    if (j < K) {
      from.push(j + 1);
      rate.push(mu);
    }
    inStart[j + 1] = from.length;
    outRate[j] = (j < K ? lambda : 0) + (j > 0 ? mu : 0);
  }
  return { inStart, inFrom: Int32Array.from(from), inRate: Float64Array.from(rate), outRate };
}

describe('stationaryGaussSeidel', () => {
  const K = 60;
  const Q = mm1k(0.9, 1, K);
  const exact = Array.from({ length: K + 1 }, (_, k) => 0.9 ** k);
  const total = exact.reduce((a, b) => a + b);

  it('stationaryGaussSeidel(Q) gives the M/M/1/K law (λ = 0.9, K = 60) to 1e−10 with residual ≤ tolerance', () => {
    const r = stationaryGaussSeidel(Q, { tolerance: 1e-14 });
    expect(r.residual).toBeLessThanOrEqual(1e-14);
    expect(generatorResidual(Q, r.pi)).toBeCloseTo(r.residual, 20);
    for (let k = 0; k <= K; k++) expect(Math.abs(r.pi[k] - exact[k] / total)).toBeLessThan(1e-10);
  });

  it('stationaryGaussSeidel(Q, { levels }) solves a birth–death chain in one aggregation step', () => {
    const levels = Int32Array.from({ length: K + 1 }, (_, k) => k);
    const r = stationaryGaussSeidel(Q, { tolerance: 1e-14, levels, checkEvery: 1 });
    expect(r.iterations).toBeLessThanOrEqual(2);
    for (let k = 0; k <= K; k++) expect(Math.abs(r.pi[k] - exact[k] / total)).toBeLessThan(1e-12);
  });

  it('stationaryGaussSeidel(Q, { omega: 1.6, symmetric: false }) converges to the same law', () => {
    const r = stationaryGaussSeidel(Q, { tolerance: 1e-14, omega: 1.6, symmetric: false });
    for (let k = 0; k <= K; k++) expect(Math.abs(r.pi[k] - exact[k] / total)).toBeLessThan(1e-10);
  });

  it('stationaryGaussSeidel(Q) throws ConvergenceError when maxIterations runs out', () => {
    expect(() => stationaryGaussSeidel(Q, { tolerance: 1e-15, maxIterations: 3 })).toThrow(ConvergenceError);
  });

  it('stationaryGaussSeidel(Q) refuses an absorbing state and levels that skip', () => {
    const absorbing = { ...Q, outRate: Float64Array.from(Q.outRate, (v, j) => (j === 3 ? 0 : v)) };
    expect(() => stationaryGaussSeidel(absorbing)).toThrow(InvalidModelError);
    const skipping = Int32Array.from({ length: K + 1 }, (_, k) => 2 * k);
    expect(() => stationaryGaussSeidel(Q, { levels: skipping })).toThrow(/skips levels/);
  });
});
