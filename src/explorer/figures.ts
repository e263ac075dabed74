/**
 * The explorer's figures as vega-lite specs with their data rows (the rows are also what the page downloads as CSV
 * and JSON): tail fractions s_i (mean field, refined for n, simulation with 95 % CIs), the transient from empty, and
 * the response-time or workload ccdf (simulation percentiles or workload ccdf overlaid). Axis titles and tooltips
 * in the field's words, numbers in tooltips to 4 significant digits. Pure: no DOM.
 */
import { estimateFields, type Row } from '../report/figures.ts';
import { timeUnit } from '../model/service/index.ts';
import { randomAtD, selectionName } from '../model/index.ts';
import type { SimulationResult } from '../sim/simulate.ts';
import type { ExplorerView } from './view.ts';

/** One figure: a name (file stem), a title, its rows and its vega-lite spec (data inlined). */
export interface ExplorerFigure {
  readonly name: string;
  readonly title: string;
  /** The plotted rows; ∞ as in the reports' figure data (report/figures.ts `estimateFields`: null with a flag). */
  readonly rows: Row[];
  readonly spec: Record<string, unknown>;
}

const FORMAT = '.4~g';
const WIDTH = 340;
const HEIGHT = 240;

/** Series colours: mean field, refined 1/n, refined 1/n², simulation. */
const COLOURS = { meanField: '#1f4e9c', refined: '#d9822b', second: '#8c564b', simulation: '#111111' } as const;

/** Dash patterns of the tail figure's lines, in series order (solid, dashed, dotted, solid for the points). */
const DASHES = [
  [1, 0],
  [6, 3],
  [2, 2],
  [1, 0],
];

const series = (names: string[], colours: string[]) => ({
  field: 'series',
  type: 'nominal',
  title: null,
  scale: { domain: names, range: colours },
  legend: { orient: 'bottom', direction: 'vertical', labelLimit: 340, symbolStrokeWidth: 2, symbolSize: 80 },
});

const base = (title: string, subtitle: string) => ({
  $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
  title: { text: title, subtitle, anchor: 'start', fontSize: 14, subtitleFontSize: 11, subtitleColor: '#555' },
  width: WIDTH,
  height: HEIGHT,
  config: { axis: { labelFontSize: 11, titleFontSize: 12, grid: true, gridColor: '#eee' }, legend: { labelFontSize: 11 } },
});

