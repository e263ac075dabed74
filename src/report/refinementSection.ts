/**
 * What the exact small-n points and the 1/n² term add to a comparison report: table columns (per cell: second-order
 * refined value, exact E[T]_n, what the verdict was judged against; per model: computed c₂ = ΣA/λ beside the fitted
 * ĉ₂), a section listing the exact points, and the rows and layers the convergence figure draws for them.
 */
import type { CellResult, ComparisonResult, ModelSummary } from '../compare/index.ts';
import { tip, type Row } from './figures.ts';
import { estimateText, exactInfinite, fix, markdownTable, sci, statusText } from './page.ts';
import { SECOND_ORDER_RANGE } from '../meanfield/index.ts';
import { plusMinus } from '../stats/index.ts';

type Columns<T> = (readonly [string, (x: T) => string])[];

/** " (vs exact)" for a cell judged against its exact value, else "". */
export function exactMark(c: CellResult): string {
  return c.exact ? ' (vs exact)' : '';
}

/**
 * A refined value (order 1 or 2), marked "(outside range)" where n is outside its order's trusted range (`trusted`:
 * order 1 |ΣV|/(nΣπ) ≤ 5 %, the cell then not judged against it; order 2 |ΣA|/(n|ΣV|) ≤ SECOND_ORDER_RANGE; theory.md
 * §6), as `table` marks them; the first order showed bare beside a second order marked.
 */
export function refinedText(v: { readonly meanResponseTime: number; readonly trusted?: boolean }): string {
  return v.trusted === false ? `${fix(v.meanResponseTime)} (outside range)` : fix(v.meanResponseTime);
}

/** Per-cell columns: the second-order refined E[T] (where any cell has it) and the exact E[T]_n (where any cell has one). */
export function refinementCellColumns(result: ComparisonResult): Columns<CellResult> {
  const cols: Columns<CellResult> = [];
  if (result.cells.some((c) => c.secondOrder)) {
    cols.push(['refined 2nd order', (c) => (c.secondOrder ? refinedText(c.secondOrder) : '–')]);
  }
  if (result.cells.some((c) => c.exact)) {
    cols.push([
      'exact (± bound)',
      (c) =>
        !c.exact
          ? '–'
          : exactInfinite(c.exact)
            ? '∞ (no error bar)'
            : `${fix(c.exact.meanResponseTime, 5)} (± ${sci(c.exact.truncationBound)})`,
    ]);
  }
  return cols;
}

/** Per-model columns where the 1/n² term exists: c₂ = ΣA/λ, the fitted ĉ₂ with its 95% interval, and the check. */
export function secondOrderModelColumns(result: ComparisonResult): Columns<ModelSummary> {
  if (!result.models.some((m) => m.secondOrder)) return [];
  return [
    ['c₂ = ΣA/λ', (m) => (m.secondOrder ? fix(m.secondOrder.c2, 2) : '–')],
    [
      'ĉ₂ fit ± h (95 %)',
      (m) =>
        m.secondOrder && Number.isFinite(m.secondOrder.fitted) ? plusMinus(m.secondOrder.fitted, m.secondOrder.fittedHalfWidth) : 'n/a',
    ],
    ['c₂ check', (m) => (m.secondOrder ? `**${statusText(m.secondOrder.status)}**` : '–')],
  ];
}

/**
 * The "Exact small-n points" and "Second order" report sections (Markdown, with their headings), or '' when the
 * comparison has neither.
 */
