/**
 * Report of an experiment grid: tables of mean response time (and slowdown) with 95% CIs per policy and λ,
 * plots of E[T] and slowdown against λ per policy (log y), and, when given, the findings table of the study's claims.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { ExperimentSpec } from '../experiments/schema.ts';
import { cellStream, type CellOutcome } from '../experiments/outcome.ts';
import { policyLabel } from '../experiments/grid.ts';
import { batchLabel } from '../model/index.ts';
import { serviceSchema } from '../model/schema.ts';
import { timeUnit } from '../model/service/index.ts';
import { estimateIntervalText, formatCount, isInfinite, isUnsettled, type Estimate } from '../stats/index.ts';
import {
  VEGA_LITE_SCHEMA,
  ciLayers,
  estimateFields,
  facetOrder,
  figureSection,
  tip,
  titleBlock,
  type Figure,
  type Row,
} from './figures.ts';
import { reproduceSection, writeReportFolder, type RunMetadata, type WriteReportOptions } from './page.ts';
import { experimentLatexTable, latexDocument } from './latex.ts';
import { ReasonNotes } from './reasons.ts';

/**
 * A table entry: mean ± half-width, ∞ for a mean infinite in theory (model/moments.ts) with the mark of its reason when
 * `reasons` collects them (said once under the tables, `infiniteNote`), – when not measured; a mean that may be
 * infinite with no rule settling it (`unsettled`, model/moments.ts `meanResponseTimeUnsettled`) is the run's average
 * marked "not settled", with no interval (the reason is in the note under the table). `warned`: the warnings on the
 * interval (`IntervalWarnings`) with the notes that mark them ("1.268 ± 0.289 [w1]", said once in `warningNote`).
 */
const fmt = (e: Estimate | undefined, k = 3, unsettled = false, reasons?: ReasonNotes, warned?: Warned) =>
  !e
    ? '–'
    : isInfinite(e)
      ? reasons
        ? `∞ ${reasons.mark(e.reason ?? 'infinite in theory')}`
        : '∞'
      : unsettled || isUnsettled(e)
        ? `not settled (run's average ${(e.sampleMean ?? e.mean).toFixed(k)})`
        : e.unobserved // a fraction no unit resolved (stats `unresolvedFraction`): its interval, not "x ± h"
          ? estimateIntervalText(e.mean, e.ci95, e.halfWidth, k, 0, 'not resolved')
          : `${e.mean.toFixed(k)} ± ${e.halfWidth.toFixed(k)}${warned && warned.warnings.length > 0 ? ` ${warned.warnings.map((w) => warned.notes.mark(w)).join('')}` : ''}`;

/**
 * Cell key → what simulate warns of its E[T] interval (model/moments.ts `estimandFiniteness(model).warnings`, the lines
 * simulate prints and compare notes: e.g. "the interval of E[T] rests on Var[T] = ∞ (…): it is not a 95 % interval").
 * The run (cli/commands/run.ts) builds it from the cells' models, as it builds `unsettled`.
 */
export type IntervalWarnings = ReadonlyMap<string, readonly string[]>;

/** The warnings of one entry's interval and the notes marking them ([w1], [w2], …). */
type Warned = { readonly warnings: readonly string[]; readonly notes: ReasonNotes };

/**
 * The outcomes as results.json and `run --json` give them: each cell with warnings (`IntervalWarnings`) carries them
 * in its result as `warnings`, as simulate's JSON does; the others as they are.
 */
export function withIntervalWarnings(outcomes: readonly CellOutcome[], warnings: IntervalWarnings): CellOutcome[] {
  return outcomes.map((o) => {
    const w = warnings.get(o.cell.key);
    return w === undefined || w.length === 0 ? o : { ...o, result: { ...o.result, warnings: [...w] } };
  });
}

/**
 * Each cell's warnings of both maps (E[T]'s, then E[T/S]'s), each once (a warning on the whole run, e.g. a capped
 * warm-up, is in both), as results.json and `run --json` carry them.
 */
export function joinWarnings(a: IntervalWarnings, b: IntervalWarnings): IntervalWarnings {
  const joined = new Map<string, readonly string[]>(a);
  for (const [key, w] of b) joined.set(key, [...new Set([...(joined.get(key) ?? []), ...w])]);
  return joined;
}

