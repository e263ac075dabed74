/**
 * Student-t confidence interval over independent replications: x̄ ± t_{(1+c)/2, R−1} · s/√R.
 * Source: theory.md §8 (replications with seed substreams of one master seed).
 */
import { tQuantile as quantile } from '../lazy.ts';
import { InvalidModelError } from '../errors.ts';

/**
 * A point estimate with its confidence interval, from `replications` independent runs (or batches, or sections).
 *
 * Feasible intervals: a quantity known to lie in [lower, upper] (a response time ≥ E[S], a slowdown ≥ 1, a tail
 * fraction in [0, 1]) gets `ci95` = [x̄ − h, x̄ + h] ∩ [lower, upper] (`feasible`). Coverage is unchanged, since the
 * true value lies in [lower, upper]: the clipped interval contains it exactly when the unclipped one does.
 * `halfWidth` stays the unclipped t half-width h, the spread that precision targets and z-scores use.
 */
export interface Estimate {
  /** Sample mean x̄ of the replication values (or the pooled value of a sectioning or batch-means estimate). */
  mean: number;
  /** Two-sided confidence interval [x̄ − h, x̄ + h] (95% unless stated otherwise), intersected with the parameter space. */
  ci95: [number, number];
  /** Half-width h = t_{(1+c)/2, R−1} · s/√R (before any intersection with the parameter space). */
  halfWidth: number;
  /** Number of replications R behind the estimate. */
  replications: number;
  /**
   * Present (true) when the quantity is infinite in theory (model/moments.ts, `estimandFiniteness`): then mean = +∞,
   * ci95 = [+∞, +∞], halfWidth = +∞, and the run's finite average is kept in `sampleMean` for inspection only.
   * JSON form (io/jsonText.ts): the one ∞ object `{ mean: null, infinite: true, reason, replications, sampleMean }`, no
   * interval fields; `parseJsonText` reads it back as this in-memory form.
   */
  infinite?: true;
  /** Why the quantity is infinite, in words (with `infinite`). */
  reason?: string;
  /**
   * Present (true) when the mean may be infinite and no rule settles it (model/moments.ts `meanResponseTimeUnsettled`):
   * then there is no estimate, mean = NaN, ci95 = [NaN, NaN], halfWidth = NaN (`unsettledEstimate`), and the run's
   * average is kept in `sampleMean` as an observation only. JSON form (io/jsonText.ts): `{ mean: null, unsettled: true,
   * reason, replications, sampleMean }`, no interval fields; `parseJsonText` reads it back as this in-memory form.
   */
  unsettled?: true;
  /** The run's finite average of a quantity infinite in theory (or not settled): an observation, not an estimate. */
  sampleMean?: number;
  /**
   * Present (true) on a fraction whose event was never observed in any unit (a level never reached, a point never
   * exceeded: every unit's value 0) or always (every unit's value 1): the t interval of equal values is one point,
   * which cannot hold a truth strictly inside (0, 1), so `ci95` is the bound the neighbouring entries of a monotone
   * sequence give (`monotoneFractions`) or the whole parameter space [0, 1] (`unresolvedFraction`); likewise a
   * snapshot fraction whose units all tied at one multiple of 1/n (`tiedFraction`). `halfWidth` is
   * the distance from `mean` to the far end of `ci95` (mean ± h contains it). Text says "not reached" (or "not
   * resolved"); JSON keeps the finite interval and this flag.
   */
  unobserved?: true;
}

/**
 * The estimate of a quantity that is infinite in theory: mean = ci95 = halfWidth = +∞, `infinite: true`, the reason,
 * and the sample's finite average as `sampleMean`. Idempotent (an infinite estimate is returned as it is).
 * @example infiniteEstimate({ mean: 8.3, ci95: [3.3, 13.2], halfWidth: 4.9, replications: 5 }, 'E[1/S] = ∞').mean // Infinity
 */
