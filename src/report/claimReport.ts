/**
 * The report of a conjecture evaluation (src/claims): vega-lite specs of the verdict map and of both sides of each
 * comparison against λ, and the Markdown text. No I/O: the CLI renders and writes them.
 */
import type { TopLevelSpec } from 'vega-lite';
import { intervalWarningLines, openEndLines, quantityNamer, type ConjectureResult, type PointResult } from '../claims/index.ts';
import { VEGA_LITE_SCHEMA, estimateFields, figureSection, titleBlock, type Figure, type Row } from './figures.ts';
import { reproduceSection, resumedText, type RunMetadata } from './page.ts';
import { servicesTimeUnit } from './experimentReport.ts';

const VERDICT_COLOURS = {
  domain: ['holds', 'fails', 'undecided', 'undefined'],
  range: ['#2e7d32', '#c62828', '#9e9e9e', '#5d4037'],
};

const VERDICT_MAP_CAPTION =
  'One cell per grid point: x = λ, y = service law × d × prediction model; colour = verdict (green holds, red fails, ' +
  'grey undecided at this precision, brown undefined: a quantity is infinite in theory). The label gives the two sides of the comparison at the point estimates (left vs right), or how many ' +
  'comparisons hold for a compound claim.';
const SIDES_CAPTION =
  'Each side of each comparison at the point estimates (line) and its interval enclosure (band) against λ, one panel per ' +
  'service law × d × prediction model. Where the bands do not overlap the comparison is decided.';

const f3 = (x: number) =>
  Number.isFinite(x) ? (Math.abs(x) >= 1000 ? x.toExponential(2) : x.toFixed(3)) : x > 0 ? '∞' : x < 0 ? '−∞' : 'n/a';
const iv = (lo: number, hi: number) => `[${f3(lo)}, ${f3(hi)}]`;

/** The captions' word on intervals simulate warns of (`PointResult.warnings`): how many points, where said; '' when none. */
function warnedCaption(result: ConjectureResult): string {
  const k = result.points.filter((p) => p.warnings).length;
  return k === 0
    ? ''
    : ` At ${k} grid point${k === 1 ? '' : 's'} the intervals carry a warning, e.g. not 95 % intervals as Var[T] = ∞ (the warnings column of the CSV and JSON; the caveats under the table).`;
}

function verdictMap(result: ConjectureResult): Figure {
  const rows: Row[] = result.points.map((p) => {
    const c = p.comparisons;
    const label =
      p.verdict === 'undefined'
        ? '∞'
        : c.length === 1
          ? `${f3(c[0].leftValue)} vs ${f3(c[0].rightValue)}`
          : `${c.filter((x) => x.verdict === 'holds').length}/${c.length} hold`;
    return {
      row: p.point.row,
      lambda: String(p.point.lambda),
      verdict: p.verdict,
      label,
      sources: [...new Set(p.quantities.map((q) => q.source))].join(' + '),
      // what simulate warns of the intervals the verdict rests on (e.g. not a 95 % interval), as results.json says it
      ...(p.warnings ? { warnings: p.warnings.join('; ') } : {}),
    };
  });
  const spec = {
    $schema: VEGA_LITE_SCHEMA,
    data: { values: rows },
    width: { step: 78 },
    height: { step: 30 },
    encoding: {
      x: { field: 'lambda', type: 'ordinal', title: 'arrival rate λ (= load ρ)', sort: null, axis: { labelAngle: 0 } },
      y: { field: 'row', type: 'nominal', title: null, sort: null, axis: { labelLimit: 320 } },
    },
    layer: [
      {
        mark: { type: 'rect', stroke: 'white', strokeWidth: 2 },
        encoding: {
          color: { field: 'verdict', type: 'nominal', scale: VERDICT_COLOURS, title: 'verdict' },
          tooltip: [{ field: 'row' }, { field: 'lambda' }, { field: 'verdict' }, { field: 'label' }, { field: 'sources' }],
        },
      },
      { mark: { type: 'text', fontSize: 9, color: 'white' }, encoding: { text: { field: 'label' } } },
    ],
    title: titleBlock(`${result.name}: ${result.claim}`, 78 * new Set(rows.map((r) => r.lambda)).size + 320, [
      `holds ${result.summary.holds}, fails ${result.summary.fails}, undecided ${result.summary.undecided}` +
        `${result.summary.undefined ? `, undefined (infinite) ${result.summary.undefined}` : ''} of ${result.summary.total}`,
    ]),
  } as unknown as TopLevelSpec;
  return { name: 'verdicts', title: 'Verdict map', caption: VERDICT_MAP_CAPTION + warnedCaption(result), rows, spec };
}

