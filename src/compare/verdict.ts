/**
 * Judging agreement between finite-n simulations and the mean field (theory.md §8 "Judging agreement" and
 * "Without V"). Per cell, one rule: the simulated x̂_n against the expected finite-n value, allowing the CIs and a
 * stated O(·) allowance. With the refined 1/n term V (JSQ(d), FIFO, exponential: theory.md §6) the expected value is
 * π + V/n and the allowance its unmodelled 1/n² term. Without V there is no predicted finite-n value: a cell is not
 * judged (its difference from x_∞ is shown beside the fitted finite-n bias |ĉ₁|/n + |ĉ₂|/n², ĉ from the same cells),
 * and the test of the mean field is the fitted limit â against x_∞ (`limitCheck`), one per model.
 */
import { fixedCoefficientFit, isInfinite, standardErrorOfMean, type Estimate } from '../stats/index.ts';
import { holmAdjust, studentTwoSidedPValue } from '../stats/hypothesis.ts';
import { fitInverseN, type FitPoint, type InverseNFit } from './fit.ts';
import { responseTimeLowerBound } from '../model/moments.ts';
import type { SupermarketModel } from '../model/model.ts';
import { FIRST_ORDER_RANGE, firstOrderTrust } from '../meanfield/refined.ts';

/** The n → ∞ reference value with its error bars. */
export interface ReferenceValue {
  /** x_∞ (time units for E[T]). */
  readonly value: number;
  /** 95% CI half-width of a simulated (cavity) reference; 0 for a deterministic solver. */
  readonly halfWidth: number;
  /** Numerical error bound of a deterministic solver (grid, quadrature, truncation); 0 when exact or unknown. */
  readonly numericalError: number;
  /** Why x_∞ is +∞ (model/moments.ts `estimandFiniteness`), when it is: then nothing is judged against it. */
  readonly infinite?: string;
  /**
   * Why x_∞ is not settled (model/moments.ts `meanFieldUnsettled`: neither proven finite nor ∞), when it is: value NaN,
   * nothing is judged against it (status 'not-settled').
   */
  readonly unsettled?: string;
  /**
   * Why x_∞, proven finite (model/moments.ts `meanFieldLimit` 'finite'), has no number: no solver here computes it
   * (meanfield/capabilities.ts, e.g. JSQ(d) FIFO with E[S²] = ∞), when so: value NaN, nothing is judged against it
   * (status 'not-computed').
   */
  readonly notComputed?: string;
}

/** How a status of every check reads when a mean it names is infinite in theory (claims print the same words). */
export const UNDEFINED_INFINITE = 'undefined (infinite)';
/** How the status 'not-settled' reads: the model's mean-field E[T]∞ is neither proven finite nor ∞ (`meanFieldUnsettled`). */
export const NOT_SETTLED = 'not settled';
/** How the status 'not-computed' reads: the model's mean-field E[T]∞ is proven finite, but no solver here computes it. */
export const NOT_COMPUTED = 'finite, not computed';

/**
 * The statuses of a check against a limit with no value: its cells are simulated and shown, judged against nothing,
 * and the rest of the grid is judged as usual. 'not-settled': E[T]∞ is neither proven finite nor ∞;
 * 'not-computed': E[T]∞ is proven finite, but no solver here gives it.
 */
export type UnvaluedStatus = 'not-settled' | 'not-computed';

/** Each `UnvaluedStatus`: its display text (`statusText`), what it means, and where its reason comes from. */
export const UNVALUED: Readonly<Record<UnvaluedStatus, { readonly text: string; readonly meaning: string; readonly source: string }>> = {
  'not-settled': { text: NOT_SETTLED, meaning: 'E[T]∞ neither proven finite nor ∞', source: 'model/moments.ts meanFieldUnsettled' },
  'not-computed': {
    text: NOT_COMPUTED,
    meaning: 'E[T]∞ proven finite, no solver here computes it',
    source: 'model/moments.ts meanFieldLimit, meanfield/capabilities.ts',
  },
};

/** The unvalued statuses in the order the counts print them. */
export const UNVALUED_STATUSES: readonly UnvaluedStatus[] = ['not-settled', 'not-computed'];

/** True for 'not-settled' and 'not-computed'. */
export function isUnvalued(status: string): status is UnvaluedStatus {
  return status === 'not-settled' || status === 'not-computed';
}

/** Why a reference has no value to judge against, with its status, or null when it has one (or is ∞). */
export function unvaluedReference(ref: {
  readonly unsettled?: string;
  readonly notComputed?: string;
}): { readonly status: UnvaluedStatus; readonly reason: string } | null {
  if (ref.unsettled !== undefined) return { status: 'not-settled', reason: ref.unsettled };
  if (ref.notComputed !== undefined) return { status: 'not-computed', reason: ref.notComputed };
  return null;
}

/**
 * What a model's reference says of the limit E[T]∞ when it holds no finite value, one reading for report.md, the LaTeX
 * tables and the JSON (results.json, `compare --json`): the status the reference carries from compare/plan.ts —
 * 'infinite' (its `infinite` reason: E[T]∞ = ∞ proven, or the solver's ∞) or its `unvaluedReference` — with `atEveryN`
 * the reason E[T]_n = ∞ at every n beside a limit that is not ∞ (`infiniteAtEveryN`), else undefined; null when the
 * reference has a value. Nothing is translated here: the status was set where the limit was decided.
 */
export function limitWithoutValue(ref: {
  readonly unsettled?: string;
  readonly notComputed?: string;
  readonly infinite?: string;
  readonly infiniteAtEveryN?: string;
  readonly meanResponseTime: number;
}): { readonly status: UnvaluedStatus | 'infinite'; readonly reason: string; readonly atEveryN?: string } | null {
  const unvalued = unvaluedReference(ref);
  if (unvalued !== null) return { ...unvalued, ...(ref.infiniteAtEveryN === undefined ? {} : { atEveryN: ref.infiniteAtEveryN }) };
  if (ref.infinite === undefined && ref.meanResponseTime !== Infinity) return null;
  return { status: 'infinite', reason: ref.infinite ?? 'E[T]∞ = ∞ in theory' };
}

