import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/index.ts';
import { writeComparisonReport } from '../../src/report/index.ts';
import { refinementSection } from '../../src/report/refinementSection.ts';
import { reportComparison } from '../compare/config.ts';
import { testMeta } from './meta.ts';

const meta = testMeta();
const exact = { ns: [2, 3], truncationBound: 1e-4, maxStates: 2e5, jobs: 3_000, replications: 3 };
const config = reportComparison({ lambdas: [0.5], ns: [10, 20, 50], jobs: 3_000, replications: 3, seed: 2, exact });

describe('exact points and the second order in the comparison report', () => {
  const result = runComparison(config);

  it('writeComparisonReport shows exact and second-order columns, the exact section and c₂ beside ĉ₂', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-refinement-'));
    await writeComparisonReport(dir, result, meta);
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(md).toContain('### Exact small-n points');
    expect(md).toContain('| refined | refined 2nd order | exact (± bound) |');
    expect(md).toContain(result.cells[0].exact!.meanResponseTime.toFixed(5));
    expect(md).toContain('(vs exact)');
    expect(md).toContain('### Second order (1/n²)');
    expect(md).toContain(`| ${result.models[0].secondOrder!.c2.toFixed(2)} |`);
    // the convergence figure: exact diamonds at n = 2, 3, second-order rows at every cell, ticks down to n = 2
    const rows = JSON.parse(readFileSync(path.join(dir, 'figures', 'convergence.json'), 'utf8')) as {
      series: string;
      n: number;
      signedError: number;
    }[];
    const exact = rows.filter((r) => r.series === 'exact');
    expect(exact.map((r) => r.n)).toEqual([2, 3]);
    expect(exact[0].signedError).toBeCloseTo(result.cells[0].exact!.meanResponseTime - result.models[0].reference.meanResponseTime, 12);
    expect(rows.filter((r) => r.series === 'refined 2nd order').map((r) => r.n)).toEqual([2, 3, 10, 20, 50]);
    expect(rows.filter((r) => r.series === 'simulation').map((r) => r.n)).toEqual([2, 3, 10, 20, 50]);
    const svg = readFileSync(path.join(dir, 'figures', 'convergence.svg'), 'utf8');
    const ticks = (svg.match(/<g class="mark-text role-axis-label"[^]*?<\/g>/g) ?? []).join('');
    for (const n of [2, 3, 10, 50]) expect(ticks).toMatch(new RegExp(`<text[^>]*>${n}</text>`));
  });

  it('refinementSection is empty for a comparison without exact points or a 1/n² term', () => {
    const plain = { ...result, models: result.models.map((m) => ({ ...m, exact: null, secondOrder: null })) };
    expect(refinementSection(plain)).toBe('');
  });
});