/** s_i against i: mean field, refined for n (1/n and 1/n²), simulation points with 95 % CIs. */
function tailFigure(view: ExplorerView, sim: SimulationResult | undefined): ExplorerFigure | undefined {
  const tail = view.solution?.tail;
  if (!tail && !sim) return undefined; // LPW(d): no mean field, the simulation alone
  const floor = 1e-6;
  const rows: ExplorerFigure['rows'] = [];
  const names: string[] = [];
  const colours: string[] = [];
  const add = (name: string, colour: string, values: readonly number[]) => {
    names.push(name);
    colours.push(colour);
    values.forEach((v, i) => {
      if (i >= 1 && v >= floor) rows.push({ series: name, i, s: v });
    });
  };
  if (tail) add(`mean field (n → ∞), ${view.solution!.kind}`, COLOURS.meanField, tail);
  const r = view.refined;
  if (r) {
    if (r.firstOrder.tail) add(`refined mean field, n = ${r.n} (1/n)`, COLOURS.refined, r.firstOrder.tail);
    if (r.secondOrder) add(`refined mean field, n = ${r.n} (1/n + 1/n²)`, COLOURS.second, r.secondOrder.tail);
  }
  const simName = sim ? `simulation, n = ${sim.n} (95 % CI)` : undefined;
  if (sim && simName) {
    names.push(simName);
    colours.push(COLOURS.simulation);
    sim.tail.forEach((e, i) => {
      if (i >= 1 && e.mean >= floor) rows.push({ series: simName, i, s: e.mean, lo: Math.max(floor, e.ci95[0]), hi: e.ci95[1] });
    });
  }
  // the refined band: between the 1/n and the 1/n + 1/n² estimates (how much the next order moves the answer)
  const band: ExplorerFigure['rows'] = [];
  if (r?.secondOrder)
    r.firstOrder.tail?.forEach((v, i) => {
      const w = r.secondOrder!.tail[i] ?? 0;
      if (i >= 1 && Math.max(v, w) >= floor) band.push({ i, low: Math.max(floor, Math.min(v, w)), high: Math.max(v, w) });
    });
  const lines = names.filter((n) => n !== simName);
  const top = Math.max(...rows.map((row) => Number(row.i)));
  const tooltip = [
    { field: 'series', title: 'curve' },
    { field: 'i', title: 'i (jobs)' },
    { field: 's', title: 's_i', format: FORMAT },
  ];
  const x = {
    field: 'i',
    type: 'quantitative',
    title: 'i (jobs at a server)',
    scale: { domain: [1, Math.max(2, top)] },
    axis: { tickMinStep: 1, format: 'd' },
  };
  const y = { field: 's', type: 'quantitative', title: 's_i (fraction of servers with ≥ i jobs)', scale: { type: 'log' } };
  return {
    name: 'tail-fractions',
    title: 'Tail fractions',
    rows,
    spec: {
      ...base('Tail fractions s_i', `λ = ${view.model.lambda}, d = ${view.model.d}; log scale`),
      data: { values: rows },
      layer: [
        ...(band.length
          ? [
              {
                data: { values: band },
                mark: { type: 'area', color: COLOURS.refined, opacity: 0.15 },
                encoding: { x, y: { ...y, field: 'low' }, y2: { field: 'high' } },
              },
            ]
          : []),
        // no curve (a mean field not settled: the simulation alone) is no layer: an empty one is vega's "Infinite extent"
        ...(lines.length
          ? [
              {
                transform: [{ filter: { field: 'series', oneOf: lines } }],
                mark: { type: 'line', point: { size: 30 }, strokeWidth: 2 },
                encoding: {
                  x,
                  y,
                  color: series(names, colours),
                  // the same field, title and legend as the colour, so vega-lite draws one legend with both
                  strokeDash: {
                    ...series(names, colours),
                    scale: { domain: names, range: names.map((_, k) => DASHES[k % DASHES.length]) },
                  },
                  tooltip,
                },
              },
            ]
          : []),
        ...(simName
          ? [
              {
                transform: [{ filter: { field: 'series', equal: simName } }],
                mark: { type: 'rule', strokeWidth: 1.5, clip: true },
                encoding: { x, y: { ...y, field: 'lo' }, y2: { field: 'hi' }, color: series(names, colours) },
              },
              {
                transform: [{ filter: { field: 'series', equal: simName } }],
                mark: { type: 'point', shape: 'diamond', filled: true, size: 60, clip: true },
                encoding: {
                  x,
                  y,
                  color: series(names, colours),
                  tooltip: [
                    ...tooltip,
                    { field: 'lo', title: '95 % CI low', format: FORMAT },
                    { field: 'hi', title: '95 % CI high', format: FORMAT },
                  ],
                },
              },
            ]
          : []),
      ],
    },
  };
}

/** The transient from empty: E[Q](t) (jobs per server) or E[U](t) (workload per server), with the fixed point's value. */
function transientFigure(view: ExplorerView): ExplorerFigure | undefined {
  const t = view.transient;
  if (!t) return undefined;
  const queue = t.of === 'queue length';
  const what = queue ? 'E[Q](t)' : 'E[U](t)';
  const name = `mean field from empty, ${what}`;
  const rows: ExplorerFigure['rows'] = t.times.map((time, k) => ({ series: name, t: time, value: t.values[k] }));
  const names = [name];
  const colours: string[] = [COLOURS.meanField];
  const layers: Record<string, unknown>[] = [];
  const x = { field: 't', type: 'quantitative', title: `t (${timeUnit(view.model.service)})` };
  const y = {
    field: 'value',
    type: 'quantitative',
    title: queue ? 'E[Q](t) (jobs per server)' : `E[U](t) (workload per server, ${timeUnit(view.model.service)})`,
  };
  const tooltip = [
    { field: 'series', title: 'curve' },
    { field: 't', title: `t (${timeUnit(view.model.service)})`, format: FORMAT },
    { field: 'value', title: what, format: FORMAT },
  ];
  layers.push({
    transform: [{ filter: { field: 'series', equal: name } }],
    mark: { type: 'line', strokeWidth: 2 },
    encoding: { x, y, color: series(names, colours), tooltip },
  });
  if (t.limit !== undefined) {
    const limitName = `fixed point, E[Q] = ${t.limit.toPrecision(4)}`;
    names.push(limitName);
    colours.push('#999999');
    rows.push({ series: limitName, t: 0, value: t.limit }, { series: limitName, t: t.times[t.times.length - 1], value: t.limit });
    layers.push({
      transform: [{ filter: { field: 'series', equal: limitName } }],
      mark: { type: 'line', strokeDash: [5, 4], strokeWidth: 1.5 },
      encoding: { x, y, color: series(names, colours), tooltip },
    });
  }
  const relax = t.relaxationTime === undefined ? '' : `; relaxation time of SQ(d) τ = ${t.relaxationTime.toPrecision(4)}`;
  return {
    name: 'transient',
    title: 'Transient from empty',
    rows,
    spec: { ...base(`Transient from the empty system, ${what}`, `n → ∞${relax}`), data: { values: rows }, layer: layers },
  };
}

