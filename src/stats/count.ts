/**
 * The one formatter of event counts (and other large counts) in output: an integer below 10⁴ as is, else a mantissa
 * with three significant digits and a power of ten, so counts of every size read alike ("42", "3.70e7", "1.52e10";
 * never "0.04e9").
 */

/**
 * Formats a count for people: `formatCount(42)` = "42", `formatCount(3.7e7)` = "3.70e7", `formatCount(1.52e10)` =
 * "1.52e10"; `digits` significant digits (default 3) in the mantissa. Non-finite counts print as "∞" / "NaN".
 */
export function formatCount(count: number, digits = 3): string {
  if (!Number.isFinite(count)) return Number.isNaN(count) ? 'NaN' : count > 0 ? '∞' : '−∞';
  if (Math.abs(count) < 1e4 && Number.isInteger(count)) return String(count);
  return count.toExponential(Math.max(0, digits - 1)).replace('e+', 'e');
}

/**
 * How many decimals to print an estimate "x ± h" with, so that its half-width shows `significant` significant digits
 * (default 2) and x is rounded at the same place: h = 0.0374 → 3 ("1.235 ± 0.037"),
 * h = 1.83 → 1, h = 47 → 0. A non-finite or zero h (no interval) answers `fallback` (default 2); at most 12.
 * @example estimateDecimals(0.0374) // 3; (1.23456).toFixed(estimateDecimals(0.0374)) // "1.235"
 */
export function estimateDecimals(halfWidth: number, significant = 2, fallback = 2): number {
  if (!Number.isFinite(halfWidth) || halfWidth === 0) return fallback;
  return Math.min(12, Math.max(0, significant - 1 - Math.floor(Math.log10(Math.abs(halfWidth)))));
}

/**
 * "x ± h" with `estimateDecimals(h)` decimals for both (`significant` digits of h), e.g. plusMinus(4.4312, 0.374) =
 * "4.43 ± 0.37"; `sign` the separator (" \\pm " for LaTeX). Non-finite numbers print as `String(x)` ("NaN", "Infinity").
 */
export function plusMinus(x: number, halfWidth: number, sign = ' ± ', significant = 2): string {
  const k = estimateDecimals(halfWidth, significant);
  const show = (v: number) => (Number.isFinite(v) ? v.toFixed(k) : String(v));
  return `${show(x)}${sign}${show(halfWidth)}`;
}

/** Most decimals of an estimate in text (`estimateIntervalText`). */
const MAX_ESTIMATE_DECIMALS = 6;

/**
 * An estimate and its 95 % interval in text, "x [lo, hi]", by one rule for every row of a table (simulate, replay):
 * the decimals of stats `estimateDecimals` (two significant digits of the half-width h, at most 6; `fallback` without a
 * finite nonzero h), the same for x and both ends; a row whose values are all below 10⁻³ in size (and not all 0) in
 * exponent form with three significant digits throughout, so a row never mixes "0.00171 [7.91e-4, 0.00263]". h is
 * the estimate's own, else half the interval's width (a percentile's, not symmetric about x), else with one end open
 * (∞) the distance from x to the finite end. An infinite end prints as ∞. The one rule of simulate's and replay's text and the reports' interval columns.
 * @param width pad x to this many characters (a table's column; default none). @param mark words in parentheses after
 * x (an estimate flagged `unobserved`: "not reached"), inside the padding.
 * @example estimateIntervalText(0.00171, [7.91e-4, 0.00263], 9.2e-4) // "0.00171 [0.00079, 0.00263]"
 * @example estimateIntervalText(0, [0, 1.47e-7], 1.47e-7, 4, 0, 'not reached') // "0 (not reached) [0, 1.47e-7]"
 */
export function estimateIntervalText(
  mean: number,
  ci95: readonly [number, number],
  halfWidth = Number.NaN,
  fallback = 4,
  width = 0,
  mark?: string,
): string {
  const [lo, hi] = ci95;
  const h = Number.isFinite(halfWidth)
    ? halfWidth
    : Number.isFinite(hi - lo)
      ? (hi - lo) / 2
      : Number.isFinite(lo)
        ? Math.abs(mean - lo)
        : Math.abs(hi - mean);
  const finite = [mean, lo, hi].filter(Number.isFinite);
  const largest = Math.max(0, ...finite.map(Math.abs));
  const tiny = largest > 0 && largest < 1e-3;
  const k = Math.min(MAX_ESTIMATE_DECIMALS, estimateDecimals(h, 2, fallback));
  const one = (x: number) =>
    !Number.isFinite(x)
      ? Number.isNaN(x)
        ? 'NaN'
        : x > 0
          ? '∞'
          : '−∞'
      : tiny
        ? x === 0
          ? '0'
          : x.toExponential(2).replace('e+', 'e')
        : x.toFixed(k);
  return `${(mark === undefined ? one(mean) : `${one(mean)} (${mark})`).padEnd(width)} [${one(lo)}, ${one(hi)}]`;
}