/** How many findings rest on intervals simulate warns of (' At k grid points …'), or '' when none does. */
function warnedFindings(findings: readonly FindingRow[]): string {
  const k = findings.filter((f) => f.warnings && f.warnings.length > 0).length;
  return k === 0
    ? ''
    : ` ${k} verdict${k === 1 ? ' rests' : 's rest'} on intervals that simulate warns of, e.g. not 95 % intervals as Var[T] = ∞ (the caveat in the evidence): there the 95 % of the verdict rule may not hold.`;
}

/** The warnings on the E[T] intervals marked [wk] in the tables, each once, or '' when none is marked. */
function warningNote(notes: ReasonNotes): string {
  return notes.size === 0
    ? ''
    : `[wk]: a warning on the interval of each E[T] or E[T/S] entry so marked (as simulate prints it: model/moments.ts for infinite moments, sim/budget.ts for the heavy-tail budget; a warm-up cut by maxWarmup; the cell's \`warnings\` in results.json):\n\n${notes
        .lines()
        .map((l) => `- ${l}`)
        .join('\n')}\n\n`;
}

/** Why some entries read "not settled" (each reason once), or '' when none does. */
function unsettledNote(outcomes: readonly CellOutcome[], unsettled: ReadonlyMap<string, string>): string {
  const reasons = [...new Set(outcomes.flatMap((o) => (unsettled.has(o.cell.key) ? [unsettled.get(o.cell.key)!] : [])))];
  return reasons.length === 0
    ? ''
    : `not settled: the mean may be infinite and no rule here decides it, so the run's average is shown, not an estimate, and its claims are not judged: ${reasons.join('; ')}.\n\n`;
}

/** One finding of the study, evaluated on the grid (see src/experiments/claims.ts). */
export interface FindingRow {
  readonly claim: string;
  readonly where: string;
  readonly verdict: 'holds' | 'fails' | 'undecided' | 'undefined';
  readonly evidence: string;
  /** What simulate warns of the intervals the verdict rests on (experiments/claims.ts `Finding.warnings`), when any. */
  readonly warnings?: readonly string[];
}

function panelOf(o: CellOutcome): string {
  return `${o.cell.service}, d = ${o.cell.d}, n = ${o.cell.n}`;
}

/**
 * The unit of the times of a grid's service laws (model/service `timeUnit`): a short form names its mean (`exp@2`:
 * time units with E[S] = 2), a trace's sizes are rescaled to mean 1; laws of several means share no unit and the
 * text says so. @param services short forms as the grid writes them ("exp", "weibull:0.5@2", "trace:…").
 */
export function servicesTimeUnit(services: readonly string[]): string {
  const means = new Set(services.map((s) => (s.startsWith('trace:') ? 1 : (serviceSchema.parse(s) as { mean: number }).mean)));
  return means.size <= 1 ? timeUnit({ mean: [...means][0] ?? 1 }) : "time units (E[S] as each panel's service law sets it)";
}

/** The Figures section of a run whose every plotted mean is ∞ in theory or not settled (`lambdaFigure` draws no point). */
const NO_FIGURE =
  'No figure: every mean here is infinite in theory or not settled (model/moments.ts), so there is no point to draw; ' +
  'the tables above say which and why.\n';

/** The unit of the cells' times (`servicesTimeUnit` of their service laws). */
export function outcomesTimeUnit(outcomes: readonly CellOutcome[]): string {
  return servicesTimeUnit(outcomes.map((o) => o.cell.service));
}

/** The unit of each plotted measure, as the other figures write it: times in `outcomesTimeUnit`, slowdown a ratio. */
const measureUnit = (outcomes: readonly CellOutcome[], measure: 'meanResponseTime' | 'meanSlowdown' | 'classResponseTime') =>
  measure === 'meanSlowdown' ? 'ratio T/S, no unit' : outcomesTimeUnit(outcomes);

/** One plotted estimate of a cell: the line's label (policy, or policy and server class) and the estimate. */
type Series = { readonly label: string; readonly estimate: Estimate | undefined; readonly extra?: Row };

