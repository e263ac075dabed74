/**
 * The figures of a comparison report (`runComparison`), as data + vega-lite specs: tail fractions (solvers with
 * tails; the refined π + V/n where it exists), convergence of E[T] against n, the LWL(d) workload ccdf, and the
 * transient from empty (SQ(d) ODE or LWL(d) PIDE).
 */
import type { TopLevelSpec } from 'vega-lite';
import type { ComparisonResult } from '../compare/index.ts';
import type { Estimate } from '../stats/index.ts';
import { convergenceRow, convergenceTooltip, exactPointLayer, refinementCaption, refinementConvergenceRows } from './refinementSection.ts';
import {
  VEGA_LITE_SCHEMA,
  ciLayers,
  facetOrder,
  filtered,
  panelledSpec,
  spread,
  logAxis,
  logFloor,
  OPEN_END,
  paddedLogDomain,
  ticksAt,
  titleBlock,
  type Figure,
  type Row,
} from './figures.ts';

const fmtLambda = (x: number) => `λ = ${x}`;
const panelOf = (x: { d: number; lambda: number }) => `d = ${x.d}, ${fmtLambda(x.lambda)}`;
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
  const tip = { tooltip: [{ field: 'panel' }, { field: 'series' }, { field: 'i' }, { field: 'value', format: '.3e' }] };
  const colour = { field: 'n', type: 'ordinal', title: 'n', scale: { scheme: 'category10' } };
  const layer = [
    filtered("datum.series === 'mean field'", { type: 'line', color: 'black', strokeWidth: 1.5 }, { x, y, ...tip }),
    ...(refined
      ? [
          filtered(
            "indexof(datum.series, 'refined') === 0",
            { type: 'line', strokeDash: [4, 3], strokeWidth: 1 },
            { x, y, color: colour, detail: { field: 'series' }, ...tip },
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
        tooltip: [
          ...tip.tooltip,
          { field: 'lo', title: '95% CI low', format: '.3e' },
          { field: 'hi', title: '95% CI high', format: '.3e' },
        ],
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

/**
 * |E[T]_n − E[T]_∞| against n on log–log axes, with the finite-n prediction dashed: the refined ΣV/(λn) where V exists,
 * else the fitted |ĉ₁|/n (from x̂_n = a + c₁/n (+ c₂/n²)); bars combine the simulation's CI with the reference's own.
 */
export function convergenceFigure(result: ComparisonResult): Figure {
  const refined = result.judgedBy === 'refined-mean-field';
  const rows: Row[] = [];
  const nLo = Math.min(...result.config.ns);
  const nHi = Math.max(...result.config.ns);
  for (const m of result.models) {
    const base = { d: m.d, facet: `d = ${m.d}`, lambda: m.lambda, label: fmtLambda(m.lambda) };
    for (const c of result.cells.filter((x) => x.d === m.d && x.lambda === m.lambda)) {
      const h = Math.hypot(c.simulation.meanResponseTime.halfWidth, m.reference.halfWidth);
      rows.push(convergenceRow(base, c.n, 'simulation', c.errors.meanResponseTime, h, true));
      if (m.refined) rows.push(convergenceRow(base, c.n, 'refined ΣV/(λn)', m.refined.sumV / (m.lambda * c.n)));
    }
    rows.push(...refinementConvergenceRows(result, m, base));
    if (!m.refined && m.fit && m.fit.c1 !== 0) {
      for (let j = 0; j <= 24; j++) {
        const n = nLo * (nHi / nLo) ** (j / 24);
        rows.push(convergenceRow(base, n, 'fitted |ĉ₁|/n', m.fit.c1 / n));
      }
    }
  }
  const allNs = [
    ...new Set([
      ...result.config.ns,
      ...result.cells.map((c) => c.n),
      ...result.models.flatMap((m) => m.exact?.points.map((p) => p.n) ?? []),
    ]),
  ].sort((a, b) => a - b);
  const x = {
    field: 'n',
    type: 'quantitative',
    // padded: the points at the smallest and largest n would sit on the plot's border, half cut off
    scale: { type: 'log', domain: paddedLogDomain(allNs), nice: false },
    title: 'servers n',
    axis: {
      values: ticksAt(allNs),
      labelFlush: true,
      labelOverlap: 'greedy',
      // compact thousands ("1k", "10k"): "500" and "1,000" are 24 px apart on a 300 px log axis and would hide one another
      labelExpr: "datum.value >= 1000 ? format(datum.value / 1000, '~g') + 'k' : format(datum.value, '~g')",
    },
  };
  const lineSeries = Object.keys(LINE_DASH).filter((s) => rows.some((r) => r.series === s));
  const hasExact = rows.some((r) => r.series === 'exact');
  const yTitle = '|E[T]_n − E[T]_∞| (time units)';
  // a CI reaching 0 has no lower end on a log axis: its bar is cut at the axis bottom and marked there
  const floor = logFloor(rows.flatMap((r) => [r.error, r.lo]).filter((v): v is number => typeof v === 'number'));
  const cut = rows.some((r) => r.series === 'simulation' && typeof r.lo === 'number' && r.lo < floor);
  const cutNote = `${OPEN_END} at the axis bottom: 95% CI reaches 0 (bar cut there)`;
  const cutCaption =
    ` A bar ending in an open triangle ${OPEN_END} at the bottom of the axis is a 95% interval reaching 0 or below ` +
    '(|err| ≤ half-width), which a log axis cannot draw: the bar is cut at the axis, its lower end is 0.';
  const facets = facetOrder(rows, 'facet', ['d']);
  const width = 300;
  const colour = { color: { field: 'label', type: 'nominal', title: 'arrival rate', legend: { labelLimit: 300 } } };
  const solver = [...new Set(result.models.map((m) => `${m.reference.solver} (${m.reference.kind})`))].join('; ');
  const slopes = [...new Set(result.models.map((m) => m.d))].map(
    (d) =>
      `fitted slopes, d = ${d}: ` +
      result.models
        .filter((m) => m.d === d)
        .map((m) => `λ = ${m.lambda}: ${m.slope ? m.slope.slope.toFixed(2) : 'n/a'}`)
        .join(', '),
  );
  const spec: TopLevelSpec = {
    $schema: VEGA_LITE_SCHEMA,
    data: { values: rows },
    facet: { column: { field: 'facet', type: 'nominal', title: null, sort: facets, header: { labelFontSize: 12, labelLimit: 0 } } },
    spec: {
      width,
      height: 260,
      layer: [
        filtered(
          "datum.series !== 'simulation' && datum.series !== 'exact'",
          { type: 'line' },
          {
            x,
            ...colour,
            y: { field: 'error', type: 'quantitative', scale: { type: 'log' }, title: yTitle },
            strokeDash: {
              field: 'series',
              type: 'nominal',
              title: 'prediction',
              // a longer legend stroke, so that the dash-dot of the fit is told from the dashes
              legend: { symbolSize: 600, labelLimit: 300 },
              // only the series drawn: a model without V has no refined lines to list
              scale: { domain: lineSeries, range: lineSeries.map((s) => LINE_DASH[s]) },
            },
            tooltip: [{ field: 'series' }, { field: 'label' }, { field: 'n', format: '.0f' }, { field: 'signedError', format: '.4f' }],
          },
        ),
        ...ciLayers({
          filter: "datum.series === 'simulation'",
          x,
          shared: colour,
          valueField: 'error',
          axisFloor: floor,
          mark: { type: 'point', size: 40 },
          yTitle,
          encoding: {
            shape: {
              field: 'resolved',
              type: 'nominal',
              title: '|err| > 3h',
              scale: { domain: ['yes', 'no'], range: ['circle', 'cross'] },
            },
            tooltip: convergenceTooltip({ title: 'E[T]_n − E[T]_∞', format: '.4f' }, { title: '95% half-width', format: '.4f' }, [
              { field: 'resolved' },
            ]),
          },
        }),
        ...(hasExact ? [exactPointLayer(x, yTitle)] : []),
      ],
    },
    title: titleBlock(
      (refined
        ? 'Convergence of E[T]: simulation − mean field (points ± 95% CI) vs refined prediction ΣV/(λn) (dashed)'
        : 'Convergence of E[T]: |simulation − mean field| ± 95% CI (points), fitted |ĉ₁|/n (dash-dotted)') +
        (hasExact ? ', exact n-server chain (black diamonds)' : ''),
      facets.length * (width + 60),
      [...slopes, ...(refined ? [] : [`reference: ${solver}`]), ...(cut ? [cutNote] : [])],
    ),
  } as unknown as TopLevelSpec;
  return {
    name: 'convergence',
    title: 'Convergence of the mean response time',
    caption: refined
      ? 'Absolute difference between the simulated mean response time and its mean-field limit, against n, log–log. ' +
        'Dashed lines: the refined mean-field prediction ΣV/(λn), slope −1. Points: simulation with 95% CI; crosses mark n where the ' +
        'difference is not resolved (|err| ≤ 3 × CI half-width) and is left out of the slope fit.' +
        cutCaption +
        refinementCaption(result)
      : `Absolute difference between the simulated mean response time and the mean-field reference (${solver}), against n, log–log. ` +
        "Bars: the 95% CI of the simulation combined with the reference's own CI (cavity results). Dash-dotted: |ĉ₁|/n with ĉ₁ from the weighted fit " +
        'x̂_n = a + c₁/n (+ c₂/n²) over the sweep (no refined term V exists for this model). Crosses mark n where the difference is not ' +
        'resolved (|err| ≤ 3 × half-width) and is left out of the slope fit.' +
        cutCaption +
        refinementCaption(result),
    rows,
    spec,
  };
}

/**
 * The predictions of the convergence figure and their dashes, in legend order: the refined first order dashed, its
 * second order dotted, the fitted |ĉ₁|/n dash-dotted (a fit, not a prediction from V: it must not look like one).
 */
const LINE_DASH: Record<string, number[]> = {
  'refined ΣV/(λn)': [4, 3],
  'refined 2nd order': [1, 2],
  'fitted |ĉ₁|/n': [8, 3, 2, 3],
};

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
  const x = { field: 'w', type: 'quantitative', title: 'workload w (mean service times)' };
  const yTitle = 'P(U > w) (servers with work > w)';
  const tooltip = [
    { field: 'panel' },
    { field: 'series' },
    { field: 'w', format: '.3f' },
    { field: 'value', title: 'P(U > w)', format: '.3e' },
  ];
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
        shared: { color: { field: 'n', type: 'ordinal', title: 'n', scale: { scheme: 'category10' } } },
        mark: { type: 'point', filled: false, size: 26 },
        yTitle,
        loFloor: `${floor / 2}`,
        encoding: {
          tooltip: [...tooltip, { field: 'lo', title: '95% CI low', format: '.3e' }, { field: 'hi', title: '95% CI high', format: '.3e' }],
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

/** Texts of the transient figure per mean-field transient. */
const TRANSIENT_TEXT = {
  ODE: {
    levels: [1, 2, 3],
    size: { width: 230, height: 180 },
    yTitle: 's_i(t)',
    title: 'Transient from empty',
    heading: {
      text: 'Transient from empty: s_1, s_2, s_3 (top to bottom); ODE dashed black, simulation coloured, refined s(t) + V(t)/n dotted',
      subtitle: [],
    },
    caption: () =>
      'Fraction of servers with at least i jobs over time, starting from an empty system. Black: the SQ(d) ODE solved with odex ' +
      '(tolerance 1e-10), dashed. Coloured: the simulated fractions averaged over replications for each n; small n sit above the ODE. Dotted, in the ' +
      'colour of its n: the refined mean field s_i(t) + V_i(t)/n (theory.md §6, refined transients), the linearised V, W system integrated beside the ODE.',
  },
  PIDE: {
    levels: [1],
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

/** Mean-field transient from empty (dashed black) vs simulated s_i(t) for a few n: s_1..s_3 by the SQ(d) ODE, the busy fraction s_1 by the LWL(d) PIDE. */
export function transientFigure(result: ComparisonResult): Figure {
  const solver = result.trajectories[0]?.solver ?? 'ODE';
  const text = TRANSIENT_TEXT[solver];
  const limitSource = `${solver} (n = ∞)`;
  const rows: Row[] = [];
  for (const tr of result.trajectories) {
    const panel = panelOf(tr);
    const add = (source: string, value: (j: number, i: number) => { value: number; lo: number | null; hi: number | null }) =>
      tr.times.forEach((t, j) => {
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
  const x = { field: 't', type: 'quantitative', title: 'time t (mean service times)', axis: { labelOverlap: true, labelSeparation: 6 } };
  const y = { field: 'value', type: 'quantitative', title: text.yTitle };
  // dotted refined curves in the legend too: one strokeDash scale over the same sources merges with the colour legend
  const dash = {
    field: 'source',
    type: 'nominal',
    title: null,
    scale: { domain: sources, range: sources.map((s) => (s.startsWith('refined') ? [1.5, 2] : [1, 0])) },
  };
  const tooltip = [
    { field: 'panel' },
    { field: 'source' },
    { field: 'level' },
    { field: 't', format: '.2f' },
    { field: 'value', format: '.4f' },
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
    title: text.heading.text,
    subtitle: [...text.heading.subtitle],
  });
  return {
    name: 'transient',
    title: text.title,
    caption: text.caption([...new Set(result.trajectories.map((t) => t.note))].join('; ')),
    rows,
    spec,
  };
}

/** Every figure the result has data for: tail fractions, convergence, workload ccdf, transient. */
export function comparisonFigures(result: ComparisonResult): Figure[] {
  const figures: Figure[] = [];
  if (result.models.some((m) => m.reference.tail)) figures.push(tailFigure(result));
  figures.push(convergenceFigure(result));
  if (result.models.some((m) => m.workload)) figures.push(workloadFigure(result));
  if (result.trajectories.length > 0) figures.push(transientFigure(result));
  return figures;
}
