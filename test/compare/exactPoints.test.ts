import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { cellSeed, runComparison } from '../../src/compare/index.ts';
import { EXACT_RULE, exactPoints, exactVerdict, hasExactSolver } from '../../src/compare/exactPoints.ts';
import { tInterval } from '../../src/stats/index.ts';
import { refinementSection } from '../../src/report/refinementSection.ts';
import { testComparison } from './config.ts';

describe('exact points in the comparison', () => {
  const exact = { ns: [2, 3], truncationBound: 1e-5, maxStates: 2e5, jobs: 20_000, replications: 4 };
  const base = testComparison({ lambdas: [0.5], ns: [10, 20], jobs: 4_000, replications: 3, seed: 5, exact });

  it('runComparison(exact n = 2, 3) adds cells at n = 2, 3 with the exact E[T] (1.59656 with replacement at λ = 0.5, d = 2, n = 2)', () => {
    const r = runComparison(base);
    expect(r.cells.map((c) => c.n)).toEqual([2, 3, 10, 20]);
    const [c2, c3] = r.cells;
    expect(c2.exact!.meanResponseTime).toBeCloseTo(1.59656, 4);
    expect(c2.key).toBe('exact-d2-lambda0.5-n2');
    expect(c2.seed).toBe(cellSeed(5, c2.key));
    expect(c2.simulation.jobs).toBe(20_000);
    expect(c3.exact!.meanResponseTime).toBeLessThan(c2.exact!.meanResponseTime);
    expect(c3.exact!.meanResponseTime).toBeGreaterThan(r.models[0].reference.meanResponseTime);
    for (const c of [c2, c3]) {
      expect((c.verdict as { judgedAgainst?: string }).judgedAgainst).toBe('exact');
      expect(c.verdict.difference).toBeCloseTo(c.simulation.meanResponseTime.mean - c.exact!.meanResponseTime, 12);
    }
    expect(r.cells[2].exact ?? null).toBeNull();
    // the fits and slopes use the sweep's n only
    expect(r.models[0].fit?.nUsed).toEqual([10, 20]);
    expect(r.models[0].exact!.points.map((x) => x.n)).toEqual([2, 3]);
  });

  it('runComparison(without replacement, exact n = 2) gives 1.42632 at λ = 0.5, d = 2', () => {
    const r = runComparison({ ...base, sampling: 'without-replacement', exact: { ...base.exact!, ns: [2] } });
    expect(r.cells[0].exact!.meanResponseTime).toBeCloseTo(1.42632, 4);
  });

  it('runComparison(exact n in the sweep) judges the sweep cell itself against the exact value, simulating nothing extra', () => {
    const r = runComparison({ ...base, ns: [3, 10], exact: { ...base.exact!, ns: [3] } });
    expect(r.cells.map((c) => c.key)).toEqual(['d2-lambda0.5-n3', 'd2-lambda0.5-n10']);
    expect(r.cells[0].exact!.n).toBe(3);
    expect(r.cells[0].verdict.rule).toBe(EXACT_RULE);
  });

  it('exactPoints skips an n below d and an n over the state budget, with the reason', () => {
    const m = parseModel({ lambda: 0.9, d: 3, sampling: 'with-replacement' });
    const { points, skipped } = exactPoints(m, [2, 3, 5], { truncationBound: 1e-4, maxStates: 1e4 });
    expect(points).toEqual([]);
    expect(skipped.map((s) => s.n)).toEqual([2, 3, 5]);
    expect(skipped[0].reason).toMatch(/n = 2 < d = 3/);
    expect(skipped[1].reason).toMatch(/state space too large/);
  });

  it('hasExactSolver at d ≥ 2 is true for JSQ(d) and random FIFO exponential only (random: the M/G/1 value)', () => {
    expect(hasExactSolver(parseModel({ lambda: 0.5, d: 2 }))).toBe(true);
    expect(hasExactSolver(parseModel({ lambda: 0.5, d: 2, selection: 'random' }))).toBe(true);
    expect(hasExactSolver(parseModel({ lambda: 0.5, d: 2, selection: 'lwl' }))).toBe(false);
    expect(hasExactSolver(parseModel({ lambda: 0.5, d: 2, discipline: 'sjf' }))).toBe(false);
  });

  it('exactVerdict agrees within h_n + the truncation bound and disagrees just outside it', () => {
    const point = {
      n: 2,
      solver: 'occupancy-chain' as const,
      meanResponseTime: 1.5,
      meanQueueLength: 0.75,
      truncationBound: 0.01,
      errorEstimate: 0.005,
      K: 20,
      states: 231,
      seconds: 0,
    };
    const sim = tInterval([1.55, 1.56, 1.54, 1.55]);
    const v = exactVerdict(sim, point);
    expect(v.difference).toBeCloseTo(0.05, 12);
    expect(v.combinedHalfWidth).toBeCloseTo(sim.halfWidth + 0.01, 12);
    expect(v.status).toBe('disagrees'); // h ≈ 0.013: 0.05 > 0.013 + 0.01
    expect(exactVerdict(sim, { ...point, truncationBound: 0.05 }).status).toBe('agrees');
    expect(exactVerdict(sim, { ...point, truncationBound: 1e-6 }).status).toBe('disagrees');
  });
});