/**
 * E[T] (or slowdown) against λ, one line per policy, facets by prediction (columns) and service/d/n (rows).
 * @param unsettled cell key → why its E[T] is not settled (`writeExperimentReport`): such a cell is no point (its
 *   tables say "not settled"); its row stays in the CSV and JSON with value null, `unsettled: true`, the reason and the
 *   run's average, and the caption says so.
 * @param warnings what simulate warns of a cell's E[T] interval (`IntervalWarnings`): an E[T] row with an interval
 *   carries them as `warnings` in the CSV and JSON, and the caption counts them; E[T/S] rows carry none (they are about T).
 */
export function measureFigure(
  outcomes: readonly CellOutcome[],
  measure: 'meanResponseTime' | 'meanSlowdown',
  unsettled: ReadonlyMap<string, string> = new Map(),
  warnings: IntervalWarnings = new Map(),
): Figure | null {
  return lambdaFigure(outcomes, (o) => [{ label: o.cell.policy, estimate: o.result[measure] }], measure, unsettled, warnings);
}

/**
 * Heterogeneous servers (theory.md §13): the mean response time of the jobs each server class served against λ, one
 * line per policy and class; its CSV holds every class's busy fraction, E[T] and jobs served. Null without classes.
 */
export function classFigure(
  outcomes: readonly CellOutcome[],
  unsettled: ReadonlyMap<string, string> = new Map(),
  warnings: IntervalWarnings = new Map(),
): Figure | null {
  if (!outcomes.some((o) => o.result.classes)) return null;
  return lambdaFigure(
    outcomes,
    (o) =>
      (o.result.classes ?? []).map((c, k) => ({
        label: `${o.cell.policy}, class ${k + 1} (speed ${c.speed})`,
        estimate: c.meanResponseTime,
        extra: {
          serverClass: k + 1,
          speed: c.speed,
          fraction: c.fraction,
          busyFraction: c.busyFraction.mean,
          busyFractionHalfWidth: c.busyFraction.halfWidth,
          jobsServed: c.jobs,
          workRate: o.result.workRate?.mean ?? null,
        },
      })),
    'classResponseTime',
    unsettled,
    warnings,
  );
}

