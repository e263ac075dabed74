/**
 * run and conjecture capped the one warm-up rule at 5000 time units by default (`maxWarmup`, whose default fed
 * `simulationWarmup`'s cap), and compare did for models without a refined term: at d = 1, λ = 0.99 the rule asks
 * 1τ = 39 799.7 from the fixed point (τ = 1/(1 − √λ)²), and the cells warmed 5000 with the cap named only in
 * results.json's warmupRule. Now the rule is uncapped everywhere (simulate and table were already); a maxWarmup the
 * file gives and that binds is said for that cell (report, --json, results.json, CSV) and quantity (conjecture).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { evaluateConjecture, parseConjecture, type SimulationRequest, type SimulationSummary } from '../../src/claims/index.ts';
import { expandGrid, parseExperiment } from '../../src/experiments/index.ts';
import { simulationWarmup } from '../../src/meanfield/warmup.ts';
import { parseModel } from '../../src/model/index.ts';
import { estimate } from '../stats/estimate.ts';
import { runCli } from '../cli/runCli.ts';

const MM1 = parseModel({ lambda: 0.99, d: 1 });
/** The one rule at n = 2 from the auto start (the fixed point at d = 1: its 1τ floor). */
const RULE = simulationWarmup(MM1, { start: 'auto', n: 2 });
const CAPPED =
  /^warm-up capped by (evaluation\.)?maxWarmup = 5000: the one warm-up rule asks 39799\.7 time units \(theory\.md §8\), so the replications warmed up 12\.6 % of it and the estimates may carry start bias/;

const grid = (extra: Record<string, unknown> = {}) => ({
  name: 'd1-cap',
  lambda: [0.99],
  d: [1],
  n: [2],
  selections: ['jsq'],
  disciplines: ['fifo'],
  service: ['exp'],
  jobs: 500,
  replications: 2,
  seed: 1,
  claims: [],
  ...extra,
});

describe('the one warm-up rule, uncapped, in run and conjecture', () => {
  it('the rule asks more than the old default cap here', () => {
    expect(RULE.time).toBeCloseTo(39799.7, 1);
    expect(RULE.time).toBeGreaterThan(5000);
    expect(RULE.uncappedTime).toBeUndefined();
  });

  it("expandGrid: a cell's warm-up is the rule's (no file cap), and a file's maxWarmup that binds is kept beside it", () => {
    const [cell] = expandGrid(parseExperiment(grid()), { start: 'auto' });
    expect(cell.warmupTime).toBe(RULE.time);
    expect(cell.warmupRule).not.toMatch(/capped/);
    expect(cell.uncappedWarmupTime).toBeUndefined();
    const [capped] = expandGrid(parseExperiment(grid({ maxWarmup: 5000 })), { start: 'auto' });
    expect(capped.warmupTime).toBe(5000);
    expect(capped.uncappedWarmupTime).toBe(RULE.time);
    // a cap that does not bind says nothing
    const [loose] = expandGrid(parseExperiment(grid({ maxWarmup: 1e6 })), { start: 'auto' });
    expect(loose.warmupTime).toBe(RULE.time);
    expect(loose.uncappedWarmupTime).toBeUndefined();
  });

  it('maxWarmup beside a warm-up the file gives has no effect: refused in one line (run and conjecture)', () => {
    expect(() => expandGrid(parseExperiment(grid({ warmup: 5, maxWarmup: 100 })))).toThrow(
      /entry "maxWarmup" = 100 has no effect: "warmup" = 5 gives every cell its warm-up; drop it/,
    );
    expect(() =>
      parseConjecture({ name: 'x', claim: 'T(jsq, fifo) > 1', grid: { lambda: [0.5], d: [2] }, evaluation: { warmup: 5, maxWarmup: 100 } }),
    ).toThrow(/"evaluation\.maxWarmup" = 100 has no effect: "evaluation\.warmup" = 5 gives every simulation its warm-up/);
  });

  it('evaluateConjecture: the simulation warms up the rule; a binding evaluation.maxWarmup is said beside each quantity', async () => {
    const spec = (evaluation: Record<string, unknown>) =>
      parseConjecture({
        name: 'd1',
        claim: 'T(random, fifo) > 50 and P95(random, fifo) > 1',
        grid: { lambda: [0.99], d: [1] },
        // 5000 jobs: 250 beyond p95 per replication, so no section warning of the percentile's own
        evaluation: { n: 2, jobs: 5000, replications: 2, prefer: 'simulation', start: 'auto', ...evaluation },
      });
    const seen: SimulationRequest[] = [];
    const fake = async (rs: readonly SimulationRequest[]): Promise<SimulationSummary[]> =>
      rs.map((r) => {
        seen.push(r);
        return {
          meanResponseTime: estimate(100, 1),
          meanSlowdown: estimate(100, 1),
          responseTimePercentiles: { p50: estimate(70, 1), p95: estimate(300, 1), p99: estimate(450, 1) },
        };
      });
    const free = await evaluateConjecture(spec({}), { simulate: fake });
    expect(seen[0].options.warmupTime).toBe(RULE.time);
    expect(seen[0].warnings).toBeUndefined();
    expect(free.points[0].warnings).toBeUndefined();
    const capped = await evaluateConjecture(spec({ maxWarmup: 5000 }), { simulate: fake });
    expect(seen[1].options.warmupTime).toBe(5000);
    const [t, p95] = capped.points[0].quantities;
    expect(t.warnings).toHaveLength(1);
    expect(t.warnings![0]).toMatch(CAPPED);
    expect(p95.warnings).toEqual(t.warnings); // every estimate of the run, the percentiles too
    expect(capped.points[0].warnings).toEqual([`T(random, fifo), P95(random, fifo): ${t.warnings![0]}`]);
  });
});

