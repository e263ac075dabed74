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
    expect(policyLabel('jsq', 'fifo', 'none', 'exp', 1, 'spread', 1)).toBe('JSQ+FIFO (RANDOM at d = 1)');
    expect(policyLabel('lwl', 'srpt', 'none', 'det', 1, 'spread', 1)).toBe('LWL+SRPT (RANDOM at d = 1, arrivals det)');
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
  }, 600_000);
});