function lambdaFigure(
  outcomes: readonly CellOutcome[],
  series: (o: CellOutcome) => Series[],
  measure: 'meanResponseTime' | 'meanSlowdown' | 'classResponseTime',
  unsettled: ReadonlyMap<string, string>,
  warnings: IntervalWarnings = new Map(),
): Figure | null {
  const rows: Row[] = [];
  const unit = outcomesTimeUnit(outcomes);
  let infinite = 0;
  let notSettled = 0;
  let warned = 0;
  for (const o of outcomes)
    for (const { label, estimate: e, extra } of series(o)) {
      if (!e) continue;
      // ∞ in theory: no point to plot (the spec filters it out), but the row stays in the CSV and JSON beside the
      // figure as value, lo, hi null with infinite: true and the reason (report/figures.ts estimateFields)
      const inf = isInfinite(e);
      if (inf) infinite++;
      // E[T] not settled (model/moments.ts meanResponseTimeUnsettled): the run's average is no estimate, so no point
      const why = inf ? undefined : (unsettled.get(o.cell.key) ?? (isUnsettled(e) ? e.reason : undefined));
      if (why !== undefined) notSettled++;
      // an interval simulate warns of (model/moments.ts; e.g. Var[T] = ∞: not a 95 % interval): the row says it (the
      // caller passes the measure's own warnings: E[T]'s, or E[T/S]'s `slowdownWarnings`)
      const warning = inf || why !== undefined ? [] : (warnings.get(o.cell.key) ?? []);
      if (warning.length > 0) warned++;
      rows.push({
        panel: panelOf(o),
        prediction: o.cell.prediction === 'none' ? 'size-blind or exact-size policies' : `prediction: ${o.cell.prediction}`,
        predictionOrder: o.cell.prediction === 'none' ? 0 : 1,
        policy: label,
        lambda: o.cell.lambda,
        ...(inf
          ? { ...estimateFields(Infinity, [Infinity, Infinity]), reason: e.reason ?? 'infinite in theory' }
          : why !== undefined
            ? { value: null, lo: null, hi: null, unsettled: true, reason: why, sampleMean: e.sampleMean ?? e.mean }
            : { value: e.mean, lo: e.ci95[0], hi: e.ci95[1], ...(warning.length > 0 ? { warnings: warning.join('; ') } : {}) }),
        service: o.cell.service,
        d: o.cell.d,
        n: o.cell.n,
        memory: o.cell.memory,
        ...cellStream(o.cell),
        seed: o.cell.seed,
        // the unit beside the numbers, as on the axis
        ...(measure === 'meanSlowdown' ? {} : { timeUnit: unit }),
        ...extra,
      });
    }
  // nothing finite to draw: no figure (the tables print ∞ or "not settled" with the reason), never an empty frame
  if (rows.length === infinite + notSettled) return null;
  const title =
    measure === 'meanResponseTime'
      ? 'mean response time E[T]'
      : measure === 'classResponseTime'
        ? 'E[T] of the jobs a server class served'
        : 'mean slowdown E[T/S]';
  const enc = {
    x: {
      field: 'lambda',
      type: 'quantitative',
      title: outcomes.some((o) => o.result.classes) ? 'arrival rate λ per server (load ρ = λ/Σ f·speed)' : 'arrival rate λ (= load ρ)',
      scale: { zero: false },
      // shortest form: a grid of one λ drew its lone tick as "0.900000"
      axis: { format: '~g' },
    },
    color: { field: 'policy', type: 'nominal', title: 'policy', scale: { scheme: 'tableau20' }, legend: { labelLimit: 300, columns: 1 } },
  };
  const columns = facetOrder(rows, 'prediction', ['predictionOrder', 'prediction']);
  const width = 260;
  const spec: TopLevelSpec = {
    $schema: VEGA_LITE_SCHEMA,
    data: { values: rows },
    // the rows of a mean infinite in theory are data (CSV, JSON), not points: a log axis has no place for them
    // and so are those of a mean not settled (no estimate to draw)
    ...(infinite + notSettled > 0 ? { transform: [{ filter: 'datum.infinite !== true && datum.unsettled !== true' }] } : {}),
    facet: {
      row: {
        field: 'panel',
        type: 'nominal',
        title: null,
        sort: facetOrder(rows, 'panel', ['service', 'd', 'n']),
        header: { labelLimit: 0, labelAngle: -90, labelAlign: 'center' },
      },
      column: { field: 'prediction', type: 'nominal', title: null, sort: columns, header: { labelLimit: 0 } },
    },
    spec: {
      width,
      height: 200,
      layer: ciLayers({
        x: enc.x,
        shared: { color: enc.color },
        mark: { type: 'line', point: true },
        // the measure on one line, its unit under it (a 200 px axis has no room for both on one)
        yTitle: [title, `(${measureUnit(outcomes, measure)}, log)`],
        encoding: {
          // the field's words, 4 significant digits (no internal names such as panel or value)
          tooltip: [
            { field: 'panel', title: 'service, d, n' },
            { field: 'prediction', title: 'prediction' },
            { field: 'policy', title: 'policy' },
            tip('lambda', 'λ'),
            tip('value', title),
            tip('lo', '95% CI low'),
            tip('hi', '95% CI high'),
          ],
        },
      }),
    },
    resolve: { scale: { y: 'independent' } },
    title: titleBlock(`${title} against λ per policy (95% CIs)`, columns.length * (width + 60)),
  } as unknown as TopLevelSpec;
  return {
    name: measure === 'meanResponseTime' ? 'response-time' : measure === 'classResponseTime' ? 'server-classes' : 'slowdown',
    title: `${title[0].toUpperCase()}${title.slice(1)} against λ`,
    caption:
      `Simulated ${title} per policy${measure === 'classResponseTime' ? ' and server class (theory.md §13; the CSV adds each class’s busy fraction, jobs served and Σ f·speed·busy)' : ''}, log scale, with Student-t 95% CIs over replications. Columns: the prediction model seen by ` +
      `LPW selection and by the predicted disciplines (SPJF, PSPJF, SPRPT); the first column holds the policies that use no prediction.` +
      (infinite > 0
        ? ` ${infinite} cell${infinite === 1 ? ' is' : 's are'} not plotted: ${title} is infinite there in theory (∞ in the tables; in the CSV and JSON a row with value null, infinite true and the reason; model/moments.ts).`
        : '') +
      (notSettled > 0
        ? ` ${notSettled} cell${notSettled === 1 ? ' is' : 's are'} not plotted: E[T] is not settled there, it may be infinite and no rule here decides it, so the run's average is no estimate ("not settled" in the tables; in the CSV and JSON a row with value null, unsettled true, the reason and sampleMean, the run's average; model/moments.ts).`
        : '') +
      (warned > 0
        ? ` ${warned} plotted interval${warned === 1 ? ' carries' : 's carry'} a warning, e.g. not a 95% interval as Var[T] = ∞ (the warnings column of the CSV and JSON, [wk] in the tables; model/moments.ts).`
        : ''),
    rows,
    spec,
  };
}

