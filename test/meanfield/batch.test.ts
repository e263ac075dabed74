/**
 * Batch sampling in the mean-field limit (theory.md §15; meanfield/batch.ts): K = 1 gives SQ(d) and LL(d) back,
 * the heavy-traffic limits of Hellemans' thesis §8 are approached, LL(d,K)'s two expressions of E[U] agree, and the
 * model refuses batch settings with no meaning in one line.
 */
import { describe, expect, it } from 'vitest';
import { batchSamplingMap, batchTransient, bsqFixedPoint, lldkFixedPoint, sqdkFixedPoint } from '../../src/meanfield/batch.ts';
import { solveMeanFieldTransient } from '../../src/meanfield/solve.ts';
import { solveTransient } from '../../src/meanfield/transient.ts';
import { lwlTransient } from '../../src/meanfield/lwl/transient.ts';
import { integrate } from '../../src/numerics/quadrature.ts';
import { solveMeanField } from '../../src/meanfield/solve.ts';
import { meanFieldCapabilities } from '../../src/meanfield/capabilities.ts';
import { parseModel, validateModel } from '../../src/model/index.ts';
import { simulate } from '../../src/sim/index.ts';
import { simulationWarmup } from '../../src/meanfield/warmup.ts';

describe('batch sampling mean field', () => {
  it('K = 1 reduces SQ(d,1) and BSQ(d,1) to SQ(d), LL(d,1) to LL(d) (equal numbers)', () => {
    for (const [lambda, d] of [
      [0.5, 2],
      [0.9, 2],
      [0.95, 3],
    ]) {
      const sqd = solveMeanField(parseModel({ lambda, d })).meanResponseTime;
      const lld = solveMeanField(parseModel({ lambda, d, selection: 'lwl' })).meanResponseTime;
      expect(sqdkFixedPoint(lambda, d, 1).meanResponseTime).toBeCloseTo(sqd, 12);
      expect(bsqFixedPoint(lambda, d, 1).meanResponseTime).toBeCloseTo(sqd, 12);
      expect(lldkFixedPoint(lambda, d, 1).meanResponseTime).toBeCloseTo(lld, 10);
    }
    expect(batchSamplingMap(0.7, 3, 1)(0.4)).toBeCloseTo(0.7 * 0.4 ** 3, 15);
  });

  it('u₁ = ρ (busy fraction) and LL(d,K): ∫F̄ = ρ(E[W] + 1), by integrating F̄′ = T(F̄) − F̄ directly', () => {
    expect(sqdkFixedPoint(0.8, 4, 3).tail![1]).toBeCloseTo(0.8, 14);
    expect(bsqFixedPoint(0.8, 2, 3).tail![1]).toBeCloseTo(0.8, 14);
    const [rho, d, K] = [0.85, 5, 2];
    const T = batchSamplingMap(rho, d, K);
    // RK4 on F̄′ = T(F̄) − F̄ from ρ, ∫F̄ dw by the trapezoid rule
    const h = 1e-3;
    let f = rho;
    let area = 0;
    for (let w = 0; w < 200 && f > 1e-14; w += h) {
      const g = (x: number) => T(x) - x;
      const k1 = g(f);
      const k2 = g(f + (h / 2) * k1);
      const k3 = g(f + (h / 2) * k2);
      const k4 = g(f + h * k3);
      const next = f + (h / 6) * (k1 + 2 * k2 + 2 * k3 + k4);
      area += (h / 2) * (f + next);
      f = next;
    }
    const r = lldkFixedPoint(rho, d, K);
    expect(area).toBeCloseTo(rho * (r.meanWait! + 1), 6);
    const eu = integrate((u) => u / (u - T(u)), 0, rho).value;
    expect(eu).toBeCloseTo(area, 6);
  });

  it('heavy traffic: −E[W]/log(1 − λ) → K/(d − K) for LL(d,K) and E[T]/−log(1 − λ) → 1/log(d/K) for SQ(d,K)', () => {
    const cases: [number, number][] = [
      [4, 2],
      [3, 2],
      [6, 3],
    ];
    for (const [d, K] of cases) {
      const ll = K / (d - K);
      const sq = 1 / Math.log(d / K);
      let llErr = Infinity;
      let sqErr = Infinity;
      for (const e of [3, 6, 9, 12]) {
        const lambda = 1 - 10 ** -e;
        const L = -Math.log(1 - lambda);
        const llNow = Math.abs(lldkFixedPoint(lambda, d, K).meanWait! / L - ll) / ll;
        const sqNow = Math.abs(sqdkFixedPoint(lambda, d, K).meanResponseTime / L - sq) / sq;
        expect(llNow, `LL(${d},${K}) at 1 − 1e−${e}`).toBeLessThan(llErr); // approached monotonically
        expect(sqNow, `SQ(${d},${K}) at 1 − 1e−${e}`).toBeLessThan(sqErr);
        llErr = llNow;
        sqErr = sqNow;
      }
      // at λ = 1 − 10⁻¹² within 12 % (the approach is logarithmic: the O(1) term over log(10¹²) ≈ 27.6)
      expect(llErr, `LL(${d},${K})`).toBeLessThan(0.12);
      expect(sqErr, `SQ(${d},${K})`).toBeLessThan(0.12);
    }
  });

  it('BSQ with d = 1 is M^X/M/1 with batches of K: E[Q] = ρ(K + 1)/(2(1 − ρ)); batching costs', () => {
    for (const [rho, K] of [
      [0.9, 2],
      [0.6, 3],
    ]) {
      expect(bsqFixedPoint(rho, 1, K).meanQueueLength).toBeCloseTo((rho * (K + 1)) / (2 * (1 - rho)), 10);
    }
    expect(sqdkFixedPoint(0.9, 3, 2).meanResponseTime).toBeGreaterThan(sqdkFixedPoint(0.9, 3, 1).meanResponseTime);
    expect(bsqFixedPoint(0.9, 3, 2).meanResponseTime).toBeGreaterThan(sqdkFixedPoint(0.9, 3, 1).meanResponseTime);
  });

  it('capabilities and one-line refusals', () => {
    expect(meanFieldCapabilities(parseModel({ lambda: 0.9, d: 3, batch: 2 })).fixedPoint).toMatchObject({
      id: 'batch-sqdk',
      kind: 'exact',
    });
    expect(meanFieldCapabilities(parseModel({ lambda: 0.9, d: 3, batch: 2, selection: 'lwl' })).fixedPoint).toMatchObject({
      id: 'batch-lldk',
    });
    expect(meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2, batch: 4, batchDispatch: 'whole' })).fixedPoint).toMatchObject({
      id: 'batch-bsq',
    });
    expect(meanFieldCapabilities(parseModel({ lambda: 0.9, d: 3, batch: 2, discipline: 'srpt' })).fixedPoint.available).toBe(false);
    expect(solveMeanField(parseModel({ lambda: 0.9, d: 3, batch: 2 })).meanResponseTime).toBe(sqdkFixedPoint(0.9, 3, 2).meanResponseTime);
    for (const [input, message] of [
      [{ batch: 0 }, 'batch size K must be an integer ≥ 1, got 0'],
      [{ batch: 3 }, 'needs d ≥ K'],
      [{ batchDispatch: 'whole' }, 'batch dispatch whole has no effect with batch size 1'],
      [{ batch: 2, selection: 'random' }, 'batch size 2 works with selection jsq (SQ(d,K), BSQ) or lwl (LL(d,K)), got random'],
      [{ batch: 2, memory: 'ip' }, 'with a dispatcher memory'],
    ] as const) {
      expect(() => validateModel({ lambda: 0.5, d: 2, ...input })).toThrow(message);
    }
  });
});

