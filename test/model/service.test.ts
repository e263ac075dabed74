import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import { parseModel, type ServiceSpec } from '../../src/model/model.ts';
import { serviceDistribution, type ServiceDistribution } from '../../src/model/service/index.ts';
import { Rng, streamSeed } from '../../src/stats/rng.ts';

/** 8-point Gauss–Legendre nodes and weights on [−1, 1] (Abramowitz & Stegun 25.4.30). */
const GL_X = [0.1834346424956498, 0.525532409916329, 0.7966664774136267, 0.9602898564975363];
const GL_W = [0.362683783378362, 0.3137066458778873, 0.2223810344533745, 0.1012285362903763];

/** ∫_a^b f by 8-point Gauss–Legendre on geometric panels (ratio 1.05): handles x^{−½} at 0 and long tails. */
function integrate(f: (x: number) => number, a: number, b: number): number {
  let total = 0;
  for (let lo = a; lo < b;) {
    const hi = Math.min(b, lo * 1.05);
    const c = 0.5 * (lo + hi),
      h = 0.5 * (hi - lo);
    for (let i = 0; i < 4; i++) total += GL_W[i] * h * (f(c - h * GL_X[i]) + f(c + h * GL_X[i]));
    lo = hi;
  }
  return total;
}

const CONTINUOUS: ServiceSpec[] = [
  { kind: 'exponential', mean: 2 },
  { kind: 'erlang', k: 3, mean: 1 },
  { kind: 'hyperexponential', scv: 4, mean: 1 },
  { kind: 'weibull', shape: 0.5, mean: 1 },
  { kind: 'weibull', shape: 2, mean: 1.5 },
  { kind: 'lognormal', sigma: 1, mean: 1 },
  { kind: 'bounded-pareto', alpha: 1.5, ratio: 1000, mean: 1 },
  { kind: 'bounded-pareto', alpha: 1, ratio: 100, mean: 1 },
  { kind: 'bounded-pareto', alpha: 2, ratio: 100, mean: 2 },
  { kind: 'pareto', alpha: 5, mean: 1 },
];
const ATOMIC: ServiceSpec[] = [
  { kind: 'deterministic', mean: 1.5 },
  { kind: 'empirical', values: [0, 1, 1, 2, 1, 3, 0.5, 0.5], source: 'test', mean: 1.125 },
];
const label = (s: ServiceSpec) => JSON.stringify(s);
const moment = (d: ServiceDistribution, k: 0 | 1 | 2) => (k === 0 ? 1 : k === 1 ? d.mean : d.secondMoment);

