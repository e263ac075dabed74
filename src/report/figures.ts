/**
 * The figures of the validation report as data + vega-lite specs (no rendering, no I/O here).
 * Each figure keeps its rows, so the CSV/JSON beside the plot is exactly what was drawn.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { ComparisonResult } from '../compare/index.ts';

export type Row = Record<string, number | string | null>;

export interface Figure {
  /** File stem, e.g. "tail-fractions". */
  readonly name: string;
  readonly title: string;
  /** One paragraph saying what is drawn and how to read it. */
  readonly caption: string;
  readonly rows: Row[];
  readonly spec: TopLevelSpec;
}

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const fmtLambda = (x: number) => `λ = ${x}`;

/** Picks up to `k` values spread over the sorted list (first, last, and some in between). */
function spread(values: readonly number[], k: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length <= k) return sorted;
  const picked = new Set<number>();
  for (let j = 0; j < k; j++) picked.add(sorted[Math.round((j * (sorted.length - 1)) / (k - 1))]);
  return [...picked];
}

/** Tail fractions s_i (log y): mean field, refined mean field at n, simulation with 95% CIs, per (d, λ). */
export function tailFigure(result: ComparisonResult, floor = 1e-6): Figure {
  const shownN = spread(result.config.ns, 3);
  const rows: Row[] = [];
  for (const m of result.models) {
    const panel = `d = ${m.d}, ${fmtLambda(m.lambda)}`;
    m.meanField.tail.forEach((s, i) => {
      if (i >= 1 && s >= floor) rows.push({ panel, d: m.d, lambda: m.lambda, i, series: 'mean field', n: null, value: s, lo: null, hi: null });
    });
  }
  for (const c of result.cells) {
    if (!shownN.includes(c.n)) continue;
    const panel = `d = ${c.d}, ${fmtLambda(c.lambda)}`;
    c.refined.tail.forEach((s, i) => {
      if (i >= 1 && s >= floor) rows.push({ panel, d: c.d, lambda: c.lambda, i, series: `refined, n = ${c.n}`, n: c.n, value: s, lo: null, hi: null });
    });
    c.simulation.tail.forEach((e, i) => {
      if (i >= 1 && e.mean >= floor) {
        rows.push({ panel, d: c.d, lambda: c.lambda, i, series: `simulation, n = ${c.n}`, n: c.n, value: e.mean,
          lo: Math.max(e.ci95[0], floor / 2), hi: e.ci95[1] });
      }
    });
  }
  const spec: TopLevelSpec = {
    $schema: SCHEMA,
    data: { values: rows },
    facet: { field: 'panel', type: 'nominal', title: null, sort: { field: 'panel' } },
    columns: Math.min(3, result.config.lambdas.length),
    spec: {
      width: 230, height: 200,
      layer: [
        { transform: [{ filter: "datum.series === 'mean field'" }], mark: { type: 'line', color: 'black', strokeWidth: 1.5 },
          encoding: { x: { field: 'i', type: 'quantitative', title: 'level i' },
            y: { field: 'value', type: 'quantitative', scale: { type: 'log' }, title: 's_i (fraction of servers with ≥ i jobs)' } } },
        { transform: [{ filter: "indexof(datum.series, 'refined') === 0" }], mark: { type: 'line', strokeDash: [4, 3], strokeWidth: 1 },
          encoding: { x: { field: 'i', type: 'quantitative' }, y: { field: 'value', type: 'quantitative', scale: { type: 'log' } },
            color: { field: 'n', type: 'ordinal', title: 'n', scale: { scheme: 'category10' } }, detail: { field: 'series' } } },
        { transform: [{ filter: "indexof(datum.series, 'simulation') === 0" }], mark: { type: 'errorbar', ticks: true },
          encoding: { x: { field: 'i', type: 'quantitative' }, y: { field: 'lo', type: 'quantitative', scale: { type: 'log' }, title: null }, y2: { field: 'hi' },
            color: { field: 'n', type: 'ordinal' } } },
        { transform: [{ filter: "indexof(datum.series, 'simulation') === 0" }], mark: { type: 'point', filled: false, size: 30 },
          encoding: { x: { field: 'i', type: 'quantitative' }, y: { field: 'value', type: 'quantitative', scale: { type: 'log' } },
            color: { field: 'n', type: 'ordinal' }, tooltip: [{ field: 'series' }, { field: 'i' }, { field: 'value' }] } },
      ],
    },
    resolve: { scale: { x: 'independent' } },
    title: { text: 'Tail fractions: mean field (black), refined π + V/n (dashed), simulation ± 95% CI (circles)', fontSize: 13 },
  } as TopLevelSpec;
  return {
    name: 'tail-fractions',
    title: 'Tail fractions s_i',
    caption: `Fraction of servers with at least i jobs, log scale. Black: mean-field fixed point s_i* = λ^((d^i−1)/(d−1)). ` +
      `Dashed: refined mean field s_i* + V_i/n. Circles with bars: time-average simulation estimate and 95% CI for n ∈ {${shownN.join(', ')}}. ` +
      `Values below ${floor} are not drawn.`,
    rows, spec,
  };
}

