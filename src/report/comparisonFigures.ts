/**
 * The figures of a comparison report (`runComparison`), as data + vega-lite specs: tail fractions (solvers with
 * tails; the refined π + V/n where it exists), convergence of E[T] against n, the LWL(d) workload ccdf, and the
 * transient from empty (SQ(d) ODE or LWL(d) PIDE).
 */
import type { TopLevelSpec } from 'vega-lite';
import type { ComparisonResult } from '../compare/index.ts';
import { TRANSIENT_DRAWN, type ModelSummary } from '../compare/types.ts';
import { timeUnit } from '../model/service/index.ts';
import type { Estimate } from '../stats/index.ts';
import { convergenceRow, convergenceTooltip, exactPointLayer, refinementCaption, refinementConvergenceRows } from './refinementSection.ts';
import {
  VEGA_LITE_SCHEMA,
  ciLayers,
  estimateFields,
  facetOrder,
  filtered,
  OPEN_END_RIGHT,
  panelledSpec,
  spread,
  logAxis,
  N_LABEL_EXPR,
  nTicks,
  paddedLogDomain,
  symlogScale,
  ticksAt,
  tip,
  TIP_FORMAT,
  titleBlock,
  type Figure,
  type Row,
} from './figures.ts';
import { NOT_RESOLVED, statusText } from './page.ts';
import { isUnvalued, unvaluedReference, UNVALUED_STATUSES } from '../compare/verdict.ts';

const fmtLambda = (x: number) => `λ = ${x}`;

/** The unit of the comparison's times (model/service `timeUnit`: mean service times when E[S] = 1), one per result. */
const unitOf = (result: Pick<ComparisonResult, 'models'> | TransientInputs) => timeUnit(result.models[0]?.model.service ?? { mean: 1 });

/** Names the unit in the data beside a figure of times too (`timeUnit` on every row; the spec's rows are the same objects). */
function withTimeUnit(figure: Figure, result: ComparisonResult | TransientInputs): Figure {
  const unit = unitOf(result);
  for (const r of figure.rows) r.timeUnit = unit;
  return figure;
}
const panelOf = (x: { d: number; lambda: number }) => `d = ${x.d}, ${fmtLambda(x.lambda)}`;

/** The colours of n in every figure: 20 distinct ones (category10 gave n = 2 and n = 1000 the same blue once a sweep had more than 10 n). */
const N_COLOURS = { scheme: 'tableau20' } as const;
/** Panels in numeric order of d, then λ. */
const panelOrder = (rows: readonly Row[]) => facetOrder(rows, 'panel', ['d', 'lambda']);

/** Tail fractions s_i (log y): mean field, refined mean field at n (where V exists), simulation with 95% CIs, per (d, λ). */
/** The series, n and plotted value with its CI of one simulated estimate at n servers (a row's shared fields). */
function simulatedPoint(n: number, e: Estimate): { series: string; n: number; value: number; lo: number; hi: number } {
  return { series: `simulation, n = ${n}`, n, value: e.mean, lo: e.ci95[0], hi: e.ci95[1] };
}

export function tailFigure(result: ComparisonResult, floor = 1e-6): Figure {
  const shownN = spread(result.config.ns, 3);
  const refined = result.judgedBy === 'refined-mean-field';
  const rows: Row[] = [];
  for (const m of result.models) {
    (m.reference.tail ?? []).forEach((s, i) => {
      if (i >= 1)
        rows.push({ panel: panelOf(m), d: m.d, lambda: m.lambda, i, series: 'mean field', n: null, value: s, lo: null, hi: null });
    });
  }
  for (const c of result.cells) {
    if (!shownN.includes(c.n)) continue;
    const panel = panelOf(c);
    c.refined?.tail.forEach((s, i) => {
      if (i >= 1) rows.push({ panel, d: c.d, lambda: c.lambda, i, series: `refined, n = ${c.n}`, n: c.n, value: s, lo: null, hi: null });
    });
    c.simulation.tail.forEach((e, i) => {
      if (i >= 1) rows.push({ panel, d: c.d, lambda: c.lambda, i, ...simulatedPoint(c.n, e) });
    });
  }
  const x = { field: 'i', type: 'quantitative', title: 'level i', axis: { tickMinStep: 1 } };
  const yTitle = 's_i (servers with ≥ i jobs)';
  const y = { field: 'value', type: 'quantitative', scale: { type: 'log' }, title: yTitle, axis: logAxis(floor) };
  const tips = {
    tooltip: [tip('d', 'd'), tip('lambda', 'λ'), { field: 'series', title: 'curve' }, tip('i', 'level i'), tip('value', 's_i')],
  };
  const colour = { field: 'n', type: 'ordinal', title: 'n', scale: N_COLOURS };
  const layer = [
    filtered("datum.series === 'mean field'", { type: 'line', color: 'black', strokeWidth: 1.5 }, { x, y, ...tips }),
    ...(refined
      ? [
          filtered(
            "indexof(datum.series, 'refined') === 0",
            { type: 'line', strokeDash: [4, 3], strokeWidth: 1 },
            { x, y, color: colour, detail: { field: 'series' }, ...tips },
          ),
        ]
      : []),
    ...ciLayers({
      filter: "indexof(datum.series, 'simulation') === 0",
      x,
      shared: { color: refined ? { field: 'n', type: 'ordinal' } : colour },
      mark: { type: 'point', filled: false, size: 30 },
      yTitle,
      loFloor: `${floor / 2}`,
      encoding: {
        tooltip: [...tips.tooltip, tip('lo', '95% CI low'), tip('hi', '95% CI high')],
      },
    }),
  ];
  const solvers = [...new Set(result.models.map((m) => m.reference.solver))].join('; ');
  const spec = panelledSpec(rows, {
    columns: result.config.lambdas.length,
    size: { width: 230, height: 200 },
    layer,
    order: panelOrder(rows),
    transform: [{ filter: `datum.value >= ${floor}` }],
    title: refined
      ? 'Tail fractions: mean field (black), refined π + V/n (dashed), simulation ± 95% CI (circles)'
      : 'Tail fractions: mean field (black), simulation ± 95% CI (circles)',
  });
  return {
    name: 'tail-fractions',
    title: 'Tail fractions s_i',
    caption:
      `Fraction of servers with at least i jobs, log scale. ` +
      (refined
        ? 'Black: mean-field fixed point s_i* = λ^((d^i−1)/(d−1)). Dashed: refined mean field s_i* + V_i/n. '
        : `Black: mean-field fixed point (${solvers}). `) +
      `Circles with bars: time-average simulation estimate and 95% CI for n ∈ {${shownN.join(', ')}}. Values below ${floor.toExponential(0)} are not drawn (the CSV holds them all).`,
    rows,
    spec,
  };
}

/** The x encoding of a log n axis over `ns`, padded, with tick labels that never collide (`nTicks`). */
function nAxis(ns: readonly number[], widthPx: number): Record<string, unknown> {
  const domain = paddedLogDomain(ns);
  return {
    field: 'n',
    type: 'quantitative',
    // padded: the points at the smallest and largest n would sit on the plot's border, half cut off
    scale: { type: 'log', domain, nice: false },
    title: 'servers n',
    axis: { values: nTicks(ns, domain, widthPx), labelFlush: true, labelOverlap: 'greedy', labelExpr: N_LABEL_EXPR },
  };
}