describe('serviceDistribution', () => {
  it.each([...CONTINUOUS, ...ATOMIC].map((s) => [label(s), s] as const))(
    'serviceDistribution(%s).sample(rng): sample mean and E[S²] within 4.5 standard errors of the exact ones',
    (_name, spec) => {
      const d = serviceDistribution(spec);
      expect(d.mean).toBe(spec.mean);
      expect(d.scv).toBeCloseTo(d.secondMoment / d.mean ** 2 - 1, 12);
      const rng = new Rng(streamSeed(11, 0));
      const N = 200_000;
      let s1 = 0,
        s2 = 0,
        s4 = 0,
        below = 0;
      for (let i = 0; i < N; i++) {
        const x = d.sample(rng);
        if (!(x >= 0 && x <= d.supportMax)) below++;
        s1 += x;
        s2 += x * x;
        s4 += x ** 4;
      }
      expect(below).toBe(0);
      const m1 = s1 / N,
        m2 = s2 / N;
      const se1 = Math.sqrt(Math.max(m2 - m1 * m1, 0) / N),
        se2 = Math.sqrt(Math.max(s4 / N - m2 * m2, 0) / N);
      expect(Math.abs(m1 - d.mean)).toBeLessThanOrEqual(4.5 * se1 + 1e-12);
      expect(Math.abs(m2 - d.secondMoment)).toBeLessThanOrEqual(4.5 * se2 + 1e-12);
    },
  );

  it.each(CONTINUOUS.map((s) => [label(s), s] as const))(
    'serviceDistribution(%s): ccdf = 1 − cdf, ∫ccdf = mean, partialMoment matches ∫x^k·density, quantile inverts cdf',
    (_name, spec) => {
      const d = serviceDistribution(spec);
      const a = Math.max(1e-20, d.quantile(0));
      const b = Math.min(d.supportMax, d.quantile(1 - 1e-13));
      for (const p of [1e-6, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 0.9999]) {
        const x = d.quantile(p);
        expect(d.cdf(x)).toBeCloseTo(p, 10);
        expect(d.ccdf(x) + d.cdf(x)).toBeCloseTo(1, 14);
      }
      expect(d.cdf(-1)).toBe(0);
      expect(d.ccdf(-1)).toBe(1);
      // ∫_0^∞ ccdf = E[S] (split at the lower end of the support, where a bounded Pareto ccdf has a kink)
      const ccdfIntegral = (a > 1e-20 ? integrate((x) => d.ccdf(x), 1e-20, a) : 0) + integrate((x) => d.ccdf(x), a, b);
      expect(Math.abs(ccdfIntegral - d.mean) / d.mean).toBeLessThan(1e-7);
      for (const k of [0, 1, 2] as const) {
        expect(d.partialMoment(k, Infinity)).toBeCloseTo(moment(d, k), 12);
        expect(d.partialMoment(k, 0)).toBe(0);
        for (const p of [0.05, 0.5, 0.95]) {
          const x = d.quantile(p);
          const numeric = integrate((t) => t ** k * d.density(t), a, x) + d.partialMoment(k, a);
          expect(Math.abs(d.partialMoment(k, x) - numeric)).toBeLessThan(1e-8 * moment(d, k));
        }
        const whole = integrate((t) => t ** k * d.density(t), a, b);
        expect(Math.abs(whole - moment(d, k)) / moment(d, k)).toBeLessThan(1e-6);
      }
      expect(d.partialMoment(0, d.quantile(0.4))).toBeCloseTo(0.4, 10);
    },
  );

  it('serviceDistribution(weibull) gives E[S²] = 6 at k = ½ and E[S²] = 1.2732 at k = 2 with scales ½ and 1.128379 (theory.md §1)', () => {
    const half = serviceDistribution({ kind: 'weibull', shape: 0.5, mean: 1 });
    const two = serviceDistribution({ kind: 'weibull', shape: 2, mean: 1 });
    expect(half.secondMoment).toBeCloseTo(6, 12);
    expect(half.scv).toBeCloseTo(5, 12);
    expect(two.secondMoment).toBeCloseTo(4 / Math.PI, 12);
    expect(two.secondMoment).toBeCloseTo(1.2732, 4);
    expect((half as unknown as { scale: number }).scale).toBeCloseTo(0.5, 12);
    expect((two as unknown as { scale: number }).scale).toBeCloseTo(1.128379, 6);
  });

  it('serviceDistribution(weibull:0.01) has E[S] = 1 and SCV = Γ(201)/Γ(101)² − 1 ≈ 8.6e58 (log-gamma; Γ(201) overflows)', () => {
    // lnΓ(z) by Stirling's series, error < 1e−14 at z ≥ 100 (Abramowitz & Stegun 6.1.41): an independent oracle
    const lnGamma = (z: number) =>
      (z - 0.5) * Math.log(z) - z + 0.5 * Math.log(2 * Math.PI) + 1 / (12 * z) - 1 / (360 * z ** 3) + 1 / (1260 * z ** 5);
    const w = serviceDistribution({ kind: 'weibull', shape: 0.01, mean: 1 });
    const lnRatio = lnGamma(201) - 2 * lnGamma(101);
    expect(lnRatio).toBeCloseTo(135.7532, 4);
    expect(w.mean).toBe(1);
    expect(w.scv / Math.expm1(lnRatio)).toBeCloseTo(1, 10);
    expect(w.secondMoment / Math.exp(lnRatio)).toBeCloseTo(1, 10);
    // the scale η = 1/Γ(101) makes E[S] = ηΓ(1 + 1/k) = 1, and the ccdf consistent with it
    const scale = (w as unknown as { scale: number }).scale;
    expect(Math.log(scale) + lnGamma(101)).toBeCloseTo(0, 10);
    expect(w.ccdf(w.quantile(0.5))).toBeCloseTo(0.5, 10);
    expect(() => serviceDistribution({ kind: 'weibull', shape: 0.002, mean: 1 })).toThrow(/weibull shape 0.002 is too small/);
    expect(() => serviceDistribution({ kind: 'lognormal', sigma: 27, mean: 1 })).toThrow(/lognormal sigma 27 is too large/);
  });

  it('serviceDistribution(exponential|erlang|hyperexponential|lognormal) has the closed-form moments', () => {
    expect(serviceDistribution({ kind: 'exponential', mean: 2 }).secondMoment).toBeCloseTo(8, 12);
    const e3 = serviceDistribution({ kind: 'erlang', k: 3, mean: 1 });
    expect(e3.secondMoment).toBeCloseTo(4 / 3, 12);
    expect(e3.scv).toBeCloseTo(1 / 3, 12);
    expect(serviceDistribution({ kind: 'hyperexponential', scv: 3, mean: 1 }).secondMoment).toBeCloseTo(4, 12);
    const ln = serviceDistribution({ kind: 'lognormal', sigma: 1, mean: 1 });
    expect(ln.secondMoment).toBeCloseTo(Math.E, 12);
    expect(ln.quantile(0.5)).toBeCloseTo(Math.exp(-0.5), 12);
  });

  it('serviceDistribution(bounded-pareto) is continuous in alpha through the α = 1 and α = 2 limits', () => {
    for (const alpha of [1, 2]) {
      const at = serviceDistribution({ kind: 'bounded-pareto', alpha, ratio: 50, mean: 1 });
      for (const eps of [1e-7, -1e-7]) {
        const near = serviceDistribution({ kind: 'bounded-pareto', alpha: alpha + eps, ratio: 50, mean: 1 });
        expect(near.secondMoment).toBeCloseTo(at.secondMoment, 5);
        expect(near.partialMoment(2, 3)).toBeCloseTo(at.partialMoment(2, 3), 5);
        expect(near.supportMax).toBeCloseTo(at.supportMax, 5);
      }
    }
    // α = 1, r = 50: L = (1 − 1/50)/ln 50 (from E[S] = L·c·ln r with c = 1/(1 − 1/r)).
    const bp = serviceDistribution({ kind: 'bounded-pareto', alpha: 1, ratio: 50, mean: 1 });
    expect(bp.quantile(0)).toBeCloseTo(0.98 / Math.log(50), 12);
    expect(bp.supportMax).toBeCloseTo((50 * 0.98) / Math.log(50), 12);
  });

  it('serviceDistribution(empirical) has equal-weight atoms (duplicates merged), step cdf, prefix-sum partial moments', () => {
    const d = serviceDistribution({ kind: 'empirical', values: [0, 1, 1, 2], source: 'test', mean: 1 });
    expect(d.atoms).toEqual([
      { x: 0, p: 0.25 },
      { x: 1, p: 0.5 },
      { x: 2, p: 0.25 },
    ]);
    expect(d.secondMoment).toBeCloseTo(1.5, 14);
    expect(d.scv).toBeCloseTo(0.5, 14);
    expect(d.supportMax).toBe(2);
    expect(d.density(1)).toBeNaN();
    expect([d.cdf(-1), d.cdf(0), d.cdf(0.999), d.cdf(1), d.cdf(5)]).toEqual([0, 0.25, 0.25, 0.75, 1]);
    expect(d.ccdf(1)).toBeCloseTo(0.25, 14);
    expect([d.quantile(0), d.quantile(0.25), d.quantile(0.26), d.quantile(0.75), d.quantile(0.76), d.quantile(1)]).toEqual([
      0, 0, 1, 1, 2, 2,
    ]);
    expect([d.partialMoment(0, 1), d.partialMoment(1, 1), d.partialMoment(2, 1.5), d.partialMoment(2, 2)]).toEqual([0.75, 0.5, 0.5, 1.5]);
    const rng = new Rng(streamSeed(5, 0));
    const counts = new Map<number, number>();
    const N = 40_000;
    for (let i = 0; i < N; i++) {
      const x = d.sample(rng);
      counts.set(x, (counts.get(x) ?? 0) + 1);
    }
    for (const { x, p } of d.atoms!) expect(Math.abs(counts.get(x)! / N - p)).toBeLessThan(4.5 * Math.sqrt((p * (1 - p)) / N));
  });

  it('serviceDistribution(deterministic) is one atom at the mean', () => {
    const d = serviceDistribution({ kind: 'deterministic', mean: 2 });
    expect(d.atoms).toEqual([{ x: 2, p: 1 }]);
    expect([d.cdf(1.999), d.cdf(2), d.ccdf(1.999), d.ccdf(2)]).toEqual([0, 1, 1, 0]);
    expect([d.partialMoment(2, 1.9), d.partialMoment(2, 2)]).toEqual([0, 4]);
    expect(d.quantile(0.3)).toBe(2);
    expect(d.scv).toBe(0);
    expect(d.density(2)).toBeNaN();
  });

  it('serviceDistribution(spec) throws InvalidModelError naming the field for out-of-range parameters', () => {
    expect(() => serviceDistribution({ kind: 'weibull', shape: 0, mean: 1 })).toThrow(/weibull shape must be a finite number > 0, got 0/);
    expect(() => serviceDistribution({ kind: 'hyperexponential', scv: 1, mean: 1 })).toThrow(InvalidModelError);
    expect(() => serviceDistribution({ kind: 'bounded-pareto', alpha: 1, ratio: 1, mean: 1 })).toThrow(/ratio must be a finite number > 1/);
    expect(() => serviceDistribution({ kind: 'erlang', k: 1.5, mean: 1 })).toThrow(/erlang k must be an integer/);
    expect(() => serviceDistribution({ kind: 'exponential', mean: -1 })).toThrow(/exponential mean/);
    expect(() => serviceDistribution({ kind: 'empirical', values: [], source: 'x', mean: 1 })).toThrow(InvalidModelError);
    expect(() => serviceDistribution({ kind: 'empirical', values: [1, 2], source: 'x', mean: 1 })).toThrow(/rescaled to mean 1/);
    expect(() => serviceDistribution({ kind: 'nope' } as unknown as ServiceSpec)).toThrow(/unknown service kind "nope"/);
    expect(() => serviceDistribution({ kind: 'exponential', mean: 1 }).quantile(1.5)).toThrow(/quantile p must be in \[0, 1\]/);
  });

  it('serviceDistribution(spec) does not mutate its frozen input', () => {
    const spec = Object.freeze({ kind: 'empirical', values: Object.freeze([3, 1, 2]), source: 'x', mean: 2 }) as ServiceSpec;
    const d = serviceDistribution(spec);
    expect(d.quantile(0.5)).toBe(2);
    expect((spec as { values: readonly number[] }).values).toEqual([3, 1, 2]);
  });
});