/** |E[T]_n − E[T]_∞| against n on log–log axes with the refined prediction ΣV/(λn) and the fitted slope. */
export function convergenceFigure(result: ComparisonResult): Figure {
  const rows: Row[] = [];
  for (const c of result.cells) {
    const m = result.models.find((x) => x.d === c.d && x.lambda === c.lambda)!;
    const label = fmtLambda(c.lambda);
    const facet = `d = ${c.d}`;
    const err = Math.abs(c.errors.meanResponseTimeVsMeanField);
    const h = c.simulation.meanResponseTime.halfWidth;
    rows.push({ d: c.d, facet, lambda: c.lambda, label, n: c.n, series: 'simulation', error: err,
      signedError: c.errors.meanResponseTimeVsMeanField, halfWidth: h,
      lo: Math.max(err - h, err / 10), hi: err + h, resolved: err > 3 * h ? 'yes' : 'no' });
    rows.push({ d: c.d, facet, lambda: c.lambda, label, n: c.n, series: 'refined ΣV/(λn)', error: m.sumV / (m.lambda * c.n),
      signedError: m.sumV / (m.lambda * c.n), halfWidth: null, lo: null, hi: null, resolved: null });
  }
  const enc = {
    x: { field: 'n', type: 'quantitative', scale: { type: 'log' }, title: 'servers n' },
    color: { field: 'label', type: 'nominal', title: 'arrival rate', legend: { labelLimit: 300 } },
  };
  const spec: TopLevelSpec = {
    $schema: SCHEMA,
    data: { values: rows },
    facet: { column: { field: 'facet', type: 'nominal', title: null, header: { labelFontSize: 12, labelLimit: 0 } } },
    spec: {
      width: 300, height: 260,
      layer: [
        { transform: [{ filter: "datum.series !== 'simulation'" }], mark: { type: 'line', strokeDash: [4, 3] },
          encoding: { ...enc, y: { field: 'error', type: 'quantitative', scale: { type: 'log' }, title: '|E[T]_n − E[T]_∞| (time units)' } } },
        { transform: [{ filter: "datum.series === 'simulation'" }], mark: { type: 'errorbar', ticks: true },
          encoding: { ...enc, y: { field: 'lo', type: 'quantitative', scale: { type: 'log' }, title: null }, y2: { field: 'hi' } } },
        { transform: [{ filter: "datum.series === 'simulation'" }], mark: { type: 'point', size: 40 },
          encoding: { ...enc, y: { field: 'error', type: 'quantitative', scale: { type: 'log' } },
            shape: { field: 'resolved', type: 'nominal', title: '|err| > 3h', scale: { domain: ['yes', 'no'], range: ['circle', 'cross'] } },
            tooltip: [{ field: 'n' }, { field: 'signedError' }, { field: 'halfWidth' }] } },
      ],
    },
    title: { text: 'Convergence of E[T]: simulation − mean field (points ± 95% CI) vs refined prediction ΣV/(λn) (dashed)', fontSize: 13,
      subtitle: [...new Set(result.models.map((m) => m.d))].map((d) => `fitted slopes, d = ${d}: ` + result.models.filter((m) => m.d === d)
        .map((m) => `λ = ${m.lambda}: ${m.slope ? m.slope.slope.toFixed(2) : 'n/a'}`).join(', ')) },
  } as TopLevelSpec;
  return {
    name: 'convergence',
    title: 'Convergence of the mean response time',
    caption: 'Absolute difference between the simulated mean response time and its mean-field limit, against n, log–log. ' +
      'Dashed lines: the refined mean-field prediction ΣV/(λn), slope −1. Points: simulation with 95% CI; crosses mark n where the ' +
      'difference is not resolved (|err| ≤ 3 × CI half-width) and is left out of the slope fit.',
    rows, spec,
  };
}

