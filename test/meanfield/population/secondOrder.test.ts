import { describe, expect, it } from 'vitest';
import { parsePopulationModel, populationSecondOrder, secondOrderAt } from '../../../src/meanfield/population/index.ts';
import { refineSecondOrder, solveExact } from '../../../src/meanfield/index.ts';
import { parseModel } from '../../../src/model/index.ts';
import { solveDense } from '../../../src/numerics/dense.ts';
import { modelJson } from './helpers.ts';

/** A one-variable model (SIS with spontaneous infection) whose finite-n chain is a birth–death chain, solved exactly. */
const sis = parsePopulationModel({
  name: 'SIS',
  parameters: { a: 2, eps: 0.3, b: 1 },
  variables: ['x'],
  initial: { x: 0.5 },
  transitions: [
    { change: { x: 1 }, rate: '(a * x + eps) * (1 - x)' },
    { change: { x: -1 }, rate: 'b * x' },
  ],
  observables: { mean: 'x', square: 'x^2', expo: 'exp(2 * x)' },
});

/** E[g(k/n)] under the stationary law of the n-individual SIS chain (p_{k+1}/p_k = birth(k)/death(k+1)). */
function exactSis(n: number, g: (x: number) => number): number {
  const logp = [0];
  for (let k = 0; k < n; k++) {
    const x = k / n;
    const birth = (2 * x + 0.3) * (1 - x);
    const death = (k + 1) / n;
    logp.push(logp[k] + Math.log(birth / death));
  }
  const top = Math.max(...logp);
  let z = 0;
  let acc = 0;
  logp.forEach((l, k) => {
    const w = Math.exp(l - top);
    z += w;
    acc += w * g(k / n);
  });
  return acc / z;
}

