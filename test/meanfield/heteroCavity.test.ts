/**
 * The cavity with a speed per class (meanfield/hetero/cavity.ts): against the identical-server cavity (one class),
 * the per-class occupancy ODE (FIFO, exponential: exact), M/M/1 SRPT per class (random, d = 1: exact), the LWL
 * drain-time fixed point (FIFO), work conservation Σ f·v·busy = λE[S], and its place in the capabilities.
 */
import { describe, expect, it } from 'vitest';
import { jsqCavity, lwlCavity } from '../../src/meanfield/cavity/index.ts';
import { heteroCavity, heteroLwlCavity } from '../../src/meanfield/hetero/cavity.ts';
import { heteroLwlFixedPoint } from '../../src/meanfield/hetero/lwl.ts';
import { heteroFixedPoint, heteroFixedPointOf, heteroProblem } from '../../src/meanfield/hetero/occupancy.ts';
import { ConvergenceError } from '../../src/errors.ts';
import { meanFieldCapabilities, solveMeanField } from '../../src/meanfield/index.ts';
import { parseModel } from '../../src/model/model.ts';
import { mm1SizeBased } from './helpers.ts';
import { ResponseTimeSample } from '../../src/meanfield/cavity/responseSample.ts';
import { sampleResponseTimeLaw } from '../../src/meanfield/responseTime.ts';

const two = { speeds: [1, 2], fractions: [0.5, 0.5] };
/** Short runs: a test-sized cavity (the CI widens accordingly). */
const quick = { restarts: 3, initialHorizon: 1500, iterationHorizon: 6000, averagingIterations: 2, settleTolerance: 0.04 };
const model = (extra: Record<string, unknown>) => parseModel({ lambda: 0.7, d: 2, servers: two, ...extra } as never);

describe('cavity with a speed per class: progress', () => {
  // the speed-aware cavity ran minutes without a word (speeds 1,2, LAS, erlang:2 at ρ = 0.97: > 15 min on a loaded machine)
  it('onProgress sees fractions in [0, 1] ending at 1, and changes no number', () => {
    const m = model({ discipline: 'srpt' });
    const seen: number[] = [];
    const r = heteroCavity(m, { ...quick, onProgress: (f) => seen.push(f) });
    expect(seen.length).toBeGreaterThan(quick.restarts * 3);
    expect(seen.every((f) => f >= 0 && f <= 1)).toBe(true);
    expect(seen[seen.length - 1]).toBe(1);
    expect(seen.slice(-quick.averagingIterations - 1).every((f, i, a) => i === 0 || f >= a[i - 1])).toBe(true);
    expect(heteroCavity(m, quick).meanResponseTime).toEqual(r.meanResponseTime);
  });
});

