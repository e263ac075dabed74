/**
 * The finite-n gap of renewal arrivals (theory.md §14): with one dispatcher a renewal stream of rate λn has the
 * Poisson fluid limit, so E[T]_n − E[T]∞ (E[T]∞ the Poisson model's mean field) is what a sweep over n measures.
 * One figure: the gap against n (log n, symmetric-log y so the sign shows), a colour per arrival law, simulation
 * ± 95% CI, and the fitted log–log slope of each law over the resolved points (about −1 if the gap is O(1/n)). No
 * 1/n coefficient is drawn: none is known for non-Poisson arrivals.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { Estimate } from '../stats/index.ts';
import { logLogSlope } from '../compare/fit.ts';
import { NOT_RESOLVED } from './page.ts';
import { N_LABEL_EXPR, VEGA_LITE_SCHEMA, nTicks, paddedLogDomain, symlogScale, tip, titleBlock, type Figure, type Row } from './figures.ts';

/** One simulated cell of the sweep: an arrival law at n servers. */
export interface ArrivalsGapCell {
  /** Arrival law in short form (`formatArrivals`), e.g. "det", "erlang:2", "hyperexp:4". */
  readonly arrivals: string;
  /** Squared coefficient of variation of the inter-arrival time (0 det, 1/k Erlang-k, 1 Poisson). */
  readonly scv: number;
  readonly n: number;
  /** Simulated E[T]_n with its 95% CI (the sweep's `timeUnit`). */
  readonly meanResponseTime: Estimate;
}

/** The gap sweep: the model's λ, d and label, the common limit E[T]∞ and its solver, and the cells. */
export interface ArrivalsGapSweep {
  readonly lambda: number;
  readonly d: number;
  /** E.g. "JSQ(2) FIFO, exponential sizes". */
  readonly model: string;
  readonly limit: number;
  readonly solver: string;
  /** The unit of E[T] and the gap (model/service `timeUnit` of the model: "mean service times" when E[S] = 1). */
  readonly timeUnit: string;
  readonly cells: readonly ArrivalsGapCell[];
}

/** The law's legend label: "det (c² = 0)". */
const lawLabel = (c: Pick<ArrivalsGapCell, 'arrivals' | 'scv'>) => `${c.arrivals} (c² = ${Number(c.scv.toPrecision(3))})`;

/**
 * The gap figure of a sweep (module comment). Rows (CSV/JSON): arrivals, scv, law, n, E[T]_n, its half-width, the
 * limit, gap = E[T]_n − E[T]∞ with its CI, n·gap, whether the gap is resolved (> 3 half-widths), and the unit of
 * the times (`timeUnit`, named on the y axis too; the axis said "mean service times" whatever E[S] was).
 */
