import { describe, expect, it } from 'vitest';
import { parseModel, validateModel } from '../../src/model/model.ts';
import { meanFieldCapabilities, solveMeanField, solveMeanFieldTransient } from '../../src/meanfield/index.ts';
import { heteroLwlFixedPoint } from '../../src/meanfield/hetero/lwl.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { lwlExponentialClosedForm } from '../../src/meanfield/lwl/closedForm.ts';
import {
  heteroFixedPoint,
  heteroFixedPointOf,
  heteroProblem,
  heteroTransient,
  randomMixtureMeanResponseTime,
} from '../../src/meanfield/hetero/occupancy.ts';

/** SQ(d) closed form E[T] = Σ_{k≥1} λ^((d^k − 1)/(d − 1)) / λ (theory.md §2), summed here independently. */
const sqdMean = (lambda: number, d: number) => {
  let q = 0;
  for (let k = 1; k < 80; k++) q += Math.pow(lambda, (Math.pow(d, k) - 1) / (d - 1));
  return q / lambda;
};

describe('per-class occupancy ODE (theory.md §13)', () => {
  it('one class of speed 1 is the SQ(d) ODE', () => {
    const one = heteroFixedPointOf({ lambda: 0.7, d: 2, rule: 'jsq', fractions: [1], sampling: [1], rates: [1] });
    expect(Math.abs(one.meanResponseTime - sqdMean(0.7, 2))).toBeLessThan(1e-10);
  });

  it('one class of speed 2 at λ = 1.2 is the homogeneous model at λ = 0.6 with time halved', () => {
    const fast = heteroFixedPointOf({ lambda: 1.2, d: 3, rule: 'sed', fractions: [1], sampling: [1], rates: [2] });
    expect(Math.abs(fast.meanResponseTime - sqdMean(0.6, 3) / 2)).toBeLessThan(1e-10);
  });

  it('d = 1 random is a mixture of M/M/1 queues (uniform and speed-weighted sampling)', () => {
    // uniform: every class gets λ per server, E[T] = Σ f_c/(μ_c − λ); written out here, not through the solver
    const uniform = validateModel({ lambda: 0.3, d: 1, selection: 'random', servers: { speeds: [0.5, 2], fractions: [0.25, 0.75] } });
    const p = heteroProblem(uniform);
    const exact = 0.25 / (0.5 - 0.3) + 0.75 / (2 - 0.3);
    expect(randomMixtureMeanResponseTime(p)).toBeCloseTo(exact, 14);
    expect(Math.abs(heteroFixedPointOf(p).meanResponseTime - exact)).toBeLessThan(1e-9);
    // speed-weighted: class c gets λμ_c/Σfμ per server, so every class runs at load ρ: E[T_c] = 1/(μ_c(1 − ρ))
    const speed = validateModel({
      lambda: 0.5,
      d: 1,
      selection: 'random',
      servers: { speeds: [1, 3], fractions: [0.5, 0.5], sampling: 'speed' },
    });
    const rho = 0.5 / 2;
    const exactSpeed = (0.5 * 1) / 2 / (1 * (1 - rho)) + (0.5 * 3) / 2 / (3 * (1 - rho));
    const fp = heteroFixedPointOf(heteroProblem(speed));
    expect(Math.abs(fp.meanResponseTime - exactSpeed)).toBeLessThan(1e-9);
    for (const c of fp.classes) expect(c.busyFraction).toBeCloseTo(rho, 9);
  });

  it('work is conserved: Σ f·speed·busy = λE[S] for JSQ(d) and SED(d), both samplings', () => {
    for (const selection of ['jsq', 'sed'] as const)
      for (const sampling of ['uniform', 'speed'] as const) {
        const m = parseModel({
          lambda: 0.9,
          d: 2,
          selection,
          service: { kind: 'exponential', mean: 1.5 },
          servers: { speeds: [1, 2, 4], fractions: [0.5, 0.3, 0.2], sampling },
        });
        const r = heteroFixedPoint(m);
        const served = r.classes.reduce((a, c) => a + c.fraction * c.speed * c.busyFraction, 0);
        expect(Math.abs(served - 0.9 * 1.5)).toBeLessThan(1e-10);
        expect(Math.abs(r.classes.reduce((a, c) => a + c.jobShare, 0) - 1)).toBeLessThan(1e-10);
        // Little over the classes: E[T] = Σ share_c E[T_c]
        const mixed = r.classes.reduce((a, c) => a + c.jobShare * c.meanResponseTime, 0);
        expect(Math.abs(mixed - r.meanResponseTime)).toBeLessThan(1e-10);
      }
  });

  it('LWL(d) with speeds: two classes of speed 2 are LL(d) at λ/2, time halved (closed form); work is conserved with speeds 1, 2', () => {
    // (two classes of speed 1 are refused by parseModel as the homogeneous model; speed 2 at λ = 1.4 is ρ = 0.7)
    const same = heteroLwlFixedPoint(
      parseModel({ lambda: 1.4, d: 2, selection: 'lwl', servers: { speeds: [2, 2], fractions: [0.5, 0.5] } }),
    );
    expect(Math.abs(same.meanResponseTime - lwlExponentialClosedForm(0.7, 2).meanResponseTime / 2)).toBeLessThan(1e-6);
    expect(same.numericalError).toBeLessThan(1e-6);
    const m = parseModel({ lambda: 0.6, d: 2, selection: 'lwl', servers: { speeds: [1, 2], fractions: [0.5, 0.5] } });
    const r = heteroLwlFixedPoint(m);
    expect(Math.abs(r.classes.reduce((a, c) => a + c.fraction * c.speed * c.busyFraction, 0) - 0.6)).toBeLessThan(1e-6);
    expect(Math.abs(r.classes.reduce((a, c) => a + c.jobShare, 0) - 1)).toBeLessThan(1e-6);
    expect(solveMeanField(m).meanResponseTime).toBe(r.meanResponseTime);
  });

  it('two classes of speed 2 are the SQ(d) ODE at λ/2 with time halved (JSQ and SED alike)', () => {
    for (const selection of ['jsq', 'sed'] as const) {
      const m = parseModel({ lambda: 1.4, d: 3, selection, servers: { speeds: [2, 2], fractions: [0.25, 0.75] } });
      expect(Math.abs(heteroFixedPoint(m).meanResponseTime - sqdMean(0.7, 3) / 2)).toBeLessThan(1e-10);
    }
  });

  it('the transient starts empty and settles on the fixed point', () => {
    const m = parseModel({ lambda: 0.6, d: 2, selection: 'sed', servers: { speeds: [1, 2], fractions: [0.5, 0.5] } });
    const tr = solveMeanFieldTransient(m, [0, 5, 60]);
    expect(tr.solver).toBe('hetero-occupancy-ode');
    const r = tr.result as ReturnType<typeof heteroTransient>;
    expect(r.meanQueueLength[0]).toBe(0);
    const fp = heteroFixedPoint(m);
    expect(Math.abs(r.meanQueueLength[2] - fp.meanQueueLength)).toBeLessThan(1e-7);
    expect(Math.abs(r.classTail[2][1][1] - fp.classes[1].busyFraction)).toBeLessThan(1e-7);
    expect(r.meanQueueLength[1]).toBeLessThan(fp.meanQueueLength);
  });

  it('the capabilities name what is missing: LWL with speeds, the refined term, non-FIFO, non-exponential', () => {
    const caps = (extra: Record<string, unknown>) =>
      meanFieldCapabilities(parseModel({ lambda: 0.6, d: 2, servers: { speeds: [1, 2] }, ...extra } as never));
    const jsq = caps({});
    expect(jsq.fixedPoint.available && jsq.fixedPoint.id).toBe('hetero-occupancy');
    expect(jsq.transient.available && jsq.transient.id).toBe('hetero-occupancy-ode');
    expect(jsq.refined.firstOrder.available).toBe(false);
    const lwl = caps({ selection: 'lwl' });
    expect(lwl.fixedPoint.available && lwl.fixedPoint.id).toBe('hetero-lwl');
    expect(!lwl.transient.available && lwl.transient.reason).toMatch(/LWL\(d\) with server speeds/);
    // the exact solvers' refusals, answered by the cavity with a speed per class (heteroCavity.test.ts)
    const srpt = caps({ discipline: 'srpt' }).fixedPoint;
    expect(srpt.available && [srpt.id, srpt.kind]).toEqual(['hetero-cavity', 'estimate']);
    const psLwl = caps({ discipline: 'ps', selection: 'lwl' }).fixedPoint;
    expect(psLwl.available && psLwl.id).toBe('hetero-lwl-cavity');
    const weibull = caps({ service: 'weibull:0.5' }).fixedPoint;
    expect(weibull.available && weibull.id).toBe('hetero-cavity');
    const transient = caps({ discipline: 'srpt' }).transient;
    expect(!transient.available && transient.reason).toMatch(/discipline srpt/);
  });
});