/**
 * A check's status (verdict, limit, c₁, c₂, quantile: `VerdictStatus`, `LimitStatus`,
 * compare/secondOrder.ts `C2Status`) as the reader sees it, one text per status in every report table, summary and
 * CLI line; JSON keeps the machine word.
 */
export function statusText(status: string): string {
  // a limit with no value: "not settled", "finite, not computed" (`UNVALUED`)
  if (isUnvalued(status)) return UNVALUED[status].text;
  switch (status) {
    case 'undefined':
      return UNDEFINED_INFINITE;
    case 'agrees-not-confirmed':
      return 'agrees (rejection not confirmed)';
    case 'not-resolvable':
      return 'not resolvable within budget';
    case 'not-judged':
      return 'not judged';
    case 'refined-out-of-range':
      return 'refined out of range';
    default:
      return status;
  }
}

/**
 * Why a mean cannot be judged, or null when it can: the simulated estimate is infinite in theory (`infiniteEstimate`,
 * model/moments.ts `estimandFiniteness`) or the reference is +∞. The one finiteness gate of every compare verdict.
 */
export function infiniteReason(simulated: Estimate | null, reference: ReferenceValue | null): string | null {
  if (simulated && isInfinite(simulated)) return simulated.reason ?? 'the simulated mean is infinite in theory';
  if (reference && (reference.infinite !== undefined || reference.value === Infinity)) return reference.infinite ?? 'E[T]∞ = ∞';
  return null;
}

/**
 * What a cell's expected value adds to the limit at finite n: the refined mean field where V exists, nothing when the
 * reference is the exact finite-n value, else the 1/n coefficients fitted over the sweep (c1 null when the sweep has
 * fewer n than fit parameters).
 */
export type FiniteNTerm =
  | {
      readonly kind: 'refined';
      /** Refined E[T] at this n: E[T_∞] + ΣV/(λn) (time units). */
      readonly meanResponseTime: number;
      /** ΣV, Σπ = E[Q_∞] and λ of the model. */
      readonly sumV: number;
      readonly sumPi: number;
      readonly lambda: number;
      /** δ_n = 2 × the 1/n² term of E[T] when it was computed (theory.md §8; `secondOrderAllowance`), else absent. */
      readonly secondOrderAllowance?: number;
    }
  /** The reference is itself the exact finite-n value (exactPoints.ts): a prediction with no allowance, judged. */
  | { readonly kind: 'exact' }
  /** No predicted term: ĉ₁, ĉ₂ fitted from the same cells (c1 null without a fit); shown, not judged (`WITHOUT_V_RULE`). */
  | { readonly kind: 'fitted'; readonly c1: number | null; readonly c2: number };

/**
 * The status of a cell. A single run's test (`cellVerdict`) gives 'agrees' or 'disagrees' at level α unadjusted;
 * `judgeFamily` then sets the report's status: 'agrees' (not rejected after Holm), 'agrees-not-confirmed' (rejected
 * after Holm, but the confirmatory rerun does not reject), 'disagrees' (rejected, and the rerun rejects too).
 * 'not-resolvable': the CI cannot reach the stated fraction of the 1/n term within the job budget (no verdict).
 * 'undefined': E[T] is infinite in theory (model/moments.ts), printed `UNDEFINED_INFINITE`: it neither agrees nor disagrees.
 * 'not-settled': the model's mean-field E[T]∞ is not settled (model/moments.ts `meanFieldUnsettled`), printed
 * `NOT_SETTLED`; 'not-computed': it is proven finite but no solver gives it, printed `NOT_COMPUTED` (`UnvaluedStatus`):
 * the cell is simulated and shown, with no limit to be judged against.
 */
export type VerdictStatus =
  'agrees' | 'agrees-not-confirmed' | 'disagrees' | 'not-resolvable' | 'refined-out-of-range' | 'not-judged' | 'undefined' | UnvaluedStatus;

/** Level α of every test of a report (two-sided), before and after the multiplicity control. */
export const SIGNIFICANCE_LEVEL = 0.05;

/**
 * Relative size ΣV/(nΣπ) of the 1/n correction above which a cell is not judged against π + V/n. 5 %: at d = 3,
 * λ = 0.95, n = 50 (ΣV/(nΣπ) between 5 and 10 %) the unmodelled 1/n² term showed at t ≈ 8.5 although δ_n allows
 * for it, so theory.md §6's "5–10 %" is taken at its cautious end (theory.md §8). The order-1 trusted range of every
 * command that prints a refined value (meanfield/refined.ts `firstOrderTrust`): one bound.
 */
export const MAX_RELATIVE_CORRECTION = FIRST_ORDER_RANGE;

/** The points of an n-sweep inside the order-1 trusted range, and the n left out (`inFirstOrderRange`). */
export interface FirstOrderRangeSplit<P> {
  readonly kept: P[];
  /** The n outside the range, in the order given. */
  readonly leftOut: number[];
}

/**
 * The one rule for which n of a sweep a 1/n coefficient is fitted from and read against ΣV: those with
 * |ΣV|/(n·Σπ) ≤ `MAX_RELATIVE_CORRECTION` (`firstOrderTrust`, the cell verdicts' range). Outside it the O(1/n²) and
 * O(1/n³) remainders of the expansion bias the fitted ĉ₁, so a "disagrees" there would be the remainder, not the theory.
 * Used by compare's c₁ check (summary.ts `c1CheckOf`, on E[T]: the same ratio) and the table's fits (`tableFit`).
 * @param sumV the 1/n coefficient ΣV of E[Q] (jobs per server × servers). @param sumPi the mean-field E[Q] Σπ (jobs per server).
 */
