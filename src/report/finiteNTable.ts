/**
 * Text (Markdown) and CSV forms of the finite-n table (src/compare/finiteNTable.ts): one block per (d, λ) with a row
 * per n, then its 1/n and 1/n² fits held at the mean field, read against ΣV and ΣA (theory.md §6, §8).
 */
import type { TableCell, TableFit } from '../compare/finiteNTable.ts';
import { estimateDecimals, formatCount, plusMinus, standardErrorOfMean } from '../stats/index.ts';
import type { InverseNFit } from '../compare/fit.ts';
import { coefficientAgreement, statusText } from '../compare/verdict.ts';
import { parseModel, randomAtD, selectionName } from '../model/index.ts';
import { relaxationTime } from '../meanfield/relaxation.ts';
import { fixedPointFloorAtD1 } from './warmupWords.ts';
import { FIRST_ORDER_RANGE } from '../meanfield/refined.ts';
import { SECOND_ORDER_RANGE } from '../meanfield/refinedSecondOrder.ts';
import { C2_RANGE } from '../compare/secondOrder.ts';

/** The table as the `table` command assembles it. */
export interface FiniteNTable {
  readonly cells: readonly TableCell[];
  readonly fits: readonly TableFit[];
}

const f = (x: number | null | undefined, digits = 5): string =>
  x === null || x === undefined || !Number.isFinite(x) ? '—' : x.toFixed(digits);

/**
 * The table's t of the simulation against a value: (x̂ − value)/σ̂ on E[Q], σ̂ = h/t_{0.975,R−1} the standard error
 * behind the Student-t interval (`standardErrorOfMean`), or '—'; the same number on E[T] = E[Q]/λ. Positive: the
 * simulation lies above the theory (compare's sign; until 2026-12-03 this column was z = (value − x̂)/σ̂). It is the
 * raw standardised difference: compare's t (compare/verdict.ts) first subtracts the stated allowance δ_n and the
 * reference's numerical error from |x̂ − value| (0 inside them) and divides by √(σ̂² + σ_ref²), so it is never larger
 * in size than this one (`TABLE_T_HELP`).
 */
function tAgainst(value: number | null, cell: TableCell): string {
  if (value === null) return '—';
  const se = standardErrorOfMean(cell.meanQueueLength);
  if (!(se > 0)) return '—';
  const s = (cell.meanQueueLength.mean - value) / se;
  return `${s >= 0 ? '+' : ''}${s.toFixed(1)}`;
}

/** x̂ ± h, and the interval itself where the parameter space clipped it (E[Q] ≥ ρ: x̂ − h below the bound). */
function intervalText(e: TableCell['meanQueueLength']): string {
  // a rounding margin: E[T]'s interval is E[Q]'s divided by λ, whose ends need not equal (x̂ ± h)/λ to the last bit
  const margin = 1e-12 * Math.max(1, Math.abs(e.mean) + e.halfWidth);
  const clipped = e.ci95[0] > e.mean - e.halfWidth + margin || e.ci95[1] < e.mean + e.halfWidth - margin;
  return `${f(e.mean)} ± ${f(e.halfWidth)}${clipped ? ` [${f(e.ci95[0])}, ${f(e.ci95[1])}]` : ''}`;
}

/** What the table's t is and how compare's differs, for `table --help` and the text under each table. */
export const TABLE_T_HELP =
  "t = (simulated − theory)/σ̂ on E[Q] (the same on E[T] = E[Q]/λ), σ̂ the standard error of the runs' mean: the raw " +
  "distance in standard errors, no allowance; positive when the simulation lies above. Compare's t has this sign but " +
  'first subtracts the allowance δ_n and the numerical error ε from |simulated − theory| (0 inside them) and divides by ' +
  '√(σ̂² + σ_ref²), so it is never larger in size.';

function exactText(cell: TableCell): string {
  if (cell.exact === null) return '—';
  if ('skipped' in cell.exact) return 'too large';
  return `${f(cell.exact.meanQueueLength)}${cell.exact.closedForm ? ' closed form' : ''}`;
}

/**
 * One fitted coefficient as the table prints it: "ĉ ± h" (h the calibrated 95% half-width of `fitInverseN`, decimals by
 * `plusMinus`) and its theory value, with the reading of the one against the other when `judged` is true
 * (`coefficientAgreement`: "not resolvable within budget" where h ≥ |theory|), or "not judged: <why>" when it is a string.
 */
