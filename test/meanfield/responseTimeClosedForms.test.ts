/**
 * Response-time quantiles against closed forms computed independently of the solvers (issue 20 acceptance: 1e−6 where
 * a closed form exists; a cavity's quantiles cover the closed form within their 95 % interval):
 * - SQ(d) FIFO exponential: the Erlang mixture P(T > t) = Σ_m (s_m^d − s_{m+1}^d) P(Erlang(m + 1) > t) with
 *   s_m = λ^((d^m − 1)/(d − 1)) (Mitzenmacher 2001), against the solver's Poisson-mixture form;
 * - M/PH/1 FIFO: W is zero w.p. 1 − ρ, else PH(α₊, A + aα₊) with α₊ = λα(−A)⁻¹ (Asmussen, Applied Probability and
 *   Queues, 2003, VIII.5), so T = W + S is PH(β, Q), β = (α₊, (1 − ρ)α), Q = [[A + aα₊, (1 − ρ)aα], [0, A]],
 *   P(T > t) = β e^{Qt} 1 (matrix exponential by scaling and squaring), against the phase-type law by uniformisation;
 * - the cavity laws (JSQ, LWL, LPW cavities on FIFO exponential models, where SQ(d) and LWL(d) have closed forms).
 */
import { describe, expect, it } from 'vitest';
import { jsqCavity } from '../../src/meanfield/cavity/jsqCavity.ts';
import { lwlCavity } from '../../src/meanfield/cavity/lwlCavity.ts';
import { ResponseTimeSample } from '../../src/meanfield/cavity/responseSample.ts';
import { phaseTypeJsqFixedPoint } from '../../src/meanfield/phaseType/fixedPoint.ts';
import { sampleResponseTimeLaw, solveResponseTime } from '../../src/meanfield/responseTime.ts';
import { lwlWorkloadCcdf } from '../../src/meanfield/lwl/workload.ts';
import { parseModel } from '../../src/model/index.ts';

