// Intervals inside the parameter space (theory.md §8: feasible intervals). The finite-n table took the t interval of
// E[Q] as it came (below ρ at low loads with few runs, so E[T] below E[S]) and read its z with h/1.96 (a normal
// interval's s.e.; the interval is Student t); the load figure drew E[T] ± h, not the simulated (clipped) interval.
import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/index.ts';
import { tableCell, tableModel, tableTheory } from '../../src/compare/finiteNTable.ts';
import { comparisonFigures } from '../../src/report/index.ts';
import { finiteNTableCsvRows, finiteNTableMarkdown } from '../../src/report/finiteNTable.ts';
import { tQuantile } from '../../src/lazy.ts';
import { reportComparison } from '../compare/config.ts';

describe('feasible intervals in the finite-n table and the load figure', () => {
  const model = tableModel(2, 0.1, 'with-replacement');
  const theory = tableTheory(model);
  // three runs' E[Q] at λ = 0.1: mean 0.13, t interval reaching far below ρ = 0.1
  const cell = tableCell(model, 10, [0.1, 0.1, 0.19], theory, null, {
    eventsPerRun: 1000,
    warmupEvents: 100,
    warmupTime: 12.5,
    start: 'empty',
  });

  it('tableCell clips E[Q] at ρ = λE[S] and E[T] at E[S] = 1; mean and half-width as estimated', () => {
    const q = cell.meanQueueLength;
    expect(q.mean).toBeCloseTo(0.13, 12);
    expect(q.mean - q.halfWidth).toBeLessThan(0.1);
    expect(q.ci95[0]).toBe(0.1);
    expect(q.ci95[1]).toBeCloseTo(q.mean + q.halfWidth, 12);
    expect(cell.meanResponseTime.ci95[0]).toBeCloseTo(1, 12);
    expect(cell.meanResponseTime.mean).toBeCloseTo(1.3, 12);
  });

  it('the table prints the clipped interval and reads t = (simulated − theory)/σ̂ with the t quantile (R − 1 = 2 dof), compare’s sign, the CSV carries the intervals', () => {
    const md = finiteNTableMarkdown({
      cells: [cell],
      fits: [
        {
          d: 2,
          lambda: 0.1,
          inverseN: null,
          inverseNSquare: null,
          sumV: 0,
          sumA: null,
          nUsed: [],
          nUsedSquare: [],
          leftOut: [],
          trustedFromN: 1,
          c2Judged: false,
        },
      ],
    });
    const q = cell.meanQueueLength;
    expect(md).toContain(`${q.mean.toFixed(5)} ± ${q.halfWidth.toFixed(5)} [0.10000, ${q.ci95[1].toFixed(5)}]`);
    const se = q.halfWidth / tQuantile(0.975, 2);
    // was z = (theory − simulated)/σ̂, the opposite sign of compare's t = (simulated − reference)/σ̂ (verdict.ts)
    const t = (q.mean - cell.refinedFirst) / se;
    expect(Math.abs(t)).toBeGreaterThan(0.05); // the sign shows
    expect(md).toContain(`${cell.refinedFirst.toFixed(5)} (${t >= 0 ? '+' : ''}${t.toFixed(1)})`);
    expect(md).toContain('| refined 1st (t) | refined 2nd (t) | exact (t) |');
    // the warm-up of each row and E[T] with its interval (table printed neither: fresh-user report 2026-12-03)
    const T = cell.meanResponseTime;
    expect(md).toContain(`| 10 | 12.5 (100) | ${q.mean.toFixed(5)} ± `);
    expect(md).toContain(`| ${T.mean.toFixed(5)} ± ${T.halfWidth.toFixed(5)} [1.00000, ${T.ci95[1].toFixed(5)}] |`);
    expect(md).toMatch(/Warm-up: discarded per run, in time units \(and events\)\. t = \(simulated − theory\)\/σ̂ .*no allowance/);
    expect(md).toMatch(/Compare's t has this sign but first subtracts the allowance δ_n and the numerical error ε/);
    const [header, row] = finiteNTableCsvRows({ cells: [cell], fits: [] });
    const at = (name: string) => row[header.indexOf(name)];
    expect(at('mean_queue_length_ci95_low')).toBe(0.1);
    expect(at('mean_response_time_ci95_low')).toBeCloseTo(1, 12);
    expect(at('warmup_time')).toBe(12.5);
  });

  it('the load figure draws the simulated E[T] interval, inside E[T] ≥ E[S]', () => {
    const result = runComparison(reportComparison({ lambdas: [0.05], ns: [2, 3], jobs: 60, replications: 2, seed: 2 }));
    const load = comparisonFigures(result).find((f) => f.name === 'load')!;
    const sims = load.rows.filter((r) => String(r.series).startsWith('simulation'));
    expect(sims.length).toBeGreaterThan(0);
    for (const r of sims) {
      const e = result.cells.find((c) => c.n === r.n && c.d === r.d)!.simulation.meanResponseTime;
      expect([r.lo, r.hi]).toEqual(e.ci95);
      expect(r.lo as number).toBeGreaterThanOrEqual(1);
    }
    // the case: mean − h fell below E[S] = 1 in at least one drawn cell
    expect(
      sims.some(
        (r) => (r.value as number) - result.cells.find((c) => c.n === r.n && c.d === r.d)!.simulation.meanResponseTime.halfWidth < 1,
      ),
    ).toBe(true);
  });
});