export function arrivalsGapFigure(sweep: ArrivalsGapSweep): Figure {
  const laws = [...new Map(sweep.cells.map((c) => [c.arrivals, c])).values()].sort((a, b) => a.scv - b.scv);
  const rows: Row[] = sweep.cells.map((c) => {
    const e = c.meanResponseTime;
    const gap = e.mean - sweep.limit;
    return {
      arrivals: c.arrivals,
      scv: c.scv,
      law: lawLabel(c),
      n: c.n,
      meanResponseTime: e.mean,
      halfWidth: e.halfWidth,
      limit: sweep.limit,
      gap,
      lo: gap - e.halfWidth,
      hi: gap + e.halfWidth,
      nGap: c.n * gap,
      // as logLogSlope resolves a point (compare/fit.ts)
      resolved: Math.abs(gap) > 3 * e.halfWidth ? 'yes' : 'no',
      timeUnit: sweep.timeUnit,
    };
  });
  const slopes = laws.map((l) => {
    const s = logLogSlope(
      sweep.cells
        .filter((c) => c.arrivals === l.arrivals)
        .map((c) => ({ n: c.n, error: c.meanResponseTime.mean - sweep.limit, halfWidth: c.meanResponseTime.halfWidth })),
    );
    return `${l.arrivals}: ${s ? `${s.slope.toFixed(2)} (n = ${s.nUsed.join(', ')})` : `${NOT_RESOLVED} (fewer than 2 resolved points)`}`;
  });
  const ns = [...new Set(sweep.cells.map((c) => c.n))];
  const width = 420;
  const domain = paddedLogDomain(ns);
  const x = {
    field: 'n',
    type: 'quantitative',
    scale: { type: 'log', domain, nice: false },
    title: 'servers n (log scale)',
    axis: { values: nTicks(ns, domain, width), labelFlush: true, labelOverlap: 'greedy', labelExpr: N_LABEL_EXPR },
  };
  const values = rows.flatMap((r) => [r.gap, r.lo, r.hi]).filter((v): v is number => typeof v === 'number');
  const base = symlogScale(values);
  // padded by a third beyond the extreme values, so the points and bar ends at the edges are drawn whole
  const pad = (v: number) => (v > 0 ? v * 1.35 : v < 0 ? v * 1.35 : 0);
  const sym = {
    ticks: base.ticks,
    scale: { ...base.scale, domain: [pad(Math.min(0, ...values)), pad(Math.max(0, ...values))], nice: false },
  };
  const y = (field: string) => ({
    field,
    type: 'quantitative',
    scale: sym.scale,
    title: [`gap E[T]_n − E[T]∞ (${sweep.timeUnit})`, 'symmetric log: linear near 0'],
    axis: { values: sym.ticks, format: '~g', labelOverlap: true },
  });
  const order = laws.map(lawLabel);
  const color = { field: 'law', type: 'nominal', title: 'arrival law (SCV c²)', sort: order, legend: { labelLimit: 300 } };
  const tooltip = [
    { field: 'law', title: 'arrival law' },
    tip('n', 'n'),
    tip('meanResponseTime', `simulated E[T]_n (${sweep.timeUnit})`),
    tip('gap', `E[T]_n − E[T]∞ (${sweep.timeUnit})`),
    tip('halfWidth', '95% half-width'),
    tip('nGap', 'n × gap'),
    { field: 'resolved', title: 'resolved (|gap| > 3 half-widths)' },
  ];
  const spec = {
    $schema: VEGA_LITE_SCHEMA,
    data: { values: rows },
    width,
    height: 300,
    layer: [
      { mark: { type: 'rule', color: '#888', strokeWidth: 0.8 }, encoding: { y: { datum: 0, type: 'quantitative', scale: sym.scale } } },
      { mark: { type: 'line', strokeWidth: 1.2, opacity: 0.7 }, encoding: { x, y: y('gap'), color } },
      { mark: { type: 'errorbar', ticks: true }, encoding: { x, y: y('lo'), y2: { field: 'hi' }, color, tooltip } },
      {
        mark: { type: 'point', size: 45, filled: true },
        encoding: {
          x,
          y: y('gap'),
          color,
          shape: { field: 'resolved', type: 'nominal', title: '|gap| > 3h', scale: { domain: ['yes', 'no'], range: ['circle', 'cross'] } },
          tooltip,
        },
      },
    ],
    title: titleBlock(`Finite-n gap of ${sweep.model} at λ = ${sweep.lambda} against n, per arrival law (simulation ± 95% CI)`, width, [
      `limit E[T]∞ = ${sweep.limit.toFixed(4)} ${sweep.timeUnit} for every law (${sweep.solver})`,
      `fitted log–log slopes of |gap|: ${slopes.join('; ')}`,
    ]),
  } as unknown as TopLevelSpec;
  return {
    name: 'arrivals-gap',
    title: 'Finite-n gap against n per arrival law',
    caption:
      `Simulated E[T]_n minus the common n → ∞ limit E[T]∞ = ${sweep.limit.toFixed(4)} (the Poisson model's mean field: a renewal stream of ` +
      'rate λn from one dispatcher has the Poisson fluid limit, theory.md §14), against n on a log axis; the y axis is symmetric-log ' +
      '(linear near 0), so the sign shows and an interval crossing 0 is drawn whole. Bars: Student-t 95% CIs over replications; crosses ' +
      'mark n where the gap is not resolved (|gap| ≤ 3 half-widths) and is left out of the slope fit. The subtitle gives each law’s ' +
      'fitted log–log slope (about −1 if the gap is O(1/n)); no 1/n coefficient is drawn, as none is known for non-Poisson arrivals.',
    rows,
    spec,
  };
}