function coefficientText(
  name: string,
  estimate: number,
  halfWidth: number,
  theoryName: string,
  theory: number | null,
  judged: boolean | string,
): string {
  if (theory === null) return `${name} = ${plusMinus(estimate, halfWidth)}`;
  const reading =
    judged === true
      ? `: ${statusText(coefficientAgreement(estimate, halfWidth, theory))}`
      : typeof judged === 'string'
        ? `; not judged: ${judged}`
        : '';
  return `${name} = ${plusMinus(estimate, halfWidth)} (${theoryName} = ${f(theory, Math.max(3, estimateDecimals(halfWidth)))}${reading})`;
}

/** "n = 3, 4" of a list of n. */
const nList = (ns: readonly number[]): string => `n = ${ns.join(', ')}`;

/** What the table says of the n a fit left out, and why (`TableFit.leftOut`), or '' when none. */
function leftOutText(fit: TableFit, square: boolean): string {
  const first = fit.leftOut.filter((l) => l.why === 'outside-first-order-range').map((l) => l.n);
  const second = square ? fit.leftOut.filter((l) => l.why === 'outside-second-order-range').map((l) => l.n) : [];
  const parts = [
    ...(first.length > 0 ? [`${nList(first)} outside the trusted range (|ΣV|/(nΣπ) > ${FIRST_ORDER_RANGE * 100} %), left out`] : []),
    ...(second.length > 0 ? [`${nList(second)} outside the order-2 trusted range (|ΣA|/(n|ΣV|) > ${SECOND_ORDER_RANGE}), left out`] : []),
  ];
  return parts.length > 0 ? `; ${parts.join('; ')}` : '';
}

/**
 * The held-limit fits of a (d, λ): ĉ₁ (and ĉ₂) with their 95% intervals beside ΣV (and ΣA), and the χ², each over the
 * n it names, the n left out named with why (`tableFit`: only n in the trusted range are fitted and read). The
 * coefficients are read against the theory on the fit of the form the refined mean field predicts, c₁/n + c₂/n²; the
 * c₁/n fit is read only where there is no such fit (fewer than 3 n in range), and then on the points less the computed
 * ΣA/n² (`c2Subtracted`), since the c₂/n² term left in the data biases its ĉ₁ (at n = 2, 3 by far more than its interval). ĉ₂ is read only where every n of its fit is in compare's c₂ range (`TableFit.c2Judged`).
 * @param blockNs the distinct n of the block's cells: the c₁/n + c₂/n² line is said (fitted or not judged) only with ≥ 3.
 */
function fitText(fit: TableFit, blockNs: number): string[] {
  const out: string[] = [];
  const chi = (x: InverseNFit) => `χ² = ${f(x.chiSquare, 1)} on ${x.degreesOfFreedom} dof (with the runs' σ̂_n)`;
  const one = fit.inverseN;
  const two = fit.inverseNSquare;
  const lhs = fit.c2Subtracted ? 'E[Q_n] − Σπ − ΣA/n² (the computed c₂/n² subtracted first)' : 'E[Q_n] − Σπ';
  // too few n given at all (none left out): say so, not "fewer than k n in the trusted range (here n ≥ …)", which read
  // as if the one n given (n = 100 with "here n ≥ 10") lay outside it
  const tooFew = (k: number, range: string) =>
    fit.leftOut.length === 0
      ? `not judged: ${blockNs} n given, a fit needs ≥ ${k} (${blockNs === 1 ? 'it lies' : 'all lie'} in the trusted range, ${range})`
      : `not judged: fewer than ${k} n in the trusted range (${range}; here n ≥ ${fit.trustedFromN})`;
  const order1 = `|ΣV|/(nΣπ) ≤ ${FIRST_ORDER_RANGE * 100} %`;
  if (one)
    out.push(
      `- fit ${lhs} = c₁/n over ${nList(fit.nUsed)}: ${coefficientText('c₁', one.c1, one.c1HalfWidth, 'ΣV', fit.sumV, !two)}, ` +
        `${chi(one)}${leftOutText(fit, false)}`,
    );
  else out.push(`- fit E[Q_n] − Σπ = c₁/n: ${tooFew(2, order1)}${leftOutText(fit, false)}`);
  if (two) {
    const c2Why = fit.c2Judged
      ? true
      : `some n of the fit have |ΣA|/(n|ΣV|) > ${C2_RANGE}, where the 1/n³ remainder biases ĉ₂ (compare's c₂ range)`;
    out.push(
      `- fit E[Q_n] − Σπ = c₁/n + c₂/n² over ${nList(fit.nUsedSquare)}: ${coefficientText('c₁', two.c1, two.c1HalfWidth, 'ΣV', fit.sumV, true)}, ` +
        `${coefficientText('c₂', two.c2, two.c2HalfWidth, 'ΣA', fit.sumA, c2Why)}, ${chi(two)}${leftOutText(fit, true)}`,
    );
  } else if (blockNs >= 3)
    out.push(
      `- fit E[Q_n] − Σπ = c₁/n + c₂/n²: ${tooFew(3, `${order1}${fit.sumA === null ? '' : ` and |ΣA|/(n|ΣV|) ≤ ${SECOND_ORDER_RANGE}`}`)}` +
        leftOutText(fit, true),
    );
  if (one || two) out.push(`- ${FIT_INTERVAL_WORDS}`);
  return out;
}

