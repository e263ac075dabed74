import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../../src/errors.ts';
import {
  parsePopulationModel,
  populationDrift,
  populationFixedPoint,
  populationRefined,
  populationTransient,
  requireSmoothModel,
  type PopulationModel,
} from '../../../src/meanfield/population/index.ts';
import { sqdDrift, sqdJacobian } from '../../../src/meanfield/sqd.ts';
import { shipped } from './helpers.ts';

/** A non-linear model with products, quotients and exp/sqrt, so that the Hessian has off-diagonal entries. */
const mixed = parsePopulationModel({
  name: 'mixed',
  parameters: { a: 1.3, b: 0.7 },
  variables: ['x', 'y', 'z'],
  transitions: [
    { change: { x: -1, y: 1 }, rate: 'a * x * y / (1 + z)' },
    { change: { y: -1, z: 2 }, rate: 'b * sqrt(y) * exp(-x)' },
    { change: { z: -1, x: 0.5 }, rate: 'z^3 + x*z' },
    { change: { x: 1 }, rate: 'log(1 + y*z) + 0.2' },
  ],
});

/** Every smooth function the evaluator accepts (models/README.md), so each derivative rule meets finite differences. */
const smooth = parsePopulationModel({
  name: 'smooth functions',
  variables: ['x', 'y', 'z'],
  transitions: [
    { change: { x: -1 }, rate: 'expm1(x*y) + log1p(y*z) + log2(1 + x) + log10(2 + z)' },
    { change: { y: -1, z: 1 }, rate: 'cbrt(1 + x*z) + sin(y)*cos(z) + tan(x/2) + pow(y, 2.5) + log(2 + y, 3)' },
    { change: { z: -1, x: 1 }, rate: 'sinh(x) * cosh(z) + tanh(y*z) + (1 + x)^(y + 0.5) + exp(-z) * sqrt(1 + y) - +x/(2 + -z)' },
  ],
});

const cases: [string, PopulationModel, number[]][] = [
  ['every smooth function', smooth, [0.7, 0.4, 0.6]],
  ['JSQ(3), K = 6', shipped('jsq-d.json', { d: 3, K: 6, lambda: 0.8 }), [0.93, 0.71, 0.52, 0.3, 0.12, 0.05]],
  ['threshold T = 2, K = 6', shipped('threshold-probe.json', { T: 2, K: 6 }), [0.9, 0.62, 0.41, 0.22, 0.13, 0.04]],
  ['mixed', mixed, [0.8, 0.6, 0.4]],
];

describe('populationDrift', () => {
  it.each(cases)('populationDrift(model).jacobian(x) equals central finite differences of drift (%s)', (_, model, x) => {
    const f = populationDrift(model);
    const J = f.jacobian(x);
    const h = 1e-6;
    for (let j = 0; j < x.length; j++) {
      const up = [...x];
      const down = [...x];
      up[j] += h;
      down[j] -= h;
      const fu = f.drift(up);
      const fd = f.drift(down);
      for (let i = 0; i < x.length; i++) expect(J[i][j]).toBeCloseTo((fu[i] - fd[i]) / (2 * h), 8);
    }
  });

  it.each(cases)('populationDrift(model).hessian(x) equals second central differences of drift (%s)', (_, model, x) => {
    const f = populationDrift(model);
    const H = f.hessian(x);
    const h = 1e-4;
    const at = (dj: number, j: number, dk: number, k: number) => {
      const y = [...x];
      y[j] += dj * h;
      y[k] += dk * h;
      return f.drift(y);
    };
    for (let j = 0; j < x.length; j++) {
      for (let k = 0; k < x.length; k++) {
        const pp = at(1, j, 1, k);
        const pm = at(1, j, -1, k);
        const mp = at(-1, j, 1, k);
        const mm = at(-1, j, -1, k);
        for (let i = 0; i < x.length; i++) expect(H[i][j][k]).toBeCloseTo((pp[i] - pm[i] - mp[i] + mm[i]) / (4 * h * h), 5);
      }
    }
  });

  it.each(cases)(
    'populationDrift(model).secondOrderTerm(x, W) equals ½ Σ_jk H_ijk W_jk and noise(x) equals Σ ℓℓᵀβ_ℓ (%s)',
    (_, model, x) => {
      const f = populationDrift(model);
      const K = x.length;
      const W = Array.from({ length: K }, (_, j) => Array.from({ length: K }, (_, k) => 1 / (1 + j + k) + (j === k ? 1 : 0)));
      const H = f.hessian(x);
      const b = f.secondOrderTerm(x, W);
      for (let i = 0; i < K; i++) {
        let sum = 0;
        for (let j = 0; j < K; j++) for (let k = 0; k < K; k++) sum += 0.5 * H[i][j][k] * W[j][k];
        expect(b[i]).toBeCloseTo(sum, 12);
      }
      const rates = f.rates(x);
      const Q = f.noise(x);
      const expected = Array.from({ length: K }, () => new Array<number>(K).fill(0));
      model.transitions.forEach((t, l) => {
        const jump = model.variables.map((v) => t.change[v] ?? 0);
        for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) expected[i][j] += jump[i] * jump[j] * rates[l];
      });
      for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) expect(Q[i][j]).toBeCloseTo(expected[i][j], 14);
    },
  );

  it('populationDrift(jsq-d.json) equals the built-in sqdDrift and sqdJacobian (theory.md §2, §6)', () => {
    const x = [0.95, 0.8, 0.6, 0.33, 0.2, 0.1, 0.02];
    const f = populationDrift(shipped('jsq-d.json', { lambda: 0.95, d: 3, K: 7 }));
    const drift = f.drift(x);
    const builtin = sqdDrift(0.95, 3, x, new Float64Array(7));
    const J = f.jacobian(x);
    const Jb = sqdJacobian(0.95, 3, x);
    for (let i = 0; i < 7; i++) {
      expect(drift[i]).toBeCloseTo(builtin[i], 14);
      for (let j = 0; j < 7; j++) expect(J[i][j]).toBeCloseTo(Jb[i][j], 13);
    }
  });

  it('populationDrift(model) compiles derivatives only for the variables each rate names (sparsity)', () => {
    // JSQ(d), K = 50: each arrival rate names s_{i−1}, s_i (s_1 only for i = 1), each departure s_i, s_{i+1}
    // (s_50 only for i = 50): 2·50 − 1 + 2·50 − 1 = 198 first and 50 − 1 + 50 = 99 second derivatives (the
    // departures are linear; arrivals have ∂²/∂s_{i−1}² and ∂²/∂s_i²; s_0 is a constant).
    const counts = populationDrift(shipped('jsq-d.json', { K: 50 })).derivativeCounts();
    expect(counts).toEqual({ first: 198, second: 99 });
  });
});

