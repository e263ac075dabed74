/**
 * One name at d = 1 wherever a policy is named: a rule that samples d servers at d = 1 without a memory is random
 * routing ("RANDOM (d = 1)", `selectionName`), and a grid with d = 1 says so. The trial found "JSQ(d)" in `table --d 1,2`'s
 * title with a plain "### d = 1", "JSQ+FIFO" in an experiment's d = 1 panel (grid.ts `policyLabel`), the explorer's
 * "random (d = 1)" of its own spelling, and claim reports naming T(jsq, fifo) at d = 1 as if it were JSQ.
 */
import { describe, expect, it } from 'vitest';
import { randomAtD, selectionFamilyName, selectionName } from '../../src/model/index.ts';
import { policyLabel } from '../../src/experiments/grid.ts';
import { quantityNamer, type GridPoint, type QuantityValue } from '../../src/claims/index.ts';
import { explorerFigures } from '../../src/explorer/figures.ts';
import { exploreView } from '../../src/explorer/view.ts';
import { runCli } from '../cli/runCli.ts';
import { parseModel, policyName, randomRoutingTwin, type Selection } from '../../src/model/index.ts';
import { simulate } from '../../src/sim/index.ts';
import { simulationWarmup, meanFieldCapabilities } from '../../src/meanfield/index.ts';
import { sweepModels } from '../../src/compare/plan.ts';
import { exactCell } from '../../src/compare/finiteNTable.ts';
import { testComparison } from '../compare/config.ts';

describe('one name at d = 1', () => {
  it('selectionFamilyName: the family, all d = 1, and d = 1 beside d ≥ 2 (the comparison report heading, the table title)', () => {
    expect(selectionFamilyName({ selection: 'jsq', d: 2 }, [2, 3])).toBe('JSQ(d)');
    expect(selectionFamilyName({ selection: 'jsq', d: 1 }, [1])).toBe('RANDOM (d = 1: random routing)');
    expect(selectionFamilyName({ selection: 'jsq', d: 1 }, [1, 2])).toBe('JSQ(d) (RANDOM at d = 1: random routing)');
    expect(selectionFamilyName({ selection: 'lwl', d: 1 }, [2, 1, 3])).toBe('LWL(d) (RANDOM at d = 1: random routing)');
    // a memory chooses at d = 1: the rule keeps its name (as selectionName)
    expect(selectionFamilyName({ selection: 'jsq', d: 1, memory: { kind: 'ip' } }, [1, 2])).toBe('JSQ(d)');
    expect(randomAtD({ selection: 'random', d: 1 })).toBe(false); // named RANDOM by its own name
    expect(selectionName({ selection: 'jsq', d: 1 })).toBe('RANDOM (d = 1)');
  });

  it('policyLabel names a sampling rule at d = 1 as random routing, other d and rules as before', () => {
    // the rule is random routing, so the label starts with it (it read "JSQ+FIFO (RANDOM at d = 1)": a JSQ label)
    expect(policyLabel('jsq', 'fifo', 'none', 'exp', 1, 'spread', 1)).toBe('RANDOM (d = 1)+FIFO');
    expect(policyLabel('lwl', 'srpt', 'none', 'det', 1, 'spread', 1)).toBe('RANDOM (d = 1)+SRPT (arrivals det)');
    expect(policyLabel('lpw', 'fifo', 'none', 'exp', 2, 'spread', 1)).toBe('RANDOM (d = 1)+FIFO (batch 2 (spread))');
    expect(policyLabel('jsq', 'fifo', 'none', 'exp', 1, 'spread', 2)).toBe('JSQ+FIFO');
    expect(policyLabel('jsq', 'fifo', 'ip', 'exp', 1, 'spread', 1)).toBe('JSQ+FIFO+IP');
    expect(policyLabel('random', 'fifo', 'none', 'exp', 1, 'spread', 1)).toBe('Random+FIFO');
    expect(policyLabel('jsq', 'fifo')).toBe('JSQ+FIFO'); // no d given: the rule for every d
  });

  it('a claim report names T(jsq, fifo) at d = 1 as RANDOM (d = 1), at d = 2 by its key', () => {
    const name = quantityNamer({ claim: 'T(jsq, fifo) < T(random, fifo)' });
    const point = (d: number) => ({ d, memory: 'none' }) as GridPoint;
    const q = (selection: 'jsq' | 'random', key: string) => ({ key, selection, discipline: 'fifo' }) as QuantityValue;
    expect(name(q('jsq', 'T(jsq, fifo)'), point(1))).toBe('T(jsq, fifo) = RANDOM (d = 1)');
    expect(name(q('jsq', 'T(jsq, fifo)'), point(2))).toBe('T(jsq, fifo)');
    expect(name(q('random', 'T(random, fifo)'), point(1))).toBe('T(random, fifo)');
  });

  it("the explorer's E[T]-against-λ figure names a sampling rule at d = 1 as the CLI does: one RANDOM (d = 1) curve", () => {
    const series = (input: Parameters<typeof exploreView>[0]) => {
      const f = explorerFigures(exploreView(input, 10)).find((x) => x.name === 'response-time-vs-load')!;
      return [...new Set(f.rows.map((r) => r.series))];
    };
    expect(series({ lambda: 0.5, d: 1, selection: 'lwl' })).toEqual(['RANDOM (d = 1), M/G/1', 'λ = 0.5']);
    expect(series({ lambda: 0.5, d: 2, selection: 'jsq' })).toEqual(['JSQ(2), mean field', 'RANDOM (d = 1), M/G/1', 'λ = 0.5']);
  });

  it('table --d 1,2: the title and the d = 1 section say random routing', async () => {
    const r = await runCli('table --d 1,2 --lambda 0.7 --n 10 --runs 2 --events-per-run 2000 --exact-max-n 0 --threads 1 --no-progress');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^# Finite-n table: JSQ\(d\) \(RANDOM at d = 1: random routing\), exponential sizes, FIFO/);
    expect(r.stdout).toContain('### RANDOM (d = 1), λ = 0.7: mean field E[Q] = 2.33333');
    expect(r.stdout).toContain('random routing, each server an M/M/1 queue at every n (theory.md §7), so E[Q]_n = λ/(1 − λ) = 2.33333');
    expect(r.stdout).toContain('### d = 2, λ = 0.7: mean field E[Q] = 1.13012');
    // the exact column at d = 1 is the closed form at every n, above --exact-max-n (it showed "—"); at d = 2 the chain's
    expect(r.stdout).toMatch(/^\| 10 \|.*\| 2\.33333 closed form \([+-][\d.]+\) \|$/m);
    expect(r.stdout).toMatch(/^\| 10 \| [^\n]*\| — \|$/m);
  }, 600_000);

  it('exactCell: the closed form at d = 1 at any n (the capability query says mg1), the chain only up to maxN otherwise', () => {
    for (const selection of ['jsq', 'lwl', 'random'] as const)
      expect(exactCell(parseModel({ lambda: 0.7, d: 1, selection }), 500, 0, 1000)).toEqual({
        meanQueueLength: expect.closeTo(0.7 / 0.3, 12),
        states: 0,
        errorBound: 0,
        closedForm: true,
      });
    expect(exactCell(parseModel({ lambda: 0.7, d: 2 }), 500, 5, 1000)).toBeNull();
  });
});