/**
 * Why the entries marked ∞ [k] read ∞: each reason of model/moments.ts once, by its mark (`ReasonNotes`: a reason
 * that holds another, E[T/S]'s "E[W] = ∞: <E[T]'s reason>", cites it by its mark), or '' when none does.
 */
function infiniteNote(reasons: ReasonNotes): string {
  return reasons.size === 0
    ? ''
    : `∞ [k]: the mean is infinite in theory, so no finite run estimates it (its sample average, which grows with the run, is kept as \`sampleMean\` in results.json), because:\n\n${reasons
        .lines()
        .map((l) => `- ${l}`)
        .join('\n')}\n`;
}

/**
 * The table columns before the λ columns: the policy [prediction], then the arrivals and the batch when some cell of
 * the report is not Poisson or not single jobs (the policy cell then names neither; theory.md §14–§15).
 */
function rowColumns(outcomes: readonly CellOutcome[]): { header: string[]; of: (o: CellOutcome) => string[] } {
  const streams = outcomes.map((o) => cellStream(o.cell));
  const arrivals = streams.some((s) => s.arrivals !== 'exp');
  const batch = streams.some((s) => s.batch !== 1);
  const prediction = (o: CellOutcome) => (o.cell.prediction === 'none' ? '' : ` [${o.cell.prediction}]`);
  if (!arrivals && !batch) return { header: ['policy [prediction]'], of: (o) => [`${o.cell.policy}${prediction(o)}`] };
  return {
    header: ['policy [prediction]', ...(arrivals ? ['arrivals'] : []), ...(batch ? ['batch'] : [])],
    of: (o) => {
      const s = cellStream(o.cell);
      return [
        `${policyLabel(o.cell.selection, o.cell.discipline, o.cell.memory, undefined, undefined, undefined, o.cell.d)}${prediction(o)}`,
        ...(arrivals ? [s.arrivals] : []),
        ...(batch ? [batchLabel(s.batch, s.batchDispatch) || '1'] : []),
      ];
    },
  };
}

/**
 * The Markdown tables of one measure: a table per panel (service, d, n), a row per policy [prediction] (and arrivals,
 * batch when they vary from the default), a column per λ; entries mean ± half-width, ∞, or – when not measured.
 */
export function experimentTables(
  outcomes: readonly CellOutcome[],
  measure: 'meanResponseTime' | 'meanSlowdown',
  unsettled: ReadonlyMap<string, string> = new Map(),
  reasons?: ReasonNotes,
  warned?: { readonly warnings: IntervalWarnings; readonly notes: ReasonNotes },
): string {
  const lambdas = [...new Set(outcomes.map((o) => o.cell.lambda))].sort((a, b) => a - b);
  const panels = [...new Set(outcomes.map(panelOf))];
  const columns = rowColumns(outcomes);
  const rowKey = (o: CellOutcome) => columns.of(o).join(' | ');
  const out: string[] = [];
  for (const panel of panels) {
    const inPanel = outcomes.filter((o) => panelOf(o) === panel);
    const rowsKeys = [...new Set(inPanel.map(rowKey))];
    out.push(
      `#### ${panel}\n`,
      `| ${columns.header.join(' | ')} | ${lambdas.map((l) => `λ = ${l}`).join(' | ')} |`,
      `|${columns.header.map(() => '---').join('|')}|${lambdas.map(() => '---').join('|')}|`,
    );
    for (const rk of rowsKeys) {
      const cells = lambdas.map((l) => {
        const o = inPanel.find((x) => x.cell.lambda === l && rowKey(x) === rk);
        // the warnings of this measure's interval (the caller passes E[T]'s or E[T/S]'s)
        const w = warned && o ? { warnings: warned.warnings.get(o.cell.key) ?? [], notes: warned.notes } : undefined;
        return fmt(o?.result[measure], 3, o !== undefined && unsettled.has(o.cell.key), reasons, w);
      });
      out.push(`| ${rk} | ${cells.join(' | ')} |`);
    }
    out.push('');
  }
  return out.join('\n');
}

