import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { lwlExponentialWorkloadCcdf } from '../../src/meanfield/index.ts';
import { isClassicModel } from '../../src/meanfield/index.ts';
import { cellSeed, runComparison, type CellResult } from '../../src/compare/index.ts';
import { testComparison } from './config.ts';
import { transientFigure } from '../../src/report/comparisonFigures.ts';

describe('runComparison (classic model: the refined term exists)', () => {
  const trajectory = { ns: [100], tEnd: 10, dt: 1, replications: 10 };
  const config = testComparison({ lambdas: [0.7], ns: [10, 100], jobs: 40_000, replications: 4, seed: 11, trajectory });
  const result = runComparison(config);

  it('runComparison(config) returns one cell per (d, λ, n) with the mean field and refined values beside the simulation', () => {
    expect(result.judgedBy).toBe('refined-mean-field');
    expect(result.cells.map((c) => c.key)).toEqual(['d2-lambda0.7-n10', 'd2-lambda0.7-n100']);
    const m = result.models[0];
    expect(m.reference.meanResponseTime).toBeCloseTo(1.6145, 4); // theory.md §10
    for (const c of result.cells) {
      expect(c.refined!.meanResponseTime).toBeCloseTo(m.reference.meanResponseTime + m.refined!.sumV / (0.7 * c.n), 12);
      expect(c.errors.meanResponseTime).toBeCloseTo(c.simulation.meanResponseTime.mean - m.reference.meanResponseTime, 12);
      expect(c.seed).toBe(cellSeed(11, c.key));
    }
  });

  it('runComparison(config) finds the finite-n simulation above the mean field and near the refined value at n = 100', () => {
    const c100 = result.cells[1];
    expect(c100.verdict.status).not.toBe('refined-out-of-range');
    // Bonferroni-free but wide: 4 half-widths plus the allowance
    expect(Math.abs(c100.verdict.difference)).toBeLessThan(4 * c100.verdict.halfWidth + c100.verdict.allowance + 1e-3);
    const c10 = result.cells[0];
    expect(c10.errors.meanResponseTime).toBeGreaterThan(0); // E[T_n] > E[T_∞] (theory.md §8)
  });

  it('runComparison(config) compares the simulated trajectory from empty with the ODE', () => {
    const tr = result.trajectories[0];
    expect(tr.solver).toBe('ODE');
    expect(tr.times).toHaveLength(11);
    expect(tr.meanField.tail[0][1]).toBe(0);
    expect(tr.simulated[0].tail[0][1].mean).toBe(0);
    const last = tr.times.length - 1;
    const end = tr.simulated[0].tail[last][1];
    // ten replications at n = 100: a loose check; the engine's own trajectory tests are the tight one
    expect(Math.abs(end.mean - tr.meanField.tail[last][1])).toBeLessThanOrEqual(end.halfWidth + 0.01);
  });

  it('runComparison(config, { cache }) reuses stored cells instead of simulating them again', () => {
    const stored = new Map<string, CellResult>(result.cells.map((c) => [c.key, c]));
    const seen: string[] = [];
    const again = runComparison(
      { ...config, trajectory: null },
      {
        cache: {
          get: (k) => {
            seen.push(k);
            return stored.get(k);
          },
          put: () => {
            throw new Error('nothing new should be stored');
          },
        },
      },
    );
    expect(seen).toEqual(['d2-lambda0.7-n10', 'd2-lambda0.7-n100']);
    expect(again.cells).toEqual(result.cells);
  });

  it('runComparison(config) rejects d > n and unstable λ before simulating', () => {
    expect(() => runComparison({ ...config, ds: [20] })).toThrow(/exceeds n = 10/);
    expect(() => runComparison({ ...config, lambdas: [1.1] })).toThrow(/unstable/);
    expect(() => runComparison({ ...config, replications: 1 })).toThrow(/replications/);
  });
});

