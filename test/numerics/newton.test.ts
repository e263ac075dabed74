import { describe, expect, it } from 'vitest';
import { ConvergenceError, SolverError } from '../../src/errors.ts';
import { dampedNewton, newtonSolve } from '../../src/numerics/newton.ts';
import { sqdClosedFormTail, sqdDrift, sqdJacobianBands } from '../../src/meanfield/sqd.ts';
import { largestEigenvalueTridiagonal, solveTridiagonal, tridiagonalToDense } from '../../src/numerics/tridiagonal.ts';
import { eigs, multiply } from 'mathjs';

describe('newton', () => {
  it('newtonSolve(f, J, x0) finds √2 from x0 = 1 with residual ≤ 1e−12', () => {
    const r = newtonSolve(
      (x) => Float64Array.of(x[0] ** 2 - 2),
      (x) => [[2 * x[0]]],
      [1],
    );
    expect(r.x[0]).toBeCloseTo(Math.SQRT2, 14);
    expect(r.residual).toBeLessThanOrEqual(1e-12);
    expect(r.iterations).toBeGreaterThan(2);
  });

  it('newtonSolve(f, J, x0) backtracks where a full step overshoots (atan from x0 = 3)', () => {
    // Plain Newton on atan(x) diverges from |x0| > 1.39; halving the step keeps ‖f‖ decreasing.
    const r = newtonSolve(
      (x) => Float64Array.of(Math.atan(x[0])),
      (x) => [[1 / (1 + x[0] ** 2)]],
      [3],
    );
    expect(Math.abs(r.x[0])).toBeLessThan(1e-12);
  });

  it('newtonSolve(f, J, x0) throws ConvergenceError with residual and iterations when maxIterations runs out', () => {
    // f(x) = e^x has no root; each step shrinks f by e, so 5 steps leave f ≈ e^{−4}.
    const run = () =>
      newtonSolve(
        (x) => Float64Array.of(Math.exp(x[0])),
        (x) => [[Math.exp(x[0])]],
        [1],
        { maxIterations: 5 },
      );
    expect(run).toThrow(ConvergenceError);
    expect(run).toThrow(/maxIterations = 5/);
    try {
      run();
    } catch (error) {
      expect((error as ConvergenceError).iterations).toBe(5);
      expect((error as ConvergenceError).residual).toBeCloseTo(Math.exp(-4), 10);
    }
  });

  it('newtonSolve(f, J, x0) throws SolverError when the Jacobian is singular', () => {
    expect(() =>
      newtonSolve(
        (x) => Float64Array.of(x[0] ** 2 + 1),
        (x) => [[2 * x[0]]],
        [0],
      ),
    ).toThrow(SolverError);
  });

  it('newtonSolve(f, J, x0) with a tridiagonal Jacobian solves SQ(1) at K = 3,437 in one step', () => {
    const K = 3437;
    const r = newtonSolve(
      (s) => sqdDrift(0.99, 1, s),
      (s) => sqdJacobianBands(0.99, 1, s),
      new Float64Array(K),
    );
    expect(r.iterations).toBe(1);
    expect(r.residual).toBeLessThanOrEqual(1e-12);
    // M/M/1/K: s_i = (λ^i − λ^{K+1})/(1 − λ^{K+1}) (theory.md §2).
    const top = 0.99 ** (K + 1);
    for (const i of [1, 10, 100, 1000, K]) expect(r.x[i - 1]).toBeCloseTo((0.99 ** i - top) / (1 - top), 11);
  });

  it('solveTridiagonal(m, rhs) agrees with a dense product check', () => {
    const m = sqdJacobianBands(0.9, 2, sqdClosedFormTail(0.9, 2, 9).slice(1));
    const rhs = [1, -2, 3, 0.5, 0, 1, 2, -1, 4];
    const x = solveTridiagonal(m, rhs);
    const back = multiply(tridiagonalToDense(m), Array.from(x)) as number[];
    back.forEach((v, i) => expect(v).toBeCloseTo(rhs[i], 12));
  });

  it('largestEigenvalueTridiagonal(m) equals the largest mathjs eigs value of the SQ(2) Jacobian', () => {
    const m = sqdJacobianBands(0.9, 2, sqdClosedFormTail(0.9, 2, 9).slice(1));
    const values = (eigs(tridiagonalToDense(m)).values as number[]).map(Number);
    expect(largestEigenvalueTridiagonal(m)).toBeCloseTo(Math.max(...values), 10);
  });
});

describe('dampedNewton', () => {
  it('dampedNewton(problem) finds √2 like newtonSolve, and reports a root-free problem instead of throwing', () => {
    const sqrt2 = dampedNewton(
      { residual: (x) => Float64Array.of(x[0] ** 2 - 2), step: (x, rhs) => [rhs[0] / (2 * x[0])] },
      [1],
      1e-14,
      50,
    );
    expect(sqrt2.outcome).toBe('converged');
    expect(Math.abs(sqrt2.x[0] - Math.SQRT2)).toBeLessThan(1e-14);
    // x² + 1 has no real root: the residual cannot drop below 1
    const none = dampedNewton(
      { residual: (x) => Float64Array.of(x[0] ** 2 + 1), step: (x, rhs) => [rhs[0] / (2 * x[0])] },
      [0.5],
      1e-14,
      50,
    );
    expect(['stalled', 'max-iterations']).toContain(none.outcome);
    expect(none.residual).toBeGreaterThanOrEqual(1);
  });
});