/** P(T > t) or P(U > u), log y: mean field line; simulation percentiles (T) or workload ccdf (U) with 95 % CIs. */
function ccdfFigure(view: ExplorerView, sim: SimulationResult | undefined): ExplorerFigure | undefined {
  const c = view.ccdf;
  if (!c) return undefined;
  const response = c.of === 'response time';
  const sym = response ? 'T' : 'U';
  const floor = 1e-6;
  const name = 'mean field (n → ∞)';
  const rows: ExplorerFigure['rows'] = [];
  // the workload grid of the LWL solvers is fine (thousands of points): keep about 300 of them
  const stride = Math.max(1, Math.floor(c.points.length / 300));
  let top = 0;
  c.points.forEach((x, k) => {
    if (k % stride === 0 && c.ccdf[k] >= floor) {
      rows.push({ series: name, x, p: c.ccdf[k] });
      top = x;
    }
  });
  const names = [name];
  const colours: string[] = [COLOURS.meanField];
  const simName = sim ? `simulation, n = ${sim.n} (95 % CI)` : undefined;
  if (sim && simName) {
    if (response) {
      const levels = [
        ['p50', 0.5],
        ['p95', 0.05],
        ['p99', 0.01],
      ] as const;
      for (const [key, p] of levels) {
        const e = sim.responseTimePercentiles[key];
        // an interval open at +∞ (too few tail jobs: stats cdfSectioning) is hi null with ci95Infinite in the data, drawn
        // to the right end of the curves (hiDrawn) and named ∞ in the tooltip (vega would draw nothing for an
        // infinite end, and log an error)
        const open = !Number.isFinite(e.ci95[1]);
        const hiDrawn = open ? Math.max(top, e.mean) : e.ci95[1];
        rows.push({
          series: simName,
          ...estimateFields(e.mean, e.ci95, 'x'),
          p,
          hiDrawn,
          hiText: open ? '∞' : hiDrawn.toPrecision(4),
          quantity: key,
        });
      }
    } else if (sim.workloadCcdf) {
      const g = sim.workloadCcdf;
      const every = Math.max(1, Math.floor(g.grid.length / 25));
      g.grid.forEach((u, k) => {
        const e = g.ccdf[k];
        if (k % every === 0 && e.mean >= floor && u <= top)
          rows.push({ series: simName, x: u, p: e.mean, plo: Math.max(floor, e.ci95[0]), phi: e.ci95[1] });
      });
    }
    names.push(simName);
    colours.push(COLOURS.simulation);
  }
  const x = {
    field: 'x',
    type: 'quantitative',
    title: response ? `t (${timeUnit(view.model.service)})` : `u (workload, ${timeUnit(view.model.service)})`,
  };
  const y = { field: 'p', type: 'quantitative', title: `P(${sym} > ${response ? 't' : 'u'})`, scale: { type: 'log' } };
  const tooltip = [
    { field: 'series', title: 'curve' },
    { field: 'x', title: `${response ? 't' : 'u'} (${timeUnit(view.model.service)})`, format: FORMAT },
    { field: 'p', title: `P(${sym} > ${response ? 't' : 'u'})`, format: FORMAT },
  ];
  const simFilter = { filter: { field: 'series', equal: simName ?? '' } };
  const layers: Record<string, unknown>[] = [
    {
      transform: [{ filter: { field: 'series', equal: name } }],
      mark: { type: 'line', strokeWidth: 2 },
      encoding: { x, y, color: series(names, colours), tooltip },
    },
  ];
  if (simName && response)
    layers.push(
      {
        transform: [simFilter],
        mark: { type: 'rule', strokeWidth: 1.5, clip: true },
        encoding: { x: { ...x, field: 'lo' }, x2: { field: 'hiDrawn' }, y, color: series(names, colours) },
      },
      {
        transform: [simFilter],
        mark: { type: 'point', shape: 'diamond', filled: true, size: 60, clip: true },
        encoding: {
          x,
          y,
          color: series(names, colours),
          tooltip: [
            { field: 'series', title: 'curve' },
            { field: 'quantity', title: 'percentile' },
            { field: 'x', title: `t (${timeUnit(view.model.service)})`, format: FORMAT },
            { field: 'lo', title: '95 % CI low', format: FORMAT },
            { field: 'hiText', title: '95 % CI high' },
          ],
        },
      },
    );
  else if (simName)
    layers.push(
      {
        transform: [simFilter],
        mark: { type: 'rule', strokeWidth: 1.5, clip: true },
        encoding: { x, y: { ...y, field: 'plo' }, y2: { field: 'phi' }, color: series(names, colours) },
      },
      {
        transform: [simFilter],
        mark: { type: 'point', shape: 'diamond', filled: true, size: 50, clip: true },
        encoding: {
          x,
          y,
          color: series(names, colours),
          tooltip: [
            ...tooltip,
            { field: 'plo', title: '95 % CI low', format: FORMAT },
            { field: 'phi', title: '95 % CI high', format: FORMAT },
          ],
        },
      },
    );
  const what = response ? 'Response-time ccdf P(T > t)' : 'Workload ccdf P(U > u)';
  const sub = response
    ? 'log scale; simulation: p50, p95, p99 with 95 % CIs'
    : 'log scale; the workload law is discipline-free under LWL(d)';
  return {
    name: response ? 'response-time-ccdf' : 'workload-ccdf',
    title: what,
    rows,
    spec: { ...base(what, sub), data: { values: rows }, layer: layers },
  };
}