/** Every n a convergence figure shows: the sweep's, the cells' and the exact points'. */
function allNs(result: ComparisonResult): number[] {
  return ticksAt([
    ...result.config.ns,
    ...result.cells.map((c) => c.n),
    ...result.models.flatMap((m) => m.exact?.points.map((p) => p.n) ?? []),
  ]);
}

/** n on a log grid of `k` + 1 points from `lo` to `hi` (smooth prediction and fit curves). */
function nGrid(lo: number, hi: number, k = 24): number[] {
  return Array.from({ length: k + 1 }, (_, j) => lo * (hi / lo) ** (j / k));
}

/** The n a fit was made on, for its legend label: "n = 20, 100, 500", or "n = 10–10000 (8 values)" past four. */
function fittedOn(ns: readonly number[]): string {
  const sorted = [...ns].sort((a, b) => a - b);
  return sorted.length <= 4 ? `n = ${sorted.join(', ')}` : `n = ${sorted[0]}–${sorted[sorted.length - 1]} (${sorted.length} values)`;
}

/**
 * The fitted curve of a model without V: its legend label (the fit's form and the n it was fitted on, so a reader can
 * tell which points made it) and value at n (limit held at the reference when fitted so).
 */
function fitCurve(m: ComparisonResult['models'][number]): { label: string; at: (n: number) => number } | null {
  const f = m.fitThroughReference ?? m.fit;
  if (!f || (f.c1 === 0 && f.c2 === 0)) return null;
  const offset = m.fitThroughReference ? 0 : f.a - m.reference.meanResponseTime;
  return {
    label: `${f.c2 !== 0 ? 'fit ĉ₁/n + ĉ₂/n²' : 'fit ĉ₁/n'}, fitted on ${fittedOn(f.nUsed)}`,
    at: (n) => offset + f.c1 / n + f.c2 / (n * n),
  };
}

/** What ĉ₁ (and ĉ₂) of a fit's legend entry are: the legend's second title line wherever a fit is drawn. */
export const FIT_LEGEND_NOTE = 'ĉ₁: fitted 1/n coefficient (ĉ₂: of 1/n²)';

/** Legend title of the curves: predictions (from V, A), fits, or both; with a fit, a second line saying what ĉ₁ is. */
function curveLegendTitle(series: readonly string[]): string | string[] {
  const fit = series.some((s) => s.startsWith('fit'));
  const pred = series.some((s) => !s.startsWith('fit'));
  return fit && pred ? ['prediction / fit', FIT_LEGEND_NOTE] : fit ? ['fit', FIT_LEGEND_NOTE] : 'prediction';
}

/**
 * E[T]_n − E[T]_∞ against n (log n, symmetric-log y: the sign shows), simulation ± 95% CI, with the refined
 * prediction ΣV/(λn) (and ΣV/(λn) + ΣA/(λn²)) where V exists, else the curve fitted to the same points, labelled a fit;
 * bars combine the simulation's CI with the reference's own.
 */
export function convergenceFigure(result: ComparisonResult): Figure {
  const refined = result.judgedBy === 'refined-mean-field';
  const rows: Row[] = [];
  const ns = allNs(result);
  const nLo = Math.min(...result.config.ns);
  const nHi = Math.max(...result.config.ns);
  for (const m of result.models) {
    const base = { d: m.d, facet: `d = ${m.d}`, lambda: m.lambda, label: fmtLambda(m.lambda) };
    for (const c of result.cells.filter((x) => x.d === m.d && x.lambda === m.lambda)) {
      const h = Math.hypot(c.simulation.meanResponseTime.halfWidth, m.reference.halfWidth);
      rows.push(convergenceRow(base, c.n, 'simulation', c.errors.meanResponseTime, h, true));
    }
    if (m.refined)
      for (const n of nGrid(Math.min(...ns), nHi)) rows.push(convergenceRow(base, n, 'refined ΣV/(λn)', m.refined.sumV / (m.lambda * n)));
    rows.push(...refinementConvergenceRows(result, m, base));
    const fit = m.refined ? null : fitCurve(m);
    if (fit) for (const n of nGrid(nLo, nHi)) rows.push(convergenceRow(base, n, fit.label, fit.at(n)));
  }
  const width = 300;
  const x = nAxis(ns, width);
  const lineSeries = [...new Set(rows.map((r) => String(r.series)))].filter((s) => s !== 'simulation' && s !== 'exact');
  const hasExact = rows.some((r) => r.series === 'exact');
  const yTitle = [`E[T]_n − E[T]_∞ (${unitOf(result)})`, 'symmetric log: linear near 0'];
  const sym = symlogScale(rows.flatMap((r) => [r.signedError, r.lo, r.hi]).filter((v): v is number => typeof v === 'number'));
  const y = (field: string) => ({
    field,
    type: 'quantitative',
    scale: sym.scale,
    title: yTitle,
    axis: { values: sym.ticks, format: '~g', labelOverlap: true },
  });
  const facets = facetOrder(rows, 'facet', ['d']);
  const colour = { color: { field: 'label', type: 'nominal', title: 'arrival rate', legend: { labelLimit: 300 } } };
  const solver = [...new Set(result.models.map((m) => `${m.reference.solver} (${m.reference.kind})`))].join('; ');
  const slopes = [...new Set(result.models.map((m) => m.d))].map(
    (d) =>
      `fitted log–log slopes of |error|, d = ${d}: ` +
      result.models
        .filter((m) => m.d === d)
        .map((m) => `λ = ${m.lambda}: ${m.slope ? m.slope.slope.toFixed(2) : NOT_RESOLVED}`)
        .join(', '),
  );
  const simTip = convergenceTooltip({ title: 'simulated E[T]_n − E[T]_∞' }, { title: '95% half-width' }, [
    { field: 'resolved', title: 'resolved (|error| > 3 half-widths)' },
  ]);
  const spec: TopLevelSpec = {
    $schema: VEGA_LITE_SCHEMA,
    data: { values: rows },
    facet: { column: { field: 'facet', type: 'nominal', title: null, sort: facets, header: { labelFontSize: 12, labelLimit: 0 } } },
    spec: {
      width,
      height: 280,
      layer: [
        { mark: { type: 'rule', color: '#888', strokeWidth: 0.8 }, encoding: { y: { datum: 0, type: 'quantitative', scale: sym.scale } } },
        filtered(
          "datum.series !== 'simulation' && datum.series !== 'exact'",
          { type: 'line' },
          {
            x,
            ...colour,
            y: y('signedError'),
            strokeDash: {
              field: 'series',
              type: 'nominal',
              title: curveLegendTitle(lineSeries),
              // a longer legend stroke, so that the dash-dot of a fit is told from the dashes
              legend: { symbolSize: 600, labelLimit: 300, titleLimit: 300 },
              // only the series drawn: a model without V has no refined lines to list
              scale: { domain: lineSeries, range: lineSeries.map(lineDash) },
            },
            tooltip: [
              tip('d', 'd'),
              tip('lambda', 'λ'),
              tip('n', 'n'),
              { field: 'series', title: 'curve' },
              tip('signedError', 'E[T]_n − E[T]_∞'),
            ],
          },
        ),
        {
          transform: [{ filter: "datum.series === 'simulation'" }],
          mark: { type: 'errorbar', ticks: true },
          encoding: { x, y: y('lo'), y2: { field: 'hi' }, ...colour, tooltip: simTip },
        },
        {
          ...filtered(
            "datum.series === 'simulation'",
            { type: 'point', size: 40 },
            {
              x,
              y: y('signedError'),
              ...colour,
              shape: {
                field: 'resolved',
                type: 'nominal',
                title: '|err| > 3h',
                scale: { domain: ['yes', 'no'], range: ['circle', 'cross'] },
              },
              tooltip: simTip,
            },
          ),
          params: [{ name: 'zoom', select: 'interval', bind: 'scales' }],
        },
        ...(hasExact ? [exactPointLayer(x, y('signedError'))] : []),
      ],
    },
    title: titleBlock(
      (refined
        ? 'Convergence of E[T]: simulation − mean field (points ± 95% CI) vs refined prediction ΣV/(λn) (dashed)'
        : `Convergence of E[T]: simulation − mean field ± 95% CI (points), ${fitLabelOf(lineSeries)} fitted to them (dash-dotted)`) +
        (hasExact ? ', exact n-server chain (black diamonds)' : ''),
      facets.length * (width + 60),
      [...slopes, ...(refined ? [] : [`reference: ${solver}`])],
    ),
  } as unknown as TopLevelSpec;
  return {
    name: 'convergence',
    title: 'Convergence of the mean response time',
    caption:
      (refined
        ? 'Signed difference between the simulated mean response time and its mean-field limit, against n (log n; the y axis is ' +
          'symmetric-logarithmic, linear near 0, so the sign shows and a 95% interval crossing 0 is drawn whole). ' +
          'Dashed lines: the refined mean-field prediction ΣV/(λn). Points: simulation with 95% CI; crosses mark n where the ' +
          'difference is not resolved (|err| ≤ 3 × CI half-width) and is left out of the slope fit.'
        : `Signed difference between the simulated mean response time and the mean-field reference (${solver}), against n ` +
          '(log n; symmetric-log y, linear near 0). ' +
          "Bars: the 95% CI of the simulation combined with the reference's own CI (cavity results). Dash-dotted: a fit to the same " +
          'points, x̂_n − E[T]∞ = ĉ₁/n (+ ĉ₂/n²) by least squares with fixed coefficients (no refined term V exists for this model): ĉ₁ is the fitted ' +
          'coefficient of 1/n (ĉ₂ of 1/n²), fitted to the simulated points at the n its legend entry names; it describes the ' +
          'points, it does not predict them. Crosses mark n where the difference is not resolved (|err| ≤ 3 × half-width) and is left ' +
          'out of the slope fit.') + refinementCaption(result),
    rows,
    spec,
  };
}