/**
 * The unit of one side of a comparison: a time quantity (T, P50, P95, P99) in the grid's time unit, the slowdown S a
 * ratio; undefined for an expression of quantities (its unit is what the expression makes of them).
 */
function sideUnit(side: string, time: string): string | undefined {
  const m = /^\s*([A-Z]\w*)\([^()]*\)\s*$/.exec(side);
  if (m === null) return undefined;
  return m[1] === 'S' ? 'ratio T/S, no unit' : time;
}

function sidesFigure(result: ConjectureResult): Figure {
  const rows: Row[] = [];
  const time = servicesTimeUnit(result.spec.grid.service);
  const order = new Map([...new Set(result.points.map((p) => p.point.row))].map((r, i) => [r, i]));
  for (const p of result.points) {
    p.comparisons.forEach((c, i) => {
      const prefix = p.comparisons.length > 1 ? `(${i + 1}) ` : '';
      const [lt, rt] = splitComparison(c.text, c.operator);
      for (const [side, value, lo, hi] of [
        [`${prefix}left: ${lt}`, c.leftValue, c.left.lo, c.left.hi],
        [`${prefix}right: ${rt}`, c.rightValue, c.right.lo, c.right.hi],
      ] as const) {
        const unit = sideUnit(side.slice(side.indexOf(': ') + 2), time);
        rows.push({
          row: p.point.row,
          rowOrder: order.get(p.point.row)!,
          lambda: p.point.lambda,
          side,
          // ∞ as null with its flag (estimateFields: the project's JSON convention), not a bare null
          ...estimateFields(value, [lo, hi]),
          verdict: c.verdict,
          ...(unit === undefined ? {} : { unit }),
          ...(p.warnings ? { warnings: p.warnings.join('; ') } : {}),
        });
      }
    });
  }
  const enc = {
    // shortest tick form (one λ drew "0.900000", as the experiment report's figures did)
    x: { field: 'lambda', type: 'quantitative', title: 'arrival rate λ (= load ρ)', scale: { zero: false }, axis: { format: '~g' } },
    color: { field: 'side', type: 'nominal', title: 'side', legend: { orient: 'bottom', direction: 'vertical', labelLimit: 600 } },
  };
  const rowsCount = new Set(result.points.map((p) => p.point.row)).size;
  // the y axis names the unit of what it plots: times in the grid's time unit, a slowdown a ratio (it said "value")
  const units = [...new Set(rows.map((r) => r.unit as string | undefined))];
  const valueTitle = units.length === 1 && units[0] !== undefined ? `value (${units[0]})` : `value (times in ${time}; S a ratio)`;
  const spec = {
    $schema: VEGA_LITE_SCHEMA,
    data: { values: rows },
    facet: { field: 'row', type: 'nominal', title: null, sort: { field: 'rowOrder', op: 'min' }, header: { labelLimit: 0 } },
    columns: Math.min(3, rowsCount),
    spec: {
      width: 240,
      height: 170,
      layer: [
        {
          mark: { type: 'area', opacity: 0.25 },
          encoding: { ...enc, y: { field: 'lo', type: 'quantitative', title: valueTitle, scale: { zero: false } }, y2: { field: 'hi' } },
        },
        {
          mark: { type: 'line', point: true },
          encoding: {
            ...enc,
            y: { field: 'value', type: 'quantitative' },
            tooltip: [
              { field: 'side' },
              { field: 'lambda' },
              { field: 'value' },
              { field: 'lo' },
              { field: 'hi' },
              { field: 'unit' },
              { field: 'verdict' },
            ],
          },
        },
      ],
    },
    resolve: { scale: { y: 'independent' } },
    title: titleBlock(`${result.name}: both sides of ${result.claim}`, Math.min(3, rowsCount) * 300, [
      'bands: interval enclosures used for the verdict',
    ]),
  } as unknown as TopLevelSpec;
  return { name: 'sides', title: 'Both sides against λ', caption: SIDES_CAPTION + warnedCaption(result), rows, spec };
}