describe('populationSecondOrder', () => {
  it.each([
    [0.5, 2, 6],
    [0.9, 2, undefined],
    [0.95, 3, undefined],
  ])('on models/jsq-d.json (λ = %s, d = %s) gives the c₂ and A of refineSecondOrder, the SQ(d)-specific route', (lambda, d, K) => {
    const sq = refineSecondOrder(parseModel({ lambda, d }), K ? { truncationLevel: K } : {});
    const levels = sq.diagnostics.truncationLevel;
    const pop = populationSecondOrder(parsePopulationModel(modelJson('jsq-d.json'), { lambda, d, K: levels }));
    expect(Math.abs(pop.observables.meanQueueLength.second / sq.sumA - 1)).toBeLessThan(1e-9);
    expect(Math.abs(pop.observables.meanResponseTime.second - sq.sumA / lambda)).toBeLessThan(1e-9 * sq.sumA);
    pop.A.forEach((a, i) => expect(a).toBeCloseTo(sq.A[i + 1], 9));
    for (const r of Object.values(pop.diagnostics.residuals)) expect(r).toBeLessThan(1e-12);
  });

  it('on the SIS model gives the c₂ of the exact birth–death chain (Richardson over n = 400..3200) for x, x² and exp(2x)', () => {
    const r = populationSecondOrder(sis);
    const g: Record<string, (x: number) => number> = { mean: (x) => x, square: (x) => x * x, expo: (x) => Math.exp(2 * x) };
    for (const [name, fn] of Object.entries(g)) {
      const o = r.observables[name];
      // y(n) = n²(E_n − g(π) − c₁/n) = c₂ + c₃/n + c₄/n²: fitted through three n, c₂ read off
      const ns = [400, 800, 1600, 3200];
      const rows = ns.map((n) => [1, 1 / n, 1 / n ** 2, 1 / n ** 3]);
      const y = ns.map((n) => n * n * (exactSis(n, fn) - o.meanField - o.first / n));
      const [c2] = solveDense(rows, y, 'fit');
      expect(Math.abs(c2 - o.second)).toBeLessThan(1e-5 * Math.max(1, Math.abs(o.second)));
      expect(Math.abs(o.second)).toBeGreaterThan(1e-3); // a non-trivial term
    }
    const at = secondOrderAt(r, 10);
    expect(at.observables.mean).toBeCloseTo(
      r.observables.mean.meanField + r.observables.mean.first / 10 + r.observables.mean.second / 100,
      14,
    );
  });

  it('on an SIS model with a quintic drift (birth (2x⁴ + 0.3)(1 − x)): c₂ of the exact chain, so F′′′ and F′′′′ enter right in 1-D', () => {
    const quartic = parsePopulationModel({
      name: 'SIS4',
      parameters: { a: 2, eps: 0.3, b: 1 },
      variables: ['x'],
      initial: { x: 0.5 },
      transitions: [
        { change: { x: 1 }, rate: '(a * x^4 + eps) * (1 - x)' },
        { change: { x: -1 }, rate: 'b * x' },
      ],
      observables: { mean: 'x' },
    });
    const o = populationSecondOrder(quartic).observables.mean;
    const exact = (n: number) => {
      const logp = [0];
      for (let k = 0; k < n; k++) logp.push(logp[k] + Math.log(((2 * (k / n) ** 4 + 0.3) * (1 - k / n)) / ((k + 1) / n)));
      const top = Math.max(...logp);
      let z = 0;
      let acc = 0;
      logp.forEach((l, k) => {
        const w = Math.exp(l - top);
        z += w;
        acc += (w * k) / n;
      });
      return acc / z;
    };
    const ns = [400, 800, 1600, 3200];
    const y = ns.map((n) => n * n * (exact(n) - o.meanField - o.first / n));
    const [c2] = solveDense(
      ns.map((n) => [1, 1 / n, 1 / n ** 2, 1 / n ** 3]),
      y,
      'fit',
    );
    expect(Math.abs(c2 - o.second)).toBeLessThan(1e-4 * Math.abs(o.second));
    expect(Math.abs(o.second)).toBeGreaterThan(0.1); // 0.14178: not a trivial term
  });

  it('JSQ(2), λ = 0.5: the exact n-server E[T] at n = 2..6 extrapolates to c₂ = ΣA/λ within 0.5 % (a + c₁/n fixed, c₂..c₆ interpolated, Aitken over the number of terms)', () => {
    // Measured: the 3-, 4-, 5-term interpolants give 0.15683, 0.15531, 0.15442 and Aitken 0.1531, against 0.153400;
    // with n = 2..10 and more terms the estimates go 0.15471, 0.15397, 0.15364 → 0.1534. (The c_k alternate and grow,
    // so a two-term fit c₂ + c₃/n to n = 8, 10 lands at 0.1555: not a discrepancy in c₂.)
    const model = parseModel({ lambda: 0.5, d: 2 });
    const sq = refineSecondOrder(model);
    const a = sq.fixedPoint.meanQueueLength / 0.5;
    const c1 = sq.sumV / 0.5;
    const c2 = sq.sumA / 0.5;
    const ns = [2, 3, 4, 5, 6];
    const y = ns.map((n) => solveExact(model, { n, truncationBound: 1e-12, tolerance: 1e-14 }).meanResponseTime - a - c1 / n);
    const estimate = (terms: number) => {
      const rows = ns.map((n) => Array.from({ length: terms }, (_, p) => n ** -(p + 2)));
      const normal = rows[0].map((_, i) => rows[0].map((_, j) => rows.reduce((s, r) => s + r[i] * r[j], 0)));
      return solveDense(
        normal,
        rows[0].map((_, i) => rows.reduce((s, r, k) => s + r[i] * y[k], 0)),
        'fit',
      )[0];
    };
    const [x0, x1, x2] = [estimate(3), estimate(4), estimate(5)];
    expect(x0).toBeGreaterThan(x1);
    expect(x1).toBeGreaterThan(x2);
    const aitken = x2 - (x2 - x1) ** 2 / (x2 - 2 * x1 + x0);
    expect(Math.abs(aitken / c2 - 1)).toBeLessThan(0.005);
  });
  it('JSQ(4) with buffer 2 (K = 2, λ = 0.9): c₂ of the exact n-server chain (Richardson over n = 40, 80, 160) within 0.1 %, so F′′′ and F′′′′ enter right in several dimensions', () => {
    // models/jsq-d.json at K = 2 is the finite-n chain solveExact solves at level cap 2 (arrivals at level 2 lost).
    // Two coupled variables with quartic rates: the multi-dimensional third and fourth derivatives that are zero at
    // d = 2. g(n) = n²(E[Q]_n − g(π) − c₁/n) = c₂ + c₃/n + c₄/n² + …: c₂ from the three n (c₃ ≈ −175, c₄ ≈ 1800).
    const lambda = 0.9;
    const d = 4;
    const pop = populationSecondOrder(parsePopulationModel(modelJson('jsq-d.json'), { lambda, d, K: 2 }));
    const q = pop.observables.meanQueueLength;
    const ns = [40, 80, 160];
    const g = ns.map((n) => {
      const exact = solveExact(parseModel({ lambda, d }), { n, truncationLevel: 2, fixedLevel: true, tolerance: 1e-14 });
      return n * n * (exact.meanQueueLength - q.meanField - q.first / n);
    });
    const [c2] = solveDense(
      ns.map((n) => [1, 1 / n, 1 / n ** 2]),
      g,
      'Richardson',
    );
    expect(Math.abs(c2 / q.second - 1)).toBeLessThan(1e-3);
    // and the first-order error alone is far from c₂/n² at these n, so the check has teeth
    expect(Math.abs(g[0] / q.second - 1)).toBeGreaterThan(0.1);
  });
});
