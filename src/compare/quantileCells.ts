/**
 * Response-time quantile cells of a comparison (issue 20 §3): the simulated pooled percentiles p50, p95, p99 of each
 * cell (sectioning intervals, sim/simulate.ts) against the mean field's quantiles (meanfield/responseTime.ts), judged
 * by the rule of the cells without V (verdict.ts `cellVerdict`: the allowance |ĉ₁|/n + |ĉ₂|/n² fitted per p over the
 * sweep), Holm over the quantile cells of the report. A cell whose sections hold fewer than
 * `MIN_TAIL_JOBS_PER_SECTION` jobs beyond p is not judged: its sectioning interval undercovers (issue 21 §4, theory.md §8
 * "Quantiles"). Also the mean-field ccdf curve the report's response-time figure draws.
 */
import { meanFieldCapabilities, solveResponseTime, type ResponseTimeLaw } from '../meanfield/index.ts';
import type { SupermarketModel } from '../model/index.ts';
import { MIN_TAIL_JOBS_PER_SECTION, percentileSectionShortfall } from '../sim/simulate.ts';
import { holmAdjust } from '../stats/hypothesis.ts';
import type { Estimate } from '../stats/index.ts';
import { fitInverseN } from './fit.ts';
import type { ResponseTimeCurve } from './meanFieldCurves.ts';
import { cellVerdict, limitCheck, SIGNIFICANCE_LEVEL, type CellVerdict, type LimitCheck } from './verdict.ts';

/** Fewest sections (replications) behind a judged quantile: with 3, the sectioning half-width is too noisy (a p50 limit rejected on a sound run). */
export const MIN_SECTIONS = 5;

/** The percentiles a simulation reports (sim/simulate.ts `responseTimePercentiles`). */
export const JUDGED_PERCENTILES = [0.5, 0.95, 0.99] as const;

/**
 * The mean field's response-time law of `model` for a comparison: exact and approximation kinds only (a cavity law
 * would rerun the cavity compare already ran for E[T]), on 101 instants from 0 to the 1 − 10⁻⁴ quantile; null with the
 * reason otherwise.
 */
export function meanFieldResponseTime(model: SupermarketModel): { law: ResponseTimeLaw; curve: ResponseTimeCurve } | { reason: string } {
  const cap = meanFieldCapabilities(model).responseTime;
  if (!cap.available) return { reason: cap.reason };
  if (cap.kind === 'estimate')
    return { reason: `the response-time law of ${cap.name} is a cavity simulation; compare draws and judges exact laws only` };
  const law = solveResponseTime(model, { quantiles: [...JUDGED_PERCENTILES] }); // default grid: 0 to the 1 − 10⁻⁴ quantile
  return {
    law,
    curve: {
      times: law.times,
      ccdf: law.ccdf,
      source: `${law.solver} (${law.kind}; ${law.source})`,
      solver: law.solver,
      kind: law.kind,
      quantiles: law.quantiles.map((q) => ({ p: q.p, value: q.value })),
    },
  };
}

/** One judged quantile of one cell. */
export interface QuantileCell {
  readonly n: number;
  readonly p: number;
  /** Pooled simulated percentile with its sectioning 95 % CI. */
  readonly simulated: Estimate;
  /** t_p of the mean field. */
  readonly meanField: number;
  /** `cellVerdict` against t_p with the fitted allowance, status set after Holm ('not-judged' with `warning` when the sections are short). */
  readonly verdict: CellVerdict;
  /** Why the cell is not judged: its sections hold too few jobs beyond p (issue 21 §4). */
  readonly warning?: string;
}

/** The fitted limit of one percentile over the sweep against the mean field's t_p (`limitCheck`: the test of the limit). */
export interface QuantileLimit {
  readonly p: number;
  readonly meanField: number;
  /** â of q̂_n = a + c₁/n (+ c₂/n²) over the judged cells, with its 95 % half-width (NaN when not fitted). */
  readonly fitted: number;
  readonly fittedHalfWidth: number;
  readonly check: LimitCheck;
}

/** The quantile cells of one model. */
export interface QuantileCheck {
  readonly solver: string;
  readonly cells: QuantileCell[];
  readonly limits: QuantileLimit[];
}

export const QUANTILE_RULE =
  `per cell |q̂_n − q_∞| ≤ h_n + ε_num + |ĉ₁|/n + |ĉ₂|/n², ĉ per p fitted over the sweep (a consistency check); per p the fitted ` +
  `limit â against q_∞ shown, not judged (not calibrated yet); pooled percentiles with sectioning CIs; ` +
  `not judged when a section holds < ${MIN_TAIL_JOBS_PER_SECTION} jobs beyond p; Holm over the report's quantile cells, no confirmatory rerun`;

/**
 * Why the fitted limit of a percentile is shown, not judged: on the default report (SQ(2), λ = 0.9 and 0.95, n = 10 …
 * 10 000) it rejected 4 of 6 percentiles by 0.3–0.6 % although the mean-field law is a closed form — the 1/n (+ 1/n²)
 * fit of a percentile over n down to 10 carries a model error its interval does not hold, and no calibration on exact
 * cases (issue 21's rule) was run. Until one is, the limit is reported with its difference and never counted.
 */
export const QUANTILE_LIMIT_NOT_CALIBRATED =
  'shown, not judged: the fitted limit of a percentile is not calibrated yet (its 1/n fit over small n carries a model error its interval does not hold)';

/** A judged limit check turned into a shown one (`QUANTILE_LIMIT_NOT_CALIBRATED`); 'undefined' and 'not-judged' pass. */
function shownNotJudged(check: LimitCheck): LimitCheck {
  if (check.status !== 'agrees' && check.status !== 'disagrees') return check;
  return { ...check, status: 'not-judged', rule: `${check.rule}; ${QUANTILE_LIMIT_NOT_CALIBRATED}` };
}