function splitComparison(text: string, op: string): [string, string] {
  const i = text.indexOf(` ${op} `);
  return i < 0 ? [text, ''] : [text.slice(0, i), text.slice(i + op.length + 2)];
}

/** How many of the simulations started at the mean-field fixed point (each request names its start), when any did. */
function startCount(result: ConjectureResult): string {
  const fixedPoint = result.simulations.filter((r) => r.start === 'fixed-point').length;
  return fixedPoint === 0 ? '' : ` (${fixedPoint} of ${result.simulations.length} simulations from the fixed point, the others empty)`;
}

/** The two figures of a conjecture report: the verdict map and both sides against λ. */
export function conjectureFigures(result: ConjectureResult): Figure[] {
  return [verdictMap(result), sidesFigure(result)];
}

function quantityCell(p: PointResult, name: ReturnType<typeof quantityNamer>): string {
  return p.quantities
    .map((q) => {
      const key = name(q, p.point);
      const where = q.source === 'mean-field' ? `${q.method}, ${q.kind}` : 'sim';
      // not settled: no estimate, so no value or interval; the run's average apart (the reason is in the evidence)
      if (q.unsettled !== undefined) return `${key} not settled (run's average ${f3(q.sampleMean ?? Number.NaN)}, ${where})`;
      // an interval open at an end says so, the note why once below the table (as simulate and replay print it)
      return `${key} = ${f3(q.value)} ${iv(q.interval[0], q.interval[1])} (${where}${q.openEnd === undefined ? '' : '; open at an end: see the note below'})`;
    })
    .join('<br>');
}

/** How many verdicts rest on intervals with a warning (' At k of them …'), or '' when none does. */
function warnedSummary(result: ConjectureResult): string {
  const k = result.points.filter((p) => p.warnings).length;
  return k === 0
    ? ''
    : ` At ${k} of them the verdict rests on intervals that simulate warns of (e.g. not 95 % intervals: Var[T] = ∞): see the caveats below.`;
}

/**
 * What simulate warns of the intervals some verdicts rest on (`intervalWarningLines`, model/moments.ts: e.g. Var[T] = ∞,
 * so not a 95 % interval), each once with its grid points, or '' when none.
 */
function intervalWarningSection(result: ConjectureResult): string {
  const lines = intervalWarningLines(result);
  return lines.length === 0
    ? ''
    : `\nWarnings on the intervals (as simulate prints them; these verdicts read them as 95 % intervals):\n\n${lines.map((l) => `- ${l}`).join('\n')}\n`;
}

/** Why some simulated percentile intervals are open at an end (`openEndLines`), one note each, or '' when none is. */
function openEndSection(result: ConjectureResult): string {
  const lines = openEndLines(result);
  return lines.length === 0 ? '' : `\nPercentile intervals open at an end:\n\n${lines.map((l) => `- ${l}`).join('\n')}\n`;
}

/** Header facts of the run, supplied by the caller (CLI), with how many simulations and solves were resumed from cells/. */
export interface ConjectureMeta extends RunMetadata {
  readonly resumedSimulations?: number;
  /** Mean-field solves (cavity estimates, the only ones stored) read back from cells/. */
  readonly resumedSolves?: number;
}

/**
 * What a conjecture read back from cells/, after "N simulations", each kind named (`resumedText`): ", 3 resumed; 1
 * mean-field solve (cavity estimate) resumed", or '' when nothing was.
 */
export function resumedNote(meta: Pick<ConjectureMeta, 'resumedSimulations' | 'resumedSolves'>): string {
  const sims = meta.resumedSimulations ?? 0;
  const solves = resumedText([[meta.resumedSolves ?? 0, 'mean-field solve (cavity estimate)', 'mean-field solves (cavity estimates)']]);
  return `${sims > 0 ? `, ${sims} resumed` : ''}${solves === '' ? '' : `; ${solves}`}`;
}

/**
 * The Markdown report: claim and source, verdict rule, summary, where each quantity came from, the per-point table
 * (claim value, intervals, quantities with their source) and the figures (SVG links under figures/).
 */
