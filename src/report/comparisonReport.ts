/**
 * The report of a comparison (`runComparison`): with the refined term (JSQ(d) FIFO exponential) a validation report
 * against π + V/n; otherwise a "Without V" convergence report (theory.md §8) naming the solver with its kind and error
 * bars, the limit fitted from the n-sweep and the per-n verdicts with the stated allowance. Written as a report folder
 * (see `writeReportFolder`).
 */
import {
  CONFIRM_FACTOR,
  MAX_RELATIVE_CORRECTION,
  groupNotes,
  modelExtrasLabel,
  serviceLabel,
  withoutVReason,
  type CellResult,
  type CellSimulation,
  type ComparisonResult,
  type ModelSummary,
} from '../compare/index.ts';
import type { ExactPoint } from '../compare/exactPoints.ts';
import { describeFitErrorOf } from '../meanfield/phaseType/fitError.ts';
import { comparisonFigures } from './comparisonFigures.ts';
import { meanFieldCapabilities } from '../meanfield/capabilities.ts';
import { FIXED_POINT_FLOOR_TAUS } from '../meanfield/warmup.ts';
import { meanJson, unvaluedJson } from '../io/jsonText.ts';

import { timeUnit } from '../model/service/index.ts';
import { policyName, selectionFamilyName } from '../model/index.ts';
import { fixedPointFloorAtD1 } from './warmupWords.ts';
import {
  fittedLimitInterval,
  isUnvalued,
  UNDEFINED_INFINITE,
  limitWithoutValue,
  unvaluedReference,
  UNVALUED,
  UNVALUED_STATUSES,
  WITHOUT_V_RULE,
} from '../compare/verdict.ts';
import { oneInterval, plusMinus } from '../stats/index.ts';
import { comparisonLatexTables, latexDocument } from './latex.ts';
import { figureSection, type Figure } from './figures.ts';
import {
  estimateText,
  fix,
  markdownTable,
  NOT_RESOLVED,
  reproduceSection,
  sci,
  statusText,
  writeReportFolder,
  type RunMetadata,
  type WriteReportOptions,
} from './page.ts';
import { quantileCounts, quantileSection } from './quantileSection.ts';
export { estimateText } from './page.ts';
import { refinedText, refinementCellColumns, refinementSection, secondOrderModelColumns, exactMark } from './refinementSection.ts';

type Columns<T> = (readonly [string, (x: T) => string])[];

/** "1.3742 (exact)", "1.5767 ± 0.0075 (cavity 95% CI)", "3.3115 ± 4.3e-6 (numerical)". */
export function referenceText(m: ModelSummary): string {
  const r = m.reference;
  // no finite value, the status the reference carries (compare/verdict.ts `limitWithoutValue`): E[T]_n = ∞ with
  // replacement may sit beside a finite limit or one not settled (JSQ(2) FIFO pareto:1.5); E[T]∞ not settled or finite
  // but not computed with E[T]_n simulated
  const known = limitWithoutValue(m.reference);
  if (known !== null) {
    if (known.status === 'infinite') return '∞ (infinite in theory)';
    if (known.atEveryN !== undefined)
      return known.status === 'not-computed'
        ? 'finite (E[T]_n = ∞ at every n: not compared)'
        : 'not settled (E[T]∞ unproven, E[T]_n = ∞ at every n: not compared)';
    return `${statusText(known.status)} (${UNVALUED[known.status].meaning}: cells shown, not judged)`;
  }
  if (r.kind === 'estimate') return `${fix(r.meanResponseTime)} ± ${fix(r.halfWidth)} (estimate, 95% CI)`;
  if (r.kind === 'approximation')
    return r.measuredError
      ? `${fix(r.meanResponseTime)} (approximation, ${describeFitErrorOf(r.meanResponseTime, r.measuredError)})`
      : `${fix(r.meanResponseTime)} (approximation, error not bounded)`;
  return r.numericalError > 0 ? `${fix(r.meanResponseTime)} ± ${sci(r.numericalError)} (numerical)` : `${fix(r.meanResponseTime)} (exact)`;
}

/**
 * What kind of reference a model has, as the Method list names it: the solver's kind, or, where no solver ran, the
 * limit's status ("∞", "not settled", "finite, not computed") and that there is no reference value.
 */
export function referenceKindText(ref: ModelSummary['reference']): string {
  const known = limitWithoutValue(ref);
  if (known === null) return ref.kind;
  return `no reference value: E[T]∞ ${known.status === 'infinite' ? '= ∞' : statusText(known.status)}`;
}

/**
 * "yes (12 iterations)", "yes", "NO"; "–" where no solver ran (null: no reference value) and for a stored result
 * written before convergence was recorded.
 */
export function convergenceText(c: ModelSummary['reference']['convergence'] | undefined): string {
  if (c === undefined || c === null) return '–';
  return `${c.converged ? 'yes' : '**NO**'}${c.iterations !== undefined ? ` (${c.iterations} iterations)` : ''}`;
}

const modelOf = (result: ComparisonResult, c: CellResult) => result.models.find((x) => x.d === c.d && x.lambda === c.lambda)!;
const slopeText = (s: ModelSummary['slope']) => (s ? `${fix(s.slope, 2)} (${s.nUsed.join(', ')})` : NOT_RESOLVED);
/** A fitted coefficient "ĉ ± h", h its calibrated 95% half-width (`fitInverseN`), decimals by h (`plusMinus`); 'n/a' without a fit. */
const coefficientText = (x: number | undefined, h: number | undefined) => (x === undefined || h === undefined ? 'n/a' : plusMinus(x, h));
/** p-values: 3 significant digits, "< 1e-6" below. */
const pText = (p: number | null) =>
  p === null || Number.isNaN(p) ? '–' : p < 1e-6 ? '< 1e-6' : p >= 0.01 ? p.toFixed(3) : p.toExponential(1);
/** t (ν) of a judged cell; '—' for a cell with no test (out of range, not resolvable, not judged). */
const tText = (c: CellResult) =>
  Number.isNaN(c.verdict.pValue) ? '—' : `${fix(c.verdict.tStatistic, 1)} (${fix(c.verdict.degreesOfFreedom, 0)})`;
