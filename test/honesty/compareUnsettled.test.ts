/**
 * compare over a grid where one model's mean-field limit is not settled (model/moments.ts `meanFieldUnsettled`,
 * theory.md §8): the model gets its own status 'not-settled' ("not settled", with the reason) in its cells, limit
 * check, counts, tables, figures and results.json; its cells are simulated and shown, judged against nothing; the
 * other models of the grid are judged as usual. Before, the whole grid stopped with "no mean-field reference (… not
 * settled …)".
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runComparison, type ComparisonConfig, type ComparisonResult } from '../../src/compare/index.ts';
import { cellVerdict, judgeFamily, limitCheck, NOT_SETTLED } from '../../src/compare/verdict.ts';
import { comparisonFigures, disagreementLine, statusText } from '../../src/report/index.ts';
import { comparisonLatexTables } from '../../src/report/latex.ts';
import { tInterval } from '../../src/stats/index.ts';
import { runCli } from '../cli/runCli.ts';

const config = (over: Partial<ComparisonConfig>): ComparisonConfig => ({
  lambdas: [0.5],
  ds: [2],
  ns: [10, 20],
  sampling: 'without-replacement',
  model: { selection: 'jsq', discipline: 'fifo', service: 'pareto:1.5' },
  jobs: 1000,
  replications: 2,
  seed: 7,
  warmupTolerance: 1e-3,
  warmupSafetyFactor: 2,
  maxLevel: 10,
  trajectory: null,
  ...over,
});

describe('compare: a limit not settled is "not settled", the rest of the grid judged as usual', () => {
  it('cellVerdict and limitCheck against an unsettled reference: status not-settled, no test, left out of the family', () => {
    const finite = tInterval([2.0, 2.2, 2.1, 2.3]);
    const reference = { value: 2, halfWidth: 0, numericalError: 0 };
    const v = cellVerdict(finite, { ...reference, value: Number.NaN, unsettled: 'E[T]∞ not settled: why' }, { kind: 'exact' }, 10);
    expect(v.status).toBe('not-settled');
    expect(Number.isNaN(v.pValue) && Number.isNaN(v.tStatistic) && Number.isNaN(v.difference)).toBe(true);
    expect(v.rule).toMatch(/^not settled: E\[T\]∞ not settled: why/);
    const fam = judgeFamily([v, cellVerdict(finite, reference, { kind: 'exact' }, 10)], () => {
      throw new Error('no rerun expected');
    });
    expect(fam[0].verdict.status).toBe('not-settled');
    expect(fam[0].verdict.adjustedPValue).toBeNull();
    expect(fam[1].verdict.status).toBe('agrees');
    const l = limitCheck(null, { ...reference, value: Number.NaN, unsettled: 'why' });
    expect(l.status).toBe('not-settled');
    expect(l.rule).toMatch(/no limit check; not settled: why/);
    expect(statusText('not-settled')).toBe(NOT_SETTLED);
  });

  it('runComparison JSQ FIFO pareto:1.5 without replacement, d = 1, 2: d = 1 undefined (∞), d = 2 not settled, no throw', () => {
    const r = runComparison(config({ ds: [1, 2] }));
    const [m1, m2] = r.models;
    expect(m1.limit.status).toBe('undefined');
    expect(m2.reference.unsettled).toMatch(/^E\[T\]∞ not settled: E\[S²\] = ∞ \(pareto α = 1.5/);
    expect(Number.isNaN(m2.reference.meanResponseTime)).toBe(true);
    expect(m2.limit.status).toBe('not-settled');
    const cells2 = r.cells.filter((c) => c.d === 2);
    expect(cells2.map((c) => c.verdict.status)).toEqual(['not-settled', 'not-settled']);
    // simulated and shown, but E[T]_n may be ∞ too (JSQ(2) FIFO without replacement, E[S²] = ∞): no estimate, so no
    // interval; the run's average kept apart (it gave 1.37 ± 0.9 as a plain estimate before)
    for (const c of cells2) {
      const e = c.simulation.meanResponseTime;
      expect(e.unsettled).toBe(true);
      expect(Number.isNaN(e.mean) && Number.isNaN(e.halfWidth) && e.ci95.every(Number.isNaN)).toBe(true);
      expect(Number.isFinite(e.sampleMean)).toBe(true);
    }
    expect(r.family.judged).toBe(0);
    expect(r.notes.some((n) => /JSQ\(2\).*E\[T\]∞ not settled.*"not settled": no limit/.test(n))).toBe(true);
    expect(disagreementLine(r)).toMatch(
      /undefined \(infinite\), E\[T\] = ∞ in theory: 2 cells, 1 limit check; not settled, .*: 2 cells, 1 limit \(no check\)\.$/,
    );
    const tex = comparisonLatexTables(r);
    expect(tex).toContain('not settled');
    expect(tex).not.toMatch(/NaN/);
    // the cells' E[T]_n: no estimate, so no "x ± h" (it printed "$-- \pm --$" once the interval was gone)
    expect(tex).toMatch(/not settled \(run's average \d+\.\d{4}\)/);
    expect(tex).not.toMatch(/-- \\pm --/);
  });

  it('beside a judged model: the judged one keeps its checks and its figure points; the unsettled one is named in the caption', () => {
    const unsettled = runComparison(
      config({ model: { selection: 'lpw', discipline: 'sprpt', prediction: 'exp', service: 'pareto:1.5' }, lambdas: [0.6] }),
    );
    expect(unsettled.models[0].limit.status).toBe('not-settled');
    // random(1) SRPT, pareto:1.5: the exact M/G/1-SRPT limit, judged
    const judged = runComparison(
      config({
        ds: [1],
        ns: [10, 20, 40],
        sampling: 'with-replacement',
        model: { selection: 'random', discipline: 'srpt', service: 'pareto:1.5' },
        replications: 4,
        jobs: 1500,
      }),
    );
    expect(judged.models[0].limit.status).toMatch(/^(agrees|disagrees)$/);
    const both: ComparisonResult = {
      ...judged,
      models: [...judged.models, ...unsettled.models],
      cells: [...judged.cells, ...unsettled.cells],
    };
    expect(disagreementLine(both)).toMatch(/limit checks \d of 1,.*; not settled, .*: 2 cells, 1 limit \(no check\)\.$/);
    const figures = comparisonFigures(both).filter((f) => f.name === 'convergence' || f.name === 'scaled-error');
    expect(figures).toHaveLength(2);
    for (const f of figures) {
      expect(f.caption).toMatch(/Not drawn: d = 2, λ = 0.6, where E\[T\]∞ is not settled \(E\[T\]∞ not settled: .*LPW\(2\)/);
      expect(f.rows.length).toBeGreaterThan(0);
      expect(f.rows.every((row) => row.d !== 2)).toBe(true);
      expect(f.rows.every((row) => Object.values(row).every((x) => typeof x !== 'number' || !Number.isNaN(x)))).toBe(true);
    }
  });

  it('supermarket compare LPW(d) SPRPT pareto:1.5 without replacement, d = 2, 3: exit 0, "not settled" in text, report and JSON', async () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-cmp-unsettled-')), 'r');
    const r = await runCli(
      `compare --selection lpw --discipline sprpt --prediction exp --service pareto:1.5 --sampling without-replacement --d 2,3 --lambda 0.5 --n 10,20 --jobs 1000 --replications 2 --no-trajectory --out ${out}`,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/4 not settled \(E\[T\]∞ neither proven finite nor ∞: shown, not judged\)/);
    expect(r.stdout).toMatch(/d = 2, λ = 0\.5: E\[T\]∞ not settled: E\[S²\] = ∞ .*LPW\(2\).*; cells shown, no limit check → not settled/);
    expect(r.stdout).not.toMatch(/undefined \(infinite\)|Infinity|NaN/);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).not.toMatch(/undefined \(infinite\)|infinite in theory for every model|NaN/);
    const rows = md.split('\n').filter((l) => /^\| [23] \| 0\.5 \| [12]0 \|/.test(l));
    expect(rows).toHaveLength(4);
    // the cell's E[T]_n is not settled either: the run's average, no ± (it read "1.3738 ± 0.9")
    for (const row of rows) expect(row).toMatch(/\| not settled \(run's average \d+\.\d+\) \| not settled \(.*\*\*not settled\*\*/);
    expect(md).toMatch(/No figure of E\[T\]: for every model here E\[T\]∞ is not settled/);
    const raw = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
    // the limit says what is known, one object (README "JSON formats of ∞"): a bare null would mean "no such value"
    const why = raw.models[0].reference.unsettled;
    expect(why).toMatch(/^E\[T\]∞ not settled/);
    expect(raw.models[0].reference.meanResponseTime).toEqual({ mean: null, unsettled: true, reason: why });
    expect(raw.models[0].reference.meanQueueLength).toEqual({ mean: null, unsettled: true, reason: why });
    expect(raw.models[0].limit.status).toBe('not-settled');
    expect(raw.cells.map((c: { verdict: { status: string } }) => c.verdict.status)).toEqual(Array(4).fill('not-settled'));
    // the cells' simulated E[T]_n: the same not-settled object as the limit's, with the run it came from, no interval
    for (const c of raw.cells as { simulation: { meanResponseTime: Record<string, unknown> } }[]) {
      const { sampleMean, ...rest } = c.simulation.meanResponseTime;
      expect(rest).toEqual({ mean: null, unsettled: true, reason: expect.stringMatching(/^E\[T\] may be infinite: /), replications: 2 });
      expect(Number.isFinite(sampleMean)).toBe(true);
    }
  }, 600_000);
});
