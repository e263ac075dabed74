import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../../src/errors.ts';
import {
  BandedMatrix,
  cumulativeFromLevels,
  levelsFromCumulative,
  phaseTypeDrift,
  phaseTypeJacobianCumulative,
  phaseTypeJsqFixedPoint,
  phaseTypeJsqTransient,
  phaseTypeParameters,
} from '../../../src/meanfield/phaseType/index.ts';
import { parseModel } from '../../../src/model/index.ts';
import { seriesMeanResponseTime } from '../helpers.ts';

const model = (lambda: number, d: number, service: string, extra: Record<string, unknown> = {}) =>
  parseModel({ lambda, d, service, ...extra });

describe('phaseTypeJsqFixedPoint', () => {
  it('phaseTypeJsqFixedPoint(model) with one phase (exponential) reproduces the SQ(d) closed form to 1e−8 (theory.md §2)', () => {
    for (const d of [2, 3]) {
      for (const lambda of [0.7, 0.9, 0.99]) {
        const fp = phaseTypeJsqFixedPoint(model(lambda, d, 'exp'));
        expect(fp.fit).toBe('exact');
        expect(fp.diagnostics.residual).toBeLessThanOrEqual(1e-10);
        fp.tail.forEach((s, i) => expect(Math.abs(s - lambda ** ((d ** i - 1) / (d - 1)))).toBeLessThan(1e-8));
        expect(Math.abs(fp.meanResponseTime - seriesMeanResponseTime(lambda, d))).toBeLessThan(1e-8);
      }
    }
  });

  it('phaseTypeJsqFixedPoint(model) at d = 1 gives Pollaczek–Khinchine: E2, λ = 0.9 → 7.75; H2 SCV 3, λ = 0.8 → 9 (theory.md §3, §7)', () => {
    const e2 = phaseTypeJsqFixedPoint(model(0.9, 1, 'erlang:2'));
    expect(Math.abs(e2.meanResponseTime - 7.75)).toBeLessThan(1e-8);
    expect(e2.phaseType.alpha).toHaveLength(2);
    const h2 = phaseTypeJsqFixedPoint(model(0.8, 1, 'hyperexp:3'));
    expect(Math.abs(h2.meanResponseTime - 9)).toBeLessThan(1e-7);
    expect(h2.diagnostics.topLevelMass).toBeLessThanOrEqual(1e-12);
  });

  it('phaseTypeJsqFixedPoint(model) labels a Weibull law "two-moment PH fit"; at d = 1 P–K needs only two moments (E[T] = 4 at λ = 0.5, k = ½)', () => {
    const fp = phaseTypeJsqFixedPoint(model(0.5, 1, 'weibull:0.5'));
    expect(fp.fit).toBe('two-moment PH fit');
    expect(fp.provenance.note).toMatch(/only E\[S\] and the SCV/);
    expect(Math.abs(fp.meanResponseTime - (1 + (0.5 * 6) / (2 * 0.5)))).toBeLessThan(1e-8);
  });

  it('phaseTypeJsqFixedPoint(model) balances flows at d = 2: departures Σ x_{k,j}μ_j = λ, and Σx + x_0 = 1', () => {
    for (const service of ['erlang:3', 'hyperexp:4', 'lognormal:1']) {
      const m = model(0.9, 2, service);
      const fp = phaseTypeJsqFixedPoint(m);
      const p = phaseTypeParameters(m);
      let departures = 0;
      let mass = fp.idle;
      fp.levels.forEach((row) =>
        row.forEach((x, j) => {
          departures += x * p.mu[j];
          mass += x;
        }),
      );
      expect(Math.abs(departures - 0.9)).toBeLessThan(1e-9);
      expect(Math.abs(mass - 1)).toBeLessThan(1e-12);
      expect(fp.meanResponseTime).toBeCloseTo(fp.meanQueueLength / 0.9, 12);
      for (let i = 1; i < fp.tail.length; i++) expect(fp.tail[i]).toBeLessThanOrEqual(fp.tail[i - 1] + 1e-12);
    }
  });

  it('phaseTypeJsqFixedPoint(model) rejects models it cannot solve, naming what is supported', () => {
    expect(() => phaseTypeJsqFixedPoint(model(0.9, 2, 'exp', { selection: 'lwl' }))).toThrow(InvalidModelError);
    expect(() => phaseTypeJsqFixedPoint(model(0.9, 2, 'exp', { discipline: 'sjf' }))).toThrow(/fifo/);
    expect(() => phaseTypeJsqFixedPoint(model(0.9, 2, 'det'))).toThrow(/SCV 0/);
  });
});

describe('phaseTypeJsqTransient output', () => {
  it('phaseTypeJsqTransient(erlang:2, λ = 0.9, d = 2, t = 0..3) returns no negative tail fraction (odex left −9e−30)', () => {
    const tr = phaseTypeJsqTransient(parseModel({ lambda: 0.9, d: 2, service: 'erlang:2' }), { times: [0, 0.5, 1, 1.5, 2, 2.5, 3] });
    for (const row of tr.tail) for (const s of row) expect(s).toBeGreaterThanOrEqual(0);
    expect(tr.diagnostics.clamped).toBeGreaterThan(0);
    expect(tr.diagnostics.clamped).toBeLessThan(1e-20);
  });
});

