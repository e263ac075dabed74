/**
 * Oracles for the M/G/1 baselines (theory.md §7): closed forms (Pollaczek–Khinchine), identities (exact predictions
 * reduce to SJF/PSJF/SRPT, deterministic sizes make every known-size discipline FIFO, Brumelle's workload law for
 * non-preemptive disciplines), and independent brute-force integrations written here from the definitions
 * (composite trapezoid/Simpson on fixed grids; no adaptive quadrature, no Fubini reordering).
 */
import { describe, expect, it } from 'vitest';
import { parseModel, type ModelInput } from '../../src/model/index.ts';
import { mg1, mg1ResponseTimeAtSize } from '../../src/meanfield/mg1/index.ts';
import { InvalidModelError, UnstableModelError } from '../../src/errors.ts';

const model = (input: Partial<ModelInput> & { lambda: number }) => parseModel({ d: 1, selection: 'random', ...input });
const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

/** Composite Simpson on [a, b] with n (even) panels. */
function simpson(f: (x: number) => number, a: number, b: number, n: number): number {
  const h = (b - a) / n;
  let s = f(a) + f(b);
  for (let i = 1; i < n; i++) s += (i % 2 ? 4 : 2) * f(a + i * h);
  return (s * h) / 3;
}

/**
 * M/M/1 (E[S] = 1) known-size E[T] and E[T/S] straight from theory.md §7 with closed-form ρ(x) = λ(1 − e^{−x}(1 + x)),
 * m₂(x) = λ(2 − e^{−x}(x² + 2x + 2)), Φ(x) = ∫₀^x dt/(1 − ρ(t)) by cumulative trapezoid, outer Simpson on [0, 50].
 */
function mm1BruteForce(lambda: number, discipline: 'sjf' | 'psjf' | 'srpt'): { t: number; slowdown: number } {
  const n = 200_000,
    b = 50,
    h = b / n;
  const rho = (x: number) => lambda * (1 - Math.exp(-x) * (1 + x));
  const m2 = (x: number) => lambda * (2 - Math.exp(-x) * (x * x + 2 * x + 2));
  const phi = new Float64Array(n + 1);
  for (let i = 1; i <= n; i++) phi[i] = phi[i - 1] + 0.5 * h * (1 / (1 - rho((i - 1) * h)) + 1 / (1 - rho(i * h)));
  let t = 0,
    sd = 0;
  for (let i = 0; i <= n; i++) {
    const x = i * h,
      r = rho(x),
      w = i === 0 || i === n ? 1 : i % 2 ? 4 : 2;
    const T =
      discipline === 'sjf'
        ? x + lambda / (1 - r) ** 2
        : discipline === 'psjf'
          ? m2(x) / (2 * (1 - r) ** 2) + x / (1 - r)
          : (m2(x) + lambda * x * x * Math.exp(-x)) / (2 * (1 - r) ** 2) + phi[i];
    t += w * T * Math.exp(-x);
    if (i > 0) sd += w * (T / x) * Math.exp(-x);
    else sd += w * (discipline === 'srpt' ? 1 : 1 / (1 - r)); // limit of T(x)/x at 0: 1 for SRPT and PSJF
  }
  return { t: (t * h) / 3, slowdown: (sd * h) / 3 };
}