describe('cavity with a speed per class (JSQ, SED, random)', () => {
  it('one class is the identical-server cavity (SRPT, speed 2 = sizes of mean ½)', () => {
    const r = heteroCavity(parseModel({ lambda: 0.8, d: 2, discipline: 'srpt', servers: { speeds: [2], fractions: [1] } }), quick);
    const same = jsqCavity(parseModel({ lambda: 0.8, d: 2, discipline: 'srpt', service: { kind: 'exponential', mean: 0.5 } }), {
      restarts: 2,
      iterationHorizon: 5000,
      initialHorizon: 1000,
    }).meanResponseTime;
    expect(same.mean).toBeCloseTo(0.5625, 1); // SRPT at ρ = 0.4, half the size: about 0.56
    expect(Math.abs(r.meanResponseTime.mean - same.mean)).toBeLessThanOrEqual(r.meanResponseTime.halfWidth + same.halfWidth);
  });

  it('FIFO, exponential sizes: the per-class occupancy ODE (exact) within the CI, uniform and speed-weighted sampling', () => {
    for (const sampling of ['uniform', 'speed'] as const) {
      const m = model({ selection: 'sed', servers: { ...two, sampling } });
      const r = heteroCavity(m, quick);
      const ode = heteroFixedPoint(m);
      expect(Math.abs(r.meanResponseTime.mean - ode.meanResponseTime)).toBeLessThanOrEqual(r.meanResponseTime.halfWidth + 1e-3);
      r.classes.forEach((c, k) => expect(Math.abs(c.busyFraction - ode.classes[k].busyFraction)).toBeLessThan(0.01));
      expect(r.convergence.checks.occupancyOde?.passed).toBe(true);
    }
  });

  it('"converged" claims no more than the steps showed: the CI covers half the last 3 steps\' E[T] range', () => {
    // speeds 1,2, SED + SRPT, λ = 0.9, the defaults: the restarts' t interval was ±0.0005 beside a 1.05 % range
    const r = heteroCavity(model({ lambda: 0.9, selection: 'sed', discipline: 'srpt' }));
    const e = r.meanResponseTime;
    expect(r.convergence.residual).toBeGreaterThan(0);
    expect(r.convergence.residual).toBeLessThanOrEqual(r.provenance.options.settleTolerance);
    expect(e.halfWidth).toBeGreaterThanOrEqual(0.5 * r.convergence.residual * e.mean * (1 - 1e-12));
    expect(e.ci95[0]).toBeLessThanOrEqual(e.mean - e.halfWidth + 1e-12);
    expect(e.ci95[1]).toBeGreaterThanOrEqual(e.mean + e.halfWidth - 1e-12);
  });

  it('random, d = 1, SRPT: each class is an M/M/1 SRPT queue at speed v_c (exact), and Σ f·v·busy = λE[S]', () => {
    // λ = 0.35 keeps the truncation (and the Newton steps of each solve) small: s_{1,32} = 0.35³² < 10⁻¹⁴
    const r = heteroCavity(model({ lambda: 0.35, selection: 'random', d: 1, discipline: 'srpt' }), quick);
    // class c: arrivals λ per server, sizes Exp(1)/v_c; E[T_c] = T_{M/M/1 SRPT}(λ/v_c)/v_c, jobs split f_c
    const exact = 0.5 * mm1SizeBased(0.35, 'srpt') + (0.5 * mm1SizeBased(0.175, 'srpt')) / 2;
    expect(Math.abs(r.meanResponseTime.mean - exact)).toBeLessThanOrEqual(r.meanResponseTime.halfWidth + 2e-3 * exact);
    const work = r.classes.reduce((a, c) => a + c.fraction * c.speed * c.busyFraction, 0);
    expect(Math.abs(work - 0.35)).toBeLessThan(0.01);
    expect(r.convergence.checks.workRate.passed).toBe(true);
  });

  it('JSQ with SRPT and weibull sizes is answered through solveMeanField (kind estimate) and beats FIFO', () => {
    const srpt = solveMeanField(model({ discipline: 'srpt' }), { seed: 3 });
    expect(srpt.kind).toBe('estimate');
    expect(srpt.solver).toBe('JSQ cavity per class (speeds)');
    expect(srpt.classes).toHaveLength(2);
    expect(srpt.meanResponseTime).toBeLessThan(heteroFixedPoint(model({})).meanResponseTime - 0.05);
    const caps = meanFieldCapabilities(model({ service: 'weibull:2' })).fixedPoint;
    expect(caps.available && caps.id).toBe('hetero-cavity');
  });
});

describe('LWL cavity with a speed per class', () => {
  it('FIFO: the drain-time fixed point within the CI; one class is lwlCavity', () => {
    const m = model({ selection: 'lwl' });
    const r = heteroLwlCavity(m, { horizon: 4e4 });
    const fp = heteroLwlFixedPoint(m);
    expect(Math.abs(r.meanResponseTime.mean - fp.meanResponseTime)).toBeLessThanOrEqual(r.meanResponseTime.halfWidth);
    expect(Math.abs(r.checks.workRate.workRate - 0.7)).toBeLessThan(0.01);
    // one class of speed 2 is the identical LWL cavity with sizes of mean ½ (G from the grid, the closed form there)
    const one = parseModel({ lambda: 0.8, d: 2, selection: 'lwl', discipline: 'srpt', servers: { speeds: [2], fractions: [1] } });
    const a = heteroLwlCavity(one, { horizon: 4e4 }).meanResponseTime;
    const same = parseModel({ lambda: 0.8, d: 2, selection: 'lwl', discipline: 'srpt', service: { kind: 'exponential', mean: 0.5 } });
    const b = lwlCavity(same, { horizon: 4e4, seed: 2 }).meanResponseTime;
    expect(Math.abs(a.mean - b.mean)).toBeLessThanOrEqual(a.halfWidth + b.halfWidth);
  });

  it('SRPT with speeds is an estimate; weibull sizes are refused in one line', () => {
    const caps = (extra: Record<string, unknown>) => meanFieldCapabilities(model({ selection: 'lwl', ...extra })).fixedPoint;
    const srpt = caps({ discipline: 'srpt' });
    expect(srpt.available && [srpt.id, srpt.kind]).toEqual(['hetero-lwl-cavity', 'estimate']);
    const weibull = caps({ discipline: 'srpt', service: 'weibull:2' });
    expect(!weibull.available && weibull.reason).toMatch(/LWL\(d\) with weibull sizes and server speeds/);
  });
});

