/**
 * The response-time law of every mean-field solver (issue 20 §3): each ccdf integrates back to its solver's E[T],
 * quantiles match closed forms where they exist (1e−6), and models without a law say why in one line.
 */
import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import { meanFieldCapabilities } from '../../src/meanfield/capabilities.ts';
import { solveSqdFixedPoint } from '../../src/meanfield/fixedPoint.ts';
import { responseTimeQuantile, solveResponseTime, type ResponseTimeLaw } from '../../src/meanfield/responseTime.ts';
import { solveMeanField } from '../../src/meanfield/solve.ts';
import { parseModel, type SupermarketModel } from '../../src/model/index.ts';
import * as library from '../../src/index.ts';

/** ∫ P(T > t) dt of a law on its grid (trapezoid). */
function integral(law: ResponseTimeLaw): number {
  let sum = 0;
  for (let j = 1; j < law.times.length; j++) sum += 0.5 * (law.ccdf[j] + law.ccdf[j - 1]) * (law.times[j] - law.times[j - 1]);
  return sum;
}

/** The law on a uniform grid of step h from 0 to `end`. */
function fineLaw(model: SupermarketModel, h: number, end: number): ResponseTimeLaw {
  const times = Array.from({ length: Math.ceil(end / h) + 1 }, (_, j) => j * h);
  return solveResponseTime(model, { times });
}

describe('solveResponseTime: ∫ P(T > t) dt = E[T] for every exact solver', () => {
  const cases: [string, Record<string, unknown>, string, number][] = [
    ['SQ(d) closed form', { lambda: 0.9, d: 2 }, 'sqd-closed-form', 1e-5],
    ['M/M/1', { lambda: 0.7, d: 1 }, 'mm1-closed-form', 1e-5],
    ['phase-type ODE, Erlang', { lambda: 0.8, d: 2, service: 'erlang:2' }, 'phase-type-ode', 1e-5],
    ['phase-type ODE, hyperexponential', { lambda: 0.8, d: 3, service: 'hyperexp:4' }, 'phase-type-ode', 1e-5],
    ['M/PH/1 (phase-type at d = 1)', { lambda: 0.8, d: 1, service: 'erlang:3' }, 'phase-type-ode', 1e-5],
    ['LWL(d) closed form', { lambda: 0.9, d: 2, selection: 'lwl' }, 'lwl-closed-form', 1e-5],
    ['LWL(d) FPE', { lambda: 0.8, d: 2, selection: 'lwl', service: 'erlang:2' }, 'lwl-fpe', 2e-4],
    ['M/G/1 FIFO (LWL(1) FPE)', { lambda: 0.7, d: 1, service: 'weibull:2' }, 'mg1-fpe', 2e-4],
  ];
  for (const [name, input, id, tolerance] of cases) {
    it(`${name}: the capability names ${id}, and the trapezoid integral of the ccdf is E[T] of solveMeanField`, () => {
      const model = parseModel(input);
      const cap = meanFieldCapabilities(model).responseTime;
      expect(cap.available && cap.id).toBe(id);
      const meanT = solveMeanField(model).meanResponseTime;
      const law = fineLaw(model, 0.01, 60 * meanT);
      expect(law.ccdf[0]).toBe(1);
      expect(law.ccdf[law.ccdf.length - 1]).toBeLessThan(1e-9);
      for (let j = 1; j < law.ccdf.length; j++) expect(law.ccdf[j]).toBeLessThanOrEqual(law.ccdf[j - 1] + 1e-12);
      expect(Math.abs(integral(law) - meanT) / meanT).toBeLessThan(tolerance);
      expect(Math.abs(law.meanResponseTime - meanT) / meanT).toBeLessThan(tolerance);
    });
  }
});

