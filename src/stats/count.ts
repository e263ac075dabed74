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