export function refinementSection(result: ComparisonResult): string {
  const parts: string[] = [];
  const rows = result.models.flatMap((m) =>
    (m.exact?.points ?? []).map((p) => ({ m, p, cell: result.cells.find((c) => c.d === m.d && c.lambda === m.lambda && c.n === p.n) })),
  );
  if (rows.length > 0) {
    const judged = rows.filter((r) => r.cell?.exact);
    const agree = judged.filter((r) => r.cell!.verdict.status === 'agrees').length;
    const infinite = judged.filter((r) => r.cell!.verdict.status === 'undefined').length; // an exact E[T]_n of ∞
    const chain = rows.some((r) => r.p.solver === 'occupancy-chain');
    const mg1 = rows.some((r) => r.p.solver === 'mg1');
    const how = [
      chain
        ? 'The n-server chain on sorted occupancy vectors, solved exactly (`solveExact`, truncated at level K with the stated bound on the truncation error of E[T])'
        : '',
      mg1
        ? 'With random routing (d = 1 or selection random) every server is an M/G/1 queue at every n: the M/G/1 value (`mg1`, theory.md §7, its quadrature error as the bound; no K, no states)'
        : '',
    ].filter((x) => x !== '');
    parts.push(
      `\n### Exact ${mg1 ? '' : 'small-n '}points\n\n${how.join('. ')}. Each simulated cell at these n is tested against the exact value ` +
        `(the bound as numerical error, no allowance: alone it agrees when |x̂_n − E[T]_n| ≤ h_n + bound); its status is the report's ` +
        `family rule (Holm over all judged cells, a rejected cell rerun with fresh seeds: Method), so a cell outside h_n + bound ` +
        `can still agree. **${agree} of ${judged.length - infinite} agree${infinite ? `; ${infinite} undefined (E[T]_n = ∞)` : ''}.**\n\n` +
        markdownTable(rows, [
          ['d', (r) => `${r.m.d}`],
          ['λ', (r) => `${r.m.lambda}`],
          ['n', (r) => `${r.p.n}`],
          ['exact E[T]_n', (r) => fix(r.p.meanResponseTime, 5)],
          // an exact ∞ has no error bar (the M/G/1 quadrature did not run): not "0.00e+0"
          ['bound (estimate)', (r) => (exactInfinite(r.p) ? 'none (∞)' : `${sci(r.p.truncationBound)} (${sci(r.p.errorEstimate)})`)],
          ['K', (r) => (r.p.solver === 'mg1' ? '–' : `${r.p.K}`)],
          ['states', (r) => (r.p.solver === 'mg1' ? '–' : `${r.p.states}`)],
          ['seconds', (r) => fix(r.p.seconds, 2)],
          [
            'simulated ± h',
            // an ∞ simulated mean has no error bar: "∞ (sample mean x)", never "∞ ± ∞"
            (r) => (r.cell ? estimateText(r.cell.simulation.meanResponseTime) : '–'),
          ],
          [
            'refined 1st / 2nd order',
            (r) =>
              r.cell?.refined ? `${refinedText(r.cell.refined)} / ${r.cell.secondOrder ? refinedText(r.cell.secondOrder) : '–'}` : '–',
          ],
          ['verdict', (r) => (r.cell ? `**${statusText(r.cell.verdict.status)}**` : '–')],
        ]),
    );
  }
  const second = result.models.filter((m) => m.secondOrder);
  if (second.length > 0) {
    parts.push(
      `\n### Second order (1/n²)\n\nE[T]_n ≈ E[T]∞ + ΣV/(λn) + ΣA/(λn²) (Gast, Bortolussi, Tribastone 2019); with it the per-cell allowance is ` +
        `δ_n = 2|ΣA|/(n²λ) (theory.md §8). Order 2 is trusted only where |ΣA|/(n|ΣV|) ≤ ${SECOND_ORDER_RANGE} (theory.md §6: ` +
        `against the exact chain it was worse than order 1 beyond about 1); values outside are marked "(outside range)". The computed c₂ = ΣA/λ is checked against ĉ₂ of the fit ` +
        `E[T]_n − E[T]∞ − ΣV/(λn) = c₂/n² (c₁ held): ${second[0].secondOrder!.rule}.\n\n` +
        markdownTable(second, [
          ['d', (m) => `${m.d}`],
          ['λ', (m) => `${m.lambda}`],
          ['ΣV/λ', (m) => fix((m.refined?.sumV ?? NaN) / m.lambda, 2)],
          ['ĉ₁ fit', (m) => (m.fitThroughReference ? fix(m.fitThroughReference.c1, 2) : 'n/a')],
          ...secondOrderModelColumns(result),
        ]),
    );
  }
  // each section ends in a newline, so the next heading is parted from the table by a blank line
  return parts.length > 0 ? `${parts.join('\n')}\n` : '';
}

/** Base fields of a convergence-figure row of model m (as `convergenceFigure` builds them). */
type RowBase = Row;

