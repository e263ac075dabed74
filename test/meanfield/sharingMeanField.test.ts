/**
 * PS and LAS in the mean-field room and the model: JSQ(d)+PS answered by the exponential SQ(d) fixed point as exact
 * for any law (Bramson, Lu & Prabhakar 2012); the M/G/1 entry (`mg1`) for both disciplines; the JSQ cavity under LAS
 * with exponential sizes (JSQ reads counts only and LAS reads no size, so the count process is SQ(d)'s: the closed
 * form must come out); the LWL cavity with d = 1 under PS and LAS (an M/M/1 queue, mean 1/(1 − ρ) for both); the refusals of item 5.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { jsqCavity, lwlCavity } from '../../src/meanfield/cavity/index.ts';
import { mg1 } from '../../src/meanfield/mg1/index.ts';
import { meanFieldCapabilities } from '../../src/meanfield/capabilities.ts';
import { solveMeanField, solveMeanFieldTransient } from '../../src/meanfield/solve.ts';
import { refine, refinedEstimate } from '../../src/meanfield/refined.ts';
import { refineSecondOrder } from '../../src/meanfield/refinedSecondOrder.ts';
import { refinedTransient } from '../../src/meanfield/transient.ts';
import { solveExact } from '../../src/meanfield/exact/solveExact.ts';
import { prepareComparisonModel } from '../../src/compare/plan.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { idlePrediction, parseModel } from '../../src/model/index.ts';
import { testComparison } from '../compare/config.ts';

/** SQ(d) closed form E[T] = Σ_{k≥1} λ^((d^k − 1)/(d − 1) − 1) (theory.md §2), mean service 1. */
function sqd(lambda: number, d: number): number {
  let q = 0;
  for (let k = 1; k < 60; k++) q += lambda ** ((d ** k - 1) / (d - 1));
  return q / lambda;
}

describe('PS and LAS in the mean field', () => {
  for (const service of ['weibull:0.5', 'hyperexp:10', 'det']) {
    it(`JSQ(2)+PS with ${service} sizes: the exponential SQ(2) fixed point, kind exact`, () => {
      const s = solveMeanField(parseModel({ lambda: 0.9, d: 2, discipline: 'ps', service }));
      expect(s.kind).toBe('exact');
      expect(s.meanResponseTime).toBeCloseTo(sqd(0.9, 2), 10);
      expect(s.provenance.source).toMatch(/Bramson, Lu & Prabhakar/);
    });
  }

  it('JSQ(3)+PS with mean-2 Weibull sizes scales with the mean (ρ = 0.8)', () => {
    const s = solveMeanField(parseModel({ lambda: 0.4, d: 3, discipline: 'ps', service: { kind: 'weibull', shape: 0.5, mean: 2 } }));
    expect(s.meanResponseTime).toBeCloseTo(2 * sqd(0.8, 3), 9);
  });

  it('mg1 answers PS and LAS (d = 1) through the formulas: PS = E[S]/(1 − ρ), LAS = PS for exponential sizes', () => {
    for (const service of ['exp', 'hyperexp:10', 'weibull:0.5']) {
      const ps = mg1(parseModel({ lambda: 0.8, d: 1, selection: 'random', discipline: 'ps', service }));
      expect(Math.abs(ps.meanResponseTime - 5)).toBeLessThan(1e-9);
      expect(ps.provenance.equation).toMatch(/x\/\(1−ρ\)/);
    }
    const las = mg1(parseModel({ lambda: 0.8, d: 1, selection: 'random', discipline: 'las' }));
    expect(Math.abs(las.meanResponseTime - 5) / 5).toBeLessThan(1e-6);
  });

  it('the JSQ cavity under LAS with exponential sizes gives the SQ(2) value (kind estimate, CI)', () => {
    const r = jsqCavity(parseModel({ lambda: 0.8, d: 2, discipline: 'las' }), { seed: 3, iterationHorizon: 2e4, initialHorizon: 1000 });
    const e = r.meanResponseTime;
    expect(Math.abs(e.mean - sqd(0.8, 2)), `${e.mean} ± ${e.halfWidth} vs ${sqd(0.8, 2)}`).toBeLessThan(2 * e.halfWidth);
    expect(e.halfWidth).toBeLessThan(0.05);
  });

  it('the LWL cavity with d = 1 under PS and LAS is M/M/1-PS: 1/(1 − ρ)', () => {
    for (const discipline of ['ps', 'las'] as const) {
      const model = parseModel({ lambda: 0.7, d: 1, selection: 'lwl', discipline });
      const r = lwlCavity(model, { seed: 5, horizon: 5e4 });
      const e = r.meanResponseTime;
      expect(Math.abs(e.mean - 1 / 0.3), `${discipline}: ${e.mean} ± ${e.halfWidth}`).toBeLessThan(2 * e.halfWidth);
    }
  });
});