export function infiniteEstimate(e: Estimate, reason: string): Estimate {
  if (e.infinite) return e;
  return {
    mean: Infinity,
    ci95: [Infinity, Infinity],
    halfWidth: Infinity,
    replications: e.replications,
    infinite: true,
    reason,
    sampleMean: e.mean,
  };
}

/**
 * The record of a run whose mean may be infinite with no rule settling it (model/moments.ts
 * `meanResponseTimeUnsettled`): no estimate, so no number where an estimate would stand (mean, ci95 and halfWidth
 * NaN: a printer cannot show an interval it does not have), `unsettled: true`, the reason, and the run's average as
 * `sampleMean` (an observation: it may grow with the run). Idempotent; an infinite estimate stays as it is (∞ is
 * settled). @example unsettledEstimate({ mean: 1.45, ci95: [1, 7.7], halfWidth: 3.4, replications: 3 }, 'E[T] may be
 * infinite: …') // { mean: NaN, ci95: [NaN, NaN], halfWidth: NaN, replications: 3, unsettled: true, reason, sampleMean: 1.45 }
 */
export function unsettledEstimate(e: Estimate, reason: string): Estimate {
  if (e.infinite || e.unsettled) return e;
  return {
    mean: Number.NaN,
    ci95: [Number.NaN, Number.NaN],
    halfWidth: Number.NaN,
    replications: e.replications,
    unsettled: true,
    reason,
    sampleMean: e.mean,
  };
}

/** True when `e` is the record of a mean not settled (`unsettledEstimate`): no estimate, the run's average in `sampleMean`. */
export function isUnsettled(e: Estimate | undefined | null): e is Estimate & { unsettled: true; reason: string; sampleMean: number } {
  return e !== undefined && e !== null && e.unsettled === true;
}

/**
 * The estimate without an interval, where none can be had (replay's trace too short for batch means): the mean kept,
 * ci95 [NaN, NaN] and halfWidth NaN (no interval, never a stand-in one), `replications` 1 (one run, unbatched); other
 * fields as given. @example withoutInterval({ mean: 2.1, ci95: [0.4, 3.8], halfWidth: 1.7, replications: 2 })
 * // { mean: 2.1, ci95: [NaN, NaN], halfWidth: NaN, replications: 1 }
 */
export function withoutInterval<E extends Estimate>(e: E): E {
  return { ...e, ci95: [Number.NaN, Number.NaN], halfWidth: Number.NaN, replications: 1 };
}

/** True when `e` is the estimate of a quantity infinite in theory (`infiniteEstimate`), or its mean is +∞. */
export function isInfinite(e: Estimate | undefined | null): boolean {
  return e !== undefined && e !== null && (e.infinite === true || e.mean === Infinity);
}

/**
 * Student-t interval for the mean of i.i.d. replication values.
 * @param samples R ≥ 2 finite values (one per replication); not modified.
 * @param confidence two-sided level in (0, 1), default 0.95 (the field is still called `ci95`).
 * @returns `{ mean, ci95, halfWidth, replications }`; halfWidth is 0 when all samples are equal.
 * @throws {InvalidModelError} if fewer than 2 samples, a sample is not finite, or confidence ∉ (0, 1).
 * @example tInterval([1, 2, 3]).halfWidth // ≈ 2.484 (t_{0.975,2} = 4.303, s = 1, √3)
 */
export function tInterval(samples: ArrayLike<number>, confidence = 0.95): Estimate {
  const r = samples.length;
  if (r < 2) throw new InvalidModelError(`tInterval needs at least 2 samples for a confidence interval, got ${r}`);
  if (!(confidence > 0 && confidence < 1)) {
    throw new InvalidModelError(`tInterval confidence must be in (0, 1), got ${confidence}`);
  }
  let sum = 0;
  for (let i = 0; i < r; i++) {
    const x = samples[i];
    if (!Number.isFinite(x)) throw new InvalidModelError(`tInterval sample ${i} is not finite: ${x}`);
    sum += x;
  }
  const mean = sum / r;
  let ss = 0;
  for (let i = 0; i < r; i++) {
    const dev = samples[i] - mean;
    ss += dev * dev;
  }
  const sd = Math.sqrt(ss / (r - 1));
  const halfWidth = studentQuantile((1 + confidence) / 2, r - 1) * (sd / Math.sqrt(r));
  return { mean, ci95: [mean - halfWidth, mean + halfWidth], halfWidth, replications: r };
}