describe('response-time law with speeds through the cavity', () => {
  it('random, d = 1, FIFO, λ = 0.3, fractions ¼, ¾: the pooled law is the share-weighted mixture of M/M/1 laws (exact)', () => {
    // class c is M/M/1 with arrival rate λ and service rate v_c: P(T > t) = Σ_c f_c e^{−(v_c − λ)t} (jobs split f_c)
    const m = parseModel({ lambda: 0.3, d: 1, selection: 'random', servers: { speeds: [1, 2], fractions: [0.25, 0.75] } });
    const sample = new ResponseTimeSample(3);
    heteroCavity(m, quick, sample);
    const times = [0.5, 1, 2, 4];
    const law = sampleResponseTimeLaw({ kind: 'estimate', solver: 'test', source: 'test' }, sample.sortedUnits(), times, [0.5]);
    times.forEach((t, i) => {
      const exact = 0.25 * Math.exp(-0.7 * t) + 0.75 * Math.exp(-1.7 * t);
      const [lo, hi] = law.ccdfCi95![i];
      expect(exact, `t = ${t}`).toBeGreaterThanOrEqual(lo - 0.005);
      expect(exact, `t = ${t}`).toBeLessThanOrEqual(hi + 0.005);
    });
    // without the thinning the classes would count equally: at t = 2 that mixture is 0.140, the share-weighted one 0.087
    expect(law.ccdf[2]).toBeLessThan(0.11);
  });

  it('the capabilities offer the law for the cavity models and keep refusing it for the exact per-class solvers', () => {
    const srpt = meanFieldCapabilities(model({ discipline: 'srpt' })).responseTime;
    expect(srpt.available && [srpt.id, srpt.kind]).toEqual(['hetero-cavity', 'estimate']);
    const lwl = meanFieldCapabilities(model({ selection: 'lwl', discipline: 'srpt' })).responseTime;
    expect(lwl.available && lwl.id).toBe('hetero-lwl-cavity');
    const fifo = meanFieldCapabilities(model({})).responseTime;
    expect(!fifo.available && fifo.reason).toMatch(/no response-time law with server speeds for this model yet/);
  });
});

describe('per-class ODE with level rates that cannot carry the load', () => {
  // speeds 1,2, LAS, erlang:2 at λ = 1.45: a short cavity run measured μ_{1,k} = 0.91 at its top levels, repeated past
  // the table: Σ_c f_c μ_{c,∞} = 1.3985 < λ, no fixed point, and K doubled to 4096 over hours (> 15 min, no step done)
  it('heteroFixedPointOf refuses at once, naming the capacity; the cavity extends its tables with v_c/E[S]', () => {
    const m = model({ discipline: 'las', service: 'erlang:2' });
    const p = {
      ...heteroProblem({ ...m, lambda: 1.45 }),
      levelRates: [Float64Array.of(NaN, 1.08, 1.02, 0.91), Float64Array.of(NaN, 2.15, 1.98, 1.887)],
    };
    expect(() => heteroFixedPointOf(p)).toThrow(ConvergenceError);
    expect(() => heteroFixedPointOf(p)).toThrow(/no fixed point: .*capacity Σ_c f_c μ_c,∞ = 1\.399 ≤ λ = 1\.45/);
    // with the busy-average rate past the tables (what heteroCavity appends) the same problem has its fixed point
    const fixed = { ...p, levelRates: [Float64Array.of(NaN, 1.08, 1.02, 0.91, 1), Float64Array.of(NaN, 2.15, 1.98, 1.887, 2)] };
    expect(heteroFixedPointOf(fixed).meanResponseTime).toBeGreaterThan(0);
  });
});
