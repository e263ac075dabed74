/**
 * run: a cell whose E[T] is not settled (model/moments.ts `meanResponseTimeUnsettled`) reads "not settled" in its
 * tables, so its figures draw no point for it either (they drew the run's average with an interval that means
 * nothing): the row stays as data, value null with `unsettled: true`, the reason and the run's average, and the
 * caption says why it is missing. A settled cell beside it is drawn as before.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CellOutcome } from '../../src/experiments/index.ts';
import { measureFigure } from '../../src/report/index.ts';
import { runCli } from '../cli/runCli.ts';

describe('run figures: a cell whose E[T] is not settled is no point, and the caption says so', () => {
  it('measureFigure: the unsettled cell is a data row (value null, unsettled true), filtered from the drawing', () => {
    const outcome = (key: string, policy: string): CellOutcome =>
      ({
        cell: { key, service: 'pareto:1.5', d: 2, n: 20, prediction: 'exp', policy, lambda: 0.5, seed: 1 },
        result: { meanResponseTime: { mean: 2, halfWidth: 0.5, ci95: [1.5, 2.5], standardError: 0.2, replications: 3 } },
      }) as unknown as CellOutcome;
    const outcomes = [outcome('a', 'LPW+SPRPT'), outcome('b', 'JSQ+FIFO')];
    const fig = measureFigure(outcomes, 'meanResponseTime', new Map([['a', 'E[T] may be infinite: why']]))!;
    const [a, b] = fig.rows;
    expect(a).toMatchObject({ value: null, lo: null, hi: null, unsettled: true, reason: 'E[T] may be infinite: why', sampleMean: 2 });
    expect(b).toMatchObject({ value: 2, lo: 1.5, hi: 2.5 });
    expect(JSON.stringify(fig.spec)).toContain('datum.unsettled !== true');
    expect(fig.caption).toMatch(/1 cell is not plotted: E\[T\] is not settled there/);
    // nothing settled to draw: no figure (the tables say "not settled"), never an empty frame
    expect(measureFigure([outcomes[0]], 'meanResponseTime', new Map([['a', 'why']]))).toBeNull();
  });

  it('run LPW(2)+SPRPT pareto:1.5 without replacement, exp and exact predictions (2 cells): exp not drawn, exact drawn', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-run-unsettled-fig-'));
    const file = path.join(tmp, 'grid.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'lpw-unsettled-figure',
        lambda: [0.5],
        d: [2],
        n: [20],
        selections: ['lpw'],
        disciplines: ['sprpt'],
        service: ['pareto:1.5'],
        prediction: ['exp', 'exact'],
        sampling: 'without-replacement',
        jobs: 1000,
        replications: 2,
        seed: 1,
        claims: [],
      }),
    );
    const out = path.join(tmp, 'report');
    const r = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress']);
    expect(r.status, r.stderr).toBe(0);
    for (const name of ['response-time', 'slowdown']) {
      const rows = JSON.parse(readFileSync(path.join(out, 'figures', `${name}.json`), 'utf8')) as Record<string, unknown>[];
      const exp = rows.find((x) => String(x.prediction).includes('exp'))!;
      expect(exp.value, name).toBeNull();
      expect(exp.unsettled, name).toBe(true);
      expect(exp.reason).toMatch(/not settled for d ≥ 2 without replacement/);
      expect(Number.isFinite(exp.sampleMean)).toBe(true);
      const exact = rows.find((x) => String(x.prediction).includes('exact'))!;
      expect(Number.isFinite(exact.value), name).toBe(true);
      expect(exact.unsettled).toBeUndefined();
    }
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/1 cell is not plotted: E\[T\] is not settled there/);
  }, 600_000);
});

describe('run with no finite mean to draw: the Figures section says why, never an empty heading', () => {
  // a fresh-user trial: `run` over JSQ FIFO pareto:1.5 and pareto:1.9 at d = 1, 2, 3 (every E[T] and E[T/S] ∞ in theory)
  // wrote "## Figures" followed by nothing
  it('run JSQ FIFO pareto:1.5, d = 1 and 2: report.md names the reason under ## Figures', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-run-no-fig-'));
    const file = path.join(tmp, 'grid.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'all-infinite',
        lambda: [0.5],
        d: [1, 2],
        n: [10],
        selections: ['jsq'],
        disciplines: ['fifo'],
        service: ['pareto:1.5'],
        prediction: ['exact'],
        jobs: 500,
        replications: 2,
        seed: 1,
      }),
    );
    const out = path.join(tmp, 'report');
    const r = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress']);
    expect(r.status, r.stderr).toBe(0);
    const md = readFileSync(path.join(out, 'report.md'), 'utf8');
    expect(md).toMatch(/## Figures\n\nNo figure: every mean here is infinite in theory or not settled/);
  }, 600_000);
});
