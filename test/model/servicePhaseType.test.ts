import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import { phaseTypeFit, serviceDistribution, type PhaseType } from '../../src/model/service/index.ts';

/** Solves M v = r by Gaussian elimination with partial pivoting (independent of the code under test). */
function solve(M: number[][], r: number[]): number[] {
  const m = r.length;
  const a = M.map((row, i) => [...row, r[i]]);
  for (let c = 0; c < m; c++) {
    let piv = c;
    for (let i = c + 1; i < m; i++) if (Math.abs(a[i][c]) > Math.abs(a[piv][c])) piv = i;
    [a[c], a[piv]] = [a[piv], a[c]];
    for (let i = c + 1; i < m; i++) {
      const f = a[i][c] / a[c][c];
      for (let j = c; j <= m; j++) a[i][j] -= f * a[c][j];
    }
  }
  const v = new Array<number>(m).fill(0);
  for (let i = m - 1; i >= 0; i--) {
    let s = a[i][m];
    for (let j = i + 1; j < m; j++) s -= a[i][j] * v[j];
    v[i] = s / a[i][i];
  }
  return v;
}

/** E[S] and E[S²] of PH(α, A): E[S^k] = k!·α(−A)^{−k}1. */
function phMoments({ alpha, A }: PhaseType): [number, number] {
  const negA = A.map((row) => row.map((x) => -x));
  const v1 = solve(
    negA,
    alpha.map(() => 1),
  );
  const v2 = solve(negA, v1);
  const dot = (v: number[]) => alpha.reduce((s, a, i) => s + a * v[i], 0);
  return [dot(v1), 2 * dot(v2)];
}

/** P(S > x) = α·e^{Ax}·1 by uniformization (Poisson weights of the jump chain I + A/q). */
function phCcdf({ alpha, A }: PhaseType, x: number): number {
  const q = Math.max(...A.map((row, i) => -row[i]));
  let v = alpha.map(() => 1); // P^n·1
  let weight = Math.exp(-q * x);
  let total = 0;
  for (let n = 0; n < 2000; n++) {
    total += weight * alpha.reduce((s, a, i) => s + a * v[i], 0);
    v = v.map((_, i) => v[i] + A[i].reduce((s, aij, j) => s + (aij / q) * v[j], 0));
    weight *= (q * x) / (n + 1);
    if (n > q * x && weight < 1e-18) break;
  }
  return total;
}

describe('phaseTypeFit', () => {
  it.each([0.05, 0.1, 0.3, 1 / 3, 0.45, 0.5, 0.7, 0.99, 1, 1.5, 3, 20])(
    'phaseTypeFit(mean, %s) reproduces mean and SCV exactly (E[S^k] = k!·α(−A)^{−k}1)',
    (scv) => {
      for (const mean of [1, 2.5]) {
        const ph = phaseTypeFit(mean, scv);
        expect(ph.alpha.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 14);
        for (const a of ph.alpha) expect(a).toBeGreaterThanOrEqual(0);
        const [m1, m2] = phMoments(ph);
        expect(m1).toBeCloseTo(mean, 10);
        expect(m2 / (m1 * m1) - 1).toBeCloseTo(scv, 10);
      }
    },
  );

  it('phaseTypeFit(1, 1/k) is the pure Erlang-k and phaseTypeFit(1, 1) the exponential', () => {
    const e4 = phaseTypeFit(1, 0.25);
    expect(e4.alpha).toEqual([1, 0, 0, 0]);
    expect(e4.A[0][0]).toBeCloseTo(-4, 12);
    expect(phaseTypeFit(1, 1)).toEqual({ alpha: [1], A: [[-1]] });
  });

  it('phaseTypeFit(1, 3) is the balanced H2 of theory.md §3: p₁ = ½(1 + √½), μ_i = 2p_i', () => {
    const ph = phaseTypeFit(1, 3);
    const p1 = 0.5 * (1 + Math.SQRT1_2);
    expect(ph.alpha[0]).toBeCloseTo(p1, 14);
    expect(ph.A[0][0]).toBeCloseTo(-2 * p1, 14);
    expect(ph.A[1][1]).toBeCloseTo(-2 * (1 - p1), 14);
  });

  it('phaseTypeFit(mean, scv) throws InvalidModelError for scv ≤ 0 or mean ≤ 0', () => {
    expect(() => phaseTypeFit(1, 0)).toThrow(InvalidModelError);
    expect(() => phaseTypeFit(0, 1)).toThrow(/phase-type fit mean/);
    expect(() => phaseTypeFit(1, NaN)).toThrow(/phase-type fit scv/);
  });
});

describe('ServiceDistribution.phaseType', () => {
  it.each([
    { kind: 'exponential', mean: 2 },
    { kind: 'erlang', k: 4, mean: 1.5 },
    { kind: 'hyperexponential', scv: 5, mean: 1 },
  ] as const)('serviceDistribution($kind).phaseType has the distribution’s moments and ccdf (uniformization)', (spec) => {
    const d = serviceDistribution(spec);
    const ph = d.phaseType!;
    const [m1, m2] = phMoments(ph);
    expect(m1).toBeCloseTo(d.mean, 12);
    expect(m2).toBeCloseTo(d.secondMoment, 12);
    for (const x of [0.1, 0.7, 2, 5]) expect(phCcdf(ph, x)).toBeCloseTo(d.ccdf(x), 10);
  });

  it('serviceDistribution(weibull|lognormal|bounded-pareto|deterministic|empirical).phaseType is undefined', () => {
    expect(serviceDistribution({ kind: 'weibull', shape: 0.5, mean: 1 }).phaseType).toBeUndefined();
    expect(serviceDistribution({ kind: 'lognormal', sigma: 1, mean: 1 }).phaseType).toBeUndefined();
    expect(serviceDistribution({ kind: 'bounded-pareto', alpha: 1.5, ratio: 10, mean: 1 }).phaseType).toBeUndefined();
    expect(serviceDistribution({ kind: 'deterministic', mean: 1 }).phaseType).toBeUndefined();
  });
});
