/**
 * Figures of a "Without V" convergence report (any model with a mean-field solver; LWL(d) adds the workload ccdf and
 * the PIDE transient) as data + vega-lite specs. No rendering, no I/O; the rows are exactly what is drawn.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { GeneralComparisonResult } from '../compare/index.ts';
import type { Figure, Row } from './figures.ts';

const SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
const fmtLambda = (x: number) => `λ = ${x}`;

function spread(values: readonly number[], k: number): number[] {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length <= k) return sorted;
  const picked = new Set<number>();
  for (let j = 0; j < k; j++) picked.add(sorted[Math.round((j * (sorted.length - 1)) / (k - 1))]);
  return [...picked];
}

/** |E[T]_n − E[T]_∞| against n, log–log, with the fitted ĉ₁/n line (from x̂_n = a + c₁/n (+ c₂/n²)), per d and λ. */
export function generalConvergenceFigure(result: GeneralComparisonResult): Figure {
  const rows: Row[] = [];
  const ns = result.config.ns;
  const nLo = Math.min(...ns);
  const nHi = Math.max(...ns);
  for (const m of result.models) {
    const label = fmtLambda(m.lambda);
    const slopes = result.models.filter((x) => x.d === m.d)
      .map((x) => `${x.lambda}: ${x.slope ? x.slope.slope.toFixed(2) : 'n/a'}`).join(', ');
    const facet = `d = ${m.d} · fitted slopes (λ: slope) ${slopes}`;
    for (const c of result.cells.filter((x) => x.d === m.d && x.lambda === m.lambda)) {
      const err = Math.abs(c.errors.meanResponseTime);
      const h = Math.hypot(c.simulation.meanResponseTime.halfWidth, m.reference.halfWidth);
      rows.push({ d: c.d, facet, lambda: c.lambda, label, n: c.n, series: 'simulation', error: err, signedError: c.errors.meanResponseTime,
        halfWidth: h, lo: Math.max(err - h, err / 10), hi: err + h, resolved: err > 3 * h ? 'yes' : 'no' });
    }
    if (m.fit && m.fit.c1 !== 0) {
      for (let j = 0; j <= 24; j++) {
        const n = nLo * (nHi / nLo) ** (j / 24);
        rows.push({ d: m.d, facet, lambda: m.lambda, label, n, series: `fitted |ĉ₁|/n`, error: Math.abs(m.fit.c1) / n, signedError: m.fit.c1 / n,
          halfWidth: null, lo: null, hi: null, resolved: null });
      }
    }
  }
  const enc = {
    x: { field: 'n', type: 'quantitative', scale: { type: 'log' }, title: 'servers n' },
    color: { field: 'label', type: 'nominal', title: 'arrival rate', legend: { labelLimit: 300 } },
  };
  const solver = [...new Set(result.models.map((m) => `${m.reference.solver} (${m.reference.kind})`))].join('; ');
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
    title: { text: 'Convergence of E[T]: |simulation − mean field| ± 95% CI (points), fitted |ĉ₁|/n (dashed)', subtitle: `reference: ${solver}`, fontSize: 13 },
  } as TopLevelSpec;
  return {
    name: 'convergence',
    title: 'Convergence of the mean response time',
    caption: `Absolute difference between the simulated mean response time and the mean-field reference (${solver}), against n, log–log. ` +
      'Bars: the 95% CI of the simulation combined with the reference\'s own CI (cavity results). Dashed: |ĉ₁|/n with ĉ₁ from the weighted fit ' +
      'x̂_n = a + c₁/n (+ c₂/n²) over the sweep (no refined term V exists for this model). Crosses mark n where the difference is not ' +
      'resolved (|err| ≤ 3 × half-width) and is left out of the slope fit.',
    rows, spec,
  };
}

