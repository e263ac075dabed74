import { describe, expect, it } from 'vitest';
import { InvalidModelError, SupermarketError } from '../../src/errors.ts';
import type { PredictionSpec } from '../../src/model/model.ts';
import { predictionModel } from '../../src/model/prediction/index.ts';
import { Rng, streamSeed } from '../../src/stats/rng.ts';

/** Kolmogorov–Smirnov distance between the sample and the continuous cdf F. */
function ksDistance(sample: Float64Array, F: (y: number) => number): number {
  const s = Float64Array.from(sample).sort();
  const n = s.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = F(s[i]);
    d = Math.max(d, Math.abs(f - i / n), Math.abs((i + 1) / n - f));
  }
  return d;
}

const N = 40_000;
/** KS critical value at level 0.001: 1.95/√n. */
const KS_CRIT = 1.95 / Math.sqrt(N);

function draw(spec: PredictionSpec, x: number, seed: number): Float64Array {
  const model = predictionModel(spec);
  const rng = new Rng(streamSeed(seed, 0));
  const out = new Float64Array(N);
  for (let i = 0; i < N; i++) out[i] = model.sample(x, rng);
  return out;
}

const mean = (a: Float64Array) => a.reduce((s, v) => s + v, 0) / a.length;

describe('predictionModel', () => {
  it('predictionModel({kind: "exact"}).sample(x) = x and cdfGiven(y, x) = 1(x < y)', () => {
    const m = predictionModel({ kind: 'exact' });
    const rng = new Rng(streamSeed(1, 0));
    expect(m.sample(1.7, rng)).toBe(1.7);
    expect([m.cdfGiven(1.7, 1.7), m.cdfGiven(1.71, 1.7), m.cdfGiven(1, 1.7)]).toEqual([0, 1, 0]);
    expect(m.sampleAt).toBeUndefined();
  });

  it.each([
    ['exponential', { kind: 'exponential' }],
    ['uniform α = 0.5', { kind: 'uniform', alpha: 0.5 }],
    ['uniform α = 1', { kind: 'uniform', alpha: 1 }],
    ['lognormal σ = 0.8 median', { kind: 'lognormal', sigma: 0.8, bias: 'median' }],
    ['lognormal σ = 1.5 mean', { kind: 'lognormal', sigma: 1.5, bias: 'mean' }],
  ] as [string, PredictionSpec][])('predictionModel(%s).sample(x) follows cdfGiven(·, x) (KS at level 0.001)', (_name, spec) => {
    const x = 1.7;
    const m = predictionModel(spec);
    const ys = draw(spec, x, 21);
    expect(ksDistance(ys, (y) => m.cdfGiven(y, x))).toBeLessThan(KS_CRIT);
    // empirical frequencies of Y < y at fixed points
    for (const y of [0.5, 1.2, 1.7, 2.3, 4]) {
      const p = m.cdfGiven(y, x);
      const freq = ys.reduce((c, v) => c + (v < y ? 1 : 0), 0) / N;
      expect(Math.abs(freq - p)).toBeLessThanOrEqual(4.5 * Math.sqrt((p * (1 - p)) / N) + 1e-12);
    }
  });

  it('predictionModel(...).cdfGiven(y, x) has the closed forms of theory.md §7', () => {
    const e = predictionModel({ kind: 'exponential' });
    expect(e.cdfGiven(2, 1)).toBeCloseTo(1 - Math.exp(-2), 14);
    expect(e.cdfGiven(-1, 1)).toBe(0);
    const u = predictionModel({ kind: 'uniform', alpha: 0.5 });
    expect([u.cdfGiven(0.4, 1), u.cdfGiven(0.75, 1), u.cdfGiven(1, 1), u.cdfGiven(1.6, 1)]).toEqual([0, 0.25, 0.5, 1]);
    const ln = predictionModel({ kind: 'lognormal', sigma: 1, bias: 'median' });
    expect(ln.cdfGiven(3, 3)).toBeCloseTo(0.5, 14);
    expect(ln.cdfGiven(3 * Math.E, 3)).toBeCloseTo(0.8413447460685429, 12); // Φ(1)
    const lnMean = predictionModel({ kind: 'lognormal', sigma: 1, bias: 'mean' });
    expect(lnMean.cdfGiven(3 * Math.exp(-0.5), 3)).toBeCloseTo(0.5, 14);
  });

  it('predictionModel(exponential|lognormal mean-bias).sample(x) has mean x; lognormal median-bias has mean x·e^{σ²/2}', () => {
    const x = 2;
    const e = draw({ kind: 'exponential' }, x, 31);
    expect(Math.abs(mean(e) - x)).toBeLessThan((4.5 * x) / Math.sqrt(N));
    const sigma = 0.6;
    const sdLn = x * Math.sqrt(Math.expm1(sigma * sigma));
    const lm = draw({ kind: 'lognormal', sigma, bias: 'mean' }, x, 32);
    expect(Math.abs(mean(lm) - x)).toBeLessThan((4.5 * sdLn) / Math.sqrt(N));
    const lmed = draw({ kind: 'lognormal', sigma, bias: 'median' }, x, 33);
    const target = x * Math.exp((sigma * sigma) / 2);
    expect(Math.abs(mean(lmed) - target)).toBeLessThan((4.5 * sdLn * Math.exp((sigma * sigma) / 2)) / Math.sqrt(N));
  });

  it('predictionModel(uniform α = 0 | lognormal σ = 0) is exact', () => {
    const rng = new Rng(streamSeed(2, 0));
    for (const spec of [
      { kind: 'uniform', alpha: 0 },
      { kind: 'lognormal', sigma: 0, bias: 'mean' },
    ] as PredictionSpec[]) {
      const m = predictionModel(spec);
      expect(m.sample(1.3, rng)).toBe(1.3);
      expect([m.cdfGiven(1.3, 1.3), m.cdfGiven(1.31, 1.3)]).toEqual([0, 1]);
    }
  });

  it('predictionModel(uniform α).sample(x) stays in [(1 − α)x, (1 + α)x]', () => {
    const ys = draw({ kind: 'uniform', alpha: 0.3 }, 2, 41);
    expect(Math.min(...ys)).toBeGreaterThanOrEqual(1.4);
    expect(Math.max(...ys)).toBeLessThanOrEqual(2.6);
  });

  it('predictionModel(...) with x = 0 predicts 0', () => {
    const rng = new Rng(streamSeed(3, 0));
    for (const spec of [
      { kind: 'exponential' },
      { kind: 'uniform', alpha: 0.5 },
      { kind: 'lognormal', sigma: 1, bias: 'median' },
    ] as PredictionSpec[]) {
      const m = predictionModel(spec);
      expect(m.sample(0, rng)).toBe(0);
      expect([m.cdfGiven(0, 0), m.cdfGiven(0.1, 0)]).toEqual([0, 1]);
    }
  });

  it('predictionModel(trace).sampleAt(index) returns the values in order, cyclically; sample and cdfGiven throw', () => {
    const m = predictionModel({ kind: 'trace', values: [3, 1, 4], source: 'test' });
    expect([0, 1, 2, 3, 4, 7, -1].map((i) => m.sampleAt!(i))).toEqual([3, 1, 4, 3, 1, 1, 4]);
    const rng = new Rng(streamSeed(4, 0));
    expect(() => m.sample(1, rng)).toThrow(SupermarketError);
    expect(() => m.cdfGiven(1, 1)).toThrow(/no conditional law/);
  });

  it('predictionModel(spec) throws InvalidModelError for out-of-range parameters', () => {
    expect(() => predictionModel({ kind: 'uniform', alpha: 1.5 })).toThrow(/uniform prediction alpha must be in \[0, 1\], got 1.5/);
    expect(() => predictionModel({ kind: 'lognormal', sigma: -1, bias: 'median' })).toThrow(InvalidModelError);
    expect(() => predictionModel({ kind: 'trace', values: [], source: 'x' })).toThrow(InvalidModelError);
    expect(() => predictionModel({ kind: 'bogus' } as unknown as PredictionSpec)).toThrow(/unknown prediction kind "bogus"/);
  });
});