const rerunText = (c: CellResult) => {
  const r = c.confirmation;
  if (!r) return '–';
  const e = r.simulation.meanResponseTime;
  return `${fix(e.mean)} ± ${fix(e.halfWidth)}, R = ${e.replications}, t = ${fix(r.verdict.tStatistic, 1)}, p Holm ${pText(r.verdict.adjustedPValue)}`;
};
const horizonText = (c: CellResult) =>
  c.horizon.relaxations === null ? '–' : `${fix(c.horizon.relaxations, 1)}${c.horizon.short ? ' (short)' : ''}`;
/** The judging columns shared by both report kinds. */
const judgeColumns: Columns<CellResult> = [
  ['t (ν)', tText],
  ['p', (c) => pText(c.verdict.pValue)],
  ['p Holm', (c) => pText(c.verdict.adjustedPValue)],
  ['verdict', (c) => `**${statusText(c.verdict.status)}**${exactMark(c)}`],
  ['confirmatory rerun', rerunText],
];

/**
 * The warm-up a model's cells used, as the table prints it: one value, or the range over n (the fixed-point start's rule
 * reads n), with the start(s) taken and, when both, their cell counts.
 */
function cellWarmupText(m: ModelSummary): string {
  const { min, max, starts } = m.cellWarmups;
  const names = (Object.keys(starts) as (keyof typeof starts)[]).map((s) => (s === 'fixed-point' ? 'fixed point' : s));
  const which =
    names.length === 1
      ? names[0]
      : (Object.entries(starts) as [string, number][]).map(([s, k]) => `${s === 'fixed-point' ? 'fixed point' : s} ${k}`).join(', ');
  return `${min === max ? fix(min, 1) : `${fix(min, 1)}–${fix(max, 1)}`} (${which})`;
}

/** The budget line's sentence on the d = 1 cells whose warm-up is the rule's floor (`fixedPointFloorAtD1`), or ''. */
function d1Floor(result: ComparisonResult): string {
  for (const c of result.cells) {
    if (c.simulation.start !== 'fixed-point') continue;
    const tau = result.models.find((m) => m.d === c.d && m.lambda === c.lambda)?.relaxationTime;
    const words = fixedPointFloorAtD1(c.d, c.simulation.warmupTime, tau);
    if (words !== undefined) return ` ${words}.`;
  }
  return '';
}

/**
 * The Method's budget line: replications, jobs and the start and warm-up the cells took — from the cells (with
 * `--start auto` a model without a fixed-point start, or a very small n, starts empty).
 */