export function conjectureMarkdown(result: ConjectureResult, figures: readonly Figure[], meta: ConjectureMeta): string {
  const s = result.spec;
  const ev = s.evaluation;
  const methods = new Map<string, { count: number; reasons: Set<string> }>();
  for (const p of result.points)
    for (const q of p.quantities) {
      const k = `${q.key}: ${q.source === 'mean-field' ? `${q.method} (${q.kind})` : q.method}`;
      const m = methods.get(k) ?? { count: 0, reasons: new Set<string>() };
      m.count++;
      if (q.reason) m.reasons.add(q.reason);
      methods.set(k, m);
    }
  const sourceList = [...methods.entries()]
    .map(
      ([k, m]) =>
        `- ${k}: ${m.count} grid point${m.count === 1 ? '' : 's'}${m.reasons.size ? ` (why simulated: ${[...m.reasons].join('; ')})` : ''}`,
    )
    .join('\n');
  const mixed = result.points.some((p) => new Set(p.quantities.map((q) => q.source)).size > 1);
  const name = quantityNamer(result);
  const table = [
    '| grid row | λ | verdict | comparisons: left [interval] op right [interval] | quantities: value [interval] (source) |',
    '|---|---|---|---|---|',
    ...result.points.map(
      (p) =>
        `| ${p.point.row} | ${p.point.lambda} | **${p.verdict === 'undefined' ? 'undefined (infinite)' : p.verdict}** | ${p.verdict === 'undefined' ? `infinite in theory: ${(p.infinite ?? []).join('; ')}` : p.unsettled ? `not judged, ${p.unsettled.join('; ')}<br>` : ''}${p.comparisons
          .map(
            (c) =>
              `${f3(c.leftValue)} ${iv(c.left.lo, c.left.hi)} ${c.operator.replace('<', '&lt;').replace('>', '&gt;')} ${f3(c.rightValue)} ${iv(c.right.lo, c.right.hi)} → ${c.verdict}`,
          )
          .join('<br>')}${p.warnings ? `<br>caveat: ${p.warnings.join('; ')}` : ''} | ${quantityCell(p, name)} |`,
    ),
  ].join('\n');
  return `# Conjecture: ${s.name}

${s.description}

- **Claim:** \`${result.claim}\`
- **Source:** ${s.source || '–'}
- **Grid:** λ ∈ {${s.grid.lambda.join(', ')}}; d ∈ {${s.grid.d.join(', ')}}; service ∈ {${s.grid.service.join(', ')}}; prediction ∈ {${s.grid.prediction.join(', ')}}; sampling ${s.sampling ?? 'with-replacement (the default)'}${s.grid.batch.some((b) => b !== 1) ? ' (batch points draw d distinct servers)' : ''}.
- **Evaluation:** prefer ${ev.prefer}; mixSources ${ev.mixSources}; acceptApproximation ${ev.acceptApproximation}; simulations at n = ${ev.n}, ${ev.replications} replications × ${ev.jobs} measured jobs, warm-up ${ev.warmup === 'auto' ? 'automatic (theory.md §8)' : `${ev.warmup} time units`}; start ${ev.start}${startCount(result)}; master seed ${ev.seed}.

Generated ${meta.startedAt} by \`${meta.command}\` in ${meta.wallSeconds.toFixed(1)} s (supermarket-lab ${result.provenance.version}); ${result.simulations.length} simulations${resumedNote(meta)}${resumedNote(meta) === '' ? '' : ' from cells/'}.
Time is in mean service times (E[S] = 1).

## Summary

Of ${result.summary.total} grid points the claim **holds at ${result.summary.holds}**, **fails at ${result.summary.fails}** and is **undecided at ${result.summary.undecided}** at this precision${result.summary.undefined ? `; at ${result.summary.undefined} it is **undefined (infinite)**: a quantity it names is infinite in theory (model/moments.ts), so it neither holds nor fails` : ''}.${warnedSummary(result)}

## Verdict rule

${result.provenance.verdictRule}${ev.simultaneous ? '' : ' (simultaneous: false here: each estimated quantity keeps its own 95% CI.)'}

## Where each quantity came from

${sourceList}
${mixed ? '\nSome grid points compare mean-field (n → ∞) values with finite-n simulations; E[T_n] − E[T_∞] is O(1/n) and positive where observed (theory.md §8). Set `mixSources: false` to compare at equal n.\n' : ''}
## Per grid point

${table}
${openEndSection(result)}${intervalWarningSection(result)}
## Figures

${figures.map(figureSection).join('\n')}
${reproduceSection(meta)}`;
}
