/**
 * A tester's find: `run` over JSQ(2) PS and SRPT with pareto:1.5 sizes printed "JSQ+PS | 1.361 ± 0.537" under
 * "Estimates carry 95% CIs", and results.json and the figure CSVs carried no warning, though E[S²] = ∞ makes Var[T]
 * infinite there, so the t interval is not a 95 % interval. simulate warns of it and compare notes it (model/moments.ts
 * `estimandFiniteness` warnings); now `run` marks the entries [wk] with the warning under the E[T] tables, says so
 * in the header, carries it per cell in results.json, `run --json` and the figures' rows, and the claims judged on those
 * intervals (`run`'s findings, `conjecture`) say their verdict rests on them.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { parseConjecture } from '../../src/claims/index.ts';
import { judgeExperimentClaims, type CellOutcome } from '../../src/experiments/index.ts';
import { experimentTables, measureFigure } from '../../src/report/index.ts';
import { experimentLatexTable } from '../../src/report/latex.ts';
import { ReasonNotes } from '../../src/report/reasons.ts';
import { runCli } from '../cli/runCli.ts';
import { heavyTailBudgetWarnings } from '../../src/sim/index.ts';
import { simulationWarmup } from '../../src/meanfield/warmup.ts';

const NOT_95 = /the interval of E\[T\] rests on Var\[T\] = ∞ \(T ≥ S and E\[S²\] = ∞, pareto α = 1\.5\): it is not a 95 % interval/;
const WARNING = 'the interval of E[T] rests on Var[T] = ∞ (T ≥ S and E[S²] = ∞, pareto α = 1.5): it is not a 95 % interval';
/**
 * What simulate warns of the tester's budget beside it (2 × 1000 jobs at n = 20, λ = 0.5: below the heavy-tail rule of
 * theory.md §8, `heavyTailBudgetWarnings`): run and conjecture carry it too, after the interval's own warning.
 */
const TESTER = parseModel({ lambda: 0.5, d: 2, discipline: 'ps', service: 'pareto:1.5' });
const BUDGET = heavyTailBudgetWarnings(TESTER.service, {
  jobs: 1000,
  unit: 'replication',
  systemRate: 0.5 * 20,
  relaxationTime: simulationWarmup(TESTER, { start: 'auto', n: 20 }).relaxationTime,
});
const ALL = [WARNING, ...BUDGET];

const estimate = (mean: number, h: number) => ({ mean, halfWidth: h, ci95: [mean - h, mean + h], replications: 3 });
const outcome = (key: string, discipline: string, mean: number, h: number): CellOutcome =>
  ({
    cell: {
      key,
      selection: 'jsq',
      discipline,
      policy: `JSQ+${discipline.toUpperCase()}`,
      service: 'pareto:1.5',
      prediction: 'none',
      memory: 'none',
      lambda: 0.5,
      d: 2,
      n: 20,
      replications: 3,
      jobs: 3000,
      seed: 1,
    },
    result: { meanResponseTime: estimate(mean, h), meanQueueLength: estimate(mean / 2, h / 2) },
  }) as unknown as CellOutcome;