describe('mg1: known sizes', () => {
  it('mg1(model) FIFO matches M/M/1 1/(1 − λ) and Pollaczek–Khinchine for Weibull ½ (E[S²] = 6)', () => {
    for (const lambda of [0.5, 0.9]) {
      expect(rel(mg1(model({ lambda })).meanResponseTime, 1 / (1 - lambda))).toBeLessThan(1e-12);
      const w = mg1(model({ lambda, service: 'weibull:0.5' }));
      expect(rel(w.meanResponseTime, 1 + (lambda * 6) / (2 * (1 - lambda)))).toBeLessThan(1e-12);
      expect(rel(w.meanWorkload, (lambda * 6) / (2 * (1 - lambda)))).toBeLessThan(1e-12);
    }
  });

  it('mg1(model) SJF, PSJF, SRPT match an independent M/M/1 brute-force integration at λ = 0.5, 0.9 (E[T] and E[T/S])', () => {
    for (const lambda of [0.5, 0.9]) {
      for (const discipline of ['sjf', 'psjf', 'srpt'] as const) {
        const r = mg1(model({ lambda, discipline }));
        const ref = mm1BruteForce(lambda, discipline);
        expect(rel(r.meanResponseTime, ref.t)).toBeLessThan(1e-8);
        expect(r.diagnostics.quadratureError / r.meanResponseTime).toBeLessThan(1e-8);
        if (discipline === 'sjf') expect(r.slowdownFinite).toBe(false);
        else expect(rel(r.meanSlowdown, ref.slowdown)).toBeLessThan(1e-6);
      }
    }
  });

  it('mg1(model) gives every known-size discipline the FIFO value for deterministic sizes (ties are served FIFO)', () => {
    const fifo = 1 + 0.9 / (2 * 0.1);
    for (const discipline of ['fifo', 'sjf', 'psjf', 'srpt', 'spjf', 'pspjf', 'sprpt'] as const) {
      const r = mg1(model({ lambda: 0.9, service: 'det', discipline }));
      expect(rel(r.meanResponseTime, fifo)).toBeLessThan(1e-12);
      expect(rel(r.meanSlowdown, fifo)).toBeLessThan(1e-12);
    }
  });

  it('mg1ResponseTimeAtSize(model, x) SJF satisfies Brumelle’s law λE[S·W(S)] + λE[S²]/2 = E[U] = λE[S²]/(2(1 − ρ))', () => {
    const m = model({ lambda: 0.9, discipline: 'sjf' });
    const lhs = 0.9 * simpson((x) => x * (mg1ResponseTimeAtSize(m, x) - x) * Math.exp(-x), 0, 60, 6000) + 0.9;
    expect(rel(lhs, mg1(m).meanWorkload)).toBeLessThan(1e-9);
  });

  it('mg1(model) flags E[T/S] = ∞ for FIFO/SJF with a density at 0 and keeps it finite for Erlang-2 (E[1/S] = 2)', () => {
    expect(mg1(model({ lambda: 0.5, service: 'weibull:0.5' })).slowdownFinite).toBe(false);
    const r = mg1(model({ lambda: 0.5, service: 'erlang:2' }));
    // FIFO: E[T/S] = 1 + W·E[1/S], W = λE[S²]/(2(1 − ρ)), E[S²] = 1.5, E[1/S] = 2 for Erlang-2 with mean 1
    expect(rel(r.meanSlowdown, 1 + ((0.5 * 1.5) / (2 * 0.5)) * 2)).toBeLessThan(1e-9);
  });
});

describe('mg1: predictions', () => {
  it('mg1(model) SPJF/PSPJF/SPRPT with exact predictions equal SJF/PSJF/SRPT to 1e-8 (exponential and Weibull ½, λ = 0.9)', () => {
    for (const service of ['exp', 'weibull:0.5']) {
      for (const [known, predicted] of [
        ['sjf', 'spjf'],
        ['psjf', 'pspjf'],
        ['srpt', 'sprpt'],
      ] as const) {
        const a = mg1(model({ lambda: 0.9, service, discipline: known }));
        const b = mg1(model({ lambda: 0.9, service, discipline: predicted, prediction: 'exact' }), { relTolerance: 1e-10 });
        expect(rel(b.meanResponseTime, a.meanResponseTime)).toBeLessThan(1e-8);
        if (a.slowdownFinite) expect(rel(b.meanSlowdown, a.meanSlowdown)).toBeLessThan(1e-8);
      }
    }
  });

  it('mg1(model) with α-uniform predictions tends to the exact-size value as α → 0 (error shrinks ~ linearly in α)', () => {
    for (const [known, predicted] of [
      ['psjf', 'pspjf'],
      ['srpt', 'sprpt'],
    ] as const) {
      const exact = mg1(model({ lambda: 0.5, discipline: known })).meanResponseTime;
      const gaps = [0.1, 0.01].map((alpha) =>
        Math.abs(
          mg1(model({ lambda: 0.5, discipline: predicted, prediction: `uniform:${alpha}` }), { relTolerance: 1e-9 }).meanResponseTime -
            exact,
        ),
      );
      expect(gaps[1]).toBeLessThan(gaps[0] / 5);
      expect(gaps[1] / exact).toBeLessThan(5e-3);
    }
  });

  it('mg1(model) SPRPT with exponential predictions, exponential sizes, matches a brute-force double integral of E[T(x,y)] at ρ = 0.5, 0.9', () => {
    for (const lambda of [0.5, 0.9]) {
      const r = mg1(model({ lambda, discipline: 'sprpt', prediction: 'exp' }), { relTolerance: 1e-9 });
      expect(rel(r.meanResponseTime, sprptBruteForce(lambda))).toBeLessThan(2e-4);
      expect(r.slowdownFinite).toBe(false);
    }
  });

  it('mg1(model) throws InvalidModelError for d > 1 and trace predictions, and never sees ρ ≥ 1 (parseModel refuses it)', () => {
    expect(() => mg1(parseModel({ lambda: 0.5, d: 2 }))).toThrow(InvalidModelError);
    const trace = model({ lambda: 0.5, discipline: 'sprpt', prediction: { kind: 'trace', values: [1, 2] } });
    expect(() => mg1(trace)).toThrow(/trace predictions/);
    expect(() => model({ lambda: 1 })).toThrow(UnstableModelError); // parseModel's check; mg1 trusts the parsed model
  });
});