/** The last Student-t quantile computed, by level and degrees of freedom (`studentQuantile`). */
const lastQuantile = { p: NaN, df: NaN, value: NaN };

/**
 * t_{p, df}, the Student-t quantile of @stdlib (`tQuantile`), remembering the last one: a run's summary asks for the
 * same t_{0.975, R−1} in every interval (about 50: tail fractions, means, percentiles), and one costs 37 µs at
 * df = 4, 65 µs at df = 29 (0.4 µs at df = 1; load 5, 2 cores). The same number as calling it: a pure function.
 */
function studentQuantile(p: number, df: number): number {
  if (p !== lastQuantile.p || df !== lastQuantile.df) {
    lastQuantile.value = quantile(p, df);
    lastQuantile.p = p;
    lastQuantile.df = df;
  }
  return lastQuantile.value;
}

/**
 * Sectioning interval (Asmussen & Glynn, Stochastic Simulation, 2007, §III.5a): a point estimate `centre` computed
 * from all the data pooled, with the spread of R independent section values x_1..x_R:
 * centre ± t_{(1+c)/2, R−1} · s/√R. Used for quantiles (pooled quantile, per-replication quantiles as sections),
 * where averaging the section values would carry their O(1/m) bias and the pooled value does not.
 * @param sections R ≥ 2 finite section values. @param centre the pooled estimate (used as given).
 * @throws {InvalidModelError} as `tInterval`.
 */
export function sectioningInterval(sections: ArrayLike<number>, centre: number, confidence = 0.95): Estimate {
  const t = tInterval(sections, confidence);
  return { mean: centre, ci95: [centre - t.halfWidth, centre + t.halfWidth], halfWidth: t.halfWidth, replications: t.replications };
}

/**
 * The two levels [max(0, p − h_F), min(1, p + h_F)] at which `cdfSectioningInterval` reads the pooled quantile
 * function: h_F = t_{(1+c)/2, R−1} · max(s_F, σ_F)/√R, the Student t half-width of the R sections' fractions with
 * their standard deviation s_F floored at the binomial one of independent jobs, σ_F² = p(1 − p) · (1/R)Σ 1/m_i
 * (section i holding m_i jobs). The floor: a fraction of m jobs moves in steps of 1/m, and sections that tie (2
 * batches of 80 jobs, 79 of each ≤ the pooled p99) give s_F = 0, an interval of width 0; positively correlated
 * response times (associated: each is a monotone function of the same independent sizes and gaps, Esary, Proschan
 * & Walkup 1967) only widen the fractions' spread beyond σ_F, so the floor is never narrower than the truth allows.
 * A caller with several quantiles can read all their levels in one call of its quantile function and hand each
 * interval its pair.
 * @param fractions R ≥ 2 values in [0, 1]. @param jobs jobs m_i ≥ 1 of each section (one number: every section).
 * @param p level in [0, 1]. @throws {InvalidModelError} as `tInterval`, or when `jobs` is not ≥ 1 per section.
 * @example cdfSectioningLevels([0.5, 0.5], 1e12, 0.5) // ≈ [0.5, 0.5] (ties of huge sections: floor ≈ 0)
 */
export function cdfSectioningLevels(
  fractions: ArrayLike<number>,
  jobs: ArrayLike<number> | number,
  p: number,
  confidence = 0.95,
): [number, number] {
  const h = fractionHalfWidth(fractions, jobs, p, confidence);
  return [Math.max(0, p - h), Math.min(1, p + h)];
}