/**
 * One row of the convergence figures: the signed error E[T]_n − E[T]∞ of `series` at n and, where there is one,
 * its 95% interval [err − h, err + h] (`halfWidth` h: the simulation's combined CI, an exact point's truncation
 * bound); `band` adds whether the error is resolved (|err| > 3h), which only the simulated rows draw.
 */
export function convergenceRow(
  base: RowBase,
  n: number,
  series: string,
  signedError: number,
  halfWidth: number | null = null,
  band = false,
): Row {
  const bar = halfWidth !== null;
  return {
    ...base,
    n,
    series,
    signedError,
    halfWidth,
    lo: bar ? signedError - halfWidth : null,
    hi: bar ? signedError + halfWidth : null,
    resolved: band && bar ? (Math.abs(signedError) > 3 * halfWidth ? 'yes' : 'no') : null,
  };
}

/**
 * Convergence-figure rows for the exact points (series 'exact', exact E[T]_n − E[T]∞, the truncation bound as the
 * half-width) and the second-order prediction ΣV/(λn) + ΣA/(λn²) (series 'refined 2nd order') at every n of m's cells.
 */
export function refinementConvergenceRows(result: ComparisonResult, m: ModelSummary, base: RowBase): Row[] {
  const rows: Row[] = [];
  const limit = m.reference.meanResponseTime;
  for (const p of m.exact?.points ?? []) {
    rows.push(convergenceRow(base, p.n, 'exact', p.meanResponseTime - limit, p.truncationBound));
  }
  for (const c of result.cells.filter((x) => x.d === m.d && x.lambda === m.lambda && x.secondOrder)) {
    rows.push(convergenceRow(base, c.n, 'refined 2nd order', c.secondOrder!.meanResponseTime - limit));
  }
  return rows;
}

/**
 * The tooltip of a convergence-figure point, in the field's words with 4 significant digits: d, λ, n, the plotted
 * value (`value`: its field and title) and its half-width (`halfWidth`: title), then any further entries.
 */
export function convergenceTooltip(
  value: { field?: string; title: string },
  halfWidth: { title: string },
  more: Record<string, unknown>[] = [],
): Record<string, unknown>[] {
  return [
    tip('d', 'd'),
    tip('lambda', 'λ'),
    tip('n', 'n'),
    tip(value.field ?? 'signedError', value.title),
    tip('halfWidth', halfWidth.title),
    ...more,
  ];
}

/** The legend label of the exact points in the convergence figure. */
export const EXACT_LEGEND = 'exact E[T]_n (n-server chain)';

/**
 * The layer of the exact points: filled black diamonds (vega-lite, x and y as the figure draws them, y on the row's
 * `yField`), with a legend entry of their own (a constant fill, `EXACT_LEGEND`, drawn as a black diamond).
 */
export function exactPointLayer(
  x: unknown,
  y: Record<string, unknown>,
  yField = 'signedError',
  yTitle = 'exact E[T]_n − E[T]_∞',
): Record<string, unknown> {
  return {
    transform: [{ filter: "datum.series === 'exact'" }],
    mark: { type: 'point', shape: 'diamond', filled: true, size: 70, color: 'black' },
    encoding: {
      x,
      y,
      fill: {
        datum: EXACT_LEGEND,
        type: 'nominal',
        scale: { domain: [EXACT_LEGEND], range: ['black'] },
        legend: { title: null, symbolType: 'diamond', labelLimit: 300 },
      },
      tooltip: convergenceTooltip({ field: yField, title: yTitle }, { title: 'truncation bound' }),
    },
  };
}

/** Caption sentences of the convergence figure for the exact points and the second-order curve ('' without them). */
export function refinementCaption(result: ComparisonResult): string {
  const exact = result.models.some((m) => (m.exact?.points.length ?? 0) > 0);
  const second = result.cells.some((c) => c.secondOrder);
  return (
    (second ? ' Dotted: the second-order prediction ΣV/(λn) + ΣA/(λn²).' : '') +
    (exact
      ? ' Black diamonds: exact E[T]_n − E[T]∞ from the n-server chain (truncation bound in the tooltip); the simulated points at ' +
        'those n are judged against them.'
      : '')
  );
}
