import { createHash } from 'node:crypto';
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

  it('stationaryGaussSeidel(Q, { levels, aggregateEvery: 5 }) aggregates only before every 5th sweep, to the same law', () => {
    // a birth–death chain is solved by one aggregation step: with the step before sweeps 0, 5, 10, … the check after
    // the first sweep (checkEvery 1) still meets the tolerance, and π is the M/M/1/K law
    const levels = Int32Array.from({ length: K + 1 }, (_, k) => k);
    const r = stationaryGaussSeidel(Q, { tolerance: 1e-14, levels, checkEvery: 1, aggregateEvery: 5 });
    expect(r.iterations).toBeLessThanOrEqual(2);
    for (let k = 0; k <= K; k++) expect(Math.abs(r.pi[k] - exact[k] / total)).toBeLessThan(1e-12);
    // started far off (all mass at the top): the aggregation is what brings it back, every 5th sweep only
    const top = Float64Array.from({ length: K + 1 }, (_, k) => (k === K ? 1 : 1e-300));
    const sparse = stationaryGaussSeidel(Q, { tolerance: 1e-14, levels, initial: top, aggregateEvery: 5, omega: 1.6, symmetric: false });
    for (let k = 0; k <= K; k++) expect(Math.abs(sparse.pi[k] - exact[k] / total)).toBeLessThan(1e-12);
    expect(() => stationaryGaussSeidel(Q, { levels, aggregateEvery: 0 })).toThrow(/aggregateEvery must be an integer ≥ 1/);
    expect(() => stationaryGaussSeidel(Q, { levels, aggregateEvery: 1.5 })).toThrow(InvalidModelError);
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

  it('stationaryGaussSeidel(Q, { levels }) on a two-queue chain with same-level moves: π bit for bit as pinned', () => {
    // queues (a, b) ≤ 6, level a + b; in each column up, down and same-level (a jockey a → b) in-transitions are
    // interleaved. The pin is the π of the aggregation step written as one loop over all transitions (before it was
    // split by direction, cb29abc): the split must add each flow's terms in the same order.
    const M = 6;
    const S = (M + 1) ** 2;
    const index = (a: number, b: number) => a * (M + 1) + b;
    const columns: [number, number][][] = Array.from({ length: S }, () => []);
    const outRate = new Float64Array(S);
    const move = (from: number, to: number, rate: number) => {
      columns[to].push([from, rate]);
      outRate[from] += rate;
    };
    for (let a = 0; a <= M; a++) {
      for (let b = 0; b <= M; b++) {
        const s = index(a, b);
        if (a < M) move(s, index(a + 1, b), 0.7);
        if (b < M) move(s, index(a, b + 1), 0.45);
        if (a > 0) move(s, index(a - 1, b), 1);
        if (b > 0) move(s, index(a, b - 1), 0.8);
        if (a > b + 1) move(s, index(a - 1, b + 1), 0.3);
      }
    }
    const flat = columns.flat();
    const inStart = new Int32Array(S + 1);
    columns.forEach((c, j) => (inStart[j + 1] = inStart[j] + c.length));
    const chain = { inStart, inFrom: Int32Array.from(flat, (e) => e[0]), inRate: Float64Array.from(flat, (e) => e[1]), outRate };
    const levels = Int32Array.from({ length: S }, (_, s) => Math.floor(s / (M + 1)) + (s % (M + 1)));
    const r = stationaryGaussSeidel(chain, { levels, omega: 1.2, symmetric: false, tolerance: 1e-14 });
    expect(r.residual).toBeLessThanOrEqual(1e-14);
    expect(r.iterations).toBe(80);
    expect(createHash('sha256').update(new Uint8Array(r.pi.buffer)).digest('hex').slice(0, 16)).toBe('1cae5feb76979baa');
  });
});