describe('run: an interval simulate warns of is marked where it is printed', () => {
  it('experimentTables marks the E[T] entry [w1]; an unsettled entry (no interval) is not marked', () => {
    const notes = new ReasonNotes('w');
    const outcomes = [outcome('ps', 'ps', 1.361, 0.537), outcome('srpt', 'srpt', 1.2, 0.3)];
    const warnings = new Map([
      ['ps', [WARNING]],
      ['srpt', [WARNING]],
    ]);
    const md = experimentTables(outcomes, 'meanResponseTime', new Map([['srpt', 'E[T] may be infinite: why']]), undefined, {
      warnings,
      notes,
    });
    expect(md).toContain('| JSQ+PS | 1.361 ± 0.537 [w1] |');
    expect(md).toMatch(/\| JSQ\+SRPT \| not settled \(run's average 1\.200\) \|/);
    expect(notes.lines()).toEqual([`[w1] ${WARNING}`]);
  });

  it('measureFigure: the E[T] row carries `warnings`, the caption counts it; E[T/S] rows carry none', () => {
    const outcomes = [outcome('ps', 'ps', 1.361, 0.537)];
    const warnings = new Map([['ps', [WARNING]]]);
    const fig = measureFigure(outcomes, 'meanResponseTime', new Map(), warnings)!;
    expect(fig.rows[0]).toMatchObject({ value: 1.361, warnings: WARNING });
    expect(fig.caption).toMatch(/1 plotted interval carries a warning, e\.g\. not a 95% interval as Var\[T\] = ∞/);
    const plain = measureFigure(outcomes, 'meanResponseTime')!;
    expect(plain.rows[0].warnings).toBeUndefined();
    expect(plain.caption).not.toMatch(/warning/);
  });

  it('experimentLatexTable marks the entry and says the warning in the caption', () => {
    const t = experimentLatexTable('x', [outcome('ps', 'ps', 1.361, 0.537)], new Map(), new Map([['ps', [WARNING]]]));
    expect(t).toContain('$1.36 \\pm 0.54$$^{w1}$');
    expect(t).toMatch(/Warnings on the marked \$E\[T\]\$ intervals \(as simulate prints them\): \$\^\{w1\}\$ the interval of E\[T\]/);
    expect(t).toContain('not a 95 \\% interval');
    expect(t).not.toContain('?'); // α, ² spelled in LaTeX, not dropped
  });

  it('judgeExperimentClaims: a verdict on such intervals says so in its evidence and `warnings`; exp sizes do not', () => {
    const claim = parseConjecture(
      { name: 'srpt-ps', claim: 'T(jsq, srpt) < T(jsq, ps)', grid: { lambda: [0.5], d: [2], service: ['pareto:1.5'] } },
      'claim',
    );
    const model = (discipline: string, service: string) => parseModel({ lambda: 0.5, d: 2, selection: 'jsq', discipline, service });
    const outcomes = [outcome('ps', 'ps', 1.361, 0.537), outcome('srpt', 'srpt', 1.2, 0.3)];
    const [f] = judgeExperimentClaims(
      [claim],
      outcomes,
      new Map([
        ['ps', model('ps', 'pareto:1.5')],
        ['srpt', model('srpt', 'pareto:1.5')],
      ]),
    );
    expect(f.verdict).toBe('undecided'); // the verdict logic is unchanged
    expect(f.evidence).toMatch(/; caveat: T\(jsq, srpt\), T\(jsq, ps\): the interval of E\[T\] rests on Var\[T\] = ∞/);
    expect(f.evidence).toMatch(/it is not a 95 % interval; the verdict rests on these intervals$/);
    expect(f.warnings).toEqual([`T(jsq, srpt), T(jsq, ps): ${WARNING}`]);
    const [plain] = judgeExperimentClaims(
      [claim],
      outcomes,
      new Map([
        ['ps', model('ps', 'exp')],
        ['srpt', model('srpt', 'exp')],
      ]),
    );
    expect(plain.evidence).not.toMatch(/caveat/);
    expect(plain.warnings).toBeUndefined();
  });
});

describe("run and conjecture over JSQ(2) PS and SRPT, pareto:1.5, n = 20 (the tester's grid, small)", () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-run-warn-'));
  const claimFile = path.join(tmp, 'claim.json');
  writeFileSync(
    claimFile,
    JSON.stringify({
      name: 'srpt-ps',
      claim: 'T(jsq, srpt) < T(jsq, ps)',
      grid: { lambda: [0.5], d: [2], service: ['pareto:1.5'], prediction: ['exact'] },
      evaluation: { n: 20, jobs: 1000, replications: 2, seed: 1, prefer: 'simulation' },
    }),
  );

  it('run: report.md marks the entries and lists the warning; results.json, the figure CSV and --json carry it; findings say it', async () => {
    const file = path.join(tmp, 'grid.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'pareto-ps-srpt',
        lambda: [0.5],
        d: [2],
        n: [20],
        selections: ['jsq'],
        disciplines: ['ps', 'srpt'],
        service: ['pareto:1.5'],
        prediction: ['exact'],
        jobs: 1000,
        replications: 2,
        seed: 1,
        claims: ['claim.json'],
      }),
    );
    const out = path.join(tmp, 'report');
    const r = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress']);
    expect(r.status, r.stderr).toBe(0);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).not.toMatch(/Estimates carry 95% CIs\.\n/);
    expect(md).toMatch(/Estimates carry 95% CIs, except as marked: an entry marked \[wk\] carries warning k on its interval/);
    expect(md).toMatch(/\| JSQ\+PS \| [0-9.]+ ± [0-9.]+ \[w1\]\[w2\]\[w3\] \|/);
    expect(md).toMatch(/\| JSQ\+SRPT \| [0-9.]+ ± [0-9.]+ \[w1\]\[w2\]\[w3\] \|/);
    expect(md).toMatch(new RegExp(`- \\[w1\\] ${NOT_95.source}`));
    expect(BUDGET).toHaveLength(2); // jobs below 10⁵(1 + SCV) = ∞, and the window below 100τ
    expect(md).toContain(`- [w2] ${BUDGET[0]}`);
    expect(md).toContain(`- [w3] ${BUDGET[1]}`);
    // E[T/S] is not what Var[T] = ∞ is about: not marked [w1]; the budget is about both
    const slowdown = md.slice(md.indexOf('## Mean slowdown'));
    expect(slowdown).not.toMatch(/\[w1\]/);
    expect(slowdown).toMatch(/\| JSQ\+PS \| [0-9.]+ ± [0-9.]+ \[w2\]\[w3\] \|/);
    // the finding judged on those intervals says so
    expect(md).toMatch(/1 verdict rests on intervals that simulate warns of/);
    expect(md).toMatch(
      /\| srpt-ps: T\(jsq, srpt\) < T\(jsq, ps\) \| [^|]+ \| \*\*\w+\*\* \| [^|]*; caveat: T\(jsq, srpt\), T\(jsq, ps\): the interval of E\[T\]/,
    );
    const html = readFileSync(path.join(out, 'index.html'), 'utf8');
    expect(html).toMatch(/± [0-9.]+ \[w1\]/);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as {
      cells: { result: { warnings?: string[] } }[];
      findings: { evidence: string; warnings?: string[] }[];
    };
    for (const c of results.cells) expect(c.result.warnings).toEqual(ALL);
    expect(results.findings[0].warnings).toEqual(ALL.map((w) => `T(jsq, srpt), T(jsq, ps): ${w}`));
    const csv = readFileSync(path.join(out, 'figures', 'response-time.csv'), 'utf8');
    expect(csv.split('\n')[0].split(',')).toContain('warnings');
    expect(csv.split(WARNING).length - 1).toBe(2);
    const slowdownCsv = readFileSync(path.join(out, 'figures', 'slowdown.csv'), 'utf8');
    expect(slowdownCsv).not.toContain(WARNING);
    expect(slowdownCsv.split(BUDGET[0]).length - 1).toBe(2);
    // --json (the cells resume from the store): each cell's warnings, the finding's caveat
    const j = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress', '--json']);
    expect(j.status, j.stderr).toBe(0);
    const json = JSON.parse(j.stdout) as { cells: { warnings?: string[] }[]; findings: { evidence: string }[] };
    for (const c of json.cells) expect(c.warnings).toEqual(ALL);
    expect(json.findings[0].evidence).toMatch(/the verdict rests on these intervals$/);
  }, 600_000);

  it('conjecture: the text, report.md, points.csv and --json say the verdict rests on intervals that are not 95 %', async () => {
    const out = path.join(tmp, 'conjecture');
    const r = await runCli(['conjecture', claimFile, '--out', out, '--threads', '1', '--no-progress']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(new RegExp(`  warning: pareto:1\\.5, d = 2, λ = 0\\.5: T\\(jsq, srpt\\), T\\(jsq, ps\\): ${NOT_95.source}`));
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/At 1 of them the verdict rests on intervals that simulate warns of/);
    expect(md).toMatch(
      new RegExp(`<br>caveat: T\\(jsq, srpt\\), T\\(jsq, ps\\): ${NOT_95.source}; T\\(jsq, srpt\\), T\\(jsq, ps\\): heavy-tailed`),
    );
    expect(readFileSync(path.join(out, 'points.csv'), 'utf8')).toContain(WARNING);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as {
      points: { warnings?: string[]; quantities: { warnings?: string[] }[] }[];
    };
    expect(results.points[0].warnings).toEqual(ALL.map((w) => `T(jsq, srpt), T(jsq, ps): ${w}`));
    for (const q of results.points[0].quantities) expect(q.warnings).toEqual(ALL);
    const j = await runCli(['conjecture', claimFile, '--out', out, '--threads', '1', '--no-progress', '--json']);
    expect(j.status, j.stderr).toBe(0);
    const json = JSON.parse(j.stdout) as { points: { warnings?: string[]; quantities: { warnings?: string[] }[] }[] };
    expect(json.points[0].warnings).toEqual(ALL.map((w) => `T(jsq, srpt), T(jsq, ps): ${w}`));
    for (const q of json.points[0].quantities) expect(q.warnings).toEqual(ALL);
  }, 600_000);
});