/** The fit's legend label among the curves ('a fit' when there is none). */
function fitLabelOf(series: readonly string[]): string {
  return (
    series
      .find((s) => s.startsWith('fit'))
      ?.replace(/^fit /, 'the fit ')
      .replace(/, fitted on .*$/, '') ?? 'a fit'
  );
}

/**
 * The dash of a convergence curve: the refined first order dashed, its second order dotted, a fit dash-dotted (a fit,
 * not a prediction from V: it must not look like one).
 */
function lineDash(series: string): number[] {
  if (series.startsWith('fit')) return [8, 3, 2, 3];
  if (series === 'refined 2nd order') return [1, 2];
  return [4, 3];
}

/**
 * n·(E[T]_n − E[T]_∞) against n (log n, linear y), where the 1/n coefficient is read as a level: simulation ± 95% CI
 * (n times the convergence figure's interval), the refined level ΣV/λ (horizontal) and the second-order curve
 * ΣV/λ + ΣA/(λn) where they exist, else the fit ĉ₁ + ĉ₂/n; exact points where computed.
 */
/**
 * The y range of the scaled-error figure: the curves, the exact points and the simulated points whose scaled interval
 * is informative (n × half-width at most twice the largest |value| of the curves and exact points), padded by a quarter
 * of the span. At large n the scaled interval n × h grows with n (h shrinks only as 1/√jobs), and one n = 10 000 bar
 * of ± 300 would flatten every level of order 1 to a line; bar ends beyond the range are clamped to it and points beyond it are not drawn (their values
 * stay in the tooltip, CSV and JSON, and the caption says so). Undefined when there is nothing to scale by.
 */
export function scaledErrorDomain(rows: readonly Row[]): [number, number] | undefined {
  const value = (r: Row) => (typeof r.scaledError === 'number' && Number.isFinite(r.scaledError) ? r.scaledError : undefined);
  const anchors = rows
    .filter((r) => r.series !== 'simulation')
    .map(value)
    .filter((v): v is number => v !== undefined);
  if (anchors.length === 0) return undefined;
  const scale = Math.max(...anchors.map(Math.abs));
  if (!(scale > 0)) return undefined;
  const informative = rows
    .filter((r) => r.series === 'simulation' && typeof r.scaledHalfWidth === 'number' && r.scaledHalfWidth <= 2 * scale)
    .flatMap((r) => [r.scaledLo, r.scaledHi, r.scaledError])
    .filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  const all = [0, ...anchors, ...informative];
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  const pad = 0.25 * (hi - lo || scale);
  return [lo - pad, hi + pad];
}