describe('batch transients (the tail ODE of SQ(d,K) and BSQ)', () => {
  it("K = 1 spread is the SQ(d) ODE: the same tails at t = 1, 5, 20 (to the integrators' tolerance)", () => {
    const times = [0, 1, 5, 20];
    const batch = batchTransient(parseModel({ lambda: 0.9, d: 2 }), { times, tolerance: 1e-11 });
    const sqd = solveTransient(parseModel({ lambda: 0.9, d: 2 }), { times, tolerance: 1e-11 });
    for (let j = 1; j < times.length; j++) for (let k = 1; k <= 6; k++) expect(batch.tail[j][k]).toBeCloseTo(sqd.tail[j][k], 8);
  });

  it('from empty, SQ(3,2) and BSQ(2, K = 3) reach their fixed points; E[Q] grows monotonically (no overshoot from empty)', () => {
    for (const [model, fixed] of [
      [parseModel({ lambda: 0.8, d: 3, batch: 2 }), sqdkFixedPoint(0.8, 3, 2)],
      [parseModel({ lambda: 0.8, d: 2, batch: 3, batchDispatch: 'whole' }), bsqFixedPoint(0.8, 2, 3)],
    ] as const) {
      const times = [0, 2, 10, 60, 200];
      const r = solveMeanFieldTransient(model, times);
      expect(r.solver).toBe('batch-ode');
      const tail = r.result as { tail: number[][]; meanQueueLength: number[] };
      expect(tail.tail[0].slice(1).every((u) => u === 0)).toBe(true);
      expect(tail.tail[4][1]).toBeCloseTo(0.8, 6); // busy fraction u₁ = ρ
      for (let k = 1; k < 8; k++) expect(tail.tail[4][k]).toBeCloseTo(fixed.tail![k], 6);
      expect(tail.meanQueueLength[4]).toBeCloseTo(fixed.meanQueueLength, 5);
      for (let j = 1; j < times.length; j++) expect(tail.meanQueueLength[j]).toBeGreaterThan(tail.meanQueueLength[j - 1]);
    }
  });

  it('capabilities: SQ(d,K) and BSQ have the tail ODE; LL(d,K) the workload PIDE with batch sampling', () => {
    expect(meanFieldCapabilities(parseModel({ lambda: 0.9, d: 3, batch: 2 })).transient).toMatchObject({ id: 'batch-ode' });
    const lwl = meanFieldCapabilities(parseModel({ lambda: 0.9, d: 3, batch: 2, selection: 'lwl' })).transient;
    expect(lwl).toMatchObject({ available: true, id: 'lwl-pide', name: 'LL(d,K) batch workload PIDE (K = 2)' });
    const r = solveMeanFieldTransient(parseModel({ lambda: 0.9, d: 3, batch: 2, selection: 'lwl' }), [0, 0.5]);
    expect(r.solver === 'lwl-pide' && r.result.provenance.equation).toMatch(/T₁\(S_j\) − T₁\(S_\{j\+1\}\).*K = 2/);
    // whole batches with lwl have no fixed point, hence no transient: the fixed point's reason, one line
    const whole = meanFieldCapabilities(parseModel({ lambda: 0.9, d: 3, batch: 2, selection: 'lwl', batchDispatch: 'whole' })).transient;
    expect(whole.available ? '' : whole.reason).toMatch(/^no mean-field solver for LWL\(d\).*whole-batch equations are derived for jsq/);
    expect(() =>
      lwlTransient(validateModel({ lambda: 0.9, d: 3, batch: 2, selection: 'lwl', batchDispatch: 'whole' }), { times: [0, 1] }),
    ).toThrow(/not whole batches/);
  });
});