/** E[T] against λ: the policy, random routing (d = 1), the current λ marked, and the simulation at n with its CI. */
function sweepFigure(view: ExplorerView, sim: SimulationResult | undefined): ExplorerFigure | undefined {
  const w = view.sweep;
  if (!w) return undefined;
  const m = view.model;
  // the policy by the CLI's name (`selectionName`: RANDOM (d = 1) for a sampling rule at d = 1); random routing, every
  // server an M/G/1 queue, is one curve with the comparison line
  const random = 'RANDOM (d = 1), M/G/1';
  const policy = m.selection === 'random' || randomAtD(m) ? random : `${selectionName(m)}, mean field`;
  const here = `λ = ${m.lambda}`;
  const rows: ExplorerFigure['rows'] = [];
  // the axis from finite values only: a domain reaching ∞ is vega's "Infinite extent" (and an empty frame)
  const atHere = w.meanResponseTime[w.lambdas.indexOf(m.lambda)];
  const finite = [...w.meanResponseTime, ...w.random].filter(Number.isFinite);
  if (finite.length === 0) return undefined; // ∞ at every λ: the view's note says so
  const top = 4 * Math.max(atHere !== undefined && Number.isFinite(atHere) ? atHere : Math.min(...finite), 1) + 2;
  // a value ∞ in theory is a row as in the reports' figure data (t null, infinite: true, the reason), not a point
  const point = (t: number): Row => (t === Infinity ? { t: null, infinite: true, reason: view.infinite ?? 'E[T] = ∞ in theory' } : { t });
  // every point is a row (the downloads keep them); the lines are clipped at the top of the axis
  w.lambdas.forEach((lambda, k) => {
    rows.push({ series: policy, lambda, ...point(w.meanResponseTime[k]) });
    if (policy !== random) rows.push({ series: random, lambda, ...point(w.random[k]) });
  });
  const names = policy === random ? [policy] : [policy, random];
  const colours: string[] = policy === random ? [COLOURS.meanField] : [COLOURS.meanField, '#999999'];
  const k = w.lambdas.indexOf(m.lambda);
  if (k >= 0) {
    names.push(here);
    colours.push(COLOURS.refined);
    rows.push({ series: here, lambda: m.lambda, ...point(w.meanResponseTime[k]) });
  }
  const simName = sim ? `simulation, n = ${sim.n} (95 % CI)` : undefined;
  if (sim && simName) {
    const e = sim.meanResponseTime;
    names.push(simName);
    colours.push(COLOURS.simulation);
    rows.push({ series: simName, lambda: m.lambda, ...estimateFields(e.mean, e.ci95, 't') });
  }
  const x = {
    field: 'lambda',
    type: 'quantitative',
    title: `λ (arrival rate: jobs per server per time unit; time in ${timeUnit(view.model.service)})`,
    scale: { domain: [0, 1 / m.service.mean] },
  };
  const y = {
    field: 't',
    type: 'quantitative',
    title: `E[T] (mean response time, ${timeUnit(view.model.service)})`,
    scale: { domain: [0, top] },
  };
  const tooltip = [
    { field: 'series', title: 'curve' },
    { field: 'lambda', title: 'λ', format: FORMAT },
    { field: 't', title: `E[T] (${timeUnit(view.model.service)})`, format: FORMAT },
  ];
  const only = (name: string) => [{ filter: { field: 'series', equal: name } }];
  const layers: Record<string, unknown>[] = names
    .filter((n) => n !== here && n !== simName)
    .map((n) => ({
      transform: only(n),
      mark: { type: 'line', strokeWidth: 2, clip: true },
      encoding: { x, y, color: series(names, colours), tooltip },
    }));
  if (k >= 0)
    layers.push({
      transform: only(here),
      mark: { type: 'point', filled: true, size: 80 },
      encoding: { x, y, color: series(names, colours), tooltip },
    });
  if (simName)
    layers.push(
      {
        transform: only(simName),
        mark: { type: 'rule', strokeWidth: 1.5, clip: true },
        encoding: { x, y: { ...y, field: 'lo' }, y2: { field: 'hi' }, color: series(names, colours) },
      },
      {
        transform: only(simName),
        mark: { type: 'point', shape: 'diamond', filled: true, size: 60, clip: true },
        encoding: {
          x,
          y,
          color: series(names, colours),
          tooltip: [
            ...tooltip,
            { field: 'lo', title: '95 % CI low', format: FORMAT },
            { field: 'hi', title: '95 % CI high', format: FORMAT },
          ],
        },
      },
    );
  return {
    name: 'response-time-vs-load',
    title: 'E[T] against λ',
    rows,
    spec: {
      ...base('Mean response time E[T] against λ', `${m.discipline.toUpperCase()}, n → ∞; the closed forms of theory.md §2, §4, §7`),
      data: { values: rows },
      // rows of a mean ∞ in theory stay in the data (downloads) but are not drawn
      transform: [{ filter: 'datum.infinite !== true' }],
      layer: layers,
    },
  };
}

/** The figures the view has, in page order. */
export function explorerFigures(view: ExplorerView, sim?: SimulationResult): ExplorerFigure[] {
  // the figures of times name their unit in the downloaded data too (the spec's rows are the same objects)
  const unit = timeUnit(view.model.service);
  const ofTimes = [sweepFigure(view, sim), ccdfFigure(view, sim), transientFigure(view)];
  for (const f of ofTimes) for (const r of f?.rows ?? []) r.timeUnit = unit;
  return [tailFigure(view, sim), ...ofTimes].filter((f): f is ExplorerFigure => f !== undefined);
}

/** CSV of rows (header from the union of keys, in first-seen order; numbers at full precision; null as an empty cell). */
export function toCsv(rows: readonly Row[]): string {
  const keys = [...new Set(rows.flatMap((r) => Object.keys(r)))];
  const cell = (v: Row[string] | undefined) =>
    v === undefined || v === null ? '' : typeof v !== 'string' ? String(v) : /[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
  return [keys.join(','), ...rows.map((r) => keys.map((k) => cell(r[k])).join(','))].join('\n') + '\n';
}