describe('random routing (d = 1, random selection): the M/G/1 value is the exact point at every n', () => {
  const opts = { truncationBound: 1e-4, maxStates: 2e5 };
  const at = (input: Record<string, unknown>, ns = [1, 2, 10, 100]) => exactPoints(parseModel({ d: 1, ...input }), ns, opts);

  it('FIFO: Pollaczek–Khinchine E[S] + λE[S²]/(2(1 − ρ)), exponential and Erlang-2, at every n with no state budget', () => {
    // exponential, E[S²] = 2: 1 + 0.7·2/(2·0.3) = 1/(1 − 0.7)
    const exp = at({ lambda: 0.7, service: 'exponential' });
    // Erlang-2 of mean 1, E[S²] = 1 + 1/2: 1 + 0.7·1.5/(2·0.3) = 2.75
    const erl = at({ lambda: 0.7, service: 'erlang:2' });
    for (const [r, m2] of [
      [exp, 2],
      [erl, 1.5],
    ] as const) {
      expect(r.skipped).toEqual([]);
      expect(r.points.map((x) => x.n)).toEqual([1, 2, 10, 100]);
      for (const x of r.points) {
        expect(x.solver).toBe('mg1');
        expect(x.meanResponseTime).toBeCloseTo(1 + (0.7 * m2) / (2 * 0.3), 9);
        expect(x.meanQueueLength).toBeCloseTo(0.7 * x.meanResponseTime, 9);
        expect(x.infinite).toBeUndefined();
      }
    }
    // the n-server chain agrees where both exist (random FIFO exponential at n = 2): the same independent M/M/1 queues
    const chain = exactPoints(parseModel({ lambda: 0.7, d: 2, selection: 'random' }), [2], opts);
    expect(chain.points[0].solver).toBe('mg1');
    expect(chain.points[0].meanResponseTime).toBeCloseTo(1 / 0.3, 9);
  });

  it('PS: E[S]/(1 − ρ) for any size law, and random selection at d = 2 the same (one server chosen uniformly)', () => {
    for (const service of ['exponential', 'hyperexp:4', 'pareto:1.5']) {
      for (const model of [{ service }, { service, d: 2, selection: 'random' }]) {
        const r = at({ lambda: 0.6, discipline: 'ps', ...model }, [2, 50]);
        expect(r.points.map((x) => x.meanResponseTime)).toEqual([1 / 0.4, 1 / 0.4].map((v) => expect.closeTo(v, 8)));
      }
    }
    expect(hasExactSolver(parseModel({ lambda: 0.6, d: 1, discipline: 'srpt', service: 'weibull:0.5' }))).toBe(true);
    expect(hasExactSolver(parseModel({ lambda: 0.6, d: 1, discipline: 'las', service: 'lognormal:1' }))).toBe(true);
  });

  it('E[S²] = ∞ with FIFO: the exact point is ∞ with the reason, and a cell against it is not judged (undefined)', () => {
    const r = at({ lambda: 0.7, service: 'pareto:1.5' }, [2, 10]);
    for (const x of r.points) {
      expect(x.meanResponseTime).toBe(Infinity);
      expect(x.infinite).toMatch(/E\[S²\]/);
    }
    const v = exactVerdict(tInterval([3, 4, 5, 6]), r.points[0]);
    expect(v.status).toBe('undefined');
  });

  it('runComparison at d = 1 judges every sweep cell against the M/G/1 value, without config.exact, simulating nothing extra', () => {
    const r = runComparison(
      testComparison({
        ds: [1],
        model: { discipline: 'ps', service: 'erlang:2' },
        lambdas: [0.5],
        ns: [2, 10],
        jobs: 4_000,
        replications: 3,
        seed: 3,
      }),
    );
    expect(r.cells.map((c) => c.n)).toEqual([2, 10]);
    expect(r.cells.every((c) => !c.key.startsWith('exact-'))).toBe(true);
    for (const c of r.cells) {
      expect(c.exact!.meanResponseTime).toBeCloseTo(1 / 0.5, 8);
      expect((c.verdict as { judgedAgainst?: string }).judgedAgainst).toBe('exact');
      expect(c.verdict.rule).toBe(EXACT_RULE);
    }
    // the report names the M/G/1 value, not the n-server chain, and shows no K or states for it
    const md = refinementSection(r);
    expect(md).toContain('### Exact points');
    expect(md).toContain('every server is an M/G/1 queue at every n');
    expect(md).not.toContain('n-server chain');
    expect(md).toMatch(/\| 1 \| 0\.5 \| 2 \| 2\.00000 \| [^|]+ \| – \| – \|/);
  });
});