export function scaledErrorFigure(result: ComparisonResult): Figure {
  const rows: Row[] = [];
  const ns = allNs(result);
  const nHi = Math.max(...ns);
  const scaled = (r: Row): Row => {
    const n = r.n as number;
    const times = (v: unknown) => (typeof v === 'number' ? n * v : null);
    return { ...r, scaledError: times(r.signedError), scaledLo: times(r.lo), scaledHi: times(r.hi), scaledHalfWidth: times(r.halfWidth) };
  };
  for (const m of result.models) {
    const base = { d: m.d, facet: `d = ${m.d}`, lambda: m.lambda, label: fmtLambda(m.lambda) };
    for (const c of result.cells.filter((x) => x.d === m.d && x.lambda === m.lambda)) {
      const h = Math.hypot(c.simulation.meanResponseTime.halfWidth, m.reference.halfWidth);
      rows.push(scaled(convergenceRow(base, c.n, 'simulation', c.errors.meanResponseTime, h, true)));
    }
    for (const p of m.exact?.points ?? [])
      rows.push(scaled(convergenceRow(base, p.n, 'exact', p.meanResponseTime - m.reference.meanResponseTime, p.truncationBound)));
    const grid = nGrid(Math.min(...ns), nHi);
    if (m.refined) {
      const c1 = m.refined.sumV / m.lambda;
      for (const n of grid) rows.push(scaled(convergenceRow(base, n, 'refined level ΣV/λ', c1 / n)));
      const c2 = m.secondOrder?.c2;
      if (c2 !== undefined && Number.isFinite(c2))
        for (const n of grid) rows.push(scaled(convergenceRow(base, n, 'refined ΣV/λ + ΣA/(λn)', c1 / n + c2 / (n * n))));
    } else {
      const fit = fitCurve(m);
      if (fit)
        for (const n of nGrid(Math.min(...result.config.ns), Math.max(...result.config.ns)))
          rows.push(scaled(convergenceRow(base, n, fit.label.replace('ĉ₁/n + ĉ₂/n²', 'ĉ₁ + ĉ₂/n').replace('ĉ₁/n', 'ĉ₁'), fit.at(n))));
    }
  }
  const width = 300;
  const x = nAxis(ns, width);
  const lineSeries = [...new Set(rows.map((r) => String(r.series)))].filter((s) => s !== 'simulation' && s !== 'exact');
  const hasExact = rows.some((r) => r.series === 'exact');
  const yTitle = `n · (E[T]_n − E[T]_∞) (${unitOf(result)})`;
  const domain = scaledErrorDomain(rows);
  // no clip paths (resvg aborts on them): bar ends are clamped to the range and points beyond it are not drawn
  for (const r of rows) {
    if (r.series !== 'simulation') continue;
    const clamp = (v: unknown) => (typeof v === 'number' && domain ? Math.min(domain[1], Math.max(domain[0], v)) : (v as number | null));
    r.scaledLoDrawn = clamp(r.scaledLo);
    r.scaledHiDrawn = clamp(r.scaledHi);
    r.inRange = typeof r.scaledError === 'number' && (!domain || (r.scaledError >= domain[0] && r.scaledError <= domain[1])) ? 1 : 0;
  }
  const y = (field: string) => ({ field, type: 'quantitative', title: yTitle, scale: domain ? { domain } : { zero: false } });
  const facets = facetOrder(rows, 'facet', ['d']);
  const colour = { color: { field: 'label', type: 'nominal', title: 'arrival rate', legend: { labelLimit: 300 } } };
  const simTip = convergenceTooltip(
    { field: 'scaledError', title: 'n · (simulated E[T]_n − E[T]_∞)' },
    { title: '95% half-width × n' },
  ).map((t) => ((t as { field: string }).field === 'halfWidth' ? tip('scaledHalfWidth', '95% half-width × n') : t));
  const dash = (s: string) => (s.startsWith('fit') ? [8, 3, 2, 3] : s.includes('ΣA') ? [1, 2] : [4, 3]);
  const spec: TopLevelSpec = {
    $schema: VEGA_LITE_SCHEMA,
    data: { values: rows },
    facet: { column: { field: 'facet', type: 'nominal', title: null, sort: facets, header: { labelFontSize: 12, labelLimit: 0 } } },
    spec: {
      width,
      height: 280,
      layer: [
        filtered(
          "datum.series !== 'simulation' && datum.series !== 'exact'",
          { type: 'line' },
          {
            x,
            ...colour,
            y: y('scaledError'),
            strokeDash: {
              field: 'series',
              type: 'nominal',
              title: curveLegendTitle(lineSeries),
              legend: { symbolSize: 600, labelLimit: 300, titleLimit: 300 },
              scale: { domain: lineSeries, range: lineSeries.map(dash) },
            },
            tooltip: [
              tip('d', 'd'),
              tip('lambda', 'λ'),
              tip('n', 'n'),
              { field: 'series', title: 'curve' },
              tip('scaledError', 'n · (E[T]_n − E[T]_∞)'),
            ],
          },
        ),
        {
          transform: [{ filter: "datum.series === 'simulation'" }],
          mark: { type: 'errorbar', ticks: true },
          encoding: { x, y: y('scaledLoDrawn'), y2: { field: 'scaledHiDrawn' }, ...colour, tooltip: simTip },
        },
        {
          ...filtered(
            "datum.series === 'simulation' && datum.inRange === 1",
            { type: 'point', size: 40, filled: true },
            { x, y: y('scaledError'), ...colour, tooltip: simTip },
          ),
          params: [{ name: 'zoom', select: 'interval', bind: 'scales' }],
        },
        ...(hasExact ? [exactPointLayer(x, y('scaledError'), 'scaledError', 'n · (exact E[T]_n − E[T]_∞)')] : []),
      ],
    },
    title: titleBlock(
      'The 1/n coefficient as a level: n · (E[T]_n − E[T]_∞), simulation ± 95% CI (points)' +
        (lineSeries.some((s) => s.startsWith('refined')) ? ', refined ΣV/λ (dashed) and ΣV/λ + ΣA/(λn) (dotted)' : '') +
        (lineSeries.some((s) => s.startsWith('fit')) ? ', fit ĉ₁ + ĉ₂/n (dash-dotted)' : '') +
        (hasExact ? ', exact chain (diamonds)' : ''),
      facets.length * (width + 60),
    ),
  } as unknown as TopLevelSpec;
  return {
    name: 'scaled-error',
    title: 'The 1/n coefficient: n · (E[T]_n − E[T]_∞)',
    caption:
      'The convergence figure multiplied by n (log n, linear y): where E[T]_n − E[T]∞ ≈ c₁/n + c₂/n², the points settle on the level ' +
      'c₁ as n grows and approach it along c₁ + c₂/n. Dashed: the refined level c₁ = ΣV/λ (Gast & Van Houdt 2017); dotted: the ' +
      'second-order curve ΣV/λ + ΣA/(λn) (Gast, Bortolussi, Tribastone 2019) where A is computed; dash-dotted (models without V): ' +
      'the fit ĉ₁ + ĉ₂/n to the same points (least squares with fixed coefficients), ĉ₁ the fitted coefficient of 1/n, fitted on the n its legend entry names. Bars: n × the 95% CI of the convergence figure, so they widen with n at a fixed budget; ' +
      'the y range fits the curves and the points whose bars are at most twice their size; longer bars end at the border and points beyond it are not drawn (values in the CSV and JSON).',
    rows,
    spec,
  };
}