/**
 * Why a cdf-inversion interval (`cdfSectioningInterval`) is open at an end, in one line, or null when it is not: the
 * sections' fractions ≤ the pooled quantile give p ± h_F beyond [0, 1], so the sample rules out no larger (smaller)
 * ξ_p. The line gives this percentile's numbers and cites the explanation every open end shares (`openEndWhy`, said
 * once: `openEndNotes`).
 * @param name the quantile's name ("p95"). @param fractions, jobs, p, confidence as `cdfSectioningLevels`.
 * @param unit what the run calls its sections, plural: "sections" (replications), "batches" (replay's batch means).
 * @throws {InvalidModelError} as `cdfSectioningLevels`.
 * @example openEndNote('p95', [0.94505, 0.95495], 20000, 0.95) // "percentile intervals: p95 has no upper end (∞): …"
 */
export function openEndNote(
  name: string,
  fractions: ArrayLike<number>,
  jobs: ArrayLike<number> | number,
  p: number,
  confidence = 0.95,
  unit = 'sections',
): string | null {
  const h = fractionHalfWidth(fractions, jobs, p, confidence);
  const upper = p + h >= 1;
  if (!upper && !(p - h <= 0)) return null;
  const R = fractions.length;
  const reach = upper ? `p + h_F = ${(p + h).toPrecision(4)} ≥ 1` : `p − h_F = ${(p - h).toPrecision(4)} ≤ 0`;
  const shown = Array.from(fractions, (f) => f.toPrecision(4)).join(', ');
  return (
    `percentile intervals: ${name} has no ${upper ? 'upper' : 'lower'} end (${upper ? '∞' : "the support's bound"}): the ${R} ${unit}' fractions ` +
    `≤ the pooled ${name} (${shown}) give ${reach}, so the sample rules out no ${upper ? 'larger' : 'smaller'} ${name} (why: ${OPEN_END_WHY})`
  );
}

/** How `openEndNote` cites the explanation that `openEndWhy` gives once; the first words of that explanation. */
export const OPEN_END_WHY = 'percentile intervals open at an end';

/**
 * The explanation every open end of a run shares, said once (`openEndNotes`): h_F is the t half-width of the R
 * sections' fractions, large with few sections (t_{0.975,1} = 12.7), so an end often reaches level 1 (or 0), and an
 * interval at another p can be finite by chance (each reads only its own fractions), which is no contradiction.
 * @param sections R ≥ 2. @param confidence, unit as `openEndNote`.
 * @example openEndWhy(2) // "percentile intervals open at an end: h_F is the 2 sections' fractions' t half-width …"
 */
export function openEndWhy(sections: number, confidence = 0.95, unit = 'sections'): string {
  const t = studentQuantile((1 + confidence) / 2, sections - 1);
  return (
    `${OPEN_END_WHY}: h_F is the t half-width of the ${sections} ${unit}' fractions ≤ the percentile (t_{${(1 + confidence) / 2},${sections - 1}} = ${t.toPrecision(3)}), ` +
    `so with few ${unit} an end often reaches level 1 (or 0); an interval at another p can be finite by chance (each reads its own fractions), ` +
    `no contradiction; more ${unit} narrow it (stats/tInterval.ts cdfSectioningInterval)`
  );
}

/**
 * The notes of a run's percentiles whose intervals are open at an end: one line each with its numbers
 * (`openEndNote`), then the explanation they share once (`openEndWhy`); empty when none is open.
 * @param percentiles each percentile's name, sections' fractions, jobs per section and level, as `openEndNote`.
 * @param confidence, unit as `openEndNote`. @throws {InvalidModelError} as `cdfSectioningLevels`.
 * @example openEndNotes([{ name: 'p95', fractions: [0.945, 0.955], jobs: 2e4, p: 0.95 }]) // [p95's line, the why]
 */
export function openEndNotes(
  percentiles: readonly { name: string; fractions: ArrayLike<number>; jobs: ArrayLike<number> | number; p: number }[],
  confidence = 0.95,
  unit = 'sections',
): string[] {
  const lines = percentiles.flatMap((x) => openEndNote(x.name, x.fractions, x.jobs, x.p, confidence, unit) ?? []);
  return lines.length === 0 ? [] : [...lines, openEndWhy(percentiles[0].fractions.length, confidence, unit)];
}