describe('LL(d,K) transient: the LWL(d) workload PIDE with the batch-sampling map (theory.md §15)', () => {
  it('K = 1: the map is u^d bit for bit, so the batch scheme is the LL(d) scheme', () => {
    for (const d of [1, 2, 3, 5]) {
      const T1 = batchSamplingMap(1, d, 1);
      for (const u of [0, 1e-9, 0.123, 0.5, 0.77, 0.999999, 1]) expect(T1(u)).toBe(u ** d);
    }
  });

  it('K = d: every sampled server gets a job, so each is M/M/1: LL(2,2) and LL(3,3) equal LL(1) (an independent path)', () => {
    const options = { times: [0, 2, 5, 20], step: 0.04, horizon: 30 };
    const mm1 = lwlTransient(parseModel({ lambda: 0.7, d: 1, selection: 'lwl' }), options);
    for (const K of [2, 3]) {
      const r = lwlTransient(parseModel({ lambda: 0.7, d: K, selection: 'lwl', batch: K }), options);
      for (let j = 0; j < options.times.length; j++) {
        expect(r.meanWorkload[j]).toBeCloseTo(mm1.meanWorkload[j], 12);
        expect(r.busyFraction[j]).toBeCloseTo(mm1.busyFraction[j], 12);
        for (let k = 0; k < r.workloadCcdf[j].length; k += 50) expect(r.workloadCcdf[j][k]).toBeCloseTo(mm1.workloadCcdf[j][k], 12);
      }
    }
  });

  it('t → ∞ reaches lldkFixedPoint: E[U] and E[W] = ∫T₁(F̄) at first order in Δ (Richardson within 3e−4)', () => {
    const [lambda, d, K] = [0.7, 3, 2];
    const fixed = lldkFixedPoint(lambda, d, K);
    const T1 = batchSamplingMap(1, d, K);
    const model = parseModel({ lambda, d, selection: 'lwl', batch: K });
    const errors = [0.04, 0.02].map((step) => {
      const pide = lwlTransient(model, { times: [0, 60, 70], step, horizon: 30 });
      expect(pide.busyFraction[2]).toBeCloseTo(lambda, 8); // the scheme keeps the load: busy fraction ρ
      expect(Math.abs(pide.meanWorkload[2] - pide.meanWorkload[1])).toBeLessThan(1e-6); // relaxed
      const ccdf = pide.workloadCcdf[2]; // F̄(jΔ) ≈ S_{j+1}: right sums
      const wait = ccdf.reduce((s, f) => s + T1(f) * step, 0);
      return { u: pide.meanWorkload[2] - fixed.meanQueueLength, w: wait - fixed.meanWait! };
    });
    const [coarse, fine] = errors;
    for (const key of ['u', 'w'] as const) {
      expect(Math.abs(fine[key])).toBeLessThan(5e-3);
      expect(coarse[key] / fine[key]).toBeGreaterThan(1.7); // first order: halving Δ halves the error
      expect(coarse[key] / fine[key]).toBeLessThan(2.6);
      expect(Math.abs(2 * fine[key] - coarse[key])).toBeLessThan(3e-4);
    }
  });
});