export function inFirstOrderRange<P extends { readonly n: number }>(
  points: readonly P[],
  sumV: number,
  sumPi: number,
): FirstOrderRangeSplit<P> {
  const kept: P[] = [];
  const leftOut: number[] = [];
  for (const p of points) {
    if (firstOrderTrust(sumV, sumPi, p.n).trusted) kept.push(p);
    else leftOut.push(p.n);
  }
  return { kept, leftOut };
}

export interface CellVerdict {
  readonly status: VerdictStatus;
  /** x̂_n − expected value (π + V/n with V, else x_∞), time units. */
  readonly difference: number;
  /** 95% CI half-width h_n of the simulated value. */
  readonly halfWidth: number;
  /** √(h_n² + h_ref²) + ε_num (= h_n against an exact reference). */
  readonly combinedHalfWidth: number;
  /**
   * Stated allowance (time units): with V, δ_n = |ΣV/n|·|ΣV|/(nΣπ)/λ (theory.md §8 [H]); without V, |ĉ₁|/n + |ĉ₂|/n²
   * (NaN when there is no ĉ₁).
   */
  readonly allowance: number;
  /**
   * t = sign(d)·max(0, |d| − allowance − ε_num)/√(σ_n² + σ_ref²), σ_n = h_n/t_{0.975,R−1}, σ_ref = h_ref/1.96: the
   * distance beyond the allowance in standard errors, read against Student t with `degreesOfFreedom`.
   */
  readonly tStatistic: number;
  /** Welch–Satterthwaite ν = (σ_n² + σ_ref²)²/(σ_n⁴/(R−1)) (the reference's ν taken as ∞): R − 1 against an exact reference. */
  readonly degreesOfFreedom: number;
  /** Two-sided P(|T_ν| ≥ |t|) (1 inside the allowance); NaN when not judged. */
  readonly pValue: number;
  /** Holm-adjusted p-value over the report's judged cells (null until `judgeFamily`, and for cells not judged). */
  readonly adjustedPValue: number | null;
  /** ΣV/(nΣπ): the relative size of the 1/n correction (null without V). */
  readonly relativeCorrection: number | null;
  readonly rule: string;
}

export const REFINED_RULE = '|sim − refined| ≤ h_n + δ_n, δ_n = |ΣV/n|·|ΣV|/(nΣπ)/λ';
export const REFINED_SECOND_ORDER_RULE = '|sim − refined| ≤ h_n + δ_n, δ_n = 2|ΣA|/(n²λ) (twice the computed 1/n² term)';
/**
 * The per-n rule without a predicted finite-n term: no verdict. The only allowance there is |ĉ₁|/n + |ĉ₂|/n² with ĉ
 * fitted from these same cells, so with k values of n and p fitted coefficients the k cells carry k − p residual
 * degrees of freedom and (with k = 2) can hardly fail: a test of nothing. The limit check (`limitCheck`) is the test.
 */
export const WITHOUT_V_RULE =
  'not judged: no predicted finite-n term (no V, theory.md §8); |x̂_n − x_∞| is shown beside √(h_n² + h_ref²) + ε_num and ' +
  'the allowance |ĉ₁|/n + |ĉ₂|/n², ĉ₁ (ĉ₂ when fitted) fitted from these same cells: information, not a test (the fitted ' +
  'limit against x_∞ is the test)';
export const EXACT_VALUE_RULE = '|x̂_n − E[T]_n| ≤ h_n + ε_num against the exact finite-n value (no allowance)';
/** How the report's cells are judged together (report, results.json and theory.md §8 say the same). */
export const FAMILY_RULE =
  `p-value of the t statistic (Student t: ν = R − 1 against an exact reference, Welch–Satterthwaite's ν against one with its own error); Holm's step-down adjustment over all judged cells of the report ` +
  `(family-wise error ≤ ${SIGNIFICANCE_LEVEL}); a rejected cell is rerun with fresh seeds and 4× the replications, the reruns Holm-adjusted ` +
  `among themselves: "disagrees" only when the rerun rejects too, else "agrees (rejection not confirmed)"`;

/**
 * Verdict for one (λ, d, n) cell, one run: `agrees` when |x̂_n − expected| ≤ √(h_n² + h_ref²) + ε_num + allowance
 * (equivalently p ≥ α for an exact reference), else `disagrees` (unadjusted: `judgeFamily` sets the report's status).
 * With V: `refined-out-of-range` when ΣV/(nΣπ) exceeds `maxRelativeCorrection` (default `MAX_RELATIVE_CORRECTION`),
 * where the expansion is not trusted. Against an exact finite-n value (`term.kind` 'exact', `limit` = E[T]_n): no
 * allowance, judged. Without V (`term.kind` 'fitted'): always `not-judged` (`WITHOUT_V_RULE`), the
 * difference, combined half-width, fitted allowance and t shown as information (NaN allowance without a ĉ₁); the
 * limit is judged by `limitCheck`.
 * @param simulated simulated mean response time with its Student-t CI (R ≥ 2). @param limit x_∞ with its error bars.
 * @param term the finite-n term (see `FiniteNTerm`). @param n servers.
 */