describe('phaseTypeJacobianCumulative', () => {
  it('phaseTypeJacobianCumulative(p, x) equals central finite differences of the drift to 1e−8', () => {
    for (const [d, service] of [
      [1, 'hyperexp:3'],
      [2, 'weibull:2'],
      [3, 'erlang:2'],
    ] as const) {
      const p = phaseTypeParameters(model(0.8, d, service));
      const K = 6;
      const x = new Float64Array(K * p.m).map((_, i) => 0.04 * Math.exp(-i / 5) * (1 + 0.3 * Math.sin(i)));
      const J = phaseTypeJacobianCumulative(p, x);
      const z = cumulativeFromLevels(p.m, x);
      const h = 1e-6;
      for (let c = 0; c < K * p.m; c++) {
        const zp = Float64Array.from(z);
        zp[c] += h;
        const zm = Float64Array.from(z);
        zm[c] -= h;
        const fp = phaseTypeDrift(p, levelsFromCumulative(p.m, zp));
        const fm = phaseTypeDrift(p, levelsFromCumulative(p.m, zm));
        for (let r = 0; r < K * p.m; r++) expect(Math.abs((fp[r] - fm[r]) / (2 * h) - J.get(r, c))).toBeLessThan(1e-8);
      }
    }
  });
});

describe('BandedMatrix', () => {
  it('BandedMatrix.solve(rhs) inverts a band matrix that needs pivoting (residual below 1e−12)', () => {
    const n = 40,
      kl = 3,
      ku = 5;
    const M = new BandedMatrix(n, kl, ku);
    const dense = Array.from({ length: n }, () => new Array<number>(n).fill(0));
    let seed = 7;
    const rnd = () => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647 - 0.5;
    };
    for (let i = 0; i < n; i++)
      for (let j = Math.max(0, i - kl); j <= Math.min(n - 1, i + ku); j++) {
        const v = rnd();
        M.add(i, j, v);
        dense[i][j] = v;
      }
    const b = Array.from({ length: n }, rnd);
    const x = M.solve(b);
    dense.forEach((row, i) => expect(Math.abs(row.reduce((a, v, j) => a + v * x[j], 0) - b[i])).toBeLessThan(1e-12));
  });
});

describe('phaseTypeJsqTransient', () => {
  it('phaseTypeJsqTransient(model, { times }) from empty converges to the fixed point (d = 2, Erlang-2, λ = 0.7)', () => {
    const m = model(0.7, 2, 'erlang:2');
    const fp = phaseTypeJsqFixedPoint(m);
    const tr = phaseTypeJsqTransient(m, { times: [0, 5, 300] });
    expect(tr.meanQueueLength[0]).toBe(0);
    expect(tr.meanQueueLength[1]).toBeGreaterThan(0);
    expect(tr.meanQueueLength[1]).toBeLessThan(fp.meanQueueLength);
    tr.tail[2].forEach((s, i) => expect(Math.abs(s - (fp.tail[i] ?? 0))).toBeLessThan(1e-8));
    expect(tr.fit).toBe('exact');
  });
});

describe('phaseTypeJsqTransient tails far out in the tail', () => {
  it('hyperexp:4, λ = 0.9, d = 2, t = 0..30: every row is non-increasing, and no exact 0 sits below a positive tail (round-off of the occupancies)', () => {
    const times = Array.from({ length: 31 }, (_, j) => j);
    const tr = phaseTypeJsqTransient(model(0.9, 2, 'hyperexp:4'), { times });
    let positiveBeyondZero = 0;
    for (const row of tr.tail) {
      for (let k = 1; k < row.length; k++) {
        expect(row[k], `s_${k} ≤ s_${k - 1}`).toBeLessThanOrEqual(row[k - 1]);
        expect(row[k]).toBeGreaterThanOrEqual(0);
        if (row[k] > 0 && row[k - 1] === 0) positiveBeyondZero++;
      }
    }
    expect(positiveBeyondZero).toBe(0);
    // at t = 11 odex's dense output gives occupancies ≈ −1e−50 at level 10 under a positive level 11: now s_10 ≥ s_11 > 0
    expect(tr.tail[11][11]).toBeGreaterThan(0);
    expect(tr.tail[11][10]).toBeGreaterThan(0);
    expect(tr.diagnostics.clamped).toBeGreaterThan(0); // the round-off is reported, and tiny
    expect(tr.diagnostics.clamped).toBeLessThan(1e-30);
    // the body of the distribution is untouched by the clamp: E[Q] is the sum of the tails as before
    expect(tr.meanQueueLength[30]).toBeCloseTo(
      tr.tail[30].slice(1).reduce((a, b) => a + b, 0),
      14,
    );
  });
});