describe('populationDrift with non-smooth rates', () => {
  /** JSQ(2), K = 8, with each departure rate s_i − s_{i+1} rewritten through floor, sign, ?:, abs, min and max. */
  const nonSmooth = parsePopulationModel({
    name: 'JSQ(2) with non-smooth forms',
    parameters: { lambda: 0.9, d: 2 },
    variables: { vector: 's', from: 1, to: 8 },
    constants: { s0: 1, s9: 0 },
    transitions: [
      { for: 'i', from: 1, to: 8, change: { 's{i}': 1 }, rate: 'lambda * (s{i-1}^d - s{i}^d)' },
      {
        for: 'i',
        from: 1,
        to: 8,
        change: { 's{i}': -1 },
        rate: '(1 + floor(s{i}/2)) * sign(2 + s{i}) * (s{i} >= 0 ? max(s{i} - s{i+1}, -1) : min(abs(s{i} - s{i+1}), 5))',
      },
    ],
    observables: { meanQueueLength: 'sum(s)' },
  });

  it('populationDrift(model).jacobian(x) uses the derivative almost everywhere of floor, sign, ?:, abs, min, max (equal to the plain rate)', () => {
    const x = [0.9, 0.729, 0.4, 0.2, 0.1, 0.05, 0.01, 0.001];
    const plain = populationDrift(shipped('jsq-d.json', { K: 8 }));
    const J = populationDrift(nonSmooth).jacobian(x);
    const Jp = plain.jacobian(x);
    for (let i = 0; i < 8; i++) for (let j = 0; j < 8; j++) expect(J[i][j]).toBeCloseTo(Jp[i][j], 14);
  });

  it('rates with expm1, log1p, floor, sign and ?: do not stop populationFixedPoint or populationTransient (no derivative is needed to start)', () => {
    const fp = populationFixedPoint(nonSmooth);
    const exact = Array.from({ length: 8 }, (_, i) => 0.9 ** (2 ** (i + 1) - 1));
    fp.x.forEach((v, i) => expect(Math.abs(v - exact[i])).toBeLessThan(1e-8));
    const m = parsePopulationModel({
      name: 'M/M/1 through expm1 and log1p',
      variables: ['x'],
      transitions: [
        { change: { x: 1 }, rate: 'log1p(expm1(0.5)) * (x < 1 ? 1 - x : 0)' },
        { change: { x: -1 }, rate: 'sign(x + 1) * floor(1.5) * x' },
      ],
    });
    // dx/dt = 0.5(1 − x) − x from 0: x(t) = (1 − e^{−1.5 t})/3
    const tr = populationTransient(m, { times: [0, 1, 2] });
    tr.x.forEach((row, j) => expect(row[0]).toBeCloseTo((1 - Math.exp(-1.5 * tr.times[j])) / 3, 9));
  });

  it('requireSmoothModel(model) and populationRefined(model) refuse a non-smooth rate before solving, naming the function', () => {
    const m = parsePopulationModel(
      {
        name: 'floor',
        variables: ['x'],
        transitions: [
          { change: { x: 1 }, rate: '0.5' },
          { change: { x: -1 }, rate: 'x * (1 + floor(x))' },
        ],
      },
      {},
      { file: 'models/floor.json' },
    );
    expect(() => requireSmoothModel(m)).toThrow(InvalidModelError);
    expect(() => populationRefined(m)).toThrow(
      /^models\/floor\.json: transitions\[1\]\.rate uses floor, which is not differentiable everywhere: the refined mean field needs/,
    );
    expect(() => requireSmoothModel(nonSmooth)).toThrow(
      /transitions\[1\] \(i = 1\)\.rate uses floor, sign, \?:, >=, max, min, abs, which are not/,
    );
    expect(() => requireSmoothModel(smooth)).not.toThrow();
  });
});
