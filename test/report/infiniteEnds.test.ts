/**
 * One text and one JSON form of +∞ in every room a percentile's open interval reaches (trial: compare printed the
 * open end "n/a" where simulate prints ∞, and the figure data wrote a bare null, read as "no interval").
 */
import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/index.ts';
import { comparisonMarkdown, estimateFields, fix, responseTimeFigure, sci } from '../../src/report/index.ts';
import { toCsv } from '../../src/explorer/figures.ts';
import { jsonText } from '../../src/io/json.ts';
import { reportComparison } from '../compare/config.ts';
import { testMeta } from './meta.ts';

describe('infinite interval ends in reports and figure data', () => {
  it('fix and sci write ±∞ as ∞ and −∞ (as the commands do), n/a only for NaN', () => {
    expect(fix(Infinity)).toBe('∞');
    expect(fix(-Infinity)).toBe('−∞');
    expect(sci(Infinity)).toBe('∞');
    expect(fix(Number.NaN)).toBe('n/a');
    expect(fix(2.5, 2)).toBe('2.50');
  });

  it('estimateFields writes an open end as null with ci95Infinite, an infinite quantity as null with infinite', () => {
    expect(estimateFields(5, [2, Infinity])).toEqual({ value: 5, lo: 2, hi: null, ci95Infinite: true });
    expect(estimateFields(5, [2, 7], 't')).toEqual({ t: 5, lo: 2, hi: 7 });
    expect(estimateFields(Infinity, [Infinity, Infinity])).toEqual({ value: null, lo: null, hi: null, infinite: true });
    // the CSV beside a figure: null as an empty cell, the flag as true
    expect(toCsv([estimateFields(5, [2, Infinity])])).toBe('value,lo,hi,ci95Infinite\n5,2,,true\n');
  });

  it('a compare whose percentile intervals are open prints ∞ in report.md and flags the end in the figure data', () => {
    // 2 replications × 300 jobs: p + h_F ≥ 1 at every percentile (t_{0.975,1} = 12.7), the intervals open above
    const result = runComparison(reportComparison({ lambdas: [0.9], ns: [10, 20], jobs: 300, replications: 2, seed: 1 }));
    const open = result.cells.flatMap((c) => Object.values(c.simulation.responseTimePercentiles!)).filter((e) => e.ci95[1] === Infinity);
    expect(open.length).toBeGreaterThan(0);
    const md = comparisonMarkdown(result, [], testMeta());
    expect(md).toMatch(/\[\d+(\.\d+)?, ∞\]/);
    expect(md).not.toMatch(/\[[^\]]*n\/a\]/);
    const figure = responseTimeFigure(result)!;
    const sim = figure.rows.filter((r) => String(r.series).startsWith('simulation'));
    expect(sim.filter((r) => r.ci95Infinite === true)).toHaveLength(open.length);
    for (const r of sim) {
      if (r.ci95Infinite === true) {
        expect(r.hi).toBeNull();
        expect(r.hiDrawn as number).toBeGreaterThanOrEqual(r.t as number); // drawn to the panel's right edge
      } else expect(typeof r.hi).toBe('number'); // a bare null never stands for ∞
    }
    const json = JSON.parse(jsonText(figure.rows)) as Record<string, unknown>[];
    expect(json.filter((r) => r.ci95Infinite === true && r.hi === null)).toHaveLength(open.length);
    expect(figure.caption).toContain('ci95Infinite');
  });
});