function budgetLine(result: ComparisonResult): string {
  const c = result.config;
  const fixedPoint = result.cells.filter((x) => x.simulation.start === 'fixed-point').length;
  const total = result.cells.length;
  const chosen = c.start === undefined || c.start === 'empty' ? '' : `--start ${c.start}: `;
  const budget = `- Budget per cell: ${c.replications} independent replications × ${c.jobs.toExponential(1)} measured jobs`;
  const empty = `after its own warm-up from empty (${result.models[0].warmupRule})`;
  if (fixedPoint === 0)
    return `${budget}, each ${empty}${chosen ? ` (${chosen}no cell's model has its fixed point as a start state)` : ''}.`;
  return (
    `${budget}, each started at the mean-field fixed point (round(n·s_i*) servers hold ≥ i jobs) after its own warm-up: ` +
    `max(2 × time for the refined transient V(t)/n to come within ${c.warmupTolerance} of V/n, ${FIXED_POINT_FLOOR_TAUS}τ), per n ` +
    `(${chosen}${fixedPoint} of ${total} cells${fixedPoint < total ? `; the other ${total - fixedPoint} each ${empty}` : ''}; ` +
    `each cell's start and warmupTime in results.json; theory.md §8 "Start").${d1Floor(result)}`
  );
}

function modelColumns(result: ComparisonResult): Columns<ModelSummary> {
  const head: Columns<ModelSummary> = [
    ['d', (m) => `${m.d}`],
    ['λ', (m) => `${m.lambda}`],
  ];
  if (result.judgedBy === 'refined-mean-field') {
    return [
      ...head,
      ['E[T]∞ (mean field)', (m) => fix(m.reference.meanResponseTime)],
      ['ΣV', (m) => fix(m.refined!.sumV)],
      ['τ (relaxation)', (m) => fix(m.relaxationTime ?? NaN, 1)],
      ['warm-up of the cells (start)', cellWarmupText],
      ['slope of log\\|err\\| (± s.e.)', (m) => (m.slope ? `${fix(m.slope.slope, 2)} (± ${fix(m.slope.standardError, 2)})` : NOT_RESOLVED)],
      ['n used', (m) => (m.slope ? m.slope.nUsed.join(', ') : '–')],
      ['c₁ fit ± h (95 %)', (m) => coefficientText(m.fitThroughReference?.c1, m.fitThroughReference?.c1HalfWidth)],
      ['ΣV/λ', (m) => fix(m.refined!.sumV / m.lambda, 2)],
      [
        'ĉ₁ trusted n ± h (n used)',
        (m) =>
          m.c1Check && m.c1Check.status !== 'not-judged'
            ? `${plusMinus(m.c1Check.c1, m.c1Check.halfWidth)} (${m.c1Check.nUsed.join(', ')})`
            : 'n/a',
      ],
      [
        'c₁ t (ν), p Holm',
        (m) =>
          m.c1Check && !Number.isNaN(m.c1Check.pValue)
            ? `${fix(m.c1Check.tStatistic, 1)} (${fix(m.c1Check.degreesOfFreedom, 1)}), ${pText(m.c1Check.adjustedPValue)}`
            : '–',
      ],
      ['c₁ vs ΣV/λ', (m) => (m.c1Check ? `**${statusText(m.c1Check.status)}**` : '–')],
      ...secondOrderModelColumns(result),
    ];
  }
  return [
    ...head,
    ['solver', (m) => m.reference.solver],
    ['kind', (m) => (m.reference.kind === 'none' ? '–' : m.reference.kind)],
    ['E[T]∞ reference', referenceText],
    ['converged', (m) => convergenceText(m.reference.convergence)],
    ['warm-up of the cells (start)', cellWarmupText],
    // the limit check's â and t half-width (fixed coefficients, LIMIT_RULE), not the weighted fit's
    [
      'â [95 % CI] (fit)',
      (m) => {
        // â ± h within E[T] ≥ E[S]/μ_max: at a low load it can reach below E[S], where no E[T] lies
        const l = m.fit ? fittedLimitInterval(m) : null;
        return l ? `${fix(l.value)} [${fix(l.ci95[0])}, ${fix(l.ci95[1])}]` : 'n/a';
      },
    ],
    ['â − E[T]∞', (m) => fix(m.limit.difference)],
    ['limit p Holm', (m) => pText(m.limit.adjustedPValue)],
    ['limit', (m) => `**${statusText(m.limit.status)}**`],
    [
      'limit rerun',
      (m) => {
        const r = m.limitConfirmation;
        return r
          ? `â − E[T]∞ = ${fix(r.check.difference)} ± ${fix(r.check.combinedHalfWidth)}, t = ${fix(r.check.tStatistic, 1)}, p Holm ${pText(r.check.adjustedPValue)}`
          : '–';
      },
    ],
    ['ĉ₁ ± h (95 %)', (m) => coefficientText(m.fit?.c1, m.fit?.c1HalfWidth)],
    ['ĉ₂ ± h (95 %)', (m) => (m.fit && m.fit.inverseSquare ? coefficientText(m.fit.c2, m.fit.c2HalfWidth) : '–')],
    ['χ²/dof', (m) => (m.fit && m.fit.degreesOfFreedom > 0 ? fix(m.fit.chiSquare / m.fit.degreesOfFreedom, 2) : '–')],
    ['c₁ through reference ± h (95 %)', (m) => coefficientText(m.fitThroughReference?.c1, m.fitThroughReference?.c1HalfWidth)],
    ['slope of log\\|err\\| (n used)', (m) => slopeText(m.slope)],
  ];
}

function workloadTable(result: ComparisonResult): string {
  const lwl = result.models.filter((m) => m.workload);
  if (lwl.length === 0) return '';
  return `\n### Workload ccdf (LWL)\n\n${markdownTable(lwl, [
    ['d', (m) => `${m.d}`],
    ['λ', (m) => `${m.lambda}`],
    ['workload solver', (m) => m.workload!.solver],
    ['its sup error', (m) => sci(m.workload!.numericalError)],
    ['slope of sup\\|F̂−F̄\\| (n used)', (m) => slopeText(m.workloadSlope)],
  ])}\n`;
}

function cellColumns(result: ComparisonResult): Columns<CellResult> {
  const head: Columns<CellResult> = [
    ['d', (c) => `${c.d}`],
    ['λ', (c) => `${c.lambda}`],
    ['n', (c) => `${c.n}`],
    ['simulated E[T] ± h', (c) => estimateText(c.simulation.meanResponseTime)],
  ];
  const tail: Columns<CellResult> = [
    ['events', (c) => sci(c.simulation.events)],
    ['events/s', (c) => sci(c.simulation.eventsPerSecond)],
  ];
  if (result.judgedBy === 'refined-mean-field') {
    return [
      ...head,
      ['mean field', (c) => fix(modelOf(result, c).reference.meanResponseTime)],
      ['refined', (c) => refinedText(c.refined!)],
      ...refinementCellColumns(result),
      ['sim − refined', (c) => fix(c.verdict.difference)],
      ['allowance δ', (c) => sci(c.verdict.allowance)],
      ['h / (ΣV/λn)', (c) => fix(c.verdict.halfWidth / Math.abs(modelOf(result, c).refined!.sumV / (c.lambda * c.n)), 2)],
      ...judgeColumns,
      ['horizon / τ', horizonText],
      ['sup\\|ŝ−s\\| MF', (c) => sci(c.errors.tailSup ?? NaN)],
      ['sup\\|ŝ−s\\| refined', (c) => sci(c.errors.tailSupVsRefined ?? NaN)],
      ...tail,
    ];
  }
  const extra: Columns<CellResult> = result.cells.some((c) => c.errors.workloadSup !== null)
    ? [['sup\\|F̂−F̄\\| (max h)', (c) => `${sci(c.errors.workloadSup ?? NaN)} (${sci(c.errors.workloadHalfWidth ?? NaN)})`]]
    : result.cells.some((c) => c.errors.tailSup !== null)
      ? [['sup\\|ŝ−s\\|', (c) => sci(c.errors.tailSup ?? NaN)]]
      : [];
  return [
    ...head,
    ['reference', (c) => referenceText(modelOf(result, c))],
    ...refinementCellColumns(result),
    ['sim − reference', (c) => fix(c.verdict.difference)],
    ['CI ⊕ ref', (c) => fix(c.verdict.combinedHalfWidth)],
    ['fitted allowance \\|ĉ₁\\|/n + \\|ĉ₂\\|/n² (information)', (c) => fix(c.verdict.allowance)],
    ...judgeColumns,
    ...extra,
    ...tail,
  ];
}

/**
 * Why a report has no E[T] figure: every model's E[T] is infinite in theory, or its limit has no value (not settled,
 * finite but not computed: no error to draw).
 */
function noFigureText(result: ComparisonResult): string {
  const unvalued = result.models.flatMap((m) => unvaluedReference(m.reference) ?? []);
  if (unvalued.length === 0)
    return 'No figure of E[T]: it is infinite in theory for every model here (model/moments.ts), so there is no point to draw.\n';
  const statuses = UNVALUED_STATUSES.filter((s) => unvalued.some((u) => u.status === s));
  return (
    `No figure of E[T]: ${unvalued.length === result.models.length ? 'for every model here' : 'for the models not infinite in theory'} ` +
    `E[T]∞ is ${statuses.map((s) => `${statusText(s)} (${UNVALUED[s].source})`).join(' or ')}, so there is no error E[T]_n − E[T]∞ to draw; ` +
    'the simulated E[T]_n are in the tables.\n'
  );
}

/** The multiplicity control and its outcome, the busy-fraction calibration check, and the short cells (both report kinds). */
function familyText(result: ComparisonResult): string {
  const f = result.family;
  const b = result.busyCheck;
  const short = result.cells.filter((c) => c.horizon.short).length;
  const unresolved = result.cells.filter((c) => c.verdict.status === 'not-resolvable').length;
  return (
    `**Multiplicity**: ${f.judged} judged cells form one family; Holm's step-down adjustment keeps the chance of any false ` +
    `rejection ≤ ${f.alpha}. ${f.firstRunRejections} first run${f.firstRunRejections === 1 ? ' was' : 's were'} rejected and rerun with fresh seeds ` +
    `and ${result.config.confirmFactor ?? CONFIRM_FACTOR}× the replications; ${f.confirmed} rerun${f.confirmed === 1 ? '' : 's'} confirmed the rejection ` +
    `(only those cells say "disagrees"; the others say "agrees (rejection not confirmed)").\n\n` +
    (result.models.some((m) => m.model.servers !== undefined)
      ? `**Calibration check** (work conservation Σ f·speed·busy = λE[S] at every n, server speeds: theory.md §13): the t statistics over ${b.tStatistics.length} cells have SD `
      : `**Calibration check** (busy fraction ŝ₁ = ρ at every n): the t statistics (ŝ₁ − ρ)/σ̂ over ${b.tStatistics.length} cells have SD `) +
    `${fix(b.sd, 2)}; ` +
    (Number.isFinite(b.expectedSd)
      ? `well-calibrated intervals give about ${fix(b.expectedSd, 2)} (Student t, ν = R − 1).`
      : 'Student t with ν = R − 1 ≤ 2 has no finite SD, so there is nothing to compare it with (needs ≥ 4 replications).') +
    (b.status && b.status !== 'not-judged'
      ? ` Each cell's t read against Student t (ν = R − 1), Holm over the cells (smallest p Holm ${pText(b.minAdjustedPValue)})` +
        (b.firstRunRejections
          ? `; ${b.firstRunRejections} rejected cell${b.firstRunRejections === 1 ? '' : 's'} rerun with fresh seeds, ${b.confirmed ?? 0} confirmed ` +
            `(Holm over the reruns)`
          : '') +
        `: **${statusText(b.status)}**.`
      : '') +
    (short
      ? `\n\n**Short cells**: ${short} cell${short === 1 ? '' : 's'} measure${short === 1 ? 's' : ''} fewer than 20 relaxation times τ per ` +
        'replication (jobs/(λn) < 20τ, theory.md §8; column "horizon / τ"): their replications are independent and warmed up, so the CI ' +
        "reads the spread of independent means, but a replication this short averages few jobs' correlated times: its mean may be far " +
        'from normal and the t interval only approximate, and a slow drift over more than the horizon would not show in it.'
      : '') +
    (unresolved
      ? `\n\n**Not resolvable**: ${unresolved} cell${unresolved === 1 ? '' : 's'} could not reach a half-width of ` +
        `${result.config.resolve?.fraction} × the 1/n term within ${result.config.resolve?.maxJobs.toExponential(1)} jobs per replication: no verdict.`
      : '')
  );
}

/**
 * Every check of the report that disagrees, counted in one line: per-cell verdicts, the limit checks, the c₁ and c₂
 * checks and the busy-fraction calibration check (issue 21: the summary must not say "0 disagree" above a table with
 * a "disagrees" in it).
 */
export function disagreementLine(result: ComparisonResult): string {
  const bad = (xs: readonly ({ status: string } | null | undefined)[]) => xs.filter((x) => x?.status === 'disagrees').length;
  // a check that made no test is not counted as judged: not judged, undefined (∞), no limit value, or not resolvable
  const judged = (x: { status: string } | null | undefined) =>
    !!x && x.status !== 'not-judged' && x.status !== 'not-resolvable' && x.status !== 'undefined' && !isUnvalued(x.status);
  const parts: [string, number, number][] = [
    ['cells', bad(result.cells.map((c) => c.verdict)), result.cells.filter((c) => !Number.isNaN(c.verdict.pValue)).length],
  ];
  if (result.judgedBy === 'refined-mean-field') {
    const c1 = result.models.map((m) => m.c1Check);
    parts.push(['c₁ checks', bad(c1), c1.filter(judged).length]);
  } else {
    const limits = result.models.map((m) => m.limit);
    parts.push(['limit checks', bad(limits), limits.filter(judged).length]);
  }
  const c2 = result.models.map((m) => m.secondOrder);
  if (c2.some((c) => c)) {
    parts.push(['c₂ checks', bad(c2), c2.filter((c) => c && (c.status === 'agrees' || c.status === 'disagrees')).length]);
  }
  parts.push(['busy-fraction check', result.busyCheck.status === 'disagrees' ? 1 : 0, result.busyCheck.status === 'not-judged' ? 0 : 1]);
  const q = quantileCounts(result);
  if (q.any) parts.push(['quantile checks', q.disagree, q.judged]);
  const total = parts.reduce((s, [, k]) => s + k, 0);
  const judgedCount = parts.reduce((s, [, , j]) => s + j, 0);
  const undefinedCells = result.cells.filter((c) => c.verdict.status === 'undefined').length;
  const undefinedModels = result.models.filter((m) => m.limit.status === 'undefined').length;
  const infinite =
    undefinedCells + undefinedModels > 0
      ? `; ${UNDEFINED_INFINITE}, E[T] = ∞ in theory: ${undefinedCells} cell${undefinedCells === 1 ? '' : 's'}` +
        (undefinedModels ? `, ${undefinedModels} limit check${undefinedModels === 1 ? '' : 's'}` : '')
      : '';
  // each limit with no value by its name: "not settled", "finite, not computed" (compare/verdict.ts `UNVALUED`)
  const unsettled = UNVALUED_STATUSES.map((s) => {
    const cells = result.cells.filter((c) => c.verdict.status === s).length;
    const models = result.models.filter((m) => m.limit.status === s).length;
    return cells + models > 0
      ? `; ${statusText(s)}, ${UNVALUED[s].meaning} (shown, not judged): ${cells} cell${cells === 1 ? '' : 's'}` +
          (models ? `, ${models} limit${models === 1 ? '' : 's'} (no check)` : '')
      : '';
  }).join('');
  return (
    `Checks that disagree: ${total} of ${judgedCount} judged (` +
    parts.map(([name, k, j]) => `${name} ${k} of ${j}`).join(', ') +
    `)${infinite}${unsettled}.`
  );
}

function summary(result: ComparisonResult): string {
  return `**${disagreementLine(result)}**\n\n${summaryBody(result)}`;
}

function summaryBody(result: ComparisonResult): string {
  const count = (xs: readonly { status: string }[], s: string) => xs.filter((x) => x.status === s).length;
  const verdicts = result.cells.map((c) => c.verdict);
  if (result.judgedBy === 'refined-mean-field') {
    const c1 = result.models.map((m) => m.c1Check).filter((c) => c && c.status !== 'not-judged');
    return (
      `Of ${result.cells.length} cells, **${count(verdicts, 'agrees') + count(verdicts, 'agrees-not-confirmed')} agree** and ` +
      `**${count(verdicts, 'disagrees')} disagree** (confirmed by a rerun) with the refined mean field; ` +
      `${count(verdicts, 'refined-out-of-range')} are outside the range where the 1/n expansion is trusted (ΣV/(nΣπ) > ${MAX_RELATIVE_CORRECTION * 100}%) ` +
      `and are not judged.${count(verdicts, 'agrees-not-confirmed') ? ` ${count(verdicts, 'agrees-not-confirmed')} of the agreeing cells were rejected by their first run, not by the rerun.` : ''} ` +
      `The fitted 1/n coefficient ĉ₁ agrees with ΣV/λ for ${count(c1 as { status: string }[], 'agrees') + count(c1 as { status: string }[], 'agrees-not-confirmed')} of ${c1.length} models` +
      `${count(c1 as { status: string }[], 'not-resolvable') ? ` (${count(c1 as { status: string }[], 'not-resolvable')} **${statusText('not-resolvable')}**: ĉ₁'s 95% half-width is not below |ΣV/λ|, the run cannot tell c₁ from 0)` : ''}.` +
      c2Text(result) +
      `\n\n${familyText(result)}`
    );
  }
  const limits = result.models.map((m) => m.limit);
  const c1 = result.models.map(
    (m) =>
      `d = ${m.d}, λ = ${m.lambda}: ĉ₁ = ${m.limit.status === 'undefined' ? UNDEFINED_INFINITE : isUnvalued(m.limit.status) ? `${fix(m.fit?.c1 ?? NaN, 2)} (${statusText(m.limit.status)}: no limit)` : coefficientText(m.fit?.c1, m.fit?.c1HalfWidth)}`,
  );
  const infinite = (xs: readonly { status: string }[], what: readonly [string, string]) =>
    (count(xs, 'undefined')
      ? `, ${count(xs, 'undefined')} ${count(xs, 'undefined') === 1 ? what[0] : what[1]} **${UNDEFINED_INFINITE}** (E[T] = ∞ in theory: neither agrees nor disagrees)`
      : '') +
    UNVALUED_STATUSES.map((s) =>
      count(xs, s)
        ? `, ${count(xs, s)} ${count(xs, s) === 1 ? what[0] : what[1]} **${statusText(s)}** (${UNVALUED[s].meaning}: shown, not judged)`
        : '',
    ).join('');
  return (
    `Limits: of ${limits.length} model${limits.length === 1 ? '' : 's'}, **${count(limits, 'agrees') + count(limits, 'agrees-not-confirmed')} agree** and ` +
    `**${count(limits, 'disagrees')} disagree** (confirmed by a rerun) with the mean-field ` +
    `reference (the fitted n → ∞ value â against E[T]∞: p of its t, Holm over the models, a rejected model's cells rerun with fresh seeds and ` +
    `${result.config.confirmFactor ?? CONFIRM_FACTOR}× the replications)` +
    `${count(limits, 'agrees-not-confirmed') ? `; ${count(limits, 'agrees-not-confirmed')} of the agreeing limits were rejected by their first run, not by the rerun` : ''}` +
    `${count(limits, 'not-judged') ? `; ${count(limits, 'not-judged')} not judged (too few n)` : ''}` +
    `${infinite(limits, ['is', 'are'])}.\n` +
    `Per n: ${cellsAgreeText(count(verdicts, 'agrees'))}, ${count(verdicts, 'disagrees')} disagree, ${count(verdicts, 'not-judged')} not judged${infinite(verdicts, ['is', 'are'])} ` +
    '(no refined term V exists here, so no finite-n value is predicted: a cell is judged only against an exact finite-n value; ' +
    'the others show their difference beside the finite-n bias |ĉ₁|/n + |ĉ₂|/n² fitted from these same cells, as information; see Method).\n\n' +
    `Measured 1/n coefficients (95%): ${c1.join('; ')}.\n\n${familyText(result)}`
  );
}

/** The c₂ checks in one sentence ('' when no model has the 1/n² term). */
function c2Text(result: ComparisonResult): string {
  const c2 = result.models.map((m) => m.secondOrder).filter((c) => c);
  if (c2.length === 0) return '';
  const k = (s: string) => c2.filter((c) => c!.status === s).length;
  return (
    ` The computed 1/n² coefficient ΣA/λ (c₁ held at ΣV/λ) agrees with the sweep for ${k('agrees')} and disagrees for ${k('disagrees')} ` +
    `of ${k('agrees') + k('disagrees')} judged models; ${k('not-resolvable')} not resolvable (the 1/n² term below the noise), ${k('not-judged')} not judged.`
  );
}

/**
 * Heterogeneous servers (theory.md §13): per cell and server class, the simulated busy fraction and E[T] of the jobs
 * the class served (95% CIs) beside the per-class limit, the jobs it served, and the cell's work rate Σ f·speed·busy
 * (= λE[S]). '' when no cell has classes.
 */
function classSection(result: ComparisonResult): string {
  const cells = result.cells.filter((c) => c.simulation.classes);
  if (cells.length === 0) return '';
  const rows: string[] = [];
  for (const c of cells) {
    const limit = result.models.find((m) => m.d === c.d && m.lambda === c.lambda)?.reference.classes;
    c.simulation.classes!.forEach((k, i) =>
      rows.push(
        `| ${c.d} | ${c.lambda} | ${c.n} | ${i + 1} (${k.speed}, ${k.fraction}) | ${estimateText(k.busyFraction)} | ${limit ? fix(limit[i].busyFraction) : '–'} | ` +
          `${estimateText(k.meanResponseTime)} | ${limit ? fix(limit[i].meanResponseTime) : '–'} | ${k.jobs} | ${i === 0 && c.simulation.workRate ? estimateText(c.simulation.workRate) : ''} |`,
      ),
    );
  }
  return (
    '\n## Per server class\n\nEach class’s simulated busy fraction and the mean response time of the jobs it served (95% CIs), beside the ' +
    'per-class mean-field limit (theory.md §13); jobs served over all replications; Σ f·speed·busy is the work served per server, λE[S] in steady state.\n\n' +
    '| d | λ | n | class (speed, fraction) | busy fraction | limit | E[T] of its jobs | limit | jobs served | Σ f·speed·busy |\n' +
    '|---|---|---|---|---|---|---|---|---|---|\n' +
    rows.join('\n') +
    '\n'
  );
}

/**
 * Why the report's models have no refined term, in the capability query's words (one sentence per distinct reason;
 * e.g. server speeds, a non-FIFO discipline), without its trailing period.
 */
function noRefinedReason(result: ComparisonResult): string {
  const reasons = new Set(
    result.models.map((m) => {
      const first = meanFieldCapabilities(m.model).refined.firstOrder;
      return first.available ? 'the 1/n term V is not used for this sweep' : first.reason.replace(/\.$/, '');
    }),
  );
  return [...reasons].join('; ');
}

const SLOPE_METHOD = '- **Slope**: least squares of log|E[T]_n − E[T]∞| on log n over the n where the difference is resolved';
const SIMULATION_METHOD = '- **Simulation** (theory.md §8): event-driven';

/**
 * The per-n rule of a refined report's sweep cells (against π + V/n), with the exact rule after it when cells at an
 * exact n are judged against the n-server chain instead: the first cell may be such an exact cell (n = 2), whose rule
 * is not the sweep's.
 */
function refinedCellRule(result: ComparisonResult): string {
  const sweep = result.cells.find((c) => !c.exact)?.verdict.rule;
  const exact = result.cells.find((c) => c.exact)?.verdict.rule;
  if (sweep === undefined) return exact ?? '';
  return exact === undefined ? sweep : `${sweep}; a cell at an n with an exact value: ${exact}`;
}

function method(result: ComparisonResult): string {
  const m0 = result.models[0];
  if (result.judgedBy === 'refined-mean-field') {
    const head =
      m0?.model.servers !== undefined
        ? `- **Mean field with server speeds** (theory.md §13): the per-class occupancy ODE's fixed point s_{c,k}, E[T]∞ = Σ_c f_c Σ_k s_{c,k}/λ (Mukhopadhyay & Mazumdar 2015).
- **Refined mean field** (theory.md §6, §13; Gast & Van Houdt 2017): the per-class ODE as a population model (heteroRefined), E[Q_n] ≈ Σπ + ΣV/n
  with V = −A⁻¹b from its Jacobian A, Hessian and the Lyapunov solution W of AW + WAᵀ + Q = 0; E[T_n] = E[Q_n]/λ.`
        : `- **Mean field** (theory.md §2): s_i* = λ^((d^i−1)/(d−1)), E[T]∞ = Σ_{i≥1} s_i*/λ (Vvedenskaya, Dobrushin, Karpelevich 1996; Mitzenmacher 2001).
- **Refined mean field** (theory.md §6; Gast & Van Houdt 2017): E[Q_n] ≈ Σπ + ΣV/n with V = −A⁻¹b from the Jacobian A, the Hessian
  and the Lyapunov solution W of AW + WAᵀ + Q = 0; E[T_n] = E[Q_n]/λ.`;
    return `${head}
${SIMULATION_METHOD}, ties among the sampled minimisers broken uniformly at random; E[T] is the mean over
  jobs arriving after the warm-up; CIs are Student-t 95% over replications.
- **Verdict**: ${refinedCellRule(result)}. The t column is sign(sim − refined)·(|sim − refined| − δ_n)/σ_n (0 inside δ_n), read against
  Student t with the replications' ν = R − 1 degrees of freedom; p is two-sided. **Multiplicity**: ${result.family.rule}.
  Holm (family-wise error) rather than Benjamini–Hochberg (false discovery rate): each "disagrees" claims a defect of the
  simulator or the theory, so the chance of even one false claim is the error to bound, and Holm does so under any dependence.
- **c₁ check**: ${result.models.find((m) => m.c1Check)?.c1Check?.rule ?? ''}.
${SLOPE_METHOD} (> 3 × CI half-width);
  "c₁ fit" is E[T]_n − E[T]∞ = c₁/n + c₂/n² fitted over all n with fixed coefficients, ± t_{0.975,ν}·√Σ a_n²σ_n² (ν Welch–Satterthwaite,
  σ_n = h_n/t_{0.975,R−1}), to be compared with ΣV/λ.
- **Degrees of freedom, check by check**: the per-n t and the calibration check read Student t with ν = R − 1 (the cell's
  replications; the refined value carries no sampling error); the c₁ check reads Welch–Satterthwaite's ν (each σ_n² from
  its own R_n − 1).`;
  }
  const solvers = [...new Map(result.models.map((m) => [m.reference.solver, m])).values()].map(
    (m) =>
      `- **${m.reference.solver}** (${referenceKindText(m.reference)}): ${m.reference.source}. Error bar: ${
        unvaluedReference(m.reference)
          ? 'none: there is no reference value to bound (the cells are shown, not judged)'
          : m.reference.kind === 'none'
            ? 'none: there is no reference value, E[T]∞ = ∞ has no error bar'
            : m.reference.kind === 'estimate'
              ? "the estimate's 95% CI (a cavity solver: independent restarts)"
              : m.reference.kind === 'approximation'
                ? m.reference.measuredError
                  ? `the fit's measured error for the law family, ${describeFitErrorOf(m.reference.meanResponseTime, m.reference.measuredError)} (e.g. d = ${m.d}, λ = ${m.lambda}; a disagreement may be the approximation's)`
                  : "none stated: an approximation (a disagreement may be the approximation's)"
                : m.reference.numericalError > 0
                  ? `numerical, ${sci(m.reference.numericalError)} (e.g. d = ${m.d}, λ = ${m.lambda})`
                  : 'none needed (closed form)'
      }.`,
  );
  return `- **Mean-field reference** (picked by \`solveMeanField\`, theory.md §2–§7):
${solvers.map((l) => `  ${l}`).join('\n')}
- **No refined term**: ${m0.model.arrivals === undefined || m0.model.arrivals.kind === 'exponential' ? `${noRefinedReason(result)}; judged "Without V" (theory.md §8).` : withoutVReason(m0.model.arrivals)}
${SIMULATION_METHOD}, the model as given; E[T] is the mean over jobs arriving after the warm-up, each followed
  to its departure; CIs are Student-t 95% over replications.${m0.workload ? ' The workload ccdf is a time average over the same window.' : ''}
- **Limit fit**: least squares x̂_n = a + c₁/n${result.models.some((m) => m.fit?.inverseSquare) ? ' + c₂/n²' : ''} with fixed coefficients (not weighted by the
  estimated 1/σ_n²); each ĉ ± h with h = t_{0.975,ν}·√Σ a_n²σ_n², σ_n = h_n/t_{0.975,R−1}, ν Welch–Satterthwaite; χ² with the σ_n;
  **limit verdict**: ${m0.limit.rule}.
- **Per-n cells**: ${WITHOUT_V_RULE}. With k values of n and p fitted coefficients the k cells would carry only k − p
  residual degrees of freedom (none to speak of with 2 n), so they are not counted as checks; the limit verdict is the
  test of the mean field. A cell with an exact finite-n value is judged against it. **Multiplicity**: ${result.family.rule}.
${SLOPE_METHOD} (> 3 × combined half-width);
  "c₁ through reference" fits E[T]_n − E[T]∞ = c₁/n + c₂/n² with the reference taken as the limit.
- **Degrees of freedom, check by check**: a judged per-n t reads ν = R − 1 against an exact reference (σ_ref = 0) and
  Welch–Satterthwaite's ν = σ⁴/(σ_n⁴/(R − 1)) against one with its own error (an estimate's CI; its ν taken as ∞);
  the calibration check reads ν = R − 1; the limit verdict's h_â reads Welch–Satterthwaite's ν (each σ_n² from its R_n − 1).`;
}

/**
 * The selection rule a refined-mean-field report's heading names: JSQ(d), with d = 1 called what it is (random routing:
 * every server an M/M/1 queue at every n, `selectionName`), alone or beside d ≥ 2.
 */
function d1Selection(result: ComparisonResult): string {
  return selectionFamilyName(
    result.models[0].model,
    result.models.map((m) => m.model.d),
  );
}

/** "k cells agree", in the singular for one cell ("1 cell agrees"): the compare summary's and the report's count. */
export function cellsAgreeText(k: number): string {
  return k === 1 ? '1 cell agrees' : `${k} cells agree`;
}

/**
 * The cells beyond the grid's n in words: the exact small-n points (`--exact-n`) are simulated cells too, so "Of 61
 * cells" beside a grid of 6 models × 8 n needs them named; '' when every cell's n is in the grid.
 */
function gridExtraCells(result: ComparisonResult): string {
  const grid = new Set(result.config.ns);
  const extra = result.cells.filter((cell) => !grid.has(cell.n));
  if (extra.length === 0) return '';
  const ns = [...new Set(extra.map((cell) => cell.n))].sort((a, b) => a - b);
  return `; and ${extra.length} ${extra.length === 1 ? 'cell' : 'cells'} at n ∈ {${ns.join(', ')}} checked against the exact n-server chain (${result.cells.length} cells in all)`;
}

/** The report body (Markdown) of a comparison. */
export function comparisonMarkdown(result: ComparisonResult, figures: readonly Figure[], meta: RunMetadata): string {
  const c = result.config;
  const m0 = result.models[0];
  const refined = result.judgedBy === 'refined-mean-field';
  const model = m0.model;
  // the rule as its grid of d names it: RANDOM (d = 1: random routing) for a sampling rule at d = 1 (`selectionFamilyName`)
  const family = d1Selection(result);
  const name = `${family} ${model.discipline.toUpperCase()}`;
  // every setting of the model is named (speeds, arrivals, batches, redundancy, memory): the title must not say JSQ(d) FIFO
  // of a model that is not
  const extras = modelExtrasLabel(model);
  const heading = refined
    ? `# Validation report: ${extras === '' && model.discipline === 'fifo' ? 'SQ(d)' : name} mean field vs finite-n simulation\n\n${d1Selection(result)} selection, ${model.discipline === 'fifo' ? 'FIFO' : `${model.discipline.toUpperCase()} (with exponential sizes FIFO's queue lengths: the SQ(d) mean field and its refined terms give E[Q] and E[T], not the law of T)`}, exponential service of mean ${model.service.mean} (time in ${timeUnit(model.service)})${extras}, sampling ${model.sampling}.`
    : `# Convergence report: ${name} mean field vs finite-n simulation\n\n${model.redundancy === undefined ? `${family} selection` : 'redundancy-d RED(d)'}, ${model.discipline.toUpperCase()} discipline, ` +
      `service ${serviceLabel(model.service)}, prediction ${model.prediction.kind}${extras}, sampling ${model.sampling}${model.batch > 1 ? ' (a batch draws d distinct servers)' : ''} (time in ${timeUnit(model.service)}).`;
  const bullets = [
    `- Grid: d ∈ {${c.ds.join(', ')}}, λ ∈ {${c.lambdas.join(', ')}}, n ∈ {${c.ns.join(', ')}}${gridExtraCells(result)}.`,
    budgetLine(result),
    `- Master seed ${c.seed}; each cell's seed is derived from it and the cell key (see results.json).`,
    ...(c.horizon
      ? [
          `- Horizon rule: jobs per replication raised to cover ≥ ${c.horizon.relaxations} τ (jobs/(λn)), at most ${c.horizon.maxJobs.toExponential(1)}.`,
        ]
      : []),
    ...(c.resolve
      ? [
          `- Resolution rule: each refined cell sized to h_n ≤ ${c.resolve.fraction} × ΣV/(λn), at most ${c.resolve.maxJobs.toExponential(1)} jobs per replication, else "not resolvable within budget".`,
        ]
      : []),
    ...(refined
      ? [`- Example: d = ${m0.d}, λ = ${m0.lambda}: E[T]∞ = ${fix(m0.reference.meanResponseTime)}, ΣV = ${fix(m0.refined!.sumV)}.`]
      : []),
    ...groupNotes(result.notes).map((n) => `- Note: ${n}.`),
  ];
  return `${heading}
Generated ${meta.startedAt} by \`${meta.command}\` in ${meta.wallSeconds.toFixed(1)} s (supermarket-lab ${result.provenance.version}).

## Summary

${summary(result)}

${bullets.join('\n')}

## Method

${method(result)}

## Per model

${markdownTable(result.models, modelColumns(result))}
${workloadTable(result)}${refinementSection(result)}${quantileSection(result)}
## Per cell

${markdownTable(result.cells, cellColumns(result))}
${classSection(result)}
## Figures

${figures.length ? figures.map(figureSection).join('\n') : noFigureText(result)}
## Files

- \`results.json\`: the full comparison (every estimate with its CI, seeds, verdicts); \`metadata.json\`: command, versions, machine, wall time.
- \`cells/\`: one JSON per finished simulation; rerunning the same command resumes from them (comparisons and verdicts are recomputed;
  delete the folder to start afresh).

${reproduceSection(meta)}`;
}

/**
 * A model's reference as JSON (results.json and `compare --json`, one form): E[T]∞ and E[Q]∞ a number when computed;
 * the ∞ object `{ mean: null, infinite: true, reason }` only where E[T]∞ = ∞ is proven (`meanFieldLimit` 'infinite', or
 * the solver's ∞); else, where it has no value, `{ mean: null, unsettled: true, reason }` (not settled) or
 * `{ mean: null, notComputed: true, reason }` (finite, not computed), io/jsonText.ts `unvaluedJson`, as the reference
 * carries the status from compare/plan.ts. A model whose E[T]_n = ∞ at every finite n (with replacement) keeps that
 * reason in `infiniteAtEveryN` (its cells' estimates say ∞), and its limit is not called ∞: LWL(3)/JSQ(3) with
 * pareto:1.5/1.9 (finite limit), JSQ(2) FIFO pareto:1.5 (not settled).
 */
export function referenceJson(m: Pick<ModelSummary, 'reference' | 'model'>): unknown {
  const ref = m.reference;
  const known = limitWithoutValue(ref);
  if (known === null) return ref;
  if (known.status !== 'infinite') {
    const value = unvaluedJson(known.status, known.reason);
    return { ...ref, meanResponseTime: value, meanQueueLength: value };
  }
  return {
    ...ref,
    meanResponseTime: meanJson(ref.meanResponseTime, known.reason),
    meanQueueLength: ref.meanQueueLength === null ? null : meanJson(ref.meanQueueLength, known.reason),
  };
}

/** A mean in JSON: the number, the ∞ object, or null (no such value): io/jsonText.ts `meanJson`. */
type MeanJson = ReturnType<typeof meanJson>;

/**
 * An exact point as JSON (results.json and `compare --json`): E[T]_n and E[Q]_n numbers, or, where they are ∞ in theory
 * (M/G/1 under random routing with E[S²] = ∞, `ExactPoint.infinite`), the ∞ object `{ mean: null, infinite: true,
 * reason }` (io/jsonText.ts `meanJson`), never the bare null JSON.stringify writes for +∞.
 */
export function exactPointJson(
  p: ExactPoint,
): Omit<ExactPoint, 'meanResponseTime' | 'meanQueueLength'> & { meanResponseTime: MeanJson; meanQueueLength: MeanJson } {
  const reason = p.infinite ?? 'E[T]_n = ∞ in theory';
  return { ...p, meanResponseTime: meanJson(p.meanResponseTime, reason), meanQueueLength: meanJson(p.meanQueueLength, reason) };
}

/**
 * results.json of a comparison: the result as it is, but
 * - each model's reference E[T]∞ and E[Q]∞ without a number are an object saying what is known (`referenceJson`: ∞ only
 *   where proven, else not settled or not computed), never a bare null; the reference's `infinite` keeps its reason;
 * - an exact point's E[T]_n and E[Q]_n that are ∞ in theory (models' `exact.points`, cells' `exact`) are the ∞ object
 *   (`exactPointJson`), never a bare null;
 * - each simulated percentile (cells, confirmatory reruns and the quantile checks) has its 95 % interval `ci95` [lo, hi]
 *   alone: that interval inverts the cdf and is not symmetric about the percentile, so a `halfWidth` would state a
 *   second interval, mean ± h, that nothing computed (`oneInterval`, as `simulate --json` prints them).
 */
export function comparisonResultsJson(result: ComparisonResult): unknown {
  const simulation = (s: CellSimulation) =>
    s.responseTimePercentiles
      ? {
          ...s,
          responseTimePercentiles: Object.fromEntries(Object.entries(s.responseTimePercentiles).map(([k, e]) => [k, oneInterval(e)])),
        }
      : s;
  return {
    ...result,
    cells: result.cells.map((c) => ({
      ...c,
      simulation: simulation(c.simulation),
      confirmation: c.confirmation ? { ...c.confirmation, simulation: simulation(c.confirmation.simulation) } : c.confirmation,
      ...(c.exact ? { exact: exactPointJson(c.exact) } : {}),
    })),
    // each model named as simulate, exact, ode, replay and run --json name it (`policyName`)
    models: result.models.map((m) => ({
      policy: policyName(m.model),
      ...m,
      reference: referenceJson(m),
      ...(m.exact ? { exact: { ...m.exact, points: m.exact.points.map(exactPointJson) } } : {}),
      ...(m.quantiles
        ? { quantiles: { ...m.quantiles, cells: m.quantiles.cells.map((q) => ({ ...q, simulated: oneInterval(q.simulated) })) } }
        : {}),
    })),
  };
}

/**
 * Renders every figure and writes the report folder of a comparison (report.md, index.html, figures, results.json,
 * metadata.json with the config).
 * @param outDir target folder (created if missing); existing files of the same name are replaced atomically.
 * @param options where the figures render (`WriteReportOptions.writeFigures`; default: this thread); `latex`: also
 * figures/<name>.pdf, tables.tex (booktabs: cells, fits) and report.tex.
 * @returns the paths written, relative to outDir.
 */
export async function writeComparisonReport(
  outDir: string,
  result: ComparisonResult,
  meta: RunMetadata,
  options: WriteReportOptions = {},
): Promise<string[]> {
  const figures = comparisonFigures(result);
  return writeReportFolder(
    outDir,
    {
      figures,
      results: comparisonResultsJson(result),
      metadata: { ...meta, config: result.config },
      markdown: comparisonMarkdown(result, figures, meta),
      title: result.judgedBy === 'refined-mean-field' ? 'supermarket-lab validation report' : 'supermarket-lab convergence report',
      ...(options.latex
        ? {
            extraFiles: {
              'tables.tex': comparisonLatexTables(result),
              'report.tex': latexDocument(
                result.judgedBy === 'refined-mean-field' ? 'supermarket-lab validation report' : 'supermarket-lab convergence report',
                figures,
              ),
            },
          }
        : {}),
    },
    options,
  );
}