/**
 * One policy at d = 1 (issue: the trial's items 1–3): random routing spelt `random`, or jsq, lwl, lpw at d = 1 without a
 * memory, had two names ("RANDOM + FIFO", "RANDOM (d = 1) + FIFO"), two engines (race for jsq, event for the others,
 * so one seed gave two sets of numbers), two warm-ups (fixed point, empty) and two comparisons (jsq with its refined
 * term V = 0 and ODE transient, the others without, LWL's with "LWL(d) closed form"). Now one: JSQ(1)'s.
 */
describe('one policy at d = 1: random routing however spelt', () => {
  const spellings: Selection[] = ['random', 'jsq', 'lwl', 'lpw'];
  const model = (selection: Selection) => parseModel({ lambda: 0.7, d: 1, selection });

  it('one name: policyName and the family name are the same for every spelling', () => {
    expect(new Set(spellings.map((s) => policyName(model(s))))).toEqual(new Set(['RANDOM (d = 1) + FIFO']));
    expect(new Set(spellings.map((s) => selectionFamilyName(model(s), [1])))).toEqual(new Set(['RANDOM (d = 1: random routing)']));
    expect(randomRoutingTwin(model('jsq'))).toBeUndefined();
    expect(randomRoutingTwin(parseModel({ lambda: 0.7, d: 2, selection: 'lwl' }))).toBeUndefined();
    expect(randomRoutingTwin(parseModel({ lambda: 0.7, d: 1, memory: 'ism:2' }))).toBeUndefined(); // the memory chooses
  });

  it('one engine and one warm-up: the same seed gives the same numbers to the bit', () => {
    const runs = spellings.map((s) => {
      const warm = simulationWarmup(model(s), { start: 'auto', n: 10 });
      const r = simulate(model(s), { n: 10, jobs: 2_000, replications: 2, seed: 3, warmupTime: warm.time });
      return { start: warm.start, warm: warm.time, engine: r.engine, mean: r.meanResponseTime.mean, tail: r.tail.map((x) => x.mean) };
    });
    expect(runs[0]).toMatchObject({ engine: 'race', start: 'fixed-point' });
    for (const r of runs.slice(1)) expect(r).toEqual(runs[0]);
  });

  it("one capability answer and one comparison: JSQ(1)'s refined term (V = 0), ODE transient and cells", () => {
    const jsq = meanFieldCapabilities(model('jsq'));
    expect(jsq.refined.firstOrder.available).toBe(true);
    expect(jsq.transient).toMatchObject({ available: true, id: 'sqd-ode' });
    for (const s of spellings) expect(meanFieldCapabilities(model(s))).toEqual(jsq);
    for (const s of spellings) {
      const models = sweepModels(
        testComparison({ lambdas: [0.7], ns: [10], jobs: 100, replications: 2, seed: 1, ds: [1], model: { selection: s } }),
      );
      expect(models.map((m) => [m.selection, m.d])).toEqual([['jsq', 1]]);
    }
  });
});