/**
 * E[T] of SPRPT, S ~ Exp(1), Y | S = x ~ Exp(mean x), from the definition (theory.md §7):
 *   T(x,y) = (M_y + J_y)/(2(1 − ρ_y)²) + (x − y)^+ + Φ(y) − Φ((y − x)^+),  Φ(y) = ∫₀^y dz/(1 − ρ_z),
 * with ρ_y = λE[S(1 − e^{−y/S})], M_y = λE[S²(1 − e^{−y/S})], J_y = λ(1 − 2/e)E[S²e^{−y/S}] on a uniform grid in
 * u = ln y (trapezoid), and E[T] = ∫∫ T(x,y)·e^{−x}·(e^{−y/x}/x) dy dx as a 2-D trapezoid in (ln x, ln y).
 */
function sprptBruteForce(lambda: number): number {
  const lo = -26,
    hi = 5.6,
    h = 0.02,
    n = Math.round((hi - lo) / h) + 1;
  const grid = Float64Array.from({ length: n }, (_, i) => Math.exp(lo + i * h));
  const rho = new Float64Array(n),
    M = new Float64Array(n),
    J = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const y = grid[k];
    let a = 0,
      b = 0,
      c = 0;
    for (let i = 0; i < n; i++) {
      const s = grid[i],
        wt = s * Math.exp(-s) * h * (i === 0 || i === n - 1 ? 0.5 : 1); // density·ds in u = ln s
      const e = Math.exp(-y / s);
      a += wt * s * (1 - e);
      b += wt * s * s * (1 - e);
      c += wt * s * s * e;
    }
    rho[k] = lambda * a;
    M[k] = lambda * b;
    J[k] = lambda * (1 - 2 / Math.E) * c;
  }
  // Φ on the grid: ∫₀^{y_0} ≈ y_0 (ρ ≈ 0 there), then trapezoid in u with dz = z du
  const phi = new Float64Array(n);
  phi[0] = grid[0];
  for (let k = 1; k < n; k++) phi[k] = phi[k - 1] + 0.5 * h * (grid[k - 1] / (1 - rho[k - 1]) + grid[k] / (1 - rho[k]));
  const phiAt = (z: number) => {
    if (z <= grid[0]) return z;
    const t = (Math.log(z) - lo) / h,
      i = Math.min(n - 2, Math.floor(t)),
      f = t - i;
    return phi[i] * (1 - f) + phi[i + 1] * f;
  };
  let total = 0;
  for (let i = 0; i < n; i++) {
    const x = grid[i],
      wx = x * Math.exp(-x) * h;
    for (let k = 0; k < n; k++) {
      const y = grid[k],
        wy = (y / x) * Math.exp(-y / x) * h;
      if (wy < 1e-300) continue;
      const T = (M[k] + J[k]) / (2 * (1 - rho[k]) ** 2) + Math.max(0, x - y) + phi[k] - phiAt(Math.max(0, y - x));
      total += wx * wy * T;
    }
  }
  return total;
}