/** LWL(d) workload ccdf P(U > w) (log y): mean field (line) and time-average simulation ± 95% CI for a few n. */
export function workloadFigure(result: ComparisonResult, floor = 1e-5): Figure {
  const shownN = spread(result.config.ns, 3);
  const rows: Row[] = [];
  for (const m of result.models) {
    if (!m.workload) continue;
    const panel = panelOf(m);
    m.workload.grid.forEach((w, k) => {
      const v = m.workload!.ccdf[k];
      rows.push({ panel, d: m.d, lambda: m.lambda, w, series: 'mean field', n: null, value: v, lo: null, hi: null });
    });
    for (const c of result.cells) {
      if (c.d !== m.d || c.lambda !== m.lambda || !shownN.includes(c.n) || !c.simulation.workloadCcdf) continue;
      c.simulation.workloadCcdf.grid.forEach((w, k) => {
        const e = c.simulation.workloadCcdf!.ccdf[k];
        rows.push({ panel, d: c.d, lambda: c.lambda, w, ...simulatedPoint(c.n, e) });
      });
    }
  }
  const solvers = [...new Set(result.models.filter((m) => m.workload).map((m) => m.workload!.solver))].join('; ');
  const x = { field: 'w', type: 'quantitative', title: `workload w (${unitOf(result)})` };
  const yTitle = 'P(U > w) (servers with work > w)';
  const tooltip = [tip('d', 'd'), tip('lambda', 'λ'), { field: 'series', title: 'curve' }, tip('w', 'w'), tip('value', 'P(U > w)')];
  const spec = panelledSpec(rows, {
    columns: result.config.lambdas.length,
    size: { width: 250, height: 210 },
    order: panelOrder(rows),
    transform: [{ filter: `datum.value >= ${floor}` }],
    layer: [
      filtered(
        "datum.series === 'mean field'",
        { type: 'line', color: 'black', strokeWidth: 1.5 },
        { x, y: { field: 'value', type: 'quantitative', scale: { type: 'log' }, title: yTitle, axis: logAxis(floor) }, tooltip },
      ),
      ...ciLayers({
        filter: "datum.series !== 'mean field'",
        x,
        shared: { color: { field: 'n', type: 'ordinal', title: 'n', scale: N_COLOURS } },
        mark: { type: 'point', filled: false, size: 26 },
        yTitle,
        loFloor: `${floor / 2}`,
        encoding: {
          tooltip: [...tooltip, tip('lo', '95% CI low'), tip('hi', '95% CI high')],
        },
      }),
    ],
    title: 'LWL(d) workload ccdf: mean field (black) vs simulation ± 95% CI (circles)',
  });
  return {
    name: 'workload-ccdf',
    title: 'Workload ccdf F̄(w) = P(U > w)',
    caption:
      `Fraction of servers whose unfinished work exceeds w, log scale. Black: the mean-field equilibrium (${solvers}); ` +
      `it is the same under every work-conserving discipline (theory.md §4). Circles with bars: time-average simulation estimate and ` +
      `95% CI for n ∈ {${shownN.join(', ')}}. Values below ${floor.toExponential(0)} are not drawn (the CSV holds them all).`,
    rows,
    spec,
  };
}

/** Texts of the transient figure per mean-field transient (its levels: the drawn ones, `TRANSIENT_DRAWN`). */
const TRANSIENT_TEXT = {
  ODE: {
    levels: TRANSIENT_DRAWN.levels.ODE,
    size: { width: 230, height: 180 },
    yTitle: 's_i(t)',
    title: 'Transient from empty',
    heading: {
      text: 'Transient from empty: s_1, s_2, s_3 (top to bottom); ODE dashed black, simulation coloured',
      subtitle: [],
    },
    /** Added to the heading where refined curves are drawn (never promised where they are not). */
    refinedHeading: ', refined s(t) + V(t)/n dotted',
    caption: () =>
      'Fraction of servers with at least i jobs over time, starting from an empty system. Black: the SQ(d) ODE solved with odex ' +
      '(tolerance 1e-10), dashed. Coloured: the simulated fractions averaged over replications for each n; small n sit above the ODE.',
    refinedCaption:
      ' Dotted, in the colour of its n: the refined mean field s_i(t) + V_i(t)/n (theory.md §6, refined transients), the linearised V, W ' +
      'system integrated beside the ODE.',
    noRefinedCaption: ' No refined curve s_i(t) + V_i(t)/n is drawn: this model has no refined transient (theory.md §6).',
  },
  PIDE: {
    levels: TRANSIENT_DRAWN.levels.PIDE,
    size: { width: 250, height: 190 },
    yTitle: 'busy fraction P(U(t) > 0)',
    title: 'Transient from empty (busy fraction)',
    heading: { text: 'LWL(d) busy fraction from empty', subtitle: ['PIDE dashed black; simulation (mean over replications) coloured'] },
    caption: (notes: string) =>
      `Fraction of busy servers over time from an empty system. Dashed black: the LWL(d) mean-field PIDE (${notes}); its ` +
      'E[U](t) is in transient.json of results.json (the simulated trajectories record occupancy, not work). Coloured: the simulated ' +
      'fraction of servers with at least one job, averaged over replications, for each n.',
  },
} as const;

/**
 * The refined curve's words: the linearised V, W system integrated beside the ODE, except at d = 1, where V(t) = 0
 * exactly (independent M/M/1 servers, a linear drift: `refinedTransient` integrates nothing), so the dotted curve is the
 * ODE itself; said alone when every panel is d = 1, beside the d ≥ 2 words otherwise.
 */
function refinedWords(result: TransientInputs, caption: string): string {
  const ds = new Set(result.trajectories.filter((t) => t.simulated.some((s) => s.refined)).map((t) => t.d));
  if (!ds.has(1)) return caption;
  const d1 =
    'at d = 1 V(t) = 0 exactly (random routing: independent M/M/1 servers, a linear drift), so nothing is integrated and the ' +
    'dotted curve is the ODE itself';
  if (ds.size === 1)
    return ` Dotted, in the colour of its n: the refined mean field s_i(t) + V_i(t)/n (theory.md §6, refined transients): ${d1}.`;
  return `${caption.slice(0, -1)}; ${d1}.`;
}

/** The end of the trajectory grid in words: --t-end when given, else the automatic end (compare/plan.ts `trajectoryGrid`). */
function gridEnd(result: TransientInputs): string {
  const tEnd = result.config.trajectory?.tEnd ?? 0; // no trajectory settings (null, or absent in a hand-built result): automatic
  return tEnd > 0 ? `--t-end ${tEnd}` : 'automatic: min(400, max(10, 1.2 × the warm-up from empty)) time units';
}

/**
 * What the transient figure reads of a comparison: its config, trajectories, and per model its model, d, λ and
 * relaxation time; known once the models are solved and their trajectories simulated, before any cell (the CLI draws
 * it then, while the cells run: cli/comparePool.ts).
 */
export type TransientInputs = Pick<ComparisonResult, 'config' | 'trajectories'> & {
  readonly models: readonly Pick<ModelSummary, 'model' | 'd' | 'lambda' | 'relaxationTime'>[];
};

/** The report's transient figure (`transientFigure`, times named in each row), as `comparisonFigures` lists it. */
export function reportTransientFigure(result: TransientInputs): Figure {
  return withTimeUnit(transientFigure(result), result);
}