/**
 * Heterogeneous servers (theory.md §13): per panel, for each policy and λ, each class's busy fraction, the E[T] of the
 * jobs it served and their number, and the work rate Σ f·speed·busy (= λE[S] in steady state). '' without classes.
 */
function classTables(
  outcomes: readonly CellOutcome[],
  warned?: { readonly warnings: IntervalWarnings; readonly notes: ReasonNotes },
): string {
  const withClasses = outcomes.filter((o) => o.result.classes);
  if (withClasses.length === 0) return '';
  const out: string[] = [
    '## Per server class\n',
    'Each class’s time-average busy fraction, the mean response time of the jobs it served and how many it served (all replications), ' +
      'and the work served per server Σ f·speed·busy, which equals λE[S] in steady state (theory.md §13).\n',
  ];
  for (const panel of [...new Set(withClasses.map(panelOf))]) {
    out.push(
      `#### ${panel}\n`,
      '| policy [prediction] | λ | class (speed, fraction) | busy fraction | E[T] of its jobs | jobs served | Σ f·speed·busy |',
      '|---|---|---|---|---|---|---|',
    );
    for (const o of withClasses.filter((x) => panelOf(x) === panel))
      o.result.classes!.forEach((c, k) =>
        out.push(
          `| ${o.cell.policy}${o.cell.prediction === 'none' ? '' : ` [${o.cell.prediction}]`} | ${o.cell.lambda} | ${k + 1} (${c.speed}, ${c.fraction}) | ` +
            `${fmt(c.busyFraction)} | ${fmt(c.meanResponseTime, 3, false, undefined, warned ? { warnings: warned.warnings.get(o.cell.key) ?? [], notes: warned.notes } : undefined)} | ${formatCount(c.jobs)} | ${k === 0 ? fmt(o.result.workRate) : ''} |`,
        ),
      );
    out.push('');
  }
  return out.join('\n') + '\n';
}

/**
 * Where the cells' replications started, from the cells: "start empty", or how many started at the mean-field fixed
 * point (`--start`; SQ(d) models only, theory.md §8 "Start"). A cell stored without a start started empty.
 */
function startText(outcomes: readonly CellOutcome[]): string {
  const fixedPoint = outcomes.filter((o) => o.cell.start === 'fixed-point').length;
  return fixedPoint === 0
    ? 'every replication starts empty'
    : `${fixedPoint} of ${outcomes.length} cells start each replication at the mean-field fixed point (round(n·s_i*) servers hold ≥ i jobs; ` +
        `SQ(d) models, theory.md §8 "Start"), the others empty (each cell's start in results.json)`;
}

/**
 * Writes the experiment report to `outDir`: report.md, index.html, figures (PNG, SVG, vega-lite spec, CSV, JSON),
 * results.json (every cell with seeds) and metadata.json.
 * @param unsettled cell key → why its E[T] may be infinite with no rule settling it (model/moments.ts
 *   `meanResponseTimeUnsettled`): those E[T] and E[T/S] entries read "not settled", with the reason under the table, and
 *   are no points in the figures (their captions say so).
 * @param warnings what simulate warns of a cell's E[T] interval (`IntervalWarnings`, e.g. not a 95 % interval): its
 *   E[T] entries are marked [wk] with the warnings under the E[T] tables, the header says not every interval is a 95 %
 *   one, the figures' CSV and JSON rows carry them, results.json has them per cell (`withIntervalWarnings`), and the
 *   findings judged on them say so in their evidence (experiments/claims.ts).
 * @param slowdownWarnings the same for a cell's E[T/S] interval (model/moments.ts `slowdownWarnings`: Var[T/S] = ∞),
 *   marked on its E[T/S] entries with the same [wk] notes, carried by the E[T/S] figure's rows and results.json.
 * @returns paths written, relative to outDir.
 */