/** ODE transient from empty vs simulated trajectories s_1(t), s_2(t), s_3(t) for a few n. */
export function transientFigure(result: ComparisonResult, levels: readonly number[] = [1, 2, 3]): Figure {
  const rows: Row[] = [];
  for (const tr of result.trajectories) {
    const panel = `d = ${tr.d}, ${fmtLambda(tr.lambda)}`;
    tr.times.forEach((t, j) => {
      for (const i of levels) {
        rows.push({ panel, d: tr.d, lambda: tr.lambda, t, i, level: `s_${i}`, source: 'ODE (n = ∞)', value: tr.meanField[j][i] ?? 0, lo: null, hi: null });
      }
    });
    for (const s of tr.simulated) {
      tr.times.forEach((t, j) => {
        for (const i of levels) {
          const e = s.tail[j][i];
          rows.push({ panel, d: tr.d, lambda: tr.lambda, t, i, level: `s_${i}`, source: `simulation n = ${s.n}`, value: e.mean, lo: e.ci95[0], hi: e.ci95[1] });
        }
      });
    }
  }
  const sources = ['ODE (n = ∞)', ...new Set(result.trajectories.flatMap((t) => t.simulated.map((s) => `simulation n = ${s.n}`)))];
  const spec: TopLevelSpec = {
    $schema: SCHEMA,
    data: { values: rows },
    facet: { field: 'panel', type: 'nominal', title: null, sort: { field: 'panel' } },
    columns: Math.min(3, result.config.lambdas.length),
    spec: {
      width: 230, height: 180,
      layer: [
        { transform: [{ filter: "datum.source !== 'ODE (n = ∞)'" }], mark: { type: 'line', strokeWidth: 1, opacity: 0.85 },
          encoding: {
            x: { field: 't', type: 'quantitative', title: 'time t (mean service times)' },
            y: { field: 'value', type: 'quantitative', title: 's_i(t)' },
            color: { field: 'source', type: 'nominal', title: null, scale: { domain: sources.slice(1), range: ['#e45756', '#4c78a8', '#54a24b', '#f58518'] }, legend: { labelLimit: 300 } },
            detail: { field: 'level' },
          } },
        { transform: [{ filter: "datum.source === 'ODE (n = ∞)'" }], mark: { type: 'line', strokeWidth: 1.6, color: 'black', strokeDash: [5, 2] },
          encoding: {
            x: { field: 't', type: 'quantitative' },
            y: { field: 'value', type: 'quantitative' },
            detail: { field: 'level' },
          } },
      ],
    },
    resolve: { scale: { x: 'independent' } },
    title: { text: 'Transient from empty: s_1, s_2, s_3 (top to bottom); ODE dashed black, simulation (mean over replications) coloured', fontSize: 13 },
  } as TopLevelSpec;
  return {
    name: 'transient',
    title: 'Transient from empty',
    caption: 'Fraction of servers with at least i jobs over time, starting from an empty system. Black: the SQ(d) ODE solved with odex ' +
      '(tolerance 1e-10), dashed. Coloured: the simulated fractions averaged over replications for each n; small n fluctuate around the ODE and sit above it.',
    rows, spec,
  };
}

export function allFigures(result: ComparisonResult): Figure[] {
  const figures = [tailFigure(result), convergenceFigure(result)];
  if (result.trajectories.length > 0) figures.push(transientFigure(result));
  return figures;
}