/** h_F of `cdfSectioningLevels`: the fractions' t half-width with s_F floored at the binomial σ_F. */
function fractionHalfWidth(fractions: ArrayLike<number>, jobs: ArrayLike<number> | number, p: number, confidence: number): number {
  const t = tInterval(fractions, confidence);
  const R = t.replications;
  if (typeof jobs !== 'number' && jobs.length !== R)
    throw new InvalidModelError(`cdfSectioningLevels: ${R} fractions but ${jobs.length} section sizes`);
  let inverse = 0;
  for (let i = 0; i < R; i++) {
    const m = typeof jobs === 'number' ? jobs : jobs[i];
    if (!(m >= 1)) throw new InvalidModelError(`cdfSectioningLevels: section ${i} holds ${m} jobs; every section needs ≥ 1`);
    inverse += 1 / m;
  }
  const floor = studentQuantile((1 + confidence) / 2, R - 1) * Math.sqrt((p * (1 - p) * inverse) / R / R);
  return Math.max(t.halfWidth, floor);
}

/**
 * Sectioning interval of a p-quantile by inverting the cdf's (Woodruff 1952, JASA 47:635; Sitter & Wu 2001 for
 * the tails): the R sections' fractions F̂_i(ξ̂) of values ≤ the pooled quantile ξ̂ are means, so their Student t
 * interval p ± h_F (t_{(1+c)/2, R−1}·s_F/√R) is calibrated as the mean's is, and [Q̂(p − h_F), Q̂(p + h_F)] through
 * the pooled quantile function Q̂ is the interval of ξ_p (Chu & Nakayama 2012 for the simulation setting). The
 * sections' own quantiles (`sectioningInterval`) are a concave function of their tail counts, which clustered
 * tails spread widely: their spread understates the pooled quantile's (M/M/1 λ = 0.9, 5 × 20 000 jobs, p99: 86 %
 * coverage against 91–92 % here, scripts/percentile-ci-coverage.ts). halfWidth is (upper − lower)/2.
 * Where p + h_F ≥ 1 the cdf's interval reaches 1 and the sample says nothing against any larger ξ_p: the upper end
 * is the support's upper bound (+∞ by default), not Q̂(1), the sample maximum; where p − h_F ≤ 0 the lower end is the
 * support's lower bound (−∞ by default; 0 for response times, which callers apply with `feasible`), not the minimum.
 * h_F is never below the binomial half-width of independent jobs (`cdfSectioningLevels`), so tied sections do not
 * give an interval of width 0.
 * @param fractions R ≥ 2 values in [0, 1]: section i's fraction of values ≤ `centre`. @param jobs jobs in each
 * section (one number: every section), for the floor. @param centre the pooled quantile ξ̂ at `p`. @param p level in
 * [0, 1]. @param quantileAt pooled quantiles at the given levels (same rule as `centre`). @param support the law's
 * support [lower, upper]. @throws {InvalidModelError} as `cdfSectioningLevels`.
 * @example cdfSectioningInterval([0.5, 0.5], 100, 2, 0.5, (ps) => ps.map((q) => 4 * q)) // ci95 ≈ [0, 4]: 2 × 100 jobs, t_{0.975,1} = 12.7
 */
export function cdfSectioningInterval(
  fractions: ArrayLike<number>,
  jobs: ArrayLike<number> | number,
  centre: number,
  p: number,
  quantileAt: (ps: readonly number[]) => readonly number[],
  confidence = 0.95,
  support: readonly [number, number] = [-Infinity, Infinity],
): Estimate {
  const R = fractions.length;
  const levels = cdfSectioningLevels(fractions, jobs, p, confidence);
  const [below, above] = quantileAt(levels);
  const lower = levels[0] <= 0 ? support[0] : below;
  const upper = levels[1] >= 1 ? support[1] : above;
  const ci95: [number, number] = [Math.min(lower, centre), Math.max(upper, centre)];
  return { mean: centre, ci95, halfWidth: (ci95[1] - ci95[0]) / 2, replications: R };
}