export async function writeExperimentReport(
  outDir: string,
  spec: ExperimentSpec,
  outcomes: readonly CellOutcome[],
  meta: RunMetadata,
  findings: readonly FindingRow[] = [],
  options: WriteReportOptions = {},
  unsettled: ReadonlyMap<string, string> = new Map(),
  warnings: IntervalWarnings = new Map(),
  slowdownWarnings: IntervalWarnings = new Map(),
): Promise<string[]> {
  const figures = [
    measureFigure(outcomes, 'meanResponseTime', unsettled, warnings),
    measureFigure(outcomes, 'meanSlowdown', unsettled, slowdownWarnings),
    classFigure(outcomes, unsettled, warnings),
  ].filter((f): f is Figure => f !== null);
  const events = outcomes.reduce((s, o) => s + o.result.events, 0);
  const replay = outcomes.some((o) => o.cell.trace);
  const budget = replay
    ? 'Trace replay: one run per cell over the second (test) half of each trace, CIs by 25 batch means over the replayed jobs (lag-1 autocorrelations in results.json).'
    : `Budget per cell: ${spec.replications} replications × ${spec.jobs.toExponential(1)} measured jobs; master seed ${spec.seed} (cell seeds in results.json);\nsampling ${spec.sampling ?? 'with-replacement'}${(spec.batch ?? [1]).some((b) => b !== 1) ? ' (batch cells draw d distinct servers)' : ''}; warm-up ${typeof spec.warmup === 'number' ? `${spec.warmup} time units` : `automatic (see each cell's warmupRule in results.json)${spec.maxWarmup === undefined ? '' : `, capped at maxWarmup = ${spec.maxWarmup} time units (a cell whose warm-up the cap cut carries a warning)`}`}; ${startText(outcomes)}.`;
  // the settings the file applies to every cell (or crosses with it) beyond the policy tables: without them a reader of
  // the report cannot tell a heterogeneous or redundant system from the classic one
  const settings = [
    spec.servers
      ? `server speeds ${spec.servers.speeds.join(',')}${spec.servers.fractions ? ` fractions ${spec.servers.fractions.join(',')}` : ' (equal fractions)'}${spec.servers.sampling ? ` (${spec.servers.sampling} sampling)` : ''}`
      : '',
    spec.redundancy !== undefined && spec.redundancy !== 'none'
      ? `redundancy ${spec.redundancy}${spec.replicas ? ` (${spec.replicas} replicas)` : ''}`
      : '',
    spec.arrivals ? `arrivals ${spec.arrivals.join(' | ')}` : '',
    spec.batch ? `batch sizes ${spec.batch.join(', ')}${spec.batchDispatch ? ` (${spec.batchDispatch})` : ''}` : '',
    spec.memory ? `memory ${spec.memory.join(' | ')}` : '',
  ].filter((x) => x !== '');
  const setup = settings.length === 0 ? '' : `\nModel settings: ${settings.join('; ')}.`;
  const quality = (meta as RunMetadata & { predictorQuality?: Record<string, unknown>[] }).predictorQuality;
  const q = (x: unknown) => {
    const v = x as { logCorrelation?: number; pearsonLog?: number; spearman?: number; over?: number; medianAbsLogError?: number } | null;
    if (!v) return '–';
    const r = v.logCorrelation ?? v.pearsonLog;
    return `r(ln) ${r?.toFixed(3) ?? '?'}, Spearman ${v.spearman?.toFixed(3) ?? '?'}, over ${v.over !== undefined ? `${(100 * v.over).toFixed(1)}%` : '?'}, MALE ${v.medianAbsLogError?.toFixed(3) ?? '?'}`;
  };
  const qualityTable = !quality
    ? ''
    : `## Predictor quality (test half of each trace)\n\n| trace | jobs (skipped) | train / test | random forest | linear | user estimate |\n|---|---|---|---|---|---|\n${quality
        .map(
          (x) =>
            `| ${x.trace} | ${x.jobs} (${x.skipped}) | ${x.trainCount} / ${x.testCount} | ${q(x.randomForest)} | ${q(x.linear)} | ${q(x.userEstimate)} |`,
        )
        .join('\n')}\n\n`;
  const claims = [...new Set(findings.map((f) => f.claim))];
  const summary = claims
    .map((c) => {
      const of = findings.filter((f) => f.claim === c);
      const count = (v: string) => of.filter((f) => f.verdict === v).length;
      return `| ${c} | ${count('holds')} | ${count('fails')} | ${count('undecided')} | ${count('undefined')} |`;
    })
    .join('\n');
  const findingTable =
    findings.length === 0
      ? ''
      : `## Findings\n\nEach claim file (analysis/) is judged by the claims engine at every grid point where its cells exist: each quantity is ` +
        `its 95% CI, widened (Bonferroni) to joint 95% over the quantities of the point; **holds** when the claim is true for every value in ` +
        `those intervals, **fails** when false for every value, **undecided** otherwise (analysis/README.md, verdict rule); ` +
        `**undefined (infinite)** when a quantity it names is infinite in theory (model/moments.ts): a claim over ∞ neither holds nor fails.` +
        warnedFindings(findings) +
        `\n\n` +
        `| claim | holds | fails | undecided | undefined (infinite) |\n|---|---|---|---|---|\n${summary}\n\n### Per grid point\n\n| claim | where | verdict | evidence |\n|---|---|---|---|\n${findings
          .map((f) => `| ${f.claim} | ${f.where} | **${f.verdict === 'undefined' ? 'undefined (infinite)' : f.verdict}** | ${f.evidence} |`)
          .join('\n')}\n\n`;
  // each reason of an ∞ entry once, under the tables; the entries cite it by its mark (E[T] and E[T/S] share them)
  const reasons = new ReasonNotes();
  // the warnings on E[T] intervals, marked [wk] beside the entries and said once under the E[T] tables
  const warned = { warnings, notes: new ReasonNotes('w') };
  const responseTables = experimentTables(outcomes, 'meanResponseTime', unsettled, reasons, warned);
  // made before the note that lists the [wk] marks, so that E[T/S]'s are listed too
  const slowdownTables = outcomes.some((o) => o.result.meanSlowdown)
    ? experimentTables(outcomes, 'meanSlowdown', unsettled, reasons, { warnings: slowdownWarnings, notes: warned.notes })
    : '';
  const classSection = classTables(outcomes, warned);
  const ciText =
    warned.notes.size === 0
      ? 'Estimates carry 95% CIs.'
      : 'Estimates carry 95% CIs, except as marked: an entry marked [wk] carries warning k on its interval (listed under the E[T] tables), e.g. that it is not a 95 % interval.';
  const md = `# Experiment report: ${spec.name}

${spec.description ?? ''}

Generated ${meta.startedAt} by \`${meta.command}\` in ${meta.wallSeconds.toFixed(1)} s; ${outcomes.length} cells, ${formatCount(events)} simulated events.
${budget}${setup}
Time is in ${outcomesTimeUnit(outcomes)}. ${ciText}

${qualityTable}${findingTable}## Mean response time E[T]

${responseTables}
${warningNote(warned.notes)}${unsettledNote(outcomes, unsettled)}${slowdownTables ? `## Mean slowdown E[T/S]\n\n${slowdownTables}\n` : ''}${infiniteNote(reasons)}${classSection}
## Figures

${figures.length ? figures.map(figureSection).join('\n') : NO_FIGURE}
${reproduceSection(meta)}`;
  return writeReportFolder(
    outDir,
    {
      figures,
      results: {
        experiment: spec,
        code: meta.code,
        ...(meta.mixedCode ? { mixedCode: meta.mixedCode } : {}),
        cells: withIntervalWarnings(outcomes, joinWarnings(warnings, slowdownWarnings)),
        findings,
      },
      metadata: meta,
      markdown: md,
      title: `supermarket-lab experiment: ${spec.name}`,
      ...(options.latex
        ? {
            extraFiles: {
              'tables.tex': experimentLatexTable(spec.name, outcomes, unsettled, warnings),
              'report.tex': latexDocument(`supermarket-lab experiment: ${spec.name}`, figures),
            },
          }
        : {}),
    },
    options,
  );
}