/** Mean-field transient from empty (dashed black) vs simulated s_i(t) for a few n: s_1..s_3 by the SQ(d) ODE, the busy fraction s_1 by the LWL(d) PIDE. */
export function transientFigure(result: TransientInputs): Figure {
  const solver = result.trajectories[0]?.solver ?? 'ODE';
  const text = TRANSIENT_TEXT[solver];
  // with batches of K > 1 the PIDE is LL(d,K)'s (theory.md §15: batch sampling in place of u ↦ u^d)
  const batch = result.config.model?.batch;
  const renamePide = (words: string) => (batch === undefined || batch === 1 ? words : words.replaceAll('LWL(d)', 'LL(d,K)'));
  const limitSource = `${solver} (n = ∞)`;
  const rows: Row[] = [];
  const ranges: string[] = [];
  for (const tr of result.trajectories) {
    const panel = panelOf(tr);
    const tau = result.models.find((m) => m.d === tr.d && m.lambda === tr.lambda)?.relaxationTime ?? null;
    // the range the plan fixed (compare/plan.ts `transientRange`): with the automatic horizon, what was simulated
    const tShown = tr.drawnTo;
    // a range short of 3τ is the grid's end (automatic: at most 400 time units), said, not left to read as 3τ
    const short = tau !== null && tShown < TRANSIENT_DRAWN.relaxations * tau - TRANSIENT_DRAWN.step;
    ranges.push(
      `${panel}: t ≤ ${tShown}${tau === null ? '' : short ? `, the grid's end, short of ${TRANSIENT_DRAWN.relaxations}τ = ${(TRANSIENT_DRAWN.relaxations * tau).toPrecision(4)} (τ = ${tau.toPrecision(3)})` : ` (τ = ${tau.toPrecision(3)})`}`,
    );
    const add = (source: string, value: (j: number, i: number) => { value: number; lo: number | null; hi: number | null }) =>
      tr.times.forEach((t, j) => {
        if (t > tShown) return;
        for (const i of text.levels) rows.push({ panel, d: tr.d, lambda: tr.lambda, t, i, level: `s_${i}`, source, ...value(j, i) });
      });
    add(limitSource, (j, i) => ({ value: tr.meanField.tail[j][i] ?? 0, lo: null, hi: null }));
    for (const s of tr.simulated) {
      add(`simulation n = ${s.n}`, (j, i) => ({ value: s.tail[j][i].mean, lo: s.tail[j][i].ci95[0], hi: s.tail[j][i].ci95[1] }));
      const refined = s.refined;
      if (refined) add(`refined n = ${s.n}`, (j, i) => ({ value: refined[j][i] ?? 0, lo: null, hi: null }));
    }
  }
  const simulatedNs = [...new Set(result.trajectories.flatMap((t) => t.simulated.map((s) => s.n)))];
  const palette = ['#e45756', '#4c78a8', '#54a24b', '#f58518'];
  const hasRefined = result.trajectories.some((t) => t.simulated.some((s) => s.refined));
  // a refined curve takes its simulation's colour, dotted: the two are read as a pair
  const sources = simulatedNs.map((n) => `simulation n = ${n}`).concat(hasRefined ? simulatedNs.map((n) => `refined n = ${n}`) : []);
  const colours = simulatedNs.map((_, k) => palette[k % palette.length]);
  const range = hasRefined ? [...colours, ...colours] : colours;
  // parity label overlap: a panel's last tick label must not run into the one before it ("350400")
  const x = { field: 't', type: 'quantitative', title: `time t (${unitOf(result)})`, axis: { labelOverlap: true, labelSeparation: 6 } };
  const y = { field: 'value', type: 'quantitative', title: text.yTitle };
  // dotted refined curves in the legend too: one strokeDash scale over the same sources merges with the colour legend
  const dash = {
    field: 'source',
    type: 'nominal',
    title: null,
    scale: { domain: sources, range: sources.map((s) => (s.startsWith('refined') ? [1.5, 2] : [1, 0])) },
  };
  const tooltip = [
    tip('d', 'd'),
    tip('lambda', 'λ'),
    { field: 'source', title: 'curve' },
    { field: 'level', title: 'level' },
    tip('t', 't'),
    tip('value', 'value'),
  ];
  const spec = panelledSpec(rows, {
    columns: result.config.lambdas.length,
    size: text.size,
    order: panelOrder(rows),
    layer: [
      filtered(
        `indexof(datum.source, 'simulation') === 0`,
        { type: 'line', strokeWidth: 1, opacity: 0.85 },
        {
          x,
          y,
          color: { field: 'source', type: 'nominal', title: null, scale: { domain: sources, range }, legend: { labelLimit: 300 } },
          ...(hasRefined ? { strokeDash: dash } : {}),
          detail: { field: 'level' },
          tooltip,
        },
      ),
      ...(hasRefined
        ? [
            filtered(
              `indexof(datum.source, 'refined') === 0`,
              { type: 'line', strokeWidth: 1.4 },
              {
                x,
                y,
                color: { field: 'source', type: 'nominal', title: null, scale: { domain: sources, range } },
                strokeDash: dash,
                detail: { field: 'level' },
                tooltip,
              },
            ),
          ]
        : []),
      filtered(
        `datum.source === '${limitSource}'`,
        { type: 'line', strokeWidth: 1.6, color: 'black', strokeDash: [5, 2] },
        { x, y, detail: { field: 'level' }, tooltip },
      ),
    ],
    title: renamePide(text.heading.text + ('refinedHeading' in text && hasRefined ? text.refinedHeading : '')),
    subtitle: [...text.heading.subtitle],
  });
  return {
    name: 'transient',
    title: text.title,
    caption:
      renamePide(text.caption([...new Set(result.trajectories.map((t) => t.note))].join('; '))) +
      ('refinedCaption' in text ? (hasRefined ? refinedWords(result, text.refinedCaption) : text.noRefinedCaption) : '') +
      ` Drawn to ${TRANSIENT_DRAWN.relaxations} relaxation times τ of the mean field or past its settling within ` +
      `${100 * TRANSIENT_DRAWN.settleTolerance}%, whichever is later, and no further than the trajectory grid's end ` +
      `(${gridEnd(result)}) (${ranges.join('; ')}); with the automatic horizon the ` +
      'trajectories are simulated that far and no further; the CSV holds the drawn range, results.json every simulated instant.',
    rows,
    spec,
  };
}

/**
 * Mean-field E[T] against λ for several d (SQ(d) FIFO exponential, log y) with the heavy-traffic asymptote
 * log(1/(1 − λ))/log d (dashed), and the simulated E[T] ± 95% CI at the sweep's largest n (points).
 */