describe('batch simulation (FIFO event engine; every engine: test/sim/batchEngines.test.ts)', () => {
  it('BSQ with d = 1 at n = 1 is M^X/M/1: E[T] within its CI', () => {
    const model = parseModel({ lambda: 0.6, d: 1, batch: 3, batchDispatch: 'whole' });
    const r = simulate(model, { n: 1, jobs: 60_000, replications: 6, seed: 2, warmupTime: 100 });
    const exact = bsqFixedPoint(0.6, 1, 3).meanResponseTime; // 5
    expect(Math.abs(r.meanResponseTime.mean - exact), `${r.meanResponseTime.mean} ± ${r.meanResponseTime.halfWidth}`).toBeLessThanOrEqual(
      1.3 * r.meanResponseTime.halfWidth,
    );
  });
});

describe('simulationWarmup with batches (fresh-user trial: simulate --batch 2 --d 2 at λ = 0.9 sat 7 % low)', () => {
  it('spread over K = d: each server is an M/M/1 queue, so the warm-up is at least the M/M/1 one; K > 1 lengthens SQ(d)', () => {
    const mm1 = simulationWarmup(parseModel({ lambda: 0.9, d: 1 })).time;
    const spread = simulationWarmup(parseModel({ lambda: 0.9, d: 2, batch: 2, batchDispatch: 'spread' })).time;
    const sqd = simulationWarmup(parseModel({ lambda: 0.9, d: 2 })).time;
    expect(spread).toBeGreaterThanOrEqual(mm1);
    expect(spread).toBeGreaterThan(5 * sqd);
    expect(simulationWarmup(parseModel({ lambda: 0.9, d: 4, batch: 2, batchDispatch: 'whole' })).time).toBeGreaterThan(
      simulationWarmup(parseModel({ lambda: 0.9, d: 4 })).time,
    );
  });
});