/** What the table's "ĉ ± h" of a fit is, said under the fits. */
export const FIT_INTERVAL_WORDS =
  'ĉ ± h: least squares with fixed coefficients, h = t_{0.975,ν}·√Σ a_n²σ̂_n², ν Welch–Satterthwaite (compare/fit.ts fitInverseN); ' +
  'agrees / disagrees: theory inside / outside ĉ ± h (no multiplicity correction); "not resolvable within budget" where h ≥ |theory| ' +
  '(the term cannot be told from 0)';

/** The warm-up of a d = 1 section's cells from the fixed point, when it is the rule's floor (`fixedPointFloorAtD1`), or ''. */
function floorAtD1(cells: readonly TableCell[]): string {
  for (const c of cells) {
    if (c.start !== 'fixed-point') continue;
    const words = fixedPointFloorAtD1(c.d, c.warmupTime, relaxationTime(parseModel({ lambda: c.lambda, d: c.d })));
    if (words !== undefined) return ` Warm-up: ${words[0].toLowerCase()}${words.slice(1)}.`;
  }
  return '';
}

/**
 * The table as Markdown: per (d, λ) a table of n, the warm-up discarded per run (time units and events), simulated
 * E[Q] ± 95% half-width (with the interval where E[Q] ≥ ρ clips it), relative half-width, E[T] ± 95% likewise, runs,
 * refined 1st and 2nd order ("outside range (x, not trusted)" where n is outside the order's trusted range) and exact,
 * each with the simulation's t against it ((x̂ − value)/σ̂, `tAgainst`); then the
 * fits; last, a line saying what the warm-up and the t are (`TABLE_T_HELP`).
 */
