/**
 * Text (Markdown) and CSV forms of the finite-n table (src/compare/finiteNTable.ts): one block per (d, λ) with a row
 * per n, then its 1/n and 1/n² fits held at the mean field, read against ΣV and ΣA (theory.md §6, §8).
 */
import type { TableCell, TableFit } from '../compare/finiteNTable.ts';
import { formatCount, standardErrorOfMean } from '../stats/index.ts';

/** The table as the `table` command assembles it. */
export interface FiniteNTable {
  readonly cells: readonly TableCell[];
  readonly fits: readonly TableFit[];
}

const f = (x: number | null | undefined, digits = 5): string =>
  x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(digits);

/**
 * t of the simulation against a value, in compare's convention (compare/verdict.ts: t = (simulated − reference)/σ̂):
 * (x̂ − value)/σ̂, σ̂ = h/t_{0.975,R−1} the standard error behind the Student-t interval (`standardErrorOfMean`), or '—'.
 * Positive: the simulation lies above the theory. (Until 2026-12-03 this column was z = (value − x̂)/σ̂, the opposite
 * sign of compare's t.)
 */
function tAgainst(value: number | null, cell: TableCell): string {
  if (value === null) return '—';
  const se = standardErrorOfMean(cell.meanQueueLength);
  if (!(se > 0)) return '—';
  const s = (cell.meanQueueLength.mean - value) / se;
  return `${s >= 0 ? '+' : ''}${s.toFixed(1)}`;
}

/** x̂ ± h, and the interval itself where the parameter space clipped it (E[Q] ≥ ρ: x̂ − h below the bound). */
function intervalText(e: TableCell['meanQueueLength']): string {
  const clipped = e.ci95[0] > e.mean - e.halfWidth || e.ci95[1] < e.mean + e.halfWidth;
  return `${f(e.mean)} ± ${f(e.halfWidth)}${clipped ? ` [${f(e.ci95[0])}, ${f(e.ci95[1])}]` : ''}`;
}

function exactText(cell: TableCell): string {
  if (cell.exact === null) return '—';
  return 'skipped' in cell.exact ? 'too large' : f(cell.exact.meanQueueLength);
}

function fitText(fit: TableFit): string[] {
  const out: string[] = [];
  const one = fit.inverseN;
  if (one)
    out.push(
      `- fit E[Q_n] − Σπ = c₁/n: c₁ = ${f(one.c1, 4)} ± ${f(1.96 * one.c1StandardError, 4)} (ΣV = ${f(fit.sumV, 4)}), ` +
        `χ² = ${f(one.chiSquare, 1)} on ${one.degreesOfFreedom} dof`,
    );
  const two = fit.inverseNSquare;
  if (two)
    out.push(
      `- fit E[Q_n] − Σπ = c₁/n + c₂/n²: c₁ = ${f(two.c1, 4)} ± ${f(1.96 * two.c1StandardError, 4)} (ΣV = ${f(fit.sumV, 4)}), ` +
        `c₂ = ${f(two.c2, 3)} ± ${f(1.96 * two.c2StandardError, 3)} (ΣA = ${f(fit.sumA, 3)}), χ² = ${f(two.chiSquare, 1)} on ${two.degreesOfFreedom} dof`,
    );
  return out;
}

/**
 * The table as Markdown: per (d, λ) a table of n, simulated E[Q] ± 95% half-width (with the interval where E[Q] ≥ ρ clips
 * it), relative half-width, E[T], runs,
 * mean field, refined 1st and 2nd order and exact, each with the simulation's t against it ((x̂ − value)/σ̂); then the fits.
 */
export function finiteNTableMarkdown(table: FiniteNTable): string {
  const lines: string[] = [];
  const groups = new Map<string, TableCell[]>();
  for (const c of table.cells) {
    const k = `${c.d}|${c.lambda}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(c);
  }
  for (const fit of table.fits) {
    const cells = groups.get(`${fit.d}|${fit.lambda}`) ?? [];
    if (cells.length === 0) continue;
    lines.push(`### d = ${fit.d}, λ = ${fit.lambda}: mean field E[Q] = ${f(cells[0].meanField)}`, '');
    // where the runs started, per n (auto takes the fixed point only where the warm-up rule reads one from it at n)
    const starts = [...new Set(cells.map((c) => c.start))].map(
      (s) =>
        `${s === 'fixed-point' ? 'at the fixed point (round(n·s_i*) servers with ≥ i jobs)' : 'empty'} at n = ${cells
          .filter((c) => c.start === s)
          .map((c) => c.n)
          .join(', ')}`,
    );
    lines.push(`Runs start ${starts.join('; ')}, then discard the warm-up for that start.`, '');
    lines.push('| n | E[Q] sim ± 95% | rel. | E[T] sim | runs × events | refined 1st (t) | refined 2nd (t) | exact (t) |');
    lines.push('|---:|---|---:|---:|---:|---|---|---|');
    for (const c of cells) {
      const q = c.meanQueueLength;
      const exact = c.exact !== null && !('skipped' in c.exact) ? c.exact.meanQueueLength : null;
      lines.push(
        `| ${c.n} | ${intervalText(q)} | ${((100 * q.halfWidth) / q.mean).toFixed(2)}% | ${f(c.meanResponseTime.mean)} | ` +
          `${q.replications} × ${formatCount(c.eventsPerRun)} | ${f(c.refinedFirst)} (${tAgainst(c.refinedFirst, c)}) | ` +
          `${f(c.refinedSecond)} (${tAgainst(c.refinedSecond, c)}) | ${exactText(c)}${exact === null ? '' : ` (${tAgainst(exact, c)})`} |`,
      );
    }
    lines.push('', ...fitText(fit), '');
  }
  return lines.join('\n');
}

/** CSV header and rows, one per cell (numbers unrounded; empty where a column has no value; the 95 % intervals inside the parameter space last). */
export function finiteNTableCsvRows(table: FiniteNTable): (string | number)[][] {
  const header = [
    'd',
    'lambda',
    'n',
    'mean_queue_length',
    'mean_queue_length_half_width',
    'mean_response_time',
    'mean_response_time_half_width',
    'runs',
    'events_per_run',
    'warmup_events',
    'start',
    'mean_field',
    'refined_first',
    'refined_second',
    'exact',
    'mean_queue_length_ci95_low',
    'mean_queue_length_ci95_high',
    'mean_response_time_ci95_low',
    'mean_response_time_ci95_high',
  ];
  const rows: (string | number)[][] = [header];
  for (const c of table.cells) {
    const exact = c.exact !== null && !('skipped' in c.exact) ? c.exact.meanQueueLength : '';
    rows.push([
      c.d,
      c.lambda,
      c.n,
      c.meanQueueLength.mean,
      c.meanQueueLength.halfWidth,
      c.meanResponseTime.mean,
      c.meanResponseTime.halfWidth,
      c.meanQueueLength.replications,
      c.eventsPerRun,
      c.warmupEvents,
      c.start,
      c.meanField,
      c.refinedFirst,
      c.refinedSecond ?? '',
      exact,
      ...c.meanQueueLength.ci95,
      ...c.meanResponseTime.ci95,
    ]);
  }
  return rows;
}
