import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/index.ts';
import {
  cellsAgreeText,
  comparisonFigures,
  comparisonMarkdown,
  disagreementLine,
  statusText,
  writeComparisonReport,
} from '../../src/report/index.ts';
import { refinementSection } from '../../src/report/refinementSection.ts';
import { comparisonLatexTables } from '../../src/report/latex.ts';
import { estimateIntervalText, plusMinus } from '../../src/stats/index.ts';
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
    // the section states the rule its statuses come from: the family rule (Holm, reruns), not the bare interval, under
    // which a cell 0.83 outside h_n + bound read "agrees" (trial of 2026-12-03, d = 2, λ = 0.95, n = 2)
    expect(md).toMatch(/its status is the report's family rule \(Holm over all judged cells/);
    expect(md).not.toMatch(/judged against the exact value: \|x̂_n − E\[T\]_n\| ≤ h_n \+ bound/);
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

  it('a first-order refined value outside its trusted range is marked in every table, as the second order and table mark it', async () => {
    // n = 2, 3 at λ = 0.5: |ΣV|/(nΣπ) = 23 %, 15 % > 5 %; those cells are judged against the exact chain, so their rows
    // showed the refined value bare, nothing saying it lies outside the range where the 1/n expansion holds
    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-refinement-'));
    await writeComparisonReport(dir, result, meta);
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    const tex = comparisonLatexTables(result);
    const trusted = (n: number) => result.cells.find((c) => c.n === n)!.refined!;
    expect([2, 3, 10, 20, 50].map((n) => trusted(n).trusted)).toEqual([false, false, true, true, true]);
    for (const n of [2, 3]) {
      const v = trusted(n).meanResponseTime.toFixed(4);
      // the cells table and the exact points' "refined 1st / 2nd order" column
      expect(md.split(`${v} (outside range)`).length - 1, `n = ${n}`).toBe(2);
      expect(md).not.toMatch(new RegExp(`\\| ${v.replace('.', '\\.')} \\|`));
      expect(tex).toContain(`${v} (outside range)`);
    }
    for (const n of [10, 20, 50]) expect(md).not.toContain(`${trusted(n).meanResponseTime.toFixed(4)} (outside range)`);
  });

  it('simulated numbers follow the one rule of simulated numbers: E[T] ± h by plusMinus, percentile intervals by estimateIntervalText', async () => {
    // the cells table printed four decimals whatever h ("9.7148 ± 1.0063") beside run's "2.004 ± 0.082"
    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-refinement-'));
    await writeComparisonReport(dir, result, meta);
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    for (const c of result.cells) {
      const e = c.simulation.meanResponseTime;
      expect(md).toContain(`| ${plusMinus(e.mean, e.halfWidth)} |`);
      if (plusMinus(e.mean, e.halfWidth) !== `${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)}`)
        expect(md).not.toContain(`${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)}`);
    }
    const q = result.models.flatMap((m) => m.quantiles?.cells ?? []);
    expect(q.length).toBeGreaterThan(0);
    for (const c of q) expect(md).toContain(`| ${estimateIntervalText(c.simulated.mean, c.simulated.ci95)} |`);
  });

  it('the summary counts every check that disagrees (cells, c₁, c₂, busy fraction), and unjudged cells show t as —', () => {
    const m0 = result.models[0];
    // a report whose only disagreement is a c₂ check (today's summary said "0 disagree" above a bold "disagrees")
    const c2Bad = {
      ...result,
      cells: result.cells.map((c, i, all) =>
        i === all.length - 1
          ? {
              ...c,
              verdict: { ...c.verdict, status: 'refined-out-of-range' as const, tStatistic: 0, pValue: Number.NaN, adjustedPValue: null },
            }
          : { ...c, verdict: { ...c.verdict, status: c.verdict.status === 'disagrees' ? ('agrees' as const) : c.verdict.status } },
      ),
      models: [
        {
          ...m0,
          c1Check: m0.c1Check && { ...m0.c1Check, status: 'agrees' as const },
          secondOrder: { ...m0.secondOrder!, status: 'disagrees' as const },
          quantiles: null, // the quantile checks have their own test (test/compare/quantileCells.test.ts)
        },
      ],
      busyCheck: { ...result.busyCheck, status: 'agrees' as const },
    };
    expect(disagreementLine(c2Bad)).toMatch(
      /^Checks that disagree: 1 of \d+ judged \(cells 0 of \d+, c₁ checks 0 of \d, c₂ checks 1 of 1, busy-fraction check 0 of 1\)\.$/,
    );
    const busyBad = {
      ...c2Bad,
      models: [{ ...c2Bad.models[0], secondOrder: { ...m0.secondOrder!, status: 'not-resolvable' as const } }],
      busyCheck: { ...result.busyCheck, status: 'disagrees' as const },
    };
    expect(disagreementLine(busyBad)).toMatch(/Checks that disagree: 1 of .*c₂ checks 0 of 0, busy-fraction check 1 of 1/);
    const md = comparisonMarkdown(c2Bad, [], meta);
    expect(md).toContain('**Checks that disagree: 1 of');
    // a cell with no test (here the last, out of range) shows '—' for t, never 't = 0.0'
    const rows = md.split('\n').filter((l) => l.includes('refined-out-of-range') || l.includes('out of range'));
    expect(rows.length).toBe(1);
    expect(rows[0]).toContain('| — |');
    expect(rows[0]).not.toMatch(/\| 0\.0 \(/);
  });

  it('a second-order value outside the trusted range is marked "(outside range)" in the cell and exact tables', () => {
    expect(result.cells.every((c) => c.secondOrder!.trusted)).toBe(true); // d = 2, λ = 0.5: |ΣA|/(n|ΣV|) < 0.5 from n = 2
    const marked = {
      ...result,
      cells: result.cells.map((c) => (c.n === 2 ? { ...c, secondOrder: { ...c.secondOrder!, trusted: false } } : c)),
    };
    const md = comparisonMarkdown(marked, [], meta);
    expect(md).toContain(`${marked.cells.find((c) => c.n === 2)!.secondOrder!.meanResponseTime.toFixed(4)} (outside range)`);
    expect(md).toMatch(/Order 2 is trusted only where \|ΣA\|\/\(n\|ΣV\|\) ≤ 0\.5/);
  });

  it('statuses print as one display text everywhere, and each section is parted from the next heading', () => {
    const m0 = result.models[0];
    const words = {
      ...result,
      cells: result.cells.map((c, i) =>
        i === 0 ? { ...c, verdict: { ...c.verdict, status: 'not-judged' as const, pValue: Number.NaN, adjustedPValue: null } } : c,
      ),
      models: [{ ...m0, secondOrder: { ...m0.secondOrder!, status: 'not-resolvable' as const } }],
    };
    const md = comparisonMarkdown(words, [], meta);
    // the machine words stay in the JSON; the report says what the summary says
    expect(md).not.toMatch(/\*\*(not-judged|not-resolvable|agrees-not-confirmed|refined-out-of-range)\*\*/);
    expect(md).toContain(`**${statusText('not-resolvable')}**`);
    expect(md).toContain(`**${statusText('not-judged')}**`);
    expect(statusText('not-judged')).toBe('not judged');
    // every heading follows a blank line (else Markdown glues it to the table above)
    const lines = md.split('\n');
    const glued = lines.flatMap((l, i) => (/^#{1,4} /.test(l) && i > 0 && lines[i - 1] !== '' ? [`${lines[i - 1]} ⏎ ${l}`] : []));
    expect(glued).toEqual([]);
    // a missing slope: the same words in the table and in the convergence figure's subtitle
    const noSlope = { ...words, models: words.models.map((m) => ({ ...m, slope: null })) };
    expect(comparisonMarkdown(noSlope, [], meta)).toContain('| not resolved |');
    const convergence = comparisonFigures(noSlope).find((f) => f.name === 'convergence')!;
    expect(JSON.stringify(convergence.spec)).toContain('λ = 0.5: not resolved');
  });

  it('refinementSection is empty for a comparison without exact points or a 1/n² term', () => {
    const plain = { ...result, models: result.models.map((m) => ({ ...m, exact: null, secondOrder: null })) };
    expect(refinementSection(plain)).toBe('');
  });
});

// the trial of 2026-12-03: `compare --d 1`'s report said "JSQ(d) selection" where every other output says RANDOM (d = 1)
describe('a refined report at d = 1 names random routing', () => {
  it('says RANDOM (d = 1) alone, and beside JSQ(d) in a grid with d = 1 and 2', () => {
    const alone = runComparison(reportComparison({ ds: [1], lambdas: [0.5], ns: [10, 20], jobs: 2_000, replications: 3, seed: 4 }));
    expect(comparisonMarkdown(alone, [], meta)).toContain('\n\nRANDOM (d = 1: random routing) selection, FIFO,');
    const both = runComparison(reportComparison({ ds: [1, 2], lambdas: [0.5], ns: [10, 20], jobs: 2_000, replications: 3, seed: 4 }));
    expect(comparisonMarkdown(both, [], meta)).toContain('\n\nJSQ(d) (RANDOM at d = 1: random routing) selection, FIFO,');
  });
});

// the trial of 2026-12-03: compare's summary printed "1 cells agree"
it('counts agreeing cells in the singular for one: "1 cell agrees", "0 cells agree", "2 cells agree"', () => {
  expect([0, 1, 2].map(cellsAgreeText)).toEqual(['0 cells agree', '1 cell agrees', '2 cells agree']);
});