/** Smallest t with f(t) ≤ 1 − p, by bisection to 1e−13 relative (f continuous, non-increasing). */
function invert(f: (t: number) => number, p: number): number {
  let lo = 0;
  let hi = 1;
  while (f(hi) > 1 - p) hi *= 2;
  while (hi - lo > 1e-13 * hi) {
    const mid = 0.5 * (lo + hi);
    if (f(mid) > 1 - p) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** P(Erlang(k, 1) > t) = e^{−t} Σ_{j<k} t^j/j!. */
function erlangCcdf(k: number, t: number): number {
  let term = Math.exp(-t);
  let sum = 0;
  for (let j = 0; j < k; j++) {
    sum += term;
    term *= t / (j + 1);
  }
  return sum;
}

type Matrix = number[][];
const mul = (a: Matrix, b: Matrix): Matrix => a.map((row) => b[0].map((_, j) => row.reduce((s, x, k) => s + x * b[k][j], 0)));

/** e^M by scaling and squaring with a 30-term Taylor series (small dense matrices). */
function expm(m: Matrix): Matrix {
  const norm = Math.max(...m.map((row) => row.reduce((s, x) => s + Math.abs(x), 0)));
  const squarings = Math.max(0, Math.ceil(Math.log2(norm)) + 1);
  const scaled = m.map((row) => row.map((x) => x / 2 ** squarings));
  const n = m.length;
  let result: Matrix = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
  let term = result;
  for (let k = 1; k <= 30; k++) {
    term = mul(term, scaled).map((row) => row.map((x) => x / k));
    result = result.map((row, i) => row.map((x, j) => x + term[i][j]));
  }
  for (let s = 0; s < squarings; s++) result = mul(result, result);
  return result;
}

/** Solves x(−A) = α for the row vector x (Gaussian elimination on the transpose). */
function rowSolve(A: Matrix, alpha: number[]): number[] {
  const n = A.length;
  const M = Array.from({ length: n }, (_, i) => [...Array.from({ length: n }, (_, j) => -A[j][i]), alpha[i]]);
  for (let c = 0; c < n; c++) {
    const p = M.reduce((best, row, r) => (r >= c && Math.abs(row[c]) > Math.abs(M[best][c]) ? r : best), c);
    [M[c], M[p]] = [M[p], M[c]];
    for (let r = 0; r < n; r++) {
      if (r === c) continue;
      const f = M[r][c] / M[c][c];
      for (let j = c; j <= n; j++) M[r][j] -= f * M[c][j];
    }
  }
  return M.map((row, i) => row[n] / row[i]);
}

/** M/PH/1 FIFO response-time ccdf t ↦ β e^{Qt} 1 (module comment). */
function mph1Ccdf(lambda: number, alpha: number[], A: Matrix): (t: number) => number {
  const m = alpha.length;
  const a = A.map((row) => -row.reduce((s, x) => s + x, 0));
  const alphaPlus = rowSolve(A, alpha).map((x) => lambda * x);
  const rho = alphaPlus.reduce((s, x) => s + x, 0);
  const Q: Matrix = Array.from({ length: 2 * m }, () => new Array<number>(2 * m).fill(0));
  for (let i = 0; i < m; i++)
    for (let j = 0; j < m; j++) {
      Q[i][j] = A[i][j] + a[i] * alphaPlus[j];
      Q[i][m + j] = (1 - rho) * a[i] * alpha[j];
      Q[m + i][m + j] = A[i][j];
    }
  const beta = [...alphaPlus, ...alpha.map((x) => (1 - rho) * x)];
  return (t) => {
    if (t <= 0) return 1;
    const E = expm(Q.map((row) => row.map((x) => x * t)));
    return beta.reduce((s, b, i) => s + b * E[i].reduce((r, x) => r + x, 0), 0);
  };
}

describe('response-time quantiles against independent closed forms (1e−6)', () => {
  it('SQ(d) FIFO exponential, d = 2, 3, 5: the Poisson mixture’s quantiles are the Erlang mixture’s', () => {
    for (const [lambda, d] of [
      [0.9, 2],
      [0.99, 2],
      [0.7, 3],
      [0.95, 5],
    ]) {
      const s = (m: number) => lambda ** ((d ** m - 1) / (d - 1));
      const ccdf = (t: number) => {
        let sum = 0;
        for (let m = 0; m < 200 && s(m) > 1e-300; m++) sum += (s(m) ** d - s(m + 1) ** d) * erlangCcdf(m + 1, t);
        return sum;
      };
      const law = solveResponseTime(parseModel({ lambda, d }), { quantiles: [0.5, 0.95, 0.99, 0.999] });
      expect(law.solver).toMatch(/SQ\(d\) closed form/);
      for (const q of law.quantiles) expect(Math.abs(q.value - invert(ccdf, q.p)) / q.value).toBeLessThan(1e-6);
    }
  });

  it('M/PH/1 FIFO (Erlang 3, hyperexponential SCV 4): the uniformised phase-type law’s quantiles are the matrix-exponential closed form’s', () => {
    for (const [lambda, service] of [
      [0.8, 'erlang:3'],
      [0.9, 'hyperexp:4'],
      [0.5, 'hyperexp:2'],
    ] as const) {
      const model = parseModel({ lambda, d: 1, service });
      const { alpha, A } = phaseTypeJsqFixedPoint({ ...model, selection: 'random' }).phaseType; // the law's representation only
      const closed = mph1Ccdf(lambda, alpha, A);
      const law = solveResponseTime(model, { quantiles: [0.5, 0.95, 0.99] });
      expect(law.solver).toMatch(/phase-type/);
      expect(law.kind).toBe('exact');
      for (const q of law.quantiles) expect(Math.abs(q.value - invert(closed, q.p)) / q.value).toBeLessThan(1e-6);
      // the closed form's mean (∫ ccdf) is Pollaczek–Khinchine: E[S] + λE[S²]/(2(1 − ρ)), E[S] = 1
      const scv = service === 'erlang:3' ? 1 / 3 : Number(service.split(':')[1]);
      const pk = 1 + (lambda * (1 + scv)) / (2 * (1 - lambda));
      expect(Math.abs(law.meanResponseTime - pk) / pk).toBeLessThan(1e-8);
    }
  });
});

describe('cavity response-time laws cover the closed forms within their 95 % intervals (FIFO, exponential sizes)', () => {
  const ps = [0.5, 0.95, 0.99];
  it('JSQ cavity on JSQ(2) FIFO (closed form: SQ(d)) and LWL cavity on LWL(2) FIFO (closed form: LWL(d))', () => {
    const jsqModel = parseModel({ lambda: 0.8, d: 2 });
    const jsqSample = new ResponseTimeSample(4);
    jsqCavity(jsqModel, { seed: 1, restarts: 4, iterationHorizon: 5e3 }, jsqSample);
    const lwlModel = parseModel({ lambda: 0.8, d: 2, selection: 'lwl' });
    const w = lwlWorkloadCcdf(lwlModel);
    const lwlSample = new ResponseTimeSample(25);
    lwlCavity(lwlModel, { seed: 1, batches: 25, horizon: 2e4, workloadCcdf: { grid: w.grid, ccdf: w.workloadCcdf } }, lwlSample);
    for (const [sample, model] of [
      [jsqSample, jsqModel],
      [lwlSample, lwlModel],
    ] as const) {
      const named = { kind: 'estimate' as const, solver: 'cavity', source: 'test' };
      const law = sampleResponseTimeLaw(named, sample.sortedUnits(), [], ps);
      const exact = solveResponseTime(model, { quantiles: ps });
      expect(exact.kind).toBe('exact');
      law.quantiles.forEach((q, i) => {
        const [lo, hi] = q.estimate!.ci95;
        expect(exact.quantiles[i].value).toBeGreaterThanOrEqual(lo);
        expect(exact.quantiles[i].value).toBeLessThanOrEqual(hi);
      });
    }
  });

  it('LPW(2) FIFO with exact predictions is LWL(2): its law is the LWL closed form itself (lpwAsLwl), not a cavity sample', () => {
    const law = solveResponseTime(parseModel({ lambda: 0.8, d: 2, selection: 'lpw', prediction: 'exact' }), { quantiles: ps });
    expect(law.solver).toMatch(/LWL\(d\) closed form .*LPW with exact predictions/);
    expect(law.kind).toBe('exact');
    const exact = solveResponseTime(parseModel({ lambda: 0.8, d: 2, selection: 'lwl' }), { quantiles: ps });
    expect(law.quantiles.map((q) => q.value)).toEqual(exact.quantiles.map((q) => q.value));
  });
});