export function finiteNTableMarkdown(table: FiniteNTable): string {
  const lines: string[] = [];
  const groups = new Map<string, TableCell[]>();
  for (const c of table.cells) {
    const k = `${c.d}|${c.lambda}`;
    if (!groups.has(k)) groups.set(k, []);
    groups.get(k)!.push(c);
  }
  for (const fit of table.fits) {
    const cells = groups.get(`${fit.d}|${fit.lambda}`) ?? [];
    if (cells.length === 0) continue;
    // d = 1 is random routing (`selectionName`): every server an M/M/1 queue at every n, so no 1/n term (ΣV = 0)
    const random = randomAtD({ selection: 'jsq', d: fit.d });
    lines.push(
      `### ${random ? selectionName({ selection: 'jsq', d: fit.d }) : `d = ${fit.d}`}, λ = ${fit.lambda}: mean field E[Q] = ${f(cells[0].meanField)}`,
      '',
    );
    if (random)
      lines.push(
        `At d = 1 a job joins its one sampled server: random routing, each server an M/M/1 queue at every n (theory.md §7), ` +
          `so E[Q]_n = λ/(1 − λ) = ${f(fit.lambda / (1 - fit.lambda))} at every n and ΣV = 0 (no 1/n term to fit).` +
          floorAtD1(cells),
        '',
      );
    // where the runs started, per n (auto takes the fixed point only where the warm-up rule reads one from it at n)
    const starts = [...new Set(cells.map((c) => c.start))].map(
      (s) =>
        `${s === 'fixed-point' ? 'at the fixed point (round(n·s_i*) servers with ≥ i jobs)' : 'empty'} at n = ${cells
          .filter((c) => c.start === s)
          .map((c) => c.n)
          .join(', ')}`,
    );
    lines.push(`Runs start ${starts.join('; ')}, then discard the warm-up for that start.`, '');
    lines.push(
      '| n | warm-up (events) | E[Q] sim ± 95% | rel. | E[T] sim ± 95% | runs × events | refined 1st (t) | refined 2nd (t) | exact (t) |',
    );
    lines.push('|---:|---:|---|---:|---|---:|---|---|---|');
    for (const c of cells) {
      const q = c.meanQueueLength;
      const exact = c.exact !== null && !('skipped' in c.exact) ? c.exact.meanQueueLength : null;
      lines.push(
        `| ${c.n} | ${c.warmupTime.toFixed(1)} (${formatCount(c.warmupEvents)}) | ${intervalText(q)} | ${((100 * q.halfWidth) / q.mean).toFixed(2)}% | ` +
          `${intervalText(c.meanResponseTime)} | ` +
          `${q.replications} × ${formatCount(c.eventsPerRun)} | ${firstText(c)} | ` +
          `${secondText(c)} | ${exactText(c)}${exact === null ? '' : ` (${tAgainst(exact, c)})`} |`,
      );
    }
    lines.push('', ...fitText(fit, new Set(cells.map((c) => c.n)).size), '');
  }
  if (lines.length > 0) lines.push(`Warm-up: discarded per run, in time units (and events). ${TABLE_T_HELP}`, '');
  return lines.join('\n');
}

/** The refined 1st column: value (t), or "outside range" where n is outside the 1/n expansion's trusted range (`firstOrderTrust`). */
function firstText(c: TableCell): string {
  if (!c.refinedFirstTrusted) return `outside range (${f(c.refinedFirst)}, not trusted)`;
  return `${f(c.refinedFirst)} (${tAgainst(c.refinedFirst, c)})`;
}

/** The refined 2nd column: value (t), or "outside range" where n is outside the 1/n² expansion's trusted range. */
function secondText(c: TableCell): string {
  if (c.refinedSecondTrusted === false) return `outside range (${f(c.refinedSecond)}, not trusted)`;
  return `${f(c.refinedSecond)} (${tAgainst(c.refinedSecond, c)})`;
}

/**
 * CSV header and rows, one per cell (numbers unrounded; empty where a column has no value). Columns added later are
 * appended at the end, so earlier positions do not move: the 95 % intervals inside the parameter space, warmup_time,
 * refined_second_trusted (true/false, empty without a second order), refined_first_trusted (true/false).
 */
export function finiteNTableCsvRows(table: FiniteNTable): (string | number)[][] {
  const header = [
    'd',
    'lambda',
    'n',
    'mean_queue_length',
    'mean_queue_length_half_width',
    'mean_response_time',
    'mean_response_time_half_width',
    'runs',
    'events_per_run',
    'warmup_events',
    'start',
    'mean_field',
    'refined_first',
    'refined_second',
    'exact',
    'mean_queue_length_ci95_low',
    'mean_queue_length_ci95_high',
    'mean_response_time_ci95_low',
    'mean_response_time_ci95_high',
    'warmup_time',
    'refined_second_trusted',
    'refined_first_trusted',
  ];
  const rows: (string | number)[][] = [header];
  for (const c of table.cells) {
    const exact = c.exact !== null && !('skipped' in c.exact) ? c.exact.meanQueueLength : '';
    rows.push([
      c.d,
      c.lambda,
      c.n,
      c.meanQueueLength.mean,
      c.meanQueueLength.halfWidth,
      c.meanResponseTime.mean,
      c.meanResponseTime.halfWidth,
      c.meanQueueLength.replications,
      c.eventsPerRun,
      c.warmupEvents,
      c.start,
      c.meanField,
      c.refinedFirst,
      c.refinedSecond ?? '',
      exact,
      ...c.meanQueueLength.ci95,
      ...c.meanResponseTime.ci95,
      c.warmupTime,
      c.refinedSecondTrusted === null ? '' : String(c.refinedSecondTrusted),
      String(c.refinedFirstTrusted),
    ]);
  }
  return rows;
}