/** LWL(d) workload ccdf P(U > w) (log y): mean field (line) and time-average simulation ± 95% CI for a few n. */
export function workloadFigure(result: GeneralComparisonResult, floor = 1e-5): Figure {
  const shownN = spread(result.config.ns, 3);
  const rows: Row[] = [];
  for (const m of result.models) {
    if (!m.workload) continue;
    const panel = `d = ${m.d}, ${fmtLambda(m.lambda)}`;
    m.workload.grid.forEach((w, k) => {
      const v = m.workload!.ccdf[k];
      if (v >= floor) rows.push({ panel, d: m.d, lambda: m.lambda, w, series: 'mean field', n: null, value: v, lo: null, hi: null });
    });
    for (const c of result.cells) {
      if (c.d !== m.d || c.lambda !== m.lambda || !shownN.includes(c.n) || !c.simulation.workloadCcdf) continue;
      c.simulation.workloadCcdf.grid.forEach((w, k) => {
        const e = c.simulation.workloadCcdf!.ccdf[k];
        if (e.mean >= floor) {
          rows.push({ panel, d: c.d, lambda: c.lambda, w, series: `simulation, n = ${c.n}`, n: c.n, value: e.mean,
            lo: Math.max(e.ci95[0], floor / 2), hi: e.ci95[1] });
        }
      });
    }
  }
  const solvers = [...new Set(result.models.filter((m) => m.workload).map((m) => m.workload!.solver))].join('; ');
  const y = { field: 'value', type: 'quantitative', scale: { type: 'log' }, title: 'P(U > w) (fraction of servers with more work than w)' };
  const spec: TopLevelSpec = {
    $schema: SCHEMA,
    data: { values: rows },
    facet: { field: 'panel', type: 'nominal', title: null, sort: { field: 'panel' } },
    columns: Math.min(3, result.config.lambdas.length),
    spec: {
      width: 250, height: 210,
      layer: [
        { transform: [{ filter: "datum.series === 'mean field'" }], mark: { type: 'line', color: 'black', strokeWidth: 1.5 },
          encoding: { x: { field: 'w', type: 'quantitative', title: 'workload w (mean service times)' }, y } },
        { transform: [{ filter: "datum.series !== 'mean field'" }], mark: { type: 'errorbar', ticks: true },
          encoding: { x: { field: 'w', type: 'quantitative' }, y: { field: 'lo', type: 'quantitative', scale: { type: 'log' }, title: null }, y2: { field: 'hi' },
            color: { field: 'n', type: 'ordinal', title: 'n', scale: { scheme: 'category10' } } } },
        { transform: [{ filter: "datum.series !== 'mean field'" }], mark: { type: 'point', filled: false, size: 26 },
          encoding: { x: { field: 'w', type: 'quantitative' }, y: { field: 'value', type: 'quantitative', scale: { type: 'log' } },
            color: { field: 'n', type: 'ordinal' }, tooltip: [{ field: 'series' }, { field: 'w' }, { field: 'value' }] } },
      ],
    },
    resolve: { scale: { x: 'independent' } },
    title: { text: 'LWL(d) workload ccdf: mean field (black) vs simulation ± 95% CI (circles)', fontSize: 13 },
  } as TopLevelSpec;
  return {
    name: 'workload-ccdf',
    title: 'Workload ccdf F̄(w) = P(U > w)',
    caption: `Fraction of servers whose unfinished work exceeds w, log scale. Black: the mean-field equilibrium (${solvers}); ` +
      `it is the same under every work-conserving discipline (theory.md §4). Circles with bars: time-average simulation estimate and ` +
      `95% CI for n ∈ {${shownN.join(', ')}}. Values below ${floor} are not drawn.`,
    rows, spec,
  };
}

/** LWL(d) busy fraction P(U(t) > 0) from empty: PIDE (dashed black) vs simulated s_1(t) per n. */
export function lwlTransientFigure(result: GeneralComparisonResult): Figure {
  const rows: Row[] = [];
  for (const tr of result.trajectories) {
    const panel = `d = ${tr.d}, ${fmtLambda(tr.lambda)}`;
    tr.times.forEach((t, j) => {
      rows.push({ panel, d: tr.d, lambda: tr.lambda, t, source: 'PIDE (n = ∞)', value: tr.meanField.busyFraction[j], lo: null, hi: null });
    });
    for (const s of tr.simulated) {
      tr.times.forEach((t, j) => {
        const e = s.busyFraction[j];
        rows.push({ panel, d: tr.d, lambda: tr.lambda, t, source: `simulation n = ${s.n}`, value: e.mean, lo: e.ci95[0], hi: e.ci95[1] });
      });
    }
  }
  const sources = [...new Set(result.trajectories.flatMap((t) => t.simulated.map((s) => `simulation n = ${s.n}`)))];
  const spec: TopLevelSpec = {
    $schema: SCHEMA,
    data: { values: rows },
    facet: { field: 'panel', type: 'nominal', title: null, sort: { field: 'panel' } },
    columns: Math.min(3, result.config.lambdas.length),
    spec: {
      width: 250, height: 190,
      layer: [
        { transform: [{ filter: "datum.source !== 'PIDE (n = ∞)'" }], mark: { type: 'line', strokeWidth: 1, opacity: 0.85 },
          encoding: {
            x: { field: 't', type: 'quantitative', title: 'time t (mean service times)' },
            y: { field: 'value', type: 'quantitative', title: 'busy fraction P(U(t) > 0)' },
            color: { field: 'source', type: 'nominal', title: null, scale: { domain: sources, range: ['#e45756', '#4c78a8', '#54a24b', '#f58518'] }, legend: { labelLimit: 300 } },
          } },
        { transform: [{ filter: "datum.source === 'PIDE (n = ∞)'" }], mark: { type: 'line', strokeWidth: 1.6, color: 'black', strokeDash: [5, 2] },
          encoding: { x: { field: 't', type: 'quantitative' }, y: { field: 'value', type: 'quantitative' } } },
      ],
    },
    resolve: { scale: { x: 'independent' } },
    title: { text: 'LWL(d) busy fraction from empty', subtitle: 'PIDE dashed black; simulation (mean over replications) coloured', fontSize: 13 },
  } as TopLevelSpec;
  const notes = [...new Set(result.trajectories.map((t) => t.note))].join('; ');
  return {
    name: 'transient',
    title: 'Transient from empty (busy fraction)',
    caption: `Fraction of busy servers over time from an empty system. Dashed black: the LWL(d) mean-field PIDE (${notes}); its ` +
      'E[U](t) is in transient.json of results.json (the simulated trajectories record occupancy, not work). Coloured: the simulated ' +
      'fraction of servers with at least one job, averaged over replications, for each n.',
    rows, spec,
  };
}

export function generalFigures(result: GeneralComparisonResult): Figure[] {
  const figures = [generalConvergenceFigure(result)];
  if (result.models.some((m) => m.workload)) figures.push(workloadFigure(result));
  if (result.trajectories.length > 0) figures.push(lwlTransientFigure(result));
  return figures;
}