describe('serviceDistribution(pareto)', () => {
  it('pareto:1.5 has mean 1, x_m = 1/3, E[S²] = SCV = ∞, ccdf (x_m/x)^α, quantile x_m(1 − p)^{−1/α}, partial moments to the mean', () => {
    const d = serviceDistribution(parseModel({ lambda: 0.5, d: 1, service: 'pareto:1.5' }).service);
    expect(d.mean).toBe(1);
    expect(d.secondMoment).toBe(Infinity);
    expect(d.scv).toBe(Infinity);
    expect(d.supportMax).toBe(Infinity);
    expect(d.quantile(0)).toBeCloseTo(1 / 3, 15);
    expect(d.ccdf(2)).toBeCloseTo((1 / 6) ** 1.5, 15);
    expect(d.quantile(0.99)).toBeCloseTo((1 / 3) * 100 ** (1 / 1.5), 12);
    expect(d.density(1)).toBeCloseTo(1.5 * (1 / 3) ** 1.5, 15);
    expect(d.partialMoment(1, 1e12)).toBeCloseTo(1, 5); // 1 − (x/x_m)^{−½}·… → 1
    expect(d.partialMoment(2, 1e6)).toBeCloseTo((1.5 * (1 / 9) * (Math.sqrt(3e6) - 1)) / 0.5, 6);
  });

  it('pareto:2.5 has SCV 1/(α(α − 2)) = 0.8 and its sample mean is within 5 exact standard errors of 1; pareto:1 is refused', () => {
    const d = serviceDistribution({ kind: 'pareto', alpha: 2.5, mean: 1 });
    expect(d.scv).toBeCloseTo(0.8, 14);
    expect(d.secondMoment).toBeCloseTo(1.8, 14);
    const rng = new Rng(streamSeed(3, 0));
    const N = 200_000;
    let sum = 0;
    let min = Infinity;
    for (let i = 0; i < N; i++) {
      const x = d.sample(rng);
      sum += x;
      if (x < min) min = x;
    }
    expect(min).toBeGreaterThanOrEqual(0.6); // x_m = (α − 1)/α
    expect(Math.abs(sum / N - 1)).toBeLessThan(5 * Math.sqrt(0.8 / N));
    expect(() => parseModel({ lambda: 0.5, d: 1, service: 'pareto:1' })).toThrow(/alpha must be > 1/);
  });
});

describe('serviceDistribution with parseModel', () => {
  it('serviceDistribution(parseModel(...).service) accepts the rescaled empirical values of a trace', async () => {
    const { parseModel } = await import('../../src/model/model.ts');
    const model = parseModel({ lambda: 0.5, d: 2, service: { kind: 'empirical', values: [2, 4, 4, 10], source: 't' } });
    const d = serviceDistribution(model.service);
    expect(d.mean).toBe(1);
    expect(d.secondMoment).toBeCloseTo((4 + 16 + 16 + 100) / 25 / 4, 14);
  });
});