describe('runComparison sizing (--resolve, --min-horizon) and the family record', () => {
  const base = testComparison({ lambdas: [0.7], ns: [100], jobs: 2_000, replications: 4, seed: 3, warmupTolerance: 1e-2, maxLevel: 10 });

  it('runComparison({ resolve }) says "not-resolvable" when the pilot\'s variance asks for more jobs than the budget', () => {
    // target 0.25·ΣV/(λn) = 0.25·0.849/70 ≈ 0.003; 4 × 2000 jobs give h ≈ 0.05: ~300× the jobs needed
    const r = runComparison({ ...base, resolve: { fraction: 0.25, maxJobs: 4_000 } });
    const c = r.cells[0];
    expect(c.resolution!.target).toBeCloseTo((0.25 * r.models[0].refined!.sumV) / 70, 12);
    expect(c.resolution!.status).toBe('not-resolvable');
    expect(c.verdict.status).toBe('not-resolvable');
    expect(c.simulation.jobs).toBe(2_000); // no sized run when the budget cannot reach the target
    expect(r.family.judged).toBe(0);
  });

  it('runComparison(config, { cache: a first run off by chance }) reruns it with the /confirm seed and 4× R, and keeps "agrees-not-confirmed"', () => {
    const config = { ...base, jobs: 20_000 };
    const honest = runComparison(config).cells[0];
    const e = honest.simulation.meanResponseTime;
    // the fake first run: the same cell shifted by 10 half-widths (what an unlucky run would look like)
    const shifted = { ...honest.simulation, meanResponseTime: { ...e, mean: e.mean + 10 * e.halfWidth } };
    const stored: { key: string }[] = [];
    const r = runComparison(config, {
      cache: {
        get: (k) => (k === honest.key ? { key: k, seed: honest.seed, simulation: shifted } : undefined),
        put: (c) => {
          stored.push(c);
        },
      },
    });
    const c = r.cells[0];
    expect(c.verdict.adjustedPValue!).toBeLessThan(0.05);
    expect(c.confirmation!.seed).toBe(cellSeed(3, `${honest.key}/confirm`));
    expect(c.confirmation!.simulation.replications).toBe(16);
    expect(c.confirmation!.verdict.degreesOfFreedom).toBe(15);
    expect(c.confirmation!.verdict.status).toBe('agrees');
    expect(c.verdict.status).toBe('agrees-not-confirmed');
    expect(stored.map((x) => x.key)).toEqual([`${honest.key}/confirm`]);
    expect(r.family).toMatchObject({ judged: 1, firstRunRejections: 1, confirmed: 0 });
  });

  it('runComparison({ horizon }) raises the jobs so jobs/(λn) ≥ 20τ, and flags cells below it otherwise', () => {
    const short = runComparison(base).cells[0];
    const tau = short.horizon.time / short.horizon.relaxations!;
    expect(short.horizon.time).toBeCloseTo(2_000 / 70, 12);
    expect(short.horizon.short).toBe(true); // 28.6 time units < 20τ ≈ 82
    const sized = runComparison({ ...base, horizon: { relaxations: 20, maxJobs: 1e6 } }).cells[0];
    expect(sized.simulation.jobs).toBe(Math.ceil(20 * tau * 70));
    expect(sized.horizon.short).toBe(false);
  });
});