export function cellVerdict(
  simulated: Estimate,
  limit: ReferenceValue,
  term: FiniteNTerm,
  n: number,
  maxRelativeCorrection = MAX_RELATIVE_CORRECTION,
): CellVerdict {
  const infinite = infiniteReason(simulated, limit);
  if (infinite !== null) return undefinedVerdict(infinite, simulated.halfWidth);
  const unvalued = unvaluedReference(limit);
  if (unvalued !== null) return unvaluedVerdict(unvalued, simulated.halfWidth);
  const expected = term.kind === 'refined' ? term.meanResponseTime : limit.value;
  const difference = simulated.mean - expected;
  const halfWidth = simulated.halfWidth;
  const combinedHalfWidth = Math.hypot(halfWidth, limit.halfWidth) + limit.numericalError;
  const seSim = standardErrorOfMean(simulated);
  const seRef = limit.halfWidth / 1.959963984540054;
  const se = Math.hypot(seSim, seRef);
  // Welch–Satterthwaite when the reference carries its own error; an exact reference leaves the R − 1 of the replications
  const degreesOfFreedom = seSim > 0 && seRef > 0 ? se ** 4 / (seSim ** 4 / (simulated.replications - 1)) : simulated.replications - 1;
  const test = (allowance: number) => {
    const excess = Math.max(0, Math.abs(difference) - allowance - limit.numericalError);
    const tStatistic = excess === 0 ? 0 : se > 0 ? Math.sign(difference) * (excess / se) : Math.sign(difference) * Number.POSITIVE_INFINITY;
    return { tStatistic, pValue: studentTwoSidedPValue(tStatistic, degreesOfFreedom) };
  };
  const judge = (allowance: number) => (Math.abs(difference) <= combinedHalfWidth + allowance ? 'agrees' : 'disagrees');
  const common = { difference, halfWidth, combinedHalfWidth, degreesOfFreedom, adjustedPValue: null };
  if (term.kind === 'refined') {
    const { sumV, sumPi, lambda } = term;
    const allowance = term.secondOrderAllowance ?? (Math.abs(sumV / n) * Math.abs(sumV)) / (n * sumPi) / lambda;
    const relativeCorrection = Math.abs(sumV) / (n * sumPi);
    const out = relativeCorrection > maxRelativeCorrection;
    const t = test(allowance);
    return {
      ...common,
      status: out ? 'refined-out-of-range' : judge(allowance),
      allowance,
      tStatistic: t.tStatistic,
      pValue: out ? Number.NaN : t.pValue,
      relativeCorrection,
      rule: `${term.secondOrderAllowance === undefined ? REFINED_RULE : REFINED_SECOND_ORDER_RULE}; skipped when ΣV/(nΣπ) > ${maxRelativeCorrection}`,
    };
  }
  if (term.kind === 'exact') {
    return { ...common, status: judge(0), allowance: 0, ...test(0), relativeCorrection: null, rule: EXACT_VALUE_RULE };
  }
  if (term.c1 === null || !Number.isFinite(term.c1)) {
    return {
      ...common,
      status: 'not-judged',
      allowance: Number.NaN,
      tStatistic: test(0).tStatistic,
      pValue: Number.NaN,
      relativeCorrection: null,
      rule: 'no per-n verdict without V and without a c₁ fit (fewer n than fit parameters)',
    };
  }
  // the allowance is fitted from the cells it would judge: shown, never a verdict (WITHOUT_V_RULE)
  const allowance = Math.abs(term.c1) / n + Math.abs(term.c2) / (n * n);
  return {
    ...common,
    status: 'not-judged',
    allowance,
    tStatistic: test(allowance).tStatistic,
    pValue: Number.NaN,
    relativeCorrection: null,
    rule: WITHOUT_V_RULE,
  };
}

/** The verdict of a cell whose E[T] is infinite in theory: no difference, no test, status 'undefined'. */
export function undefinedVerdict(reason: string, halfWidth = Infinity): CellVerdict {
  return {
    status: 'undefined',
    difference: Number.NaN,
    halfWidth,
    combinedHalfWidth: Number.NaN,
    allowance: Number.NaN,
    tStatistic: Number.NaN,
    degreesOfFreedom: Number.NaN,
    pValue: Number.NaN,
    adjustedPValue: null,
    relativeCorrection: null,
    rule: `${UNDEFINED_INFINITE}: ${reason}; a mean that is infinite in theory is neither agreed nor disagreed with (model/moments.ts)`,
  };
}

/**
 * The verdict of a cell whose model's limit has no value (`unvaluedReference`: not settled, or finite but not
 * computed): simulated and shown, no difference, no test, its `UnvaluedStatus`.
 */
export function unvaluedVerdict(unvalued: { readonly status: UnvaluedStatus; readonly reason: string }, halfWidth: number): CellVerdict {
  const { text, source } = UNVALUED[unvalued.status];
  return {
    ...undefinedVerdict(unvalued.reason, halfWidth),
    status: unvalued.status,
    rule: `${text}: ${unvalued.reason}; the cell is simulated and shown, with no mean-field limit value to judge it against (${source})`,
  };
}

/** True for a verdict that enters the family (a test was made). */
export function isJudged(v: { readonly status: string }): boolean {
  return v.status === 'agrees' || v.status === 'disagrees';
}

/** What the family rule reads of a single-run test: its status (judged when 'agrees' or 'disagrees') and p-value. */
export interface SingleRunTest {
  readonly status: string;
  readonly pValue: number;
  readonly adjustedPValue: number | null;
}

/** One test's place in its family: its final verdict and, when the first run was rejected, the confirmatory rerun's. */
export interface Confirmed<V extends SingleRunTest> {
  /** The first run's verdict with `adjustedPValue` and the family's status. */
  readonly verdict: V;
  /** The rerun's verdict (its `adjustedPValue` Holm over the reruns), or null when no rerun was needed. */
  readonly confirmation: V | null;
}

/** One cell's place in the family (`judgeFamily`). */
export type FamilyJudgement = Confirmed<CellVerdict>;

/**
 * The one verdict rule of a family of single-run tests (theory.md §8 "Judging agreement", `FAMILY_RULE`): Holm over
 * the p-values of the judged first runs (status 'agrees' or 'disagrees'); each rejected test (p̃ < α) is rerun
 * (`rerun`: fresh seeds from `cellSeed(master, key + '/confirm')`, more replications) and the reruns are Holm-adjusted
 * among themselves; the status is 'disagrees' only when the rerun is rejected too, else 'agrees-not-confirmed'. Tests
 * not judged keep their status; `rerun` is called only for rejected ones, in order. Cells (`judgeFamily`), the limit
 * checks, the c₁ and c₂ checks and the busy-fraction check (compare/summary.ts) are all judged by it. A family that is
 * reported without reruns (`rerun` null: the response-time quantile cells, compare/quantileCells.ts) stops after Holm:
 * status 'disagrees' where p̃ < α, else 'agrees'.
 * @param first the single-run tests. @param rerun index → the rerun's single-run test (NaN p-value: not judged), or
 *   null for no confirmatory reruns. @param alpha family-wise level (default `SIGNIFICANCE_LEVEL`).
 */