describe('per-class occupancy ODE for PS and LAS with exponential sizes (count-based rules)', () => {
  it('is FIFO’s fixed point, and the sharing engine agrees within CI + 1/n at n = 100; LWL with PS goes to the cavity', () => {
    const servers = { speeds: [1, 2], fractions: [0.5, 0.5] };
    const fifo = solveMeanField(parseModel({ lambda: 0.9, d: 2, selection: 'sed', servers }));
    for (const discipline of ['ps', 'las'] as const) {
      const model = parseModel({ lambda: 0.9, d: 2, selection: 'sed', discipline, servers });
      const limit = solveMeanField(model);
      expect(limit.meanResponseTime).toBe(fifo.meanResponseTime);
      const sim = simulate(model, { n: 100, jobs: 20_000, replications: 4, warmupTime: 30, seed: 13 });
      expect(sim.engine).toBe('sharing');
      expect(Math.abs(sim.meanResponseTime.mean - limit.meanResponseTime)).toBeLessThan(sim.meanResponseTime.halfWidth + 1 / 100);
    }
    const lwlPs = meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2, selection: 'lwl', discipline: 'ps', servers })).fixedPoint;
    expect(lwlPs.available && lwlPs.id).toBe('hetero-lwl-cavity'); // not the occupancy ODE: the cavity
  });
});
