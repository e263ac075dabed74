/**
 * simulate warns when a budget is below the heavy-tail rule of theory.md §8 (≥ 10⁵(1 + SCV) measured jobs and a window
 * ≥ 100τ per replication); run and conjecture, which simulate the same cells, said nothing of it: a run over JSQ(2) PS
 * with lognormal:2 sizes (SCV 53.6, every moment finite, so no moment warning either) at 2 × 1000 jobs printed its
 * intervals as plain 95 % intervals. Now both carry the warnings of the one function, `heavyTailBudgetWarnings`, per
 * cell and quantity; a conjecture's percentile also carries simulate's warning on its too-short sections.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { simulationWarmup } from '../../src/meanfield/warmup.ts';
import { parseModel } from '../../src/model/index.ts';
import { heavyTailBudgetWarnings, percentileSectionWarning, simulate } from '../../src/sim/index.ts';
import { runCli } from '../cli/runCli.ts';

const MODEL = parseModel({ lambda: 0.5, d: 2, discipline: 'ps', service: 'lognormal:2' });
const TAU = simulationWarmup(MODEL, { start: 'auto', n: 20 }).relaxationTime;
const BUDGET = heavyTailBudgetWarnings(MODEL.service, { jobs: 1000, unit: 'replication', systemRate: 0.5 * 20, relaxationTime: TAU });

describe('the heavy-tail budget: one function for simulate, run and conjecture', () => {
  it('lognormal:2 at 1000 jobs, n = 20, λ = 0.5: both rules missed; exponential sizes and a budget that meets them: none', () => {
    expect(BUDGET).toEqual([
      'heavy-tailed sizes (lognormal, SCV 53.6): 1000 jobs per replication is below the rule of theory.md §8, ≥ 10⁵(1 + SCV) = 5.5e+6; early intervals are optimistic',
      `heavy-tailed sizes: the measured window (100 time units) is below 100τ = ${(100 * TAU!).toPrecision(3)} (theory.md §8)`,
    ]);
    expect(heavyTailBudgetWarnings(parseModel({ lambda: 0.5, d: 2 }).service, { jobs: 10, unit: 'replication', systemRate: 10 })).toEqual(
      [],
    );
    expect(heavyTailBudgetWarnings(MODEL.service, { jobs: 6e6, unit: 'replication', systemRate: 10, relaxationTime: TAU })).toEqual([]);
  });

  it("simulate's warnings are that function's", () => {
    const r = simulate(MODEL, { n: 20, jobs: 1000, replications: 2, seed: 1, warmupTime: 10, relaxationTime: TAU });
    for (const w of BUDGET) expect(r.warnings).toContain(w);
  });

  it('run: the report marks the entries, and results.json, the CSVs and --json carry the warnings per cell', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-heavy-budget-'));
    const file = path.join(tmp, 'grid.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'lognormal-ps',
        lambda: [0.5],
        d: [2],
        n: [20],
        selections: ['jsq'],
        disciplines: ['ps'],
        service: ['lognormal:2'],
        jobs: 1000,
        replications: 2,
        seed: 1,
        claims: [],
      }),
    );
    const out = path.join(tmp, 'report');
    const r = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress']);
    expect(r.status, r.stderr).toBe(0);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/\| JSQ\+PS \| [0-9.]+ ± [0-9.]+ \[w1\]\[w2\] \|/);
    expect(md).toContain(`- [w1] ${BUDGET[0]}`);
    expect(md).toContain(`- [w2] ${BUDGET[1]}`);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as { cells: { result: { warnings?: string[] } }[] };
    expect(results.cells[0].result.warnings).toEqual(BUDGET);
    for (const csv of ['response-time.csv', 'slowdown.csv'])
      expect(readFileSync(path.join(out, 'figures', csv), 'utf8')).toContain(BUDGET[0]);
    const j = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress', '--json']);
    expect(j.status, j.stderr).toBe(0);
    expect((JSON.parse(j.stdout) as { cells: { warnings?: string[] }[] }).cells[0].warnings).toEqual(BUDGET);
  }, 600_000);

  it("conjecture: each simulated quantity carries them (the text, results.json); a percentile its sections' warning too", async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-heavy-budget-c-'));
    const file = path.join(tmp, 'claim.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'lognormal-ps',
        claim: 'T(jsq, ps) < P99(jsq, ps)',
        grid: { lambda: [0.5], d: [2], service: ['lognormal:2'] },
        evaluation: { n: 20, jobs: 1000, replications: 2, seed: 1, prefer: 'simulation' },
      }),
    );
    const out = path.join(tmp, 'out');
    const r = await runCli(['conjecture', file, '--out', out, '--threads', '1', '--no-progress']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toContain(`  warning: lognormal:2, d = 2, λ = 0.5: T(jsq, ps), P99(jsq, ps): ${BUDGET[0]}`);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as {
      points: { quantities: { key: string; warnings?: string[] }[] }[];
    };
    const [t, p99] = results.points[0].quantities;
    expect(t.warnings).toEqual(BUDGET);
    expect(p99.warnings).toEqual([percentileSectionWarning(1000, 'replication', 0.99), ...BUDGET]);
    expect(readFileSync(path.join(out, 'points.csv'), 'utf8')).toContain(BUDGET[1]);
  }, 600_000);
});

describe('compare carries the heavy-tail budget too', () => {
  // a fresh review: compare --service lognormal:2 --jobs 1000 judged its cell with no word of the budget simulate,
  // run and conjecture warn of
  it('compare --service lognormal:2 --jobs 1000: report.md and results.json name the cell and the rule; exponential sizes none', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-heavy-budget-compare-'));
    const args = ['--lambda', '0.5', '--d', '2', '--n', '20', '--jobs', '1000', '--replications', '2', '--threads', '1', '--no-progress'];
    const out = path.join(tmp, 'lognormal');
    const r = await runCli(['compare', ...args, '--service', 'lognormal:2', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    const [jobsRule] = heavyTailBudgetWarnings(parseModel({ lambda: 0.5, d: 2, service: 'lognormal:2' }).service, {
      jobs: 1000,
      unit: 'replication',
      systemRate: 10,
    });
    const note = `λ = 0.5, n = 20: ${jobsRule}; the verdict of this cell rests on this interval`;
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toContain(note);
    const notes = (JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as { notes: string[] }).notes;
    expect(notes.some((n) => n.endsWith(note))).toBe(true);
    const plain = path.join(tmp, 'exp');
    expect((await runCli(['compare', ...args, '--out', plain])).status).toBe(0);
    expect(readFileSync(path.join(plain, 'report.md'), 'utf8')).not.toContain('heavy-tailed sizes');
  }, 600_000);
});