export function confirmFamily<V extends SingleRunTest>(
  first: readonly V[],
  rerun: ((index: number) => V) | null,
  alpha = SIGNIFICANCE_LEVEL,
): Confirmed<V>[] {
  const judged = first.map((v, i) => i).filter((i) => isJudged(first[i]));
  const adjusted = holmAdjust(judged.map((i) => first[i].pValue));
  if (rerun === null) {
    return first.map((v, i) => {
      const k = judged.indexOf(i);
      if (k < 0) return { verdict: v, confirmation: null };
      return { verdict: { ...v, status: adjusted[k] < alpha ? 'disagrees' : 'agrees', adjustedPValue: adjusted[k] }, confirmation: null };
    });
  }
  const rejected = judged.filter((_, k) => adjusted[k] < alpha);
  const reruns = rejected.map((i) => rerun(i));
  const rerunAdjusted = holmAdjust(reruns.map((v) => (isJudged(v) && !Number.isNaN(v.pValue) ? v.pValue : 1)));
  return first.map((v, i) => {
    const k = judged.indexOf(i);
    if (k < 0) return { verdict: v, confirmation: null };
    const r = rejected.indexOf(i);
    if (r < 0) return { verdict: { ...v, status: 'agrees', adjustedPValue: adjusted[k] }, confirmation: null };
    const confirmed = isJudged(reruns[r]) && rerunAdjusted[r] < alpha;
    const confirmation: V = isJudged(reruns[r])
      ? { ...reruns[r], status: confirmed ? 'disagrees' : 'agrees', adjustedPValue: rerunAdjusted[r] }
      : reruns[r];
    return { verdict: { ...v, status: confirmed ? 'disagrees' : 'agrees-not-confirmed', adjustedPValue: adjusted[k] }, confirmation };
  });
}

/**
 * `confirmFamily` over per-model checks of which some are absent (null or undefined: no such check for that model, e.g.
 * no c₁ check without a sweep, no c₂ check without a second-order term); an absent check stays as it is and is never
 * rerun. The c₁ and c₂ checks of a report are judged by it (compare/summary.ts).
 * @param checks the single-run checks, one a model. @param rerun model index → the check recomputed from its reruns.
 * @param alpha family-wise level (default `SIGNIFICANCE_LEVEL`).
 */
export function confirmPresent<V extends SingleRunTest, A extends null | undefined>(
  checks: readonly (V | A)[],
  rerun: (index: number) => V,
  alpha = SIGNIFICANCE_LEVEL,
): { verdict: V | A; confirmation: V | null }[] {
  const present = checks.flatMap((c, i) => (c ? [i] : []));
  const judged = confirmFamily(
    present.map((i) => checks[i] as V),
    (k) => rerun(present[k]),
    alpha,
  );
  return checks.map((c, i) => {
    const k = present.indexOf(i);
    return k < 0 ? { verdict: c, confirmation: null } : judged[k];
  });
}

/**
 * The report's cell verdicts: `confirmFamily` over all judged cells (Holm over the first runs, each rejected cell rerun
 * with fresh seeds and more precision, "disagrees" only when its rerun is rejected too). The response-time quantile
 * cells are judged by it too, with no reruns (`rerun` null: Holm alone, compare/quantileCells.ts).
 * @param first the first runs' single-run verdicts (`cellVerdict`). @param rerun index → the rerun's single-run verdict,
 *   or null for a family reported without confirmatory reruns. @param alpha family-wise level (default `SIGNIFICANCE_LEVEL`).
 */
export function judgeFamily(
  first: readonly CellVerdict[],
  rerun: ((index: number) => CellVerdict) | null,
  alpha = SIGNIFICANCE_LEVEL,
): FamilyJudgement[] {
  return confirmFamily(first, rerun, alpha);
}

/**
 * A single run's `limitCheck` says 'agrees' or 'disagrees'; the report's status is set by `confirmFamily` over the
 * models ('agrees-not-confirmed': rejected after Holm, its rerun not). 'undefined': the limit or the simulated means are
 * infinite in theory (no fit of ∞, no verdict). 'not-settled', 'not-computed' (`UnvaluedStatus`): the limit has no value
 * (`unvaluedReference`): no check.
 */
export type LimitStatus = 'agrees' | 'agrees-not-confirmed' | 'disagrees' | 'not-judged' | 'undefined' | UnvaluedStatus;

export interface LimitCheck {
  readonly status: LimitStatus;
  /** â − x_∞. */
  readonly difference: number;
  /** 95% half-width of â. */
  readonly fitHalfWidth: number;
  /** √(h_â² + h_ref²) + numerical error: the combined 95% half-width. */
  readonly combinedHalfWidth: number;
  /**
   * t = sign(d)·max(0, |d| − ε_num)/√(s.e.(â)² + σ_ref²), σ_ref = h_ref/1.96: read against Student t with
   * `degreesOfFreedom` (NaN when not judged).
   */
  readonly tStatistic: number;
  /** Welch–Satterthwaite ν of â (the reference's ν taken as ∞); ∞ for a fit with estimated weights (1.96, the rule before). */
  readonly degreesOfFreedom: number;
  /** Two-sided P(|T_ν| ≥ |t|): the single run's p-value (NaN when not judged). */
  readonly pValue: number;
  /** Holm-adjusted p over the report's judged limit checks (null until the family is judged, and when not judged). */
  readonly adjustedPValue: number | null;
  readonly rule: string;
}