describe("the E[T/S] interval under FIFO with E[S²] < ∞ = E[S³] (pareto:2.5): Var[T/S] = ∞, marked as E[T]'s is", () => {
  // an arrival that finds its server busy waits the residual R of the job in service, independent of its own size S:
  // E[(T/S)²] ≥ P(wait)·E[R²]·E[1/S²], E[R²] = E[S³]/(3E[S]) = ∞ (model/moments.ts `slowdownWarnings`)
  it('run: the E[T/S] entry is marked with its own warning; results.json and the slowdown CSV carry it', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-run-slowdown-warn-'));
    const file = path.join(tmp, 'grid.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'pareto-fifo',
        lambda: [0.5],
        d: [2],
        n: [20],
        selections: ['jsq'],
        disciplines: ['fifo'],
        service: ['pareto:2.5'],
        // ≥ 10⁵(1 + SCV) = 1.8e5 jobs and ≥ 100τ: the heavy-tail budget met, so only the moments' warnings
        jobs: 200_000,
        replications: 2,
        seed: 1,
      }),
    );
    const out = path.join(tmp, 'report');
    const r = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress']);
    expect(r.status, r.stderr).toBe(0);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    const slowdown = md.slice(md.indexOf('## Mean slowdown'));
    expect(slowdown).toMatch(/\| JSQ\+FIFO \| [0-9.]+ ± [0-9.]+ \[w2\] \|/);
    expect(md).toMatch(
      /- \[w2\] the interval of E\[T\/S\] rests on Var\[T\/S\] = ∞ \(FIFO .*pareto α = 2\.5 ≤ 3.*\): it is not a 95 % interval/,
    );
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as { cells: { result: { warnings?: string[] } }[] };
    expect(results.cells[0].result.warnings).toHaveLength(2);
    expect(results.cells[0].result.warnings![1]).toMatch(/^the interval of E\[T\/S\] rests on Var\[T\/S\] = ∞/);
    expect(
      readFileSync(path.join(out, 'figures', 'slowdown.csv'), 'utf8')
        .split('\n')[0]
        .split(','),
    ).toContain('warnings');
  }, 600_000);
});