describe('batch transient progress', () => {
  it('solveMeanFieldTransient passes onProgress to the batch ODE: fractions non-decreasing in [0, 1], ending at 1', () => {
    const seen: number[] = [];
    const model = parseModel({ lambda: 0.8, d: 2, batch: 2, batchDispatch: 'whole' });
    const r = solveMeanFieldTransient(model, [0, 5, 10], { onProgress: (f) => seen.push(f) });
    expect(r.solver).toBe('batch-ode');
    expect(seen.length).toBeGreaterThan(1);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
    expect(seen[0]).toBeGreaterThanOrEqual(0);
    expect(seen[seen.length - 1]).toBeCloseTo(1, 12);
  });
});

describe('batch size laws (BSQ, whole dispatch; model/batchLaw.ts)', () => {
  // M^X/M/1 (Gross & Harris, Fundamentals of Queueing Theory, §3.2 bulk input; from the PGF of the queue length):
  // E[Q] = ρ(E[X²] + E[X])/(2E[X](1 − ρ)); geometric X of mean m has E[X²] = 2m² − m, so E[Q] = ρm/(1 − ρ)
  const mx = (rho: number, ex: number, ex2: number) => (rho * (ex2 + ex)) / (2 * ex * (1 - rho));

  it('d = 1 is M^X/M/1: geometric batches give E[Q] = ρm/(1 − ρ), a pmf the general form, to 1e−9', () => {
    for (const [rho, m] of [
      [0.3, 1.5],
      [0.7, 2.5],
      [0.9, 4],
      [0.95, 10],
    ]) {
      const r = bsqFixedPoint(rho, 1, { kind: 'geometric', mean: m });
      expect(Math.abs(r.meanQueueLength / ((rho * m) / (1 - rho)) - 1)).toBeLessThan(1e-9);
      expect(Math.abs(r.meanResponseTime / (m / (1 - rho)) - 1)).toBeLessThan(1e-9); // Little: E[T] = E[Q]/λ
    }
    const p = [0.2, 0, 0.5, 0.3];
    const ex = p.reduce((s, x, k) => s + (k + 1) * x, 0);
    const ex2 = p.reduce((s, x, k) => s + (k + 1) ** 2 * x, 0);
    for (const rho of [0.5, 0.9]) {
      const r = solveMeanField(parseModel({ lambda: rho, d: 1, batch: `pmf:${p.join(',')}`, batchDispatch: 'whole' }));
      expect(Math.abs(r.meanQueueLength! / mx(rho, ex, ex2) - 1)).toBeLessThan(1e-9);
    }
  });

  it('a point mass is the fixed K: the model normalises pmf:0,0,1 to batch 3, and the law path gives the same bits', () => {
    expect(parseModel({ lambda: 0.8, d: 2, batch: 'pmf:0,0,1,0', batchDispatch: 'whole' })).toEqual(
      parseModel({ lambda: 0.8, d: 2, batch: 3, batchDispatch: 'whole' }),
    );
    const pointMass = { kind: 'pmf', p: [0, 0, 1] } as const;
    for (const [rho, d] of [
      [0.8, 2],
      [0.95, 3],
      [0.5, 1],
    ])
      expect(bsqFixedPoint(rho, d, pointMass)).toEqual(bsqFixedPoint(rho, d, 3));
    // the transient's law path (the model's normalisation bypassed) against the fixed-K path, bit for bit
    const fixed = parseModel({ lambda: 0.8, d: 2, batch: 3, batchDispatch: 'whole' });
    const times = [0, 1, 5];
    expect(batchTransient({ ...fixed, batchLaw: pointMass }, { times }).tail).toEqual(batchTransient(fixed, { times }).tail);
  });

  it('the BSQ transient with geometric batches reaches its fixed point from empty (busy fraction ρ)', () => {
    const model = parseModel({ lambda: 0.7, d: 2, batch: 'geom:2.5', batchDispatch: 'whole' });
    const fixed = bsqFixedPoint(0.7, 2, { kind: 'geometric', mean: 2.5 });
    const r = solveMeanFieldTransient(model, [0, 10, 150]);
    expect(r.solver).toBe('batch-ode');
    const tr = r.result as { tail: number[][]; meanQueueLength: number[] };
    expect(tr.tail[2][1]).toBeCloseTo(0.7, 6);
    for (let k = 1; k < 10; k++) expect(tr.tail[2][k]).toBeCloseTo(fixed.tail![k], 6);
    expect(tr.meanQueueLength[2]).toBeCloseTo(fixed.meanQueueLength, 4);
  });

  it('the event engine draws batch sizes: n = 1, d = 1 with geom:2.5 batches within CI of M^X/M/1', () => {
    const model = parseModel({ lambda: 0.6, d: 1, batch: 'geom:2.5', batchDispatch: 'whole' });
    const r = simulate(model, { n: 1, jobs: 60_000, replications: 6, seed: 4, warmupTime: 100 });
    const exact = 2.5 / (1 - 0.6); // E[T] = m/(1 − ρ)
    expect(Math.abs(r.meanResponseTime.mean - exact), `${r.meanResponseTime.mean} ± ${r.meanResponseTime.halfWidth}`).toBeLessThanOrEqual(
      1.3 * r.meanResponseTime.halfWidth,
    );
  });

  it('every event engine draws the sizes (the frame hands the job source to the dispatcher): M^X/M/1 under PS and SRPT', () => {
    // n = 1, d = 1, geometric X of mean 2.5, ρ = 0.6, exponential sizes: N jumps +X and drains at rate 1 under any order
    // that reads no sizes (PS: E[T] = m/(1 − ρ) = 6.25), and any work-conserving order has E[U] = ρm/(1 − ρ) = 3.75 (SRPT)
    const base = { lambda: 0.6, d: 1, batch: 'geom:2.5', batchDispatch: 'whole' } as const;
    const ps = simulate(parseModel({ ...base, discipline: 'ps' }), { n: 1, jobs: 60_000, replications: 6, seed: 5, warmupTime: 100 });
    expect(ps.engine).toBe('sharing');
    expect(Math.abs(ps.meanResponseTime.mean - 6.25), `${ps.meanResponseTime.mean} ± ${ps.meanResponseTime.halfWidth}`).toBeLessThanOrEqual(
      1.3 * ps.meanResponseTime.halfWidth,
    );
    const srpt = simulate(parseModel({ ...base, discipline: 'srpt' }), { n: 1, jobs: 60_000, replications: 6, seed: 5, warmupTime: 100 });
    expect(srpt.engine).toBe('priority');
    const u = srpt.meanWorkload!;
    expect(Math.abs(u.mean - 3.75), `${u.mean} ± ${u.halfWidth}`).toBeLessThanOrEqual(1.3 * u.halfWidth);
  });

  it('refusals in one line: a law with spread (SQ(d,K) needs a fixed K), a bad law, batch and batchLaw that disagree', () => {
    expect(() => parseModel({ lambda: 0.8, d: 3, batch: 'geom:2' })).toThrow(/^batch size law geom:2 needs batch dispatch whole/);
    expect(() => parseModel({ lambda: 0.8, d: 3, batch: 'pmf:0.5,0.6', batchDispatch: 'whole' })).toThrow(/must sum to 1/);
    expect(() => parseModel({ lambda: 0.8, d: 3, batch: 'geom:0.5', batchDispatch: 'whole' })).toThrow(/mean must be in \(1, 1000\]/);
    expect(() => parseModel({ lambda: 0.8, d: 3, batch: 3, batchLaw: { kind: 'geometric', mean: 2 }, batchDispatch: 'whole' })).toThrow(
      /batch 3 is not the mean of batchLaw geom:2/,
    );
    const m = parseModel({ lambda: 0.8, d: 3, batch: 'geom:2', batchDispatch: 'whole' });
    expect(parseModel(JSON.parse(JSON.stringify(m)))).toEqual(m); // a model read back from JSON
  });
});