export const LIMIT_RULE =
  '|â − x_∞| ≤ √(h_â² + h_ref²) + ε_num (â from x̂_n = a + c₁/n (+ c₂/n²), least squares with fixed coefficients, ' +
  'h_â = t_{0.975,ν}·s.e., s.e.² = Σ a_n² σ_n², ν Welch–Satterthwaite); the report: p of t = (|â − x_∞| − ε_num)/s.e. ' +
  "Holm over the report's models, a rejected model's cells rerun with fresh seeds and 4× the replications, the reruns' " +
  'limits Holm-adjusted among themselves: "disagrees" only when the rerun rejects too';

/** The test fields of a check that makes no test. */
const NO_TEST = { tStatistic: Number.NaN, degreesOfFreedom: Number.NaN, pValue: Number.NaN, adjustedPValue: null } as const;

/**
 * The intercept of x̂_n = a + c₁/n (+ c₂/n² when `inverseSquare`) by least squares with fixed coefficients (unweighted):
 * â = Σ a_n x̂_n, a_n the a row of (XᵀX)⁻¹Xᵀ, s.e.² = Σ a_n² σ_n², ν Welch–Satterthwaite (each σ_n² from R_n − 1
 * degrees of freedom): `fitInverseN`'s â with its default fixed weights. Weights 1/σ̂_n² from the same replications
 * would understate the s.e. (as for c₁ and c₂).
 * @returns null when the design is singular, a point has no CI, or no point has any spread.
 */
export function fixedIntercept(
  points: readonly FitPoint[],
  inverseSquare: boolean,
): { a: number; standardError: number; degreesOfFreedom: number; halfWidth: number } | null {
  if (points.some((p) => !(p.replications >= 2) || !Number.isFinite(p.value) || !Number.isFinite(p.halfWidth))) return null;
  if (!points.some((p) => p.halfWidth > 0)) return null;
  const fit = fitInverseN(points, { inverseSquare });
  if (!fit) return null;
  return { a: fit.a, standardError: fit.aStandardError, degreesOfFreedom: fit.aDegreesOfFreedom, halfWidth: fit.aHalfWidth };
}

/**
 * Checks the fitted limit â against the reference (theory.md §8 "Without V": "check a against the reference with the
 * combined CI"). Independent errors: the statistical half-widths add in quadrature, the numerical bound linearly.
 * @param fit a fit with the limit fitted (`fitInverseN(points)`), or null; it fixes the form (c₂ or not).
 * @param points the fit's points: â is then the fixed-coefficient intercept (`fixedIntercept`, LIMIT_RULE), as the
 *   c₁ and c₂ checks fit; without them the fit's own â, s.e. and ν (the same numbers for `fitInverseN`'s default fixed
 *   weights; 1.96 and ν = ∞ for its 'estimated' weights, the rule before).
 * @param infinite why the simulated means are infinite in theory, if they are (`infiniteReason`).
 * @returns status 'not-judged' when `fit` is null (fewer n than fit parameters); 'undefined' when the reference or
 *   (`infinite`) the simulated means are infinite in theory; 'not-settled' or 'not-computed' when the reference has no
 *   value (`unvaluedReference`).
 */
export function limitCheck(
  fit: InverseNFit | null,
  reference: ReferenceValue,
  infinite: string | null = null,
  points?: readonly FitPoint[],
): LimitCheck {
  const reason = infinite ?? infiniteReason(null, reference);
  if (reason !== null) {
    return {
      status: 'undefined',
      difference: Number.NaN,
      fitHalfWidth: Number.NaN,
      combinedHalfWidth: Number.NaN,
      ...NO_TEST,
      rule: `${LIMIT_RULE}; ${UNDEFINED_INFINITE}: ${reason}`,
    };
  }
  const unvalued = unvaluedReference(reference);
  if (unvalued !== null) {
    return {
      status: unvalued.status,
      difference: Number.NaN,
      fitHalfWidth: Number.NaN,
      combinedHalfWidth: Number.NaN,
      ...NO_TEST,
      rule: `no limit check; ${UNVALUED[unvalued.status].text}: ${unvalued.reason}`,
    };
  }
  if (!fit || !fit.limitFitted) {
    return {
      status: 'not-judged',
      difference: Number.NaN,
      fitHalfWidth: Number.NaN,
      combinedHalfWidth: Number.NaN,
      ...NO_TEST,
      rule: `${LIMIT_RULE}; not judged: fewer n than fit parameters`,
    };
  }
  // with the points: the fixed-coefficient intercept and its t half-width (LIMIT_RULE); without: the fit's own
  const fixed = points ? fixedIntercept(points, fit.inverseSquare) : null;
  const a = fixed?.a ?? fit.a;
  const fitHalfWidth = fixed?.halfWidth ?? fit.aHalfWidth;
  const difference = a - reference.value;
  const statistical = Math.hypot(fitHalfWidth, reference.halfWidth);
  const combinedHalfWidth = statistical + reference.numericalError;
  // the p-value of the same test: s.e. of â (t with Welch ν) and of the reference (normal), the numerical bound linearly
  const seFit = fixed ? fixed.standardError : fit.aStandardError;
  const seRef = reference.halfWidth / 1.959963984540054;
  const se = Math.hypot(seFit, seRef);
  const nuFit = fixed ? fixed.degreesOfFreedom : fit.aDegreesOfFreedom;
  const degreesOfFreedom = seFit > 0 && Number.isFinite(nuFit) ? se ** 4 / (seFit ** 4 / nuFit) : Number.POSITIVE_INFINITY;
  const excess = Math.max(0, Math.abs(difference) - reference.numericalError);
  const tStatistic = excess === 0 ? 0 : se > 0 ? Math.sign(difference) * (excess / se) : Math.sign(difference) * Number.POSITIVE_INFINITY;
  return {
    status: Math.abs(difference) <= combinedHalfWidth ? 'agrees' : 'disagrees',
    difference,
    fitHalfWidth,
    combinedHalfWidth,
    tStatistic,
    degreesOfFreedom,
    pValue: studentTwoSidedPValue(tStatistic, degreesOfFreedom),
    adjustedPValue: null,
    rule: LIMIT_RULE,
  };
}

