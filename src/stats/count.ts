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
