import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { simulationWarmup } from '../../src/meanfield/index.ts';
import { runComparison } from '../../src/compare/index.ts';
import { cellTask } from '../../src/compare/plan.ts';
import { testComparison } from './config.ts';
import { comparisonMarkdown } from '../../src/report/index.ts';
import { testMeta } from '../report/meta.ts';

describe('runComparison({ start: fixed-point })', () => {
  const config = testComparison({ lambdas: [0.9], ns: [10, 1000], jobs: 40_000, replications: 4, seed: 3, start: 'fixed-point' });
  const result = runComparison(config);
  const model = parseModel({ lambda: 0.9, d: 2 });

  it("each cell starts at the fixed point after the one rule's warm-up for that start and n, and records it", () => {
    for (const c of result.cells) {
      const rule = simulationWarmup(model, { start: 'fixed-point', n: c.n, cap: Infinity });
      expect(c.simulation.start).toBe('fixed-point');
      expect(c.simulation.warmupTime).toBe(rule.time);
    }
    // shorter than the model's empty-start warm-up at n = 1000 (40 against 150), not at n = 10
    expect(result.cells[1].simulation.warmupTime).toBeLessThan(0.3 * result.models[0].warmupTime);
    expect(result.cells[0].simulation.warmupTime).toBeLessThanOrEqual(result.models[0].warmupTime);
  });

  it('the started cells agree with the refined mean field (n = 1000: 6 half-widths + allowance)', () => {
    const c = result.cells[1];
    expect(Math.abs(c.verdict.difference)).toBeLessThan(6 * c.verdict.halfWidth + c.verdict.allowance + 1e-3);
  });

  it('the empty start (default) keeps the model warm-up and records no start', () => {
    const p = { model, warm: { time: 150.3, rule: 'r', relaxationTime: 13.25 } };
    const empty = cellTask(testComparison({ lambdas: [0.9], ns: [100], jobs: 10, replications: 2, seed: 1 }), p, 'k', 100, 10, 2);
    expect(empty.options.warmupTime).toBe(150.3);
    expect(empty.options.start).toBeUndefined();
  });

  it('the fixed-point start of a model without an SQ(d) fixed point is refused before simulating', () => {
    const lwl = testComparison({
      lambdas: [0.7],
      ns: [20],
      jobs: 1000,
      replications: 2,
      seed: 1,
      start: 'fixed-point',
      model: { selection: 'lwl' },
    });
    expect(() => runComparison(lwl)).toThrow(/fixed-point start needs the SQ\(d\) model/);
  });
});

describe("the report prints the warm-ups the cells used, not the empty start's", () => {
  it('--start fixed-point: the per-model table gives the range over n (λ = 0.9: 18.6–147.1 at n = 1000, 10), not 150.3', () => {
    const config = testComparison({ lambdas: [0.9], ns: [10, 1000], jobs: 2_000, replications: 2, seed: 3, start: 'fixed-point' });
    const result = runComparison(config);
    const m = result.models[0];
    const used = result.cells.map((c) => c.simulation.warmupTime);
    expect(m.cellWarmups).toEqual({ min: Math.min(...used), max: Math.max(...used), starts: { 'fixed-point': 2 } });
    const md = comparisonMarkdown(result, [], testMeta());
    const row = md.split('\n').find((l) => l.startsWith('| 2 | 0.9 |'))!;
    expect(row).toContain(`| ${Math.min(...used).toFixed(1)}–${Math.max(...used).toFixed(1)} (fixed point) |`);
    expect(row).not.toContain(`| ${m.warmupTime.toFixed(1)} |`);
    expect(md).toMatch(/each started at the mean-field fixed point .* \(--start fixed-point: 2 of 2 cells;/);
  });
});

describe("start 'auto'", () => {
  it("takes the fixed point for SQ(d) models at each n, named in every cell, with the fixed-point rule's warm-up", () => {
    const result = runComparison(testComparison({ lambdas: [0.9], ns: [10, 1000], jobs: 2_000, replications: 2, seed: 3, start: 'auto' }));
    for (const c of result.cells) {
      expect(c.simulation.start).toBe('fixed-point');
      expect(c.simulation.warmupTime).toBe(simulationWarmup(model0, { start: 'fixed-point', n: c.n, cap: Infinity }).time);
    }
  });

  it('starts empty, and says so, where the model has no fixed point as a start state (LWL(2))', () => {
    const config = testComparison({
      lambdas: [0.7],
      ns: [20],
      jobs: 1000,
      replications: 2,
      seed: 1,
      start: 'auto',
      model: { selection: 'lwl' },
    });
    const result = runComparison(config);
    expect(result.cells[0].simulation.start).toBe('empty');
    expect(result.cells[0].simulation.warmupTime).toBe(result.models[0].warmupTime);
    expect(comparisonMarkdown(result, [], testMeta())).toMatch(
      /after its own warm-up from empty .*--start auto: no cell's model has its fixed point/,
    );
  });

  it('the empty start names itself in the cell too', () => {
    const result = runComparison(testComparison({ lambdas: [0.7], ns: [20], jobs: 1000, replications: 2, seed: 1 }));
    expect(result.cells[0].simulation.start).toBe('empty');
  });
});

const model0 = parseModel({ lambda: 0.9, d: 2 });