/**
 * The estimate with its interval intersected with the parameter space [lower, upper] (see `Estimate`); mean and
 * halfWidth unchanged. @param lower smallest possible true value (default 0). @param upper largest (default +∞).
 * @example feasible({ mean: 0.1, ci95: [-0.2, 0.4], halfWidth: 0.3, replications: 5 }).ci95 // [0, 0.4]
 */
export function feasible<E extends Estimate>(e: E, lower = 0, upper = Infinity): E {
  return { ...e, ci95: [Math.min(Math.max(e.ci95[0], lower), upper), Math.max(Math.min(e.ci95[1], upper), lower)] };
}

/** True when R ≥ 2 unit values gave a t interval of one point at `bound` (every unit's value was `bound`). */
function collapsedAt(e: Estimate, bound: number): boolean {
  return e.replications >= 2 && e.halfWidth === 0 && e.mean === bound && !e.infinite && !e.unsettled;
}

/** `e` marked `unobserved` with the interval [lower, upper] (see `Estimate.unobserved`). */
function unobservedOn<E extends Estimate>(e: E, lower: number, upper: number): E {
  return { ...e, ci95: [lower, upper], halfWidth: Math.max(e.mean - lower, upper - e.mean), unobserved: true };
}

/**
 * Intervals of a non-increasing sequence of fractions in [0, 1] estimated from the same R units: tail fractions
 * s_0 ≥ s_1 ≥ … (each unit's time average is itself non-increasing in i), a ccdf P(U > x) at increasing x. An entry
 * whose R values were all 0 (the level never reached, the point never exceeded, in any unit) has a t interval of
 * one point, [0, 0], which cannot hold its positive truth (`supermarket simulate --lambda 0.3 --d 2 --n 10
 * --max-level 9` printed s_7 [0, 0]); it gets [0, u], u the upper end of the nearest entry before it (`before` ahead
 * of the first), flagged `unobserved` with halfWidth u. Sound: x_i ≤ x_{i−1} ≤ u whenever the interval before covers
 * x_{i−1}, so the new interval covers at least as often as that one (by induction, as the last observed entry's).
 * An entry whose values were all 1 (always observed) gets [l, 1], l the lower end of the nearest entry after it that
 * is not all 1 (0 if none), by the same argument from x_i ≥ x_{i+1}. Entries before `exact` (s_0 = 1 by
 * definition) and every other entry are returned unchanged: an observed interval is not cut by its neighbours'
 * (min(u_i, u_{i−1}) would hold only when both intervals cover, below the nominal level).
 * @param estimates the entries in order (each `feasible` in [0, 1]); not modified. @param before the upper end ahead
 * of the first entry (default 1). @param exact leading entries known exactly, left as they are (default 0).
 * @example monotoneFractions([one(1), t([0.3, 0.31]), t([0, 0])], 1, 1)[2].ci95 // [0, upper end of entry 1]
 */
export function monotoneFractions<E extends Estimate>(estimates: readonly E[], before = 1, exact = 0): E[] {
  const out = estimates.slice();
  let upper = before;
  for (let i = 0; i < out.length; i++) {
    if (i >= exact && collapsedAt(out[i], 0)) out[i] = unobservedOn(out[i], 0, upper);
    upper = out[i].ci95[1];
  }
  let lower = 0;
  for (let i = out.length - 1; i >= exact; i--) {
    if (collapsedAt(out[i], 1)) out[i] = unobservedOn(out[i], lower, 1);
    lower = out[i].ci95[0];
  }
  return out;
}