describe('run with a maxWarmup that binds (d = 1, λ = 0.99, n = 2)', () => {
  it('the report, its CSV, results.json, --json and the text say so for the cell', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-warmup-cap-'));
    const file = path.join(tmp, 'grid.json');
    writeFileSync(file, JSON.stringify(grid({ maxWarmup: 5000 })));
    const out = path.join(tmp, 'report');
    const r = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/warning: maxWarmup = 5000 cut the warm-up of 1 of 1 cells below the one warm-up rule's/);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/capped at maxWarmup = 5000 time units \(a cell whose warm-up the cap cut carries a warning\)/);
    expect(md).toMatch(/\| RANDOM \(d = 1\)\+FIFO \| [0-9.]+ ± [0-9.]+ \[w1\] \|/);
    expect(md).toMatch(new RegExp(`- \\[w1\\] ${CAPPED.source.slice(1)}`));
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8')) as {
      cells: { cell: { warmupTime: number; uncappedWarmupTime?: number }; result: { warnings?: string[] } }[];
    };
    expect(results.cells[0].cell.warmupTime).toBe(5000);
    expect(results.cells[0].cell.uncappedWarmupTime).toBe(RULE.time);
    expect(results.cells[0].result.warnings).toHaveLength(1); // said once, though both E[T] and E[T/S] carry it
    expect(results.cells[0].result.warnings![0]).toMatch(CAPPED);
    // (no slowdown figure here: E[T/S] = ∞ under FIFO with exponential sizes, E[1/S] = ∞)
    expect(readFileSync(path.join(out, 'figures', 'response-time.csv'), 'utf8')).toMatch(/warm-up capped by maxWarmup = 5000/);
    const j = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress', '--json']);
    expect(j.status, j.stderr).toBe(0);
    const [cell] = (JSON.parse(j.stdout) as { cells: { warmupTime: number; warnings?: string[] }[] }).cells;
    expect(cell.warmupTime).toBe(5000);
    expect(cell.warnings![0]).toMatch(CAPPED);
  }, 600_000);

  it('without maxWarmup the cell warms up the rule and carries no such warning', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-warmup-free-'));
    const file = path.join(tmp, 'grid.json');
    writeFileSync(file, JSON.stringify(grid()));
    const j = await runCli(['run', file, '--out', path.join(tmp, 'report'), '--threads', '1', '--no-progress', '--json']);
    expect(j.status, j.stderr).toBe(0);
    const [cell] = (JSON.parse(j.stdout) as { cells: { warmupTime: number; warnings?: string[] }[] }).cells;
    expect(cell.warmupTime).toBe(RULE.time);
    expect(cell.warmupTime).toBeGreaterThan(5000);
    expect(cell.warnings).toBeUndefined();
  }, 600_000);
});

describe('compare: a model without a refined term warms up the rule uncapped too', () => {
  it('random d = 1, erlang:2, λ = 0.9: the rule asks 5752.9 (it warmed 5000 under the old default cap)', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-warmup-compare-'));
    const r = await runCli([
      'compare',
      '--lambda',
      '0.9',
      '--d',
      '1',
      '--selection',
      'random',
      '--service',
      'erlang:2',
      '--n',
      '10',
      '--replications',
      '2',
      '--jobs',
      '500',
      '--threads',
      '1',
      '--out',
      path.join(tmp, 'out'),
      '--no-progress',
      '--json',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as { models: { warmupTime: number; warmupRule: string }[]; cells: { warmupTime: number }[] };
    const rule = simulationWarmup(parseModel({ lambda: 0.9, d: 1, selection: 'random', service: 'erlang:2' }));
    expect(rule.time).toBeCloseTo(5752.9, 1);
    expect(j.models[0].warmupTime).toBe(rule.time);
    expect(j.models[0].warmupRule).not.toMatch(/capped/);
    expect(j.cells[0].warmupTime).toBe(rule.time);
  }, 600_000);
});
