/**
 * Issue 21 item 1, compare's room: a model whose E[T] is infinite in theory (model/moments.ts `estimandFiniteness`:
 * JSQ(d)/FIFO with Pareto α = 1.5, E[S²] = ∞) gets "undefined (infinite)" in its cells, limit check, fits, summary
 * counts, tables, figures and results.json — never agrees or disagrees — and its mean field reads ∞; a finite model
 * (SRPT, same sizes) beside it is still judged.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runComparison, type ComparisonConfig, type ComparisonResult } from '../../src/compare/index.ts';
import { cellVerdict, judgeFamily, limitCheck, UNDEFINED_INFINITE } from '../../src/compare/verdict.ts';
import { fitInverseN, logLogSlope } from '../../src/compare/fit.ts';
import { comparisonFigures, disagreementLine, referenceJson, statusText } from '../../src/report/index.ts';
import { comparisonLatexTables } from '../../src/report/latex.ts';
import { infiniteEstimate, tInterval } from '../../src/stats/index.ts';
import { parseJsonText } from '../../src/io/index.ts';
import { runCli } from '../cli/runCli.ts';

// random(1): M/G/1 per server, so the SRPT limit is the exact M/G/1-SRPT formula (fast, no cavity)
const config = (discipline: 'fifo' | 'srpt', lambda = 0.5): ComparisonConfig => ({
  lambdas: [lambda],
  ds: [1],
  ns: [10, 20, 40],
  sampling: 'with-replacement',
  model: { selection: 'random', discipline, service: 'pareto:1.5' },
  jobs: 1500,
  replications: 4,
  seed: 7,
  warmupTolerance: 1e-3,
  warmupSafetyFactor: 2,
  maxLevel: 10,
  trajectory: null,
});

const finite = tInterval([2.0, 2.2, 2.1, 2.3]);
const infinite = infiniteEstimate(finite, 'E[S²] = ∞: FIFO waits the residual of the job in service');

describe('compare: infinite means are undefined, never judged (issue 21 item 1)', () => {
  it('cellVerdict, limitCheck, fits and the family: ∞ in, "undefined" out (no t test, no p, no fit of ∞)', () => {
    const reference = { value: 2, halfWidth: 0, numericalError: 0 };
    const v = cellVerdict(infinite, reference, { kind: 'fitted', c1: 1, c2: 0 }, 10);
    expect(v.status).toBe('undefined');
    expect(Number.isNaN(v.pValue) && Number.isNaN(v.tStatistic) && Number.isNaN(v.difference)).toBe(true);
    expect(v.rule).toMatch(/^undefined \(infinite\): E\[S²\] = ∞/);
    // an infinite reference (E[T]∞ = ∞) with a finite sample mean: undefined too (the old code compared ∞ with 2.1)
    const r = cellVerdict(finite, { ...reference, value: Infinity, infinite: 'E[T]∞ = ∞' }, { kind: 'fitted', c1: 1, c2: 0 }, 10);
    expect(r.status).toBe('undefined');
    // the family leaves it out and keeps its status
    const fam = judgeFamily([v, cellVerdict(finite, reference, { kind: 'exact' }, 10)], () => {
      throw new Error('no rerun expected');
    });
    expect(fam[0].verdict.status).toBe('undefined');
    expect(fam[0].verdict.adjustedPValue).toBeNull();
    expect(fam[1].verdict.status).toBe('agrees');
    // fits and slopes refuse ∞
    const pts = [10, 20, 40].map((n) => ({ n, value: Infinity, halfWidth: Infinity, replications: 4 }));
    expect(fitInverseN(pts)).toBeNull();
    expect(logLogSlope(pts.map((p) => ({ n: p.n, error: Number.NaN, halfWidth: Infinity })))).toBeNull();
    expect(limitCheck(null, { ...reference, value: Infinity, infinite: 'E[T]∞ = ∞' }).status).toBe('undefined');
    expect(limitCheck(null, reference, 'E[T]_n = ∞').status).toBe('undefined');
    expect(statusText('undefined')).toBe(UNDEFINED_INFINITE);
  });

  it('runComparison: FIFO pareto:1.5 is undefined everywhere with ∞ as its mean field; SRPT beside it is judged', () => {
    const fifo = runComparison(config('fifo'));
    const m = fifo.models[0];
    expect(m.reference.meanResponseTime).toBe(Infinity);
    expect(m.reference.infinite).toMatch(/E\[S²\] = ∞ \(pareto α = 1.5/);
    expect(m.limit.status).toBe('undefined');
    // d = 1 FIFO: E[T]∞ = ∞ is proven (meanFieldLimit 'infinite'), so its JSON is the ∞ object, here only
    const json = (referenceJson(m) as { meanResponseTime: unknown }).meanResponseTime;
    expect(json).toEqual({ mean: null, infinite: true, reason: m.reference.infinite });
    expect(m.fit).toBeNull();
    expect(m.fitThroughReference).toBeNull();
    expect(m.slope).toBeNull();
    expect(fifo.cells.map((c) => c.verdict.status)).toEqual(['undefined', 'undefined', 'undefined']);
    expect(fifo.cells.every((c) => c.simulation.meanResponseTime.infinite === true)).toBe(true);
    expect(fifo.family.judged).toBe(0);
    expect(fifo.notes.some((n) => /E\[T\] is infinite in theory .*"undefined \(infinite\)"/.test(n))).toBe(true);
    const srpt = runComparison(config('srpt', 0.6)); // (d, λ) names a model in a report: another λ to sit beside FIFO
    expect(Number.isFinite(srpt.models[0].reference.meanResponseTime)).toBe(true);
    expect(srpt.models[0].limit.status).toMatch(/^(agrees|disagrees)$/);
    expect(srpt.cells.every((c) => c.verdict.status !== 'undefined')).toBe(true);
    // one report holding both: the summary counts judge SRPT only and name FIFO's cells undefined
    const both: ComparisonResult = { ...srpt, models: [...srpt.models, m], cells: [...srpt.cells, ...fifo.cells] };
    const line = disagreementLine(both);
    expect(line).toMatch(/limit checks \d of 1,/);
    expect(line).toMatch(/undefined \(infinite\), E\[T\] = ∞ in theory: 3 cells, 1 limit check\.$/);
    // figures draw the finite model only and say why the other is missing; the CSV rows hold no NaN or Infinity
    const figures = comparisonFigures(both).filter((f) => f.name === 'convergence' || f.name === 'scaled-error');
    expect(figures).toHaveLength(2);
    for (const f of figures) {
      expect(f.caption).toMatch(/Not drawn: d = 1, λ = 0.5, where E\[T\] is infinite in theory/);
      expect(f.rows.length).toBeGreaterThan(0);
      expect(f.rows.every((row) => Object.values(row).every((x) => typeof x !== 'number' || !Number.isNaN(x)))).toBe(true);
    }
    expect(comparisonFigures(fifo).some((f) => f.name === 'convergence')).toBe(false);
    const tex = comparisonLatexTables(fifo);
    expect(tex).toContain('undefined (infinite)');
    expect(tex).toContain('$\\infty$');
  });

  it('tables.tex: E[T]∞ reads ∞ only where proven; finite (JSQ(3) pareto:1.9) or not settled (JSQ(2) pareto:1.5) as report.md', () => {
    // a fresh-user trial: `compare --service pareto:1.9 --d 3 --latex` printed E[T]∞ = $\infty$ in both tables while
    // report.md said "finite (E[T]_n = ∞ at every n: not compared)"; pareto:1.5, d = 2 ("not settled") printed $\infty$ too
    const run = (d: number, service: string) =>
      runComparison({
        ...config('fifo'),
        ds: [d],
        ns: [10, 20],
        jobs: 500,
        replications: 2,
        model: { selection: 'jsq', discipline: 'fifo', service },
      });
    const limitCells = (tex: string) =>
      tex
        .split('\n')
        .filter((l) => /^\d & 0\.5 & /.test(l))
        .map((l) => (l.split(' & ').length === 7 ? l.split(' & ')[4] : l.split(' & ')[2]));
    const finiteLimit = limitCells(comparisonLatexTables(run(3, 'pareto:1.9')));
    expect(finiteLimit).toEqual(['finite, not computed', 'finite, not computed', 'finite, not computed']);
    const unsettled = limitCells(comparisonLatexTables(run(2, 'pareto:1.5')));
    expect(unsettled).toEqual(['not settled', 'not settled', 'not settled']);
    // d = 1 FIFO: the limit is ∞ in theory, and stays $\infty$
    expect(limitCells(comparisonLatexTables(runComparison(config('fifo'))))).toEqual(Array(4).fill('$\\infty$'));
  });

  it('runComparison LWL(3) pareto:1.5 without replacement: E[T]_n may be ∞ (not settled), so no cell or limit is judged', () => {
    // a fresh-user trial: n = 3, 10 read "agrees" at 11.18 ± 22.86 and 14.16 ± 24.57 against the limit 1.5209 (λ 0.9);
    // LWL(3) over n = 3 servers is M/G/3 at load 2.7 > 2, whose E[W] = ∞ when E[S²] = ∞ (Scheller-Wolf & Sigman 1997)
    const r = runComparison({
      ...config('fifo'),
      ds: [3],
      ns: [3, 10, 20],
      sampling: 'without-replacement',
      model: { selection: 'lwl', discipline: 'fifo', service: 'pareto:1.5' },
    });
    const m = r.models[0];
    expect(Number.isFinite(m.reference.meanResponseTime)).toBe(true); // the limit is finite: E[S^{1+1/3}] < ∞
    expect(r.cells.map((c) => c.verdict.status)).toEqual(['not-judged', 'not-judged', 'not-judged']);
    expect(r.cells.every((c) => /not judged: E\[T\] may be infinite: E\[S²\] = ∞/.test(c.verdict.rule))).toBe(true);
    expect(m.limit.status).toBe('not-judged');
    expect(m.limit.rule).toMatch(/not settled for d ≥ 2 without replacement/);
    expect(r.family.judged).toBe(0);
  });

  it('supermarket compare --service pareto:1.5 (FIFO, tiny budget): exit 0, "undefined (infinite)", a note, ∞ in report and JSON', async () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-cmp-inf-')), 'r');
    const r = await runCli(
      `compare --service pareto:1.5 --discipline fifo --lambda 0.5 --d 2 --n 10,20,40 --jobs 1500 --replications 4 --no-trajectory --out ${out}`,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/3 undefined \(infinite: E\[T\] = ∞ in theory\)/);
    // JSQ(2) FIFO pareto:1.5: E[T]_n = ∞ with replacement, the limit not settled (BLP 2013 needs α ≥ 2): never "E[T]∞ = ∞"
    expect(r.stdout).toMatch(
      /E\[T\]_n = ∞ at every n in theory \(E\[S²\] = ∞ .*\); E\[T\]∞ not settled \(note below\) → undefined \(infinite\)/,
    );
    expect(r.stdout).not.toMatch(/E\[T\]∞ = ∞/);
    expect(r.stdout).toMatch(/note: .*E\[T\] is infinite in theory/);
    expect(r.stdout).not.toMatch(/Infinity|NaN/);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toMatch(
      /\| 2 \| 0\.5 \| 10 \| ∞ \(sample mean \d+\.\d+\) \| not settled \(E\[T\]∞ unproven, E\[T\]_n = ∞ at every n: not compared\) \|.*\*\*undefined \(infinite\)\*\*/,
    );
    expect(md).not.toContain('∞ (infinite in theory)');
    const rows = md.split('\n').filter((l) => l.startsWith('| 2 | 0.5 |')); // the model row and the three cells
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row).not.toMatch(/\*\*(agrees|disagrees)/);
    // E[T]∞ is not settled (not ∞): the reason there is no figure is the limit's status, as the reference carries it
    expect(md).toMatch(/## Figures\n\nNo figure of E\[T\]: for every model here E\[T\]∞ is not settled/);
    expect(existsSync(path.join(out, 'figures', 'convergence.csv'))).toBe(false);
    const results = parseJsonText(readFileSync(path.join(out, 'results.json'), 'utf8')) as ComparisonResult;
    // E[T]_n = ∞, but the limit is not settled: never the ∞ object (it once was, while report.md said "not settled")
    const raw = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
    const unsettled = { mean: null, unsettled: true, reason: expect.stringMatching(/not settled/) };
    expect(raw.models[0].reference.meanResponseTime).toEqual(unsettled);
    expect(raw.models[0].reference.meanQueueLength).toEqual(unsettled);
    expect(results.models[0].reference.infiniteAtEveryN).toMatch(/E\[S²\] = ∞/);
    expect(results.models[0].reference.infinite).toBeUndefined();
    expect(results.cells[0].simulation.meanResponseTime.mean).toBe(Infinity); // the one encoding, read back as +∞
    expect(results.cells[0].verdict.status).toBe('undefined');
  }, 600_000);

  it('compare LWL(3) pareto:1.5 with replacement: E[T]_n = ∞ by the all-draws-on-one-server path, the limit not printed as ∞', async () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-cmp-pin-')), 'r');
    const r = await runCli(
      `compare --selection lwl --service pareto:1.5 --lambda 0.5 --d 3 --n 10,20 --jobs 1000 --replications 2 --no-trajectory --out ${out}`,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/E\[T\]∞ = ∞/);
    expect(r.stdout).toMatch(
      /d = 3, λ = 0\.5: E\[T\]_n = ∞ at every n in theory \(.*all 3 draws hit one server.*--sampling without-replacement.*\); E\[T\]∞ finite, not computed/,
    );
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toContain('finite (E[T]_n = ∞ at every n: not compared)');
    expect(md).not.toContain('∞ (infinite in theory)');
  }, 600_000);

  it('fixed-point LWL(3) pareto:1.5: the finite limit, with a note that E[T]_n = ∞ at every n by the one-server path', async () => {
    const r = await runCli('fixed-point --selection lwl --service pareto:1.5 --lambda 0.5 --d 3');
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/E\[T\] = 1\.05\d+/);
    expect(r.stdout).toMatch(
      /note: E\[T\]_n = ∞ at every finite n \(.*all 3 draws hit one server.*\): E\[T\]_n does not converge to this limit/,
    );
    const distinct = await runCli('fixed-point --selection lwl --service pareto:1.5 --lambda 0.5 --d 3 --sampling without-replacement');
    expect(distinct.stdout).not.toMatch(/E\[T\]_n = ∞/);
  }, 600_000);
});

describe('compare LPW(2)+SPRPT (exp predictions), pareto:1.5, with replacement: the limit is "not settled", never "finite"', () => {
  it('E[T]_n = ∞ by the all-draws path; the limit named not settled with its reason (fixed-point refuses a number too)', async () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-cmp-lpw-')), 'r');
    const r = await runCli(
      `compare --selection lpw --discipline sprpt --prediction exp --service pareto:1.5 --lambda 0.5 --d 2 --n 10,20 --jobs 1000 --replications 2 --no-trajectory --out ${out}`,
    );
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).not.toMatch(/E\[T\]∞ itself is finite/);
    expect(r.stdout).toMatch(
      /d = 2, λ = 0\.5: E\[T\]_n = ∞ at every n in theory \(E\[S²\] = ∞ .*whether the mean-field E\[T\]∞ is finite is not settled.*\); E\[T\]∞ not settled \(note below\)/,
    );
    const fp = await runCli('fixed-point --selection lpw --discipline sprpt --prediction exp --service pareto:1.5 --lambda 0.5 --d 2');
    expect(fp.stderr).toMatch(/E\[T\]∞ not settled/);
  }, 600_000);
});
