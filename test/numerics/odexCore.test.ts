import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type * as OdexPackage from 'odex';
import { Odex, type OdexCoreOptions } from '../../src/numerics/odexCore.ts';
import { sqdDrift } from '../../src/meanfield/sqd.ts';

// the package the port was made from (its compiled entry, by file path: tsconfig "paths" maps 'odex' to types only)
const { Solver } = createRequire(import.meta.url)('odex/src/odex.js') as typeof OdexPackage;

type F = (t: number, y: number[]) => number[];

/** Every observer call (start and accepted steps) with the dense output at 3 points inside the step, per component. */
function record(run: (observe: (xOld: number, x: number, y: number[], dense?: (c: number, t: number) => number) => boolean) => unknown) {
  const calls: number[][] = [];
  const result = run((xOld, x, y, dense) => {
    const row = [xOld, x, ...y];
    if (dense) for (const c of [0, y.length - 1]) for (const u of [0.25, 0.5, 0.9]) row.push(dense(c, xOld + u * (x - xOld)));
    calls.push(row);
    return true;
  });
  return { calls, result };
}

/** The package, set up as numerics/odex.ts set it up before the port. */
function viaPackage(f: F, y0: number[], t0: number, tEnd: number, o: OdexCoreOptions, stopAfter = Infinity) {
  return record((observe) => {
    const solver = new Solver(y0.length);
    solver.denseOutput = true;
    if (o.denseComponents) solver.denseComponents = [...o.denseComponents];
    solver.relativeTolerance = o.tolerance;
    solver.absoluteTolerance = o.tolerance;
    solver.maxSteps = o.maxSteps;
    let seen = 0;
    const r = solver.solve(f, t0, y0, tEnd, (_nr, xOld, x, y, dense) => (observe(xOld, x, y, dense) && ++seen <= stopAfter) || false);
    return { outcome: r.outcome, nStep: r.nStep, nAccept: r.nAccept, nReject: r.nReject, nEval: r.nEval };
  });
}

function viaPort(f: F, y0: number[], t0: number, tEnd: number, o: OdexCoreOptions, stopAfter = Infinity) {
  return record((observe) => {
    let seen = 0;
    return Odex.solve(f, t0, y0, tEnd, o, (xOld, x, y, dense) => (observe(xOld, x, y, dense) && ++seen <= stopAfter) || false);
  });
}

/** The bits of every number, so −0 and NaN compare as the package wrote them. */
const bits = (rows: number[][]) => rows.map((r) => Array.from(new BigUint64Array(Float64Array.from(r).buffer), String).join(','));

describe('Odex.solve (port of odex 2.0.4)', () => {
  const sqd = (rho: number, d: number): F => {
    const buffer = new Float64Array(0);
    return (_t, y) => Array.from(sqdDrift(rho, d, y, buffer.length === y.length ? buffer : new Float64Array(y.length)));
  };
  const cases: { name: string; f: F; y0: number[]; t0: number; tEnd: number; o: OdexCoreOptions; stopAfter?: number }[] = [
    {
      name: 'decay y = (e^{−t}, e^{−2t})',
      f: (_t, y) => [-y[0], -2 * y[1]],
      y0: [1, 1],
      t0: 0,
      tEnd: 7,
      o: { tolerance: 1e-12, maxSteps: 10_000 },
    },
    {
      name: 'SQ(2) from empty, ρ = 0.95, K = 30',
      f: sqd(0.95, 2),
      y0: Array(30).fill(0),
      t0: 0,
      tEnd: 400,
      o: { tolerance: 1e-9, maxSteps: 100_000 },
    },
    {
      name: 'SQ(3) from a full start, ρ = 0.7, K = 12',
      f: sqd(0.7, 3),
      y0: Array(12).fill(1),
      t0: 0,
      tEnd: 60,
      o: { tolerance: 1e-6, maxSteps: 10_000 },
    },
    {
      name: 'dense components 0 and 4 only, backwards in time',
      f: (t, y) => y.map((v, i) => -(i + 1) * v + Math.sin(t)),
      y0: [1, 2, 3, 4, 5],
      t0: 3,
      tEnd: -2,
      o: { tolerance: 1e-8, maxSteps: 10_000, denseComponents: [0, 4] },
    },
    {
      name: 'step budget exceeded (MaxStepsExceeded)',
      f: sqd(0.95, 2),
      y0: Array(30).fill(0),
      t0: 0,
      tEnd: 400,
      o: { tolerance: 1e-10, maxSteps: 7 },
    },
    {
      name: 'observer stops early (EarlyReturn)',
      f: sqd(0.9, 2),
      y0: Array(20).fill(0),
      t0: 0,
      tEnd: 100,
      o: { tolerance: 1e-9, maxSteps: 10_000 },
      stopAfter: 5,
    },
    {
      name: 'stiff linear system (rejected steps)',
      f: (_t, y) => [-1000 * (y[0] - y[1]), -y[1]],
      y0: [0, 1],
      t0: 0,
      tEnd: 0.5,
      o: { tolerance: 1e-6, maxSteps: 100_000 },
    },
  ];

  for (const c of cases) {
    it(`${c.name}: every step, dense value and count is the package's to the bit`, () => {
      const port = viaPort(c.f, c.y0, c.t0, c.tEnd, c.o, c.stopAfter);
      const pkg = viaPackage(c.f, c.y0, c.t0, c.tEnd, c.o, c.stopAfter);
      expect(port.result).toEqual(pkg.result);
      expect(port.calls.length).toBeGreaterThan(1);
      expect(bits(port.calls)).toEqual(bits(pkg.calls));
    });
  }

  it('outcomes: MaxStepsExceeded and EarlyReturn are reported, not thrown', () => {
    expect(viaPort(cases[4].f, cases[4].y0, 0, 400, cases[4].o).result).toMatchObject({ outcome: 1 });
    expect(viaPort(cases[5].f, cases[5].y0, 0, 100, cases[5].o, 5).result).toMatchObject({ outcome: 2, nAccept: 5 });
  });

  it('closed forms: y = e^{−t} and the logistic y = 1/(1 + 9e^{−t}), at every step and mid-step (dense), to 1e−9', () => {
    // dy/dt = −y with y(0) = 1 and the logistic equation y' = y(1 − y), y(0) = 0.1: y = 1/(1 + 9e^{−t})
    const f: F = (_t, y) => [-y[0], y[1] * (1 - y[1])];
    let worst = 0;
    Odex.solve(f, 0, [1, 0.1], 10, { tolerance: 1e-12, maxSteps: 10_000 }, (xOld, x, y, dense) => {
      worst = Math.max(worst, Math.abs(y[0] - Math.exp(-x)), Math.abs(y[1] - 1 / (1 + 9 * Math.exp(-x))));
      if (dense) {
        const m = (xOld + x) / 2;
        worst = Math.max(worst, Math.abs(dense(0, m) - Math.exp(-m)), Math.abs(dense(1, m) - 1 / (1 + 9 * Math.exp(-m))));
      }
      return true;
    });
    expect(worst).toBeLessThan(1e-9);
  });

  it('refuses a dense component out of range and a non-positive step budget, as odex does', () => {
    const f: F = (_t, y) => y;
    expect(() => Odex.solve(f, 0, [1], 1, { tolerance: 1e-6, maxSteps: 10, denseComponents: [2] }, () => true)).toThrow(
      /bad dense component: 2/,
    );
    expect(() => Odex.solve(f, 0, [1], 1, { tolerance: 1e-6, maxSteps: 0 }, () => true)).toThrow(/maxSteps must be positive/);
  });
});