export function loadFigure(result: ComparisonResult): Figure | null {
  const curves = result.loadCurves;
  if (!curves || curves.length === 0) return null;
  const rows: Row[] = [];
  const meanS = result.models[0]?.model.service.mean ?? 1;
  // in the model's time units: E[S]·log(1/(1 − ρ))/log d, ρ = λE[S] (the unit-mean form when E[S] = 1)
  const asymptote = meanS === 1 ? 'log(1/(1−λ))/log d' : `${meanS}·log(1/(1−${meanS}λ))/log d`;
  for (const c of curves) {
    const label = `d = ${c.d}`;
    c.lambda.forEach((lambda, k) => {
      rows.push({ d: c.d, label, lambda, series: 'mean field', value: c.meanResponseTime[k], lo: null, hi: null, n: null });
      if (lambda * meanS >= 0.5 && c.heavyTraffic[k] > 0)
        rows.push({
          d: c.d,
          label,
          lambda,
          series: `heavy traffic ${asymptote}`,
          value: c.heavyTraffic[k],
          lo: null,
          hi: null,
          n: null,
        });
    });
  }
  const nMax = Math.max(...result.cells.map((c) => c.n));
  for (const c of result.cells.filter((x) => x.n === nMax)) {
    const e = c.simulation.meanResponseTime;
    rows.push({
      d: c.d,
      label: `d = ${c.d}`,
      lambda: c.lambda,
      series: `simulation, n = ${nMax}`,
      value: e.mean,
      // the interval as simulated, inside the parameter space (E[T] ≥ E[S]/μ_max, sim/simulate.ts `feasible`): mean ± h
      // reached below E[S], and to ≤ 0 on the log axis, at low loads and small budgets
      lo: e.ci95[0],
      hi: e.ci95[1],
      n: nMax,
    });
  }
  const ds = curves.map((c) => `d = ${c.d}`);
  const colour = { color: { field: 'label', type: 'nominal', title: 'servers sampled', scale: { domain: ds } } };
  const x = {
    field: 'lambda',
    type: 'quantitative',
    title: meanS === 1 ? 'arrival rate λ per server (= load ρ)' : `arrival rate λ per server (load ρ = λ·E[S], E[S] = ${meanS})`,
    scale: { domain: [0, 1 / meanS] },
  };
  const yTitle = `mean response time E[T] (${unitOf(result)}, log)`;
  const y = (field: string) => ({ field, type: 'quantitative', scale: { type: 'log' }, title: yTitle });
  const tooltip = [{ field: 'series', title: 'curve' }, tip('d', 'd'), tip('lambda', 'λ'), tip('value', 'E[T]')];
  const spec = {
    $schema: VEGA_LITE_SCHEMA,
    data: { values: rows },
    width: 420,
    height: 300,
    layer: [
      filtered("datum.series === 'mean field'", { type: 'line', strokeWidth: 1.6 }, { x, y: y('value'), ...colour, tooltip }),
      filtered(
        "indexof(datum.series, 'heavy') === 0",
        { type: 'line', strokeWidth: 1.2, strokeDash: [5, 3] },
        { x, y: y('value'), ...colour, tooltip },
      ),
      {
        transform: [{ filter: "indexof(datum.series, 'simulation') === 0" }],
        mark: { type: 'errorbar', ticks: true },
        encoding: {
          x,
          y: y('lo'),
          y2: { field: 'hi' },
          ...colour,
          tooltip: [...tooltip, tip('lo', '95% CI low'), tip('hi', '95% CI high')],
        },
      },
      {
        ...filtered(
          "indexof(datum.series, 'simulation') === 0",
          { type: 'point', filled: false, size: 45 },
          {
            x,
            y: y('value'),
            ...colour,
            tooltip: [...tooltip, tip('n', 'n'), tip('lo', '95% CI low'), tip('hi', '95% CI high')],
          },
        ),
        params: [{ name: 'zoom', select: 'interval', bind: 'scales' }],
      },
    ],
    title: titleBlock(
      `E[T] against λ: mean field (solid) and heavy-traffic asymptote ${asymptote} (dashed) for d ∈ {${curves.map((c) => c.d).join(', ')}}; simulation at n = ${nMax} ± 95% CI (circles)`,
      480,
    ),
  } as unknown as TopLevelSpec;
  return {
    name: 'load',
    title: 'Mean response time against the load',
    caption:
      'Mean-field E[T] of JSQ(d) FIFO with exponential sizes against λ (fixed point s_i* = λ^((d^i−1)/(d−1)), E[T] = Σ_{i≥1} s_i*/λ), ' +
      `log y, for several d, with the heavy-traffic asymptote E[T] ~ ${asymptote} (Mitzenmacher 2001), dashed, drawn from ` +
      `load ρ = λE[S] = 0.5; the ratio of the two tends to 1 as ρ → 1. Times in ${unitOf(result)}. Circles: the simulated E[T] ± 95% CI at the sweep's largest n (${nMax}).`,
    rows,
    spec,
  };
}

/**
 * Response-time ccdf P(T > t) (log y) per (d, λ): the mean field (every exact or approximate law, `ModelSummary.responseTime`)
 * and the simulation's pooled percentiles p50, p95, p99 as points (t = q_p, P = 1 − p) with their 95% CI along t.
 */