export interface C1Check {
  /**
   * The family rule (`confirmFamily`): 'disagrees' only when rejected after Holm over the models and the rerun of the
   * model's cells (fresh seeds, more replications) is rejected too; 'agrees-not-confirmed' when only the first run was.
   * 'not-resolvable': the 95% half-width of ĉ₁ is not below |ΣV/λ| (`coefficientResolvable`): no test, no verdict.
   * 'not-judged': no fit (fewer than 2 n in range, or no spread).
   */
  readonly status: 'agrees' | 'disagrees' | 'agrees-not-confirmed' | 'not-resolvable' | 'not-judged';
  /**
   * ĉ₁ of x̂_n − E[T]∞ = c₁/n (+ c₂/n² with ≥ 3 n; with 2 n the computed c₂/n² subtracted first where c₂ is known),
   * least squares with fixed coefficients (not weighted by the estimated 1/σ_n²), over the n with ΣV/(nΣπ) ≤ the
   * trusted range (time units × servers).
   */
  readonly c1: number;
  /** ΣV/λ: the refined mean field's 1/n coefficient of E[T] (theory.md §6). */
  readonly expected: number;
  /** s.e.² = Σ a_n² σ_n², ĉ₁ = Σ a_n y_n. */
  readonly standardError: number;
  /** Welch–Satterthwaite ν of ĉ₁ (each σ_n² estimated from R_n − 1 degrees of freedom); NaN when not judged. */
  readonly degreesOfFreedom: number;
  /** t_{0.975,ν}·s.e.: the 95% half-width of ĉ₁. */
  readonly halfWidth: number;
  /** (ĉ₁ − ΣV/λ)/s.e. */
  readonly tStatistic: number;
  readonly pValue: number;
  /** Holm over the models of the report (null before `confirmPresent` or when not judged). */
  readonly adjustedPValue: number | null;
  /** Σ ((y_n − fit)/σ_n)² per residual degree of freedom (NaN with none): ≫ 1 says the c₁/n + c₂/n² form does not fit. */
  readonly reducedChiSquare: number;
  /** The computed c₂ = ΣA/λ subtracted as c₂/n² before a fit of c₁ alone (2 n), or null when none was (≥ 3 n: ĉ₂ fitted; no c₂). */
  readonly c2Subtracted: number | null;
  readonly nUsed: number[];
  readonly rule: string;
}

export const C1_RULE =
  'ĉ₁ = Σ a_n y_n, y_n = x̂_n − E[T]∞, from the least-squares fit y_n = c₁/n (+ c₂/n² with ≥ 3 n; with 2 n, y_n − ΣA/(λn²) where the ' +
  'second-order term is computed) with fixed coefficients ' +
  '(not weighted by the estimated 1/σ_n²), over the n with ΣV/(nΣπ) ≤ the trusted range; s.e.² = Σ a_n² σ_n²; ' +
  'judged only when the 95% half-width t_{0.975,ν}·s.e. is below |ΣV/λ| (else "not resolvable"); ' +
  "t = (ĉ₁ − ΣV/λ)/s.e. against Student t with Welch–Satterthwaite ν; Holm over the report's models; a rejected " +
  "model's check recomputed from its sweep cells' reruns (fresh seeds, more replications), Holm over those: " +
  '"disagrees" only when rejected twice';

/**
 * The fitted 1/n coefficient against the refined mean field's ΣV/λ (theory.md §8 "Sweep"), the way `judgeC2` judges
 * c₂: the limit E[T]∞ is held, y_n = x̂_n − E[T]∞ is fitted to c₁/n (+ c₂/n² when ≥ 3 distinct n) by least squares with
 * fixed coefficients, ĉ₁ = Σ a_n y_n (a_n the c₁ row of (XᵀX)⁻¹Xᵀ), s.e.² = Σ a_n² σ_n², ν Welch–Satterthwaite. Weights
 * 1/σ̂_n² estimated from the same R replications (the rule before) favour the points whose variance came out small,
 * and their s.e. understates the spread of ĉ₁: 5.6–5.8 % rejections at α = 5 % on synthetic sweeps of the default
 * report's shape, more with fewer replications (test/compare/c1Check.test.ts, scripts/c1-false-alarms.ts).
 * With two n the fit is c₁/n alone, and the c₂/n² term left in y_n biases ĉ₁ by Σ a_n c₂/n²; where the refined mean field's second order is computed (`c2` = ΣA/λ, theory.md §6) it is
 * subtracted first: y_n = x̂_n − E[T]∞ − c₂/n² (scripts/c1-false-alarms.ts: the mean t statistic of such sweeps).
 * Status 'not-resolvable' (no test) when the half-width is not below |ΣV/λ| (`coefficientResolvable`, as `judgeC2`).
 * @param points the simulated E[T]_n with their Student-t CIs (R ≥ 2) in the trusted range. @param limit E[T]∞.
 * @param expected ΣV/λ. @param c2 ΣA/λ, the 1/n² coefficient of E[T]_n (time units × servers²), when computed.
 */