describe('runComparison (LWL(d): judged without V)', () => {
  const lwl = { model: { selection: 'lwl' }, maxLevel: 10, trajectory: { ns: [200], tEnd: 12, dt: 1, replications: 4 } } as const;
  const config = testComparison({ lambdas: [0.7], ns: [50, 200], jobs: 150_000, replications: 6, seed: 5, ...lwl });
  const result = runComparison(config);
  const m = result.models[0];

  it('runComparison(LWL(2) FIFO exponential) takes the closed form −ln(1−λ²)/λ² as the exact reference (theory.md §4), with no refined term', () => {
    expect(result.judgedBy).toBe('without-v');
    expect(m.refined).toBeNull();
    expect(result.cells.every((c) => c.refined === null)).toBe(true);
    expect(m.reference.kind).toBe('exact');
    expect(m.reference.solver).toMatch(/closed form/);
    expect(m.reference.meanResponseTime).toBeCloseTo(-Math.log(1 - 0.49) / 0.49, 12);
    expect(m.reference.halfWidth).toBe(0);
  });

  it('runComparison(tiny LWL sweep) shows each cell within CI + |ĉ₁|/n (not judged: no predicted term), the limit judged, ĉ₁ > 0', () => {
    expect(result.cells.map((c) => c.n)).toEqual([50, 200]);
    for (const c of result.cells) {
      expect(c.verdict.status).toBe('not-judged');
      expect(Math.abs(c.verdict.difference)).toBeLessThanOrEqual(c.verdict.combinedHalfWidth + c.verdict.allowance);
    }
    expect(m.limit.status).toBe('agrees');
    expect(m.fit!.c1).toBeGreaterThan(0); // E[T_n] > E[T_∞] wherever observed (theory.md §8)
    // (at this budget ĉ₁ ≈ 0.6 ± 0.36: its sign is shown, its size is not resolved; the default report resolves c₁)
  });

  it('runComparison(LWL) compares the simulated workload ccdf with the closed form F̄(w) at every level', () => {
    const c = result.cells[1];
    const grid = c.simulation.workloadCcdf!.grid;
    expect(m.workload!.ccdf).toEqual(grid.map((w) => lwlExponentialWorkloadCcdf(0.7, 2, w)));
    expect(c.simulation.workloadCcdf!.ccdf[0].mean).toBeCloseTo(0.7, 1); // P(U > 0) = ρ
    // O(1/n) bias at n = 200 is well under 0.01 here; 3 half-widths cover the noise
    expect(c.errors.workloadSup!).toBeLessThan(3 * c.errors.workloadHalfWidth! + 0.01);
  });

  it('runComparison(LWL) sets the PIDE busy fraction from empty beside the simulated s_1(t)', () => {
    const tr = result.trajectories[0];
    expect(tr.solver).toBe('PIDE');
    expect(tr.meanField.tail[0][1]).toBe(0);
    const last = tr.times.length - 1;
    const e = tr.simulated[0].tail[last][1];
    expect(Math.abs(e.mean - tr.meanField.tail[last][1])).toBeLessThan(e.halfWidth + 0.03);
  });

  it("transientFigure names the PIDE it draws: LWL(d)'s, and LL(d,K)'s for batches (the figure's words, not the data)", () => {
    const words = (r: typeof result) => {
      const f = transientFigure(r);
      return `${JSON.stringify(f.spec.title)} ${f.caption}`;
    };
    expect(words(result)).toMatch(/LWL\(d\) busy fraction from empty/);
    const batched = { ...result, config: { ...result.config, model: { ...result.config.model, batch: 2 } } };
    expect(words(batched)).toMatch(/LL\(d,K\) busy fraction from empty/);
    expect(words(batched)).toMatch(/the LL\(d,K\) mean-field PIDE/);
    expect(words(batched)).not.toMatch(/LWL\(d\)/);
  });

  it('isClassicModel(model) is true only for JSQ(d), FIFO, exponential sizes of mean 1 (theory.md §6)', () => {
    expect(isClassicModel(parseModel({ lambda: 0.9, d: 2 }))).toBe(true);
    expect(isClassicModel(parseModel({ lambda: 0.9, d: 2, selection: 'lwl' }))).toBe(false);
    expect(isClassicModel(parseModel({ lambda: 0.9, d: 2, service: 'erlang:2' }))).toBe(false);
    expect(isClassicModel(parseModel({ lambda: 0.9, d: 2, discipline: 'srpt' }))).toBe(false);
  });
});