export function responseTimeFigure(result: ComparisonResult, floor = 1e-3): Figure | null {
  const withCurve = result.models.filter((m) => m.responseTime);
  if (withCurve.length === 0) return null;
  const shownN = spread(result.config.ns, 3);
  const rows: Row[] = [];
  for (const m of withCurve) {
    const panel = panelOf(m);
    const first = rows.length;
    m.responseTime!.times.forEach((t, k) =>
      rows.push({ panel, d: m.d, lambda: m.lambda, series: 'mean field', n: null, t, value: m.responseTime!.ccdf[k], lo: null, hi: null }),
    );
    for (const c of result.cells) {
      const ccdf = c.simulation.responseTimeCcdf;
      if (c.d !== m.d || c.lambda !== m.lambda || !ccdf) continue;
      // the finite-n empirical ccdf at every n of the sweep: P(T > t_p) = 1 − p at the pooled quantiles
      ccdf.t.forEach((t, k) =>
        rows.push({
          panel,
          d: c.d,
          lambda: c.lambda,
          series: `empirical ccdf, n = ${c.n}`,
          n: c.n,
          t,
          value: 1 - ccdf.p[k],
          lo: null,
          hi: null,
        }),
      );
    }
    for (const c of result.cells) {
      const q = c.simulation.responseTimePercentiles;
      if (c.d !== m.d || c.lambda !== m.lambda || !shownN.includes(c.n) || !q) continue;
      for (const [p, e] of [
        [0.5, q.p50],
        [0.95, q.p95],
        [0.99, q.p99],
      ] as const)
        rows.push({
          panel,
          d: c.d,
          lambda: c.lambda,
          series: `simulation, n = ${c.n}`,
          n: c.n,
          value: 1 - p,
          // an interval open above (p + h ≥ 1: stats/tInterval.ts cdfSectioningInterval): hi null, ci95Infinite
          ...estimateFields(e.mean, e.ci95, 't'),
        });
    }
    // an open end is drawn to the panel's right edge (the largest t plotted) and marked there ▷ (OPEN_END_RIGHT)
    const plotted = rows.slice(first).filter((r) => (r.value as number) >= floor);
    const right = Math.max(...plotted.map((r) => r.t as number));
    for (const r of plotted) if (r.ci95Infinite === true) r.hiDrawn = Math.max(right, r.t as number);
  }
  const hasSim = rows.some((r) => r.n !== null && !String(r.series).startsWith('empirical'));
  const hasCcdf = rows.some((r) => String(r.series).startsWith('empirical'));
  const x = { field: 't', type: 'quantitative', title: `response time t (${unitOf(result)})` };
  const yTitle = 'P(T > t)';
  const y = { field: 'value', type: 'quantitative', scale: { type: 'log', domainMin: floor / 2 }, title: yTitle, axis: logAxis(floor) };
  const colour = { color: { field: 'n', type: 'ordinal', title: 'n', scale: N_COLOURS } };
  const base = [tip('d', 'd'), tip('lambda', 'λ'), { field: 'series', title: 'curve' }, tip('t', 't'), tip('value', 'P(T > t)')];
  // the drawn upper end (hiDrawn where the interval is open) and the upper end in words (∞ where it is open)
  const HI_TEXT = [
    { calculate: 'datum.ci95Infinite === true ? datum.hiDrawn : datum.hi', as: 'hiEnd' },
    { calculate: `datum.ci95Infinite === true ? '∞' : format(datum.hi, '${TIP_FORMAT}')`, as: 'hiText' },
  ];
  const simTooltip = [...base, tip('lo', '95% CI low of t'), { field: 'hiText', title: '95% CI high of t' }];
  const spec = panelledSpec(rows, {
    columns: result.config.lambdas.length,
    size: { width: 230, height: 200 },
    order: panelOrder(rows),
    transform: [{ filter: `datum.value >= ${floor}` }],
    layer: [
      ...(hasCcdf
        ? [
            filtered(
              "indexof(datum.series, 'empirical') === 0",
              { type: 'line', strokeWidth: 1, opacity: 0.8 },
              { x, y, ...colour, detail: { field: 'series' }, tooltip: base },
            ),
          ]
        : []),
      filtered(
        "datum.series === 'mean field'",
        { type: 'line', color: 'black', strokeWidth: 2, strokeDash: [6, 3] },
        { x, y, tooltip: base },
      ),
      ...(hasSim
        ? [
            {
              transform: [{ filter: "indexof(datum.series, 'simulation') === 0" }, ...HI_TEXT],
              mark: { type: 'errorbar', ticks: true },
              encoding: {
                y,
                x: { ...x, field: 'lo' },
                x2: { field: 'hiEnd' },
                ...colour,
                tooltip: simTooltip,
              },
            },
            {
              transform: [{ filter: "indexof(datum.series, 'simulation') === 0 && datum.ci95Infinite === true" }, ...HI_TEXT],
              mark: { type: 'point', shape: 'triangle-right', filled: false, size: 45, strokeWidth: 1.2 },
              encoding: { y, x: { ...x, field: 'hiEnd' }, ...colour, tooltip: simTooltip },
            },
            {
              ...filtered(
                "indexof(datum.series, 'simulation') === 0",
                { type: 'point', filled: false, size: 35 },
                { x, y, ...colour, tooltip: simTooltip },
              ),
              params: [{ name: 'zoom', select: 'interval', bind: 'scales' }],
            },
          ]
        : []),
    ],
    title: hasCcdf
      ? 'Response-time ccdf: mean field (black, dashed) vs finite-n empirical ccdf (coloured lines); p50, p95, p99 ± 95% CI (circles)'
      : hasSim
        ? 'Response-time ccdf: mean field (black) vs simulated percentiles p50, p95, p99 ± 95% CI (circles)'
        : 'Response-time ccdf of the mean field',
  });
  return {
    name: 'response-time',
    title: 'Response-time distribution P(T > t)',
    caption:
      'Probability that a job spends more than t in the system, log y. Black dashed: the mean field, ' +
      `${[...new Set(withCurve.map((m) => m.responseTime!.solver ?? m.responseTime!.source))].join('; ')} ` +
      '(SQ(d): P(T > t) = Σ_m e^(−μt)(μt)^m/m! · (s_m*)^d, a job joining a server with m jobs waits for m + 1 services; LWL(d) FIFO: F̄_R = Ḡ + g ∗ F̄^d). ' +
      (hasCcdf
        ? `Coloured lines: the finite-n empirical ccdf of every n of the sweep (pooled jobs; P(T > t_p) = 1 − p at the pooled quantiles t_p, p = 0.02 … 0.98, 0.99, 0.995, 0.999; no intervals). `
        : '') +
      (hasSim
        ? `Circles: the simulated pooled percentiles p50, p95 and p99 (at P = 0.5, 0.05, 0.01) for n ∈ {${shownN.join(', ')}}, bars their 95% ` +
          `sectioning CI along t; a CI open above (too few jobs beyond the percentile: the sample bounds nothing there) runs to the panel's right edge and ends in an open triangle ${OPEN_END_RIGHT} (in the data: hi null, ci95Infinite true). `
        : '') +
      'The report\'s "Response-time quantiles" table sets these percentiles beside the mean field\'s t_p (shown, not judged: no finite-n term is predicted). Models whose mean-field law is a ' +
      'cavity simulation draw no curve.',
    rows,
    spec,
  };
}

/**
 * Every figure the result has data for: tail fractions, convergence, workload ccdf, transient. Models whose E[T] is
 * infinite in theory (model/moments.ts; `MeanFieldReference.infinite`) draw no E[T] point: the E[T] figures leave them
 * out and say so in their caption (no figure when no model is left).
 */
export function comparisonFigures(result: ComparisonResult): Figure[] {
  const figures: Figure[] = [];
  if (result.models.some((m) => m.reference.tail)) figures.push(tailFigure(result));
  const infinite = result.models.filter((m) => m.reference.infinite !== undefined || m.reference.meanResponseTime === Infinity);
  // a limit with no value (not settled, finite but not computed: compare/verdict.ts `UNVALUED`) has no E[T]∞ to draw an error against
  const unvalued = result.models.flatMap((m) => {
    const u = infinite.includes(m) ? null : unvaluedReference(m.reference);
    return u ? [{ m, ...u }] : [];
  });
  const left = [...infinite, ...unvalued.map((u) => u.m)];
  const finite: ComparisonResult = {
    ...result,
    models: result.models.filter((m) => !left.includes(m)),
    cells: result.cells.filter(
      (c) => c.verdict.status !== 'undefined' && !isUnvalued(c.verdict.status) && !left.some((m) => m.d === c.d && m.lambda === c.lambda),
    ),
  };
  const where = (ms: readonly ModelSummary[]) => ms.map((m) => `d = ${m.d}, λ = ${m.lambda}`).join('; ');
  const leftText =
    (infinite.length === 0
      ? ''
      : ` Not drawn: ${where(infinite)}, where E[T] is infinite in theory ` +
        `(${[...new Set(infinite.map((m) => m.reference.infinite ?? 'E[T]∞ = ∞'))].join('; ')}): "undefined (infinite)" in the tables.`) +
    UNVALUED_STATUSES.map((s) => {
      const these = unvalued.filter((u) => u.status === s);
      return these.length === 0
        ? ''
        : ` Not drawn: ${where(these.map((u) => u.m))}, where E[T]∞ is ${statusText(s)} ` +
            `(${[...new Set(these.map((u) => u.reason))].join('; ')}): "${statusText(s)}" in the tables, the cells simulated and shown there.`;
    }).join('');
  if (finite.cells.length > 0) {
    for (const f of [convergenceFigure(finite), scaledErrorFigure(finite)])
      figures.push(withTimeUnit({ ...f, caption: f.caption + leftText }, result));
  }
  if (result.models.some((m) => m.workload)) figures.push(withTimeUnit(workloadFigure(result), result));
  const load = loadFigure(result);
  if (load) figures.push(withTimeUnit(load, result));
  const responseTime = responseTimeFigure(result);
  if (responseTime) figures.push(withTimeUnit(responseTime, result));
  if (result.trajectories.length > 0) figures.push(reportTransientFigure(result));
  return figures;
}