export function c1Check(points: readonly FitPoint[], limit: number, expected: number, c2?: number | null): C1Check {
  const used = points.filter((p) => p.replications >= 2 && p.halfWidth > 0 && Number.isFinite(p.value) && Number.isFinite(p.halfWidth));
  const distinct = new Set(used.map((p) => p.n)).size;
  const notJudged = (why: string): C1Check => ({
    status: 'not-judged',
    c1: Number.NaN,
    expected,
    standardError: Number.NaN,
    degreesOfFreedom: Number.NaN,
    halfWidth: Number.NaN,
    tStatistic: Number.NaN,
    pValue: Number.NaN,
    adjustedPValue: null,
    reducedChiSquare: Number.NaN,
    c2Subtracted: null,
    nUsed: used.map((p) => p.n),
    rule: `${C1_RULE}; not judged: ${why}`,
  });
  if (distinct < 2) return notJudged('fewer than 2 n in the trusted range');
  const withC2 = distinct >= 3;
  const design = used.map((p) => (withC2 ? [1 / p.n, 1 / (p.n * p.n)] : [1 / p.n]));
  // two n: c₁ alone, the computed second-order term taken out first (it would bias ĉ₁ by Σ a_n c₂/n²)
  const c2Subtracted = !withC2 && typeof c2 === 'number' && Number.isFinite(c2) ? c2 : null;
  const y = used.map((p) => p.value - limit - (c2Subtracted ?? 0) / (p.n * p.n));
  const fit = fixedCoefficientFit(
    design,
    y,
    used.map((p) => standardErrorOfMean(p)),
    used.map((p) => p.replications - 1),
  );
  if (!fit) return notJudged('the fit is singular');
  const [c1, standardError, degreesOfFreedom, halfWidth] = [
    fit.coefficients[0],
    fit.standardErrors[0],
    fit.degreesOfFreedom[0],
    fit.halfWidths[0],
  ];
  if (!(standardError > 0)) return notJudged('no spread in the points');
  const tStatistic = (c1 - expected) / standardError;
  const common = {
    c1,
    expected,
    standardError,
    degreesOfFreedom,
    halfWidth,
    adjustedPValue: null,
    reducedChiSquare: fit.residualDegreesOfFreedom > 0 ? fit.chiSquare / fit.residualDegreesOfFreedom : Number.NaN,
    c2Subtracted,
    nUsed: used.map((p) => p.n),
  };
  if (!coefficientResolvable(halfWidth, expected)) {
    return {
      ...common,
      status: 'not-resolvable',
      tStatistic: Number.NaN,
      pValue: Number.NaN,
      rule: `${C1_RULE}; ${NOT_RESOLVABLE_WHY('ĉ₁', 'ΣV/λ')}`,
    };
  }
  const pValue = studentTwoSidedPValue(tStatistic, degreesOfFreedom);
  return { ...common, status: pValue < SIGNIFICANCE_LEVEL ? 'disagrees' : 'agrees', tStatistic, pValue, rule: C1_RULE };
}

/**
 * Whether a fitted coefficient can be told apart from its theory value at all: its 95% half-width h is below |theory|.
 * With h ≥ |theory| the interval ĉ ± h that holds the theory value could hold 0 as well, the term cannot be told from
 * its absence at this budget, and "agrees" would only say the simulation was too short to see it: the c₁ and c₂
 * checks then say "not resolvable" (status 'not-resolvable', `statusText`), in compare and the table alike.
 * The gate reads the same σ̂_n as the interval, so it slightly favours draws whose variance came out small.
 * @param halfWidth the coefficient's 95% half-width (t_{0.975,ν}·s.e., `fitInverseN`), unit of the coefficient.
 * @param theory the coefficient's theory value (ΣV/λ for c₁ of E[T], ΣV for E[Q]; ΣA/λ for c₂), same unit.
 * @returns false for a half-width not below |theory|, or one that is NaN.
 * @example coefficientResolvable(0.5, 4.43) // true; coefficientResolvable(5, 4.43) // false
 */
export function coefficientResolvable(halfWidth: number, theory: number): boolean {
  return halfWidth < Math.abs(theory);
}

/**
 * A fitted coefficient read against its theory value by its 95% interval alone (no multiplicity, no rerun: the table's
 * reading; compare's c₁ and c₂ checks add Holm over the models and a confirmatory rerun): 'not-resolvable' when
 * `coefficientResolvable` says no, else 'agrees' when |ĉ − theory| ≤ h and 'disagrees' otherwise; 'not-judged' when ĉ
 * or h is not a number. Print it with `statusText`.
 * @param estimate ĉ. @param halfWidth its 95% half-width (`fitInverseN`). @param theory the theory value (same unit).
 * @example coefficientAgreement(4.1, 0.5, 4.43) // 'agrees'; coefficientAgreement(4.1, 5, 4.43) // 'not-resolvable'
 */
export function coefficientAgreement(
  estimate: number,
  halfWidth: number,
  theory: number,
): 'agrees' | 'disagrees' | 'not-resolvable' | 'not-judged' {
  if (!Number.isFinite(estimate) || !Number.isFinite(halfWidth) || !Number.isFinite(theory)) return 'not-judged';
  if (!coefficientResolvable(halfWidth, theory)) return 'not-resolvable';
  return Math.abs(estimate - theory) <= halfWidth ? 'agrees' : 'disagrees';
}

/** A check's rule when `coefficientResolvable` says no: `what` the fitted coefficient, `theory` its theory value's name. */
export const NOT_RESOLVABLE_WHY = (what: string, theory: string): string =>
  `not resolvable: the 95% half-width of ${what} is not below |${theory}| at this budget (the term cannot be told from 0)`;

/**
 * The fitted limit â = E[T]∞ + (â − E[T]∞) of a model and its 95 % interval â ± h intersected with the parameter space
 * E[T] ≥ `responseTimeLowerBound` (model/moments.ts): at a low load â ± h can reach below E[S], where no E[T] lies.
 * Coverage is unchanged (the truth lies in the space). null when the fit gave no limit. For the console, the report
 * and the LaTeX table alike.
 * @example fittedLimitInterval({ model, reference: { meanResponseTime: 1.03 }, limit: { difference: 0.0043, fitHalfWidth: 0.0433 } })
 *   // { value: 1.0343, ci95: [1, 1.0776] } (exponential sizes: E[S] = 1)
 */
export function fittedLimitInterval(m: {
  readonly model: SupermarketModel;
  readonly reference: { readonly meanResponseTime: number };
  readonly limit: { readonly difference: number; readonly fitHalfWidth: number };
}): { value: number; ci95: [number, number] } | null {
  const value = m.reference.meanResponseTime + m.limit.difference;
  if (!Number.isFinite(value)) return null;
  const lower = responseTimeLowerBound(m.model);
  const h = m.limit.fitHalfWidth;
  return { value, ci95: [Math.max(value - h, lower), Math.max(value + h, lower)] };
}