describe('settings with no effect or no meaning are refused (issue 18 item 5)', () => {
  it('a prediction with PS or LAS has no effect: idlePrediction says why (the CLI refuses --prediction with it)', () => {
    expect(idlePrediction('jsq', 'ps')).toMatch(/neither selection jsq nor discipline ps reads a prediction/);
    expect(idlePrediction('lwl', 'las')).toMatch(/nor discipline las/);
  });
  it('LPW with a sharing discipline is refused by the model itself, unless its predictions are exact', () => {
    const lpw = { lambda: 0.5, d: 2, selection: 'lpw' } as const;
    expect(() => parseModel({ ...lpw, discipline: 'ps', prediction: 'exp' })).toThrow(/lpw with discipline ps is not supported/);
    expect(() => parseModel({ ...lpw, discipline: 'las', prediction: 'uniform:0.5' })).toThrow(/one job in service/);
    // 'static' ΣY counts the served part too: not LWL, so still refused
    expect(() => parseModel({ ...lpw, discipline: 'las', conventions: { lpwWork: 'static' } })).toThrow(/one job in service/);
  });
  it('LPW with exact predictions and PS or LAS is the LWL model it equals (lpwAsLwl), as LWL + LAS runs (it was refused)', () => {
    for (const discipline of ['ps', 'las'] as const) {
      const m = parseModel({ lambda: 0.5, d: 2, selection: 'lpw', discipline });
      expect(m).toEqual(parseModel({ lambda: 0.5, d: 2, selection: 'lwl', discipline }));
      expect(meanFieldCapabilities(m).fixedPoint).toMatchObject({ available: true, id: 'lwl-cavity' });
    }
  });
});

describe('JSQ(d) with a sharing server: the transient', () => {
  it("PS and LAS with exponential sizes: the SQ(d) ODE, equal to FIFO's trajectory (same queue-length process)", () => {
    const times = [0, 1, 5, 20, 80];
    const fifoRun = solveMeanFieldTransient(parseModel({ lambda: 0.45, d: 2, service: { kind: 'exponential', mean: 2 } }), times);
    if (fifoRun.solver !== 'sqd-ode') throw new Error('expected the SQ(d) ODE');
    const fifo = fifoRun.result;
    for (const discipline of ['ps', 'las']) {
      const model = parseModel({ lambda: 0.45, d: 2, discipline, service: { kind: 'exponential', mean: 2 } });
      const capability = meanFieldCapabilities(model).transient;
      expect(capability.available && capability.id).toBe('sqd-ode');
      const r = solveMeanFieldTransient(model, times);
      if (r.solver !== 'sqd-ode') throw new Error(`expected the SQ(d) ODE, got ${r.solver}`);
      expect(r.result.tail).toEqual(fifo.tail);
      expect(r.result.provenance.model.discipline).toBe(discipline);
    }
    // and it rises from empty towards the fixed point E[Q] = λE[T]
    const q = fifo.meanQueueLength;
    expect(q[0]).toBe(0);
    expect(q[4]).toBeGreaterThan(q[2]);
  });

  it('PS with another law is refused through the capability, with the reason', () => {
    const model = parseModel({ lambda: 0.9, d: 2, discipline: 'ps', service: 'hyperexp:4' });
    const capability = meanFieldCapabilities(model).transient;
    expect(capability.available).toBe(false);
    if (!capability.available) expect(capability.reason).toMatch(/queue lengths depend on the sizes/);
    expect(() => solveMeanFieldTransient(model, [0, 1])).toThrow(/queue lengths depend on the sizes/);
  });
});