/**
 * A fraction in [lower, upper] on its own (no monotone neighbours: a class's busy fraction, the share of arrivals
 * finding the memory empty) whose R unit values were all equal at a bound (the event never or always observed): the
 * t interval of one point cannot hold a truth inside, so the interval is the whole parameter space, flagged
 * `unobserved` (the quantity was not resolved). Any other estimate is returned unchanged.
 * @example unresolvedFraction(feasible(tInterval([0, 0, 0]), 0, 1)).ci95 // [0, 1], unobserved: true
 */
export function unresolvedFraction<E extends Estimate>(e: E, lower = 0, upper = 1): E {
  return collapsedAt(e, lower) || collapsedAt(e, upper) ? unobservedOn(e, lower, upper) : e;
}

/**
 * A fraction in [0, 1] whose R ≥ 2 unit values all equal one v strictly inside (0, 1): a snapshot of n servers, a
 * multiple of 1/n, ties across units at small n (n = 2: all 5 replications at s_1(t) = 0.5), and the t interval of one
 * point cannot hold a mean that is not v. All R equal v has chance P(X = v)^R, so at level c either P(X = v) ≥ q =
 * (1 − c)^{1/R} or an event of chance < 1 − c happened; the mean of such an X lies in [q·v, q·v + 1 − q] (the rest
 * of the mass anywhere in [0, 1]), the interval given, flagged `unobserved`. Any other estimate is returned unchanged
 * (ties at 0 or 1 of a monotone sequence: `monotoneFractions`, tighter).
 * @example tiedFraction(feasible(tInterval([0.5, 0.5, 0.5, 0.5, 0.5]), 0, 1)).ci95 // ≈ [0.275, 0.725] (q = 0.549)
 */
export function tiedFraction<E extends Estimate>(e: E, confidence = 0.95): E {
  // equal values leave a half-width of rounding only (five copies of 1/3 average to 1/3 + 2⁻⁵⁴)
  if (!(e.replications >= 2 && e.halfWidth <= 1e-12 && e.mean > 0 && e.mean < 1)) return e;
  const q = (1 - confidence) ** (1 / e.replications);
  return unobservedOn(e, q * e.mean, q * e.mean + 1 - q);
}

/** Precision target of a sequential run: relative half-width h/|x̄| and/or absolute half-width h (every one given must hold). */
export interface PrecisionTarget {
  /** Target relative half-width h/|x̄| (e.g. 0.01 for ±1 %). */
  readonly relative?: number;
  /** Target absolute half-width h (units of the estimate). */
  readonly halfWidth?: number;
}

/**
 * True when the estimate meets every target given (relative h/|x̄| ≤ relative, h ≤ halfWidth); false for no target.
 * Source: theory.md §8 ("stop at a target relative half-width within a minimum and maximum length").
 */
export function precisionReached(e: Estimate, target: PrecisionTarget): boolean {
  return unmetTargets(e, target).length === 0 && (target.relative !== undefined || target.halfWidth !== undefined);
}

/**
 * The targets of `target` that `e` does not meet, in words (e.g. "half-width ± 0.005"), for a run that stopped on its
 * budget: with both a relative and an absolute target, which one kept it going.
 */
export function unmetTargets(e: Estimate, target: PrecisionTarget): string[] {
  const unmet: string[] = [];
  if (target.relative !== undefined && !(e.halfWidth <= target.relative * Math.abs(e.mean)))
    unmet.push(`relative ± ${Number((100 * target.relative).toPrecision(3))} %`);
  if (target.halfWidth !== undefined && !(e.halfWidth <= target.halfWidth)) unmet.push(`half-width ± ${target.halfWidth}`);
  return unmet;
}

/**
 * An estimate whose interval is not symmetric about it (a percentile's, inverted from the cdf) as JSON prints it:
 * `ci95` [lo, hi] and no `halfWidth`, which would state mean ± h, an interval nothing computed. Other fields are kept.
 */
export function oneInterval<E extends Estimate>(e: E): Omit<E, 'halfWidth'> {
  const copy: Partial<E> = { ...e };
  delete copy.halfWidth;
  return copy as Omit<E, 'halfWidth'>;
}