describe('solveResponseTime: quantiles against closed forms', () => {
  it('M/M/1 FIFO: t_p = −ln(1 − p)/(μ − λ) to 1e−9, for a mean size of 2 too', () => {
    for (const [lambda, mean] of [
      [0.5, 1],
      [0.9, 1],
      [0.3, 2],
    ]) {
      const model = parseModel({ lambda, d: 1, service: { kind: 'exponential', mean } });
      const law = solveResponseTime(model, { quantiles: [0.5, 0.95, 0.99, 0.999] });
      for (const q of law.quantiles) {
        const exact = -Math.log(1 - q.p) / (1 / mean - lambda);
        expect(Math.abs(q.value - exact) / exact).toBeLessThan(1e-9);
      }
    }
  });

  it('the SQ(d) Poisson mixture at d = 1 is M/M/1 (1e−9); the phase-type law with erlang:1 sizes is the SQ(d) law (1e−6)', () => {
    const fp = solveSqdFixedPoint(parseModel({ lambda: 0.8, d: 1 }));
    for (const p of [0.5, 0.95, 0.99]) expect(Math.abs(responseTimeQuantile(fp, 1, p) + Math.log(1 - p) / 0.2)).toBeLessThan(1e-9);
    for (const [lambda, d] of [
      [0.9, 2],
      [0.7, 3],
    ]) {
      const closed = solveResponseTime(parseModel({ lambda, d }));
      const ph = solveResponseTime(parseModel({ lambda, d, service: 'erlang:1' }));
      expect(ph.solver).toMatch(/phase-type/);
      ph.quantiles.forEach((q, i) => expect(Math.abs(q.value - closed.quantiles[i].value) / closed.quantiles[i].value).toBeLessThan(1e-6));
    }
  });

  it('LWL(d) closed form: t_p inverts (ρ^d + (1 − ρ^d)e^((d−1)t))^(1/(1−d)) = 1 − p to 1e−9; the FPE (mean size 2) agrees to its grid error', () => {
    for (const [lambda, d] of [
      [0.9, 2],
      [0.95, 3],
    ]) {
      const law = solveResponseTime(parseModel({ lambda, d, selection: 'lwl' }));
      for (const q of law.quantiles) {
        const P = 1 - q.p;
        const exact = Math.log((P ** (1 - d) - lambda ** d) / (1 - lambda ** d)) / (d - 1);
        expect(Math.abs(q.value - exact) / exact).toBeLessThan(1e-9);
      }
    }
    // exponential sizes of mean 2 go through the FPE: the same law in units of 2
    const fpe = solveResponseTime(parseModel({ lambda: 0.4, d: 2, selection: 'lwl', service: { kind: 'exponential', mean: 2 } }));
    expect(
      meanFieldCapabilities(parseModel({ lambda: 0.4, d: 2, selection: 'lwl', service: { kind: 'exponential', mean: 2 } })).responseTime,
    ).toMatchObject({
      id: 'lwl-fpe',
    });
    const unit = solveResponseTime(parseModel({ lambda: 0.8, d: 2, selection: 'lwl' }));
    fpe.quantiles.forEach((q, i) => expect(Math.abs(q.value / 2 - unit.quantiles[i].value)).toBeLessThan(1e-3));
  });

  it('M/D/1 FIFO (LWL(1) FPE) against Erlang’s waiting-time formula P(W ≤ x) = (1 − ρ)Σ_{k≤x} (ρ(k − x))^k e^(−ρ(k−x))/k!', () => {
    const rho = 0.7;
    const erlangCdf = (x: number) => {
      let sum = 0;
      let fact = 1;
      for (let k = 0; k <= Math.floor(x); k++) {
        if (k > 0) fact *= k;
        const u = rho * (k - x);
        sum += (u ** k * Math.exp(-u)) / fact;
      }
      return (1 - rho) * sum;
    };
    const times = [1.5, 2, 3, 4.5, 6, 8];
    const law = solveResponseTime(parseModel({ lambda: rho, d: 1, service: 'deterministic' }), { times });
    expect(law.kind).toBe('exact');
    times.forEach((t, j) =>
      expect(Math.abs(law.ccdf[j] - (1 - erlangCdf(t - 1)))).toBeLessThan(Math.max(1e-4, 2 * (law.numericalError ?? 0))),
    );
  });
});

describe('solveResponseTime: cavity laws (estimates)', () => {
  it('LWL(2) SRPT: the pooled sample integrates to the cavity’s E[T] within its CI; quantiles and ccdf carry intervals', () => {
    const model = parseModel({ lambda: 0.8, d: 2, selection: 'lwl', discipline: 'srpt' });
    const law = solveResponseTime(model, { cavityHorizon: 2e4, quantiles: [0.5, 0.99] });
    const mean = solveMeanField(model, { cavityHorizon: 2e4 }).estimate!;
    expect(law.kind).toBe('estimate');
    expect(law.units).toBe(25);
    expect(Math.abs(law.meanResponseTime - mean.mean)).toBeLessThan(1e-9); // same seed, same jobs
    expect(
      Math.abs(integral(solveResponseTime(model, { cavityHorizon: 2e4, times: fineTimes(law.quantiles[1].value * 4) })) - mean.mean),
    ).toBeLessThan(mean.halfWidth);
    for (const q of law.quantiles) expect(q.estimate!.ci95[0]).toBeLessThanOrEqual(q.value);
    expect(law.quantiles[0].value).toBeLessThan(law.quantiles[1].value);
    law.ccdfCi95!.forEach(([lo, hi], j) => {
      expect(lo).toBeLessThanOrEqual(law.ccdf[j]);
      expect(hi).toBeGreaterThanOrEqual(law.ccdf[j]);
    });
  });

  it('M/G/1 PS (d = 1) goes through the JSQ cavity: its sample mean is within its CI of the formula E[T] = E[S]/(1 − ρ)', () => {
    const model = parseModel({ lambda: 0.5, d: 1, discipline: 'ps' });
    const cap = meanFieldCapabilities(model).responseTime;
    expect(cap.available && cap.id).toBe('jsq-cavity');
    const law = solveResponseTime(model, { cavityHorizon: 1e4 });
    expect(Math.abs(law.meanEstimate!.mean - 2)).toBeLessThan(2 * law.meanEstimate!.halfWidth + 0.02);
  });
});