describe("PS and LAS with exponential sizes: FIFO's queue lengths at every n (refined terms, exact chain)", () => {
  const fifo = parseModel({ lambda: 0.7, d: 2 });
  it('the capability query gives them the refined terms and the exact chain (E[Q], E[T] only); the law stays the cavity', () => {
    for (const discipline of ['ps', 'las'] as const) {
      const c = meanFieldCapabilities(parseModel({ lambda: 0.7, d: 2, discipline }));
      for (const term of [c.refined.firstOrder, c.refined.secondOrder, c.exactChain]) {
        expect(term.available, JSON.stringify(term)).toBe(true);
        if (term.available)
          expect(term.name).toMatch(
            new RegExp(`${discipline.toUpperCase()} with exponential sizes has FIFO's queue lengths: E\\[Q\\], E\\[T\\] only`),
          );
      }
      expect(c.responseTime).toMatchObject({ available: true, id: 'jsq-cavity', kind: 'estimate' });
      // random selection: the chain too, and JSQ(1)'s refined term (V = 0): random routing is JSQ(1) (randomRoutingTwin)
      const random = meanFieldCapabilities(parseModel({ lambda: 0.7, d: 1, selection: 'random', discipline }));
      expect(random.exactChain.available).toBe(true);
      expect(random).toEqual(meanFieldCapabilities(parseModel({ lambda: 0.7, d: 1, discipline })));
    }
    // other laws (PS is insensitive in the limit, not at finite n), priority disciplines and memory: refused as before
    for (const input of [
      { discipline: 'ps', service: 'weibull:0.5' },
      { discipline: 'las', service: 'hyperexp:4' },
      { discipline: 'srpt' },
      { discipline: 'ps', memory: 'cp' },
    ]) {
      const c = meanFieldCapabilities(parseModel({ lambda: 0.7, d: 2, ...input }));
      expect(c.refined.firstOrder.available || c.exactChain.available, JSON.stringify(input)).toBe(false);
    }
  });
  it("refine, refineSecondOrder, refinedTransient and solveExact answer PS and LAS with FIFO's numbers (they refused)", () => {
    const V = refine(fifo);
    const A = refineSecondOrder(fifo);
    const chain = solveExact(fifo, { n: 3 });
    for (const discipline of ['ps', 'las'] as const) {
      const m = parseModel({ lambda: 0.7, d: 2, discipline });
      expect(refine(m).sumV).toBe(V.sumV);
      expect(refinedEstimate(refine(m), 20).meanResponseTime).toBe(refinedEstimate(V, 20).meanResponseTime);
      expect(refineSecondOrder(m).sumA).toBe(A.sumA);
      expect(refinedTransient(m, { times: [0, 5] }).sumV[1]).toBeGreaterThan(0);
      const r = solveExact(m, { n: 3 });
      expect(r.meanResponseTime).toBe(chain.meanResponseTime);
      expect(r.provenance.model.discipline).toBe(discipline); // the result names the model asked for
      expect(r.provenance.source).toMatch(/FIFO's occupancy chain/);
    }
    expect(() => solveExact(parseModel({ lambda: 0.7, d: 2, discipline: 'srpt' }), { n: 3 })).toThrow(
      /no exact solver for discipline "srpt"/,
    );
  });
  it('truth: the sharing engine at n = 3 (PS, LAS) agrees with the exact chain E[T]_3 within its CI', () => {
    const exact = solveExact(fifo, { n: 3 }).meanResponseTime;
    for (const discipline of ['ps', 'las'] as const) {
      const e = simulate(parseModel({ lambda: 0.7, d: 2, discipline }), {
        n: 3,
        jobs: 60_000,
        replications: 10,
        seed: 11,
        warmupTime: 100,
      }).meanResponseTime;
      expect(Math.abs(e.mean - exact), `${discipline}: ${e.mean} ± ${e.halfWidth} vs exact ${exact}`).toBeLessThan(e.halfWidth);
      expect(e.halfWidth).toBeLessThan(0.03);
    }
  });
  it('compare judges PS and LAS cells by the refined term and the exact points (it judged them without V)', () => {
    const config = testComparison({ lambdas: [0.7], ns: [10, 20], jobs: 1000, replications: 2, seed: 1, model: { discipline: 'las' } });
    const { prepared, exact } = prepareComparisonModel(
      { ...config, exact: { ns: [2, 3], truncationBound: 1e-6, maxStates: 1e5, jobs: 1000, replications: 2 } },
      0,
    );
    expect(prepared.correction?.sumV).toBe(refine(fifo).sumV);
    expect(prepared.secondOrder?.sumA).toBe(refineSecondOrder(fifo).sumA);
    expect(exact?.points.map((p) => p.n)).toEqual([2, 3]);
  });
});

describe('the response-time law of PS and LAS at d ≥ 2: README and the capability query agree', () => {
  it('without memory the cavity estimates it (JSQ, LWL); with a memory E[T] only, as the README says (it said E[T] only)', () => {
    for (const discipline of ['ps', 'las'] as const) {
      for (const selection of ['jsq', 'lwl'] as const) {
        const law = meanFieldCapabilities(parseModel({ lambda: 0.8, d: 2, selection, discipline })).responseTime;
        expect(law, `${selection} ${discipline}`).toMatchObject({ available: true, kind: 'estimate', id: `${selection}-cavity` });
      }
      const withMemory = meanFieldCapabilities(parseModel({ lambda: 0.8, d: 2, discipline, memory: 'cp' }));
      expect(withMemory.fixedPoint.available).toBe(true);
      expect(withMemory.responseTime).toMatchObject({ available: false });
    }
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8').replace(/\s+/g, ' ');
    expect(readme).toContain('with a memory, PS and LAS at d ≥ 2 have E[T] only');
    expect(readme).toContain("without one, their law is the JSQ or LWL cavity's estimate with CIs");
  });
});