/** A simulated cell as the quantile check reads it. */
export interface QuantileSimulation {
  readonly n: number;
  readonly jobs: number;
  readonly percentiles?: { readonly p50: Estimate; readonly p95: Estimate; readonly p99: Estimate };
}

const pick = (q: NonNullable<QuantileSimulation['percentiles']>, p: number): Estimate => (p === 0.5 ? q.p50 : p === 0.95 ? q.p95 : q.p99);

/**
 * The quantile cells of one model, single-run verdicts (statuses 'agrees'/'disagrees' unadjusted until
 * `judgeQuantileFamily`). Cells without stored percentiles are left out.
 * @param law the mean field's law (its quantiles at `JUDGED_PERCENTILES`). @param sims the sweep's cells.
 */
export function quantileCells(law: ResponseTimeLaw, sims: readonly QuantileSimulation[]): QuantileCheck {
  const cells: QuantileCell[] = [];
  const limits: QuantileLimit[] = [];
  const withQ = sims.filter((s) => s.percentiles);
  for (const p of JUDGED_PERCENTILES) {
    const q = law.quantiles.find((x) => x.p === p);
    if (!q) continue;
    // cells with short sections feed neither the fit nor the verdicts (their intervals undercover)
    const long = withQ.filter((s) => s.jobs * (1 - p) >= MIN_TAIL_JOBS_PER_SECTION && pick(s.percentiles!, p).replications >= MIN_SECTIONS);
    const points = long.map((s) => {
      const e = pick(s.percentiles!, p);
      return { n: s.n, value: e.mean, halfWidth: e.halfWidth, replications: e.replications };
    });
    const fit = points.every((x) => x.replications >= 2) ? fitInverseN(points, { inverseSquare: 'auto' }) : null;
    const reference = { value: q.value, halfWidth: q.estimate?.halfWidth ?? 0, numericalError: law.numericalError ?? 0 };
    limits.push({
      p,
      meanField: q.value,
      fitted: fit?.a ?? Number.NaN,
      fittedHalfWidth: fit?.aHalfWidth ?? Number.NaN,
      check: shownNotJudged(limitCheck(fit, reference)),
    });
    for (const s of withQ) {
      const simulated = pick(s.percentiles!, p);
      const verdict = cellVerdict(simulated, reference, { kind: 'fitted', c1: fit?.c1 ?? null, c2: fit?.c2 ?? 0 }, s.n);
      const short = percentileSectionShortfall(s.jobs);
      const tooShort = s.jobs * (1 - p) < MIN_TAIL_JOBS_PER_SECTION;
      const few = simulated.replications < MIN_SECTIONS;
      cells.push(
        few && !(tooShort && short)
          ? {
              n: s.n,
              p,
              simulated,
              meanField: q.value,
              verdict: { ...verdict, status: 'not-judged', pValue: Number.NaN },
              warning: `${simulated.replications} sections (replications) < ${MIN_SECTIONS}: their spread is too noisy a half-width for a quantile verdict`,
            }
          : tooShort && short
            ? {
                n: s.n,
                p,
                simulated,
                meanField: q.value,
                verdict: { ...verdict, status: 'not-judged', pValue: Number.NaN },
                warning: `${s.jobs} jobs per section leave ${Math.round(s.jobs * (1 - p))} beyond p${Math.round(100 * p)} (< ${MIN_TAIL_JOBS_PER_SECTION}): the sectioning interval undercovers; use --jobs ≥ ${Math.ceil(MIN_TAIL_JOBS_PER_SECTION / (1 - p) - 1e-9)}`,
              }
            : { n: s.n, p, simulated, meanField: q.value, verdict },
      );
    }
  }
  return { solver: law.solver, cells, limits };
}

/**
 * Holm's adjustment over every judged quantile cell of the report: status 'disagrees' where the adjusted p < α, else
 * 'agrees' (no confirmatory rerun: the quantile family is reported, the E[T] family drives the reruns).
 */
export function judgeQuantileFamily(checks: readonly (QuantileCheck | null | undefined)[]): (QuantileCheck | null)[] {
  const judged: QuantileCell[] = [];
  for (const c of checks) for (const cell of c?.cells ?? []) if (!Number.isNaN(cell.verdict.pValue)) judged.push(cell);
  const adjusted = holmAdjust(judged.map((c) => c.verdict.pValue));
  const byCell = new Map(judged.map((c, i) => [c, adjusted[i]]));
  return checks.map((c) =>
    c
      ? {
          ...c,
          cells: c.cells.map((cell) => {
            const a = byCell.get(cell);
            if (a === undefined) return cell;
            return { ...cell, verdict: { ...cell.verdict, adjustedPValue: a, status: a < SIGNIFICANCE_LEVEL ? 'disagrees' : 'agrees' } };
          }),
        }
      : null,
  );
}

/**
 * A model's response-time parts of a comparison: the mean-field ccdf curve (null with a note where the model has no
 * exact law) and its quantile cells (single-run verdicts; `judgeQuantileFamily` adjusts them).
 */
export function responseTimeParts(
  model: SupermarketModel,
  sims: readonly QuantileSimulation[],
): { responseTime: ResponseTimeCurve | null; quantiles: QuantileCheck | null; note?: string } {
  const r = meanFieldResponseTime(model);
  if ('reason' in r) return { responseTime: null, quantiles: null, note: `Response-time quantiles not judged: ${r.reason}` };
  return { responseTime: r.curve, quantiles: quantileCells(r.law, sims) };
}