describe('solveResponseTime: the two-moment PH fit on request (phaseTypeFit), its error measured against the cavity', () => {
  it('JSQ(2) FIFO Weibull ½: the fit’s own law (its ccdf integrates to the fit’s E[T]), each quantile with its error', () => {
    const model = parseModel({ lambda: 0.7, d: 2, service: 'weibull:0.5' });
    const fit = solveMeanField(model, { phaseTypeFit: true });
    const times = Array.from({ length: 4001 }, (_, j) => j * 0.02);
    const law = solveResponseTime(model, { phaseTypeFit: true, cavityHorizon: 5e3, quantiles: [0.5, 0.95], times });
    expect(law.kind).toBe('approximation');
    expect(law.solver).toMatch(/PH fit/);
    expect(Math.abs(law.meanResponseTime - fit.meanResponseTime) / fit.meanResponseTime).toBeLessThan(1e-9);
    expect(law.ccdf[law.ccdf.length - 1]).toBeLessThan(1e-5);
    expect(Math.abs(integral(law) - fit.meanResponseTime) / fit.meanResponseTime).toBeLessThan(1e-4);
    expect(law.measuredError).toEqual(fit.measuredError);
    // the reference is the default law (the JSQ cavity, same seed and horizon): the fit's quantiles are not its
    const cavity = solveResponseTime(model, { cavityHorizon: 5e3, quantiles: [0.5, 0.95] });
    law.quantiles.forEach((q, i) => {
      const e = q.measuredError!;
      expect(e.reference).toBe(cavity.solver);
      expect(e.referenceEstimate).toEqual(cavity.quantiles[i].estimate);
      const [lo, hi] = e.referenceEstimate.ci95;
      expect(e.low).toBeCloseTo(q.value / hi - 1, 12);
      expect(e.high).toBeCloseTo(q.value / lo - 1, 12);
      expect(q.value).not.toBeCloseTo(cavity.quantiles[i].value, 3);
    });
    // the fit's median is ~10 % under the cavity's at this cell (the two-moment fit misplaces the body of the law)
    expect(law.quantiles[0].measuredError!.high).toBeLessThan(-0.05);
    expect(law.ccdfMeasuredError).toBeGreaterThan(0);
  });

  it('is refused in one line where the fit does not apply (exponential sizes: no fit, the exact law answers)', () => {
    expect(() => solveResponseTime(parseModel({ lambda: 0.7, d: 2 }), { phaseTypeFit: true })).toThrow(InvalidModelError);
  });
});

/** 0..end by 0.01. */
function fineTimes(end: number): number[] {
  return Array.from({ length: Math.ceil(end / 0.01) + 1 }, (_, j) => j * 0.01);
}

describe('solveResponseTime: refusals in one line', () => {
  it('is the library’s entry too', () => {
    expect(library.solveResponseTime).toBe(solveResponseTime);
  });

  it('a probability outside (0, 1) and a negative time are refused', () => {
    const model = parseModel({ lambda: 0.9, d: 2 });
    for (const p of [0, 1, 1.5, -0.1, Number.NaN]) expect(() => solveResponseTime(model, { quantiles: [p] })).toThrow(InvalidModelError);
    expect(() => solveResponseTime(model, { quantiles: [1.5] })).toThrow(/quantile probability must lie in \(0, 1\), got 1.5/);
    expect(() => solveResponseTime(model, { times: [-1] })).toThrow(/times\[0\]/);
  });

  it('a model with memory has the reduced model’s law, PS with memory has none and says why; every model with a fixed point has a law or a reason', () => {
    const memory = meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2, memory: 'ip' })).responseTime;
    expect(memory).toMatchObject({ available: true, id: 'memory-reduction' });
    const ps = meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2, memory: 'ip', discipline: 'ps' })).responseTime;
    expect(ps.available).toBe(false);
    for (const input of [
      { lambda: 0.9, d: 2, discipline: 'ps', service: 'weibull:0.5' },
      { lambda: 0.9, d: 1, service: 'pareto:1.5' },
      { lambda: 0.9, d: 2, discipline: 'srpt', service: 'deterministic' },
    ]) {
      const caps = meanFieldCapabilities(parseModel(input));
      expect(caps.fixedPoint.available).toBe(true);
      const rt = caps.responseTime;
      expect(rt.available ? rt.id.length : rt.reason.length).toBeGreaterThan(0);
    }
  });
});
