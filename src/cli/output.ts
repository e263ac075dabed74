/** What the commands print on stdout: `--json` as one JSON object on one line; interval ends in text. */
import { Option } from 'commander';
import { jsonText } from '../io/index.ts';
import { estimateDecimals } from '../stats/index.ts';

/** The `--json` flag of the commands that print one result (`printJson`); ode adds `.conflicts('csv')`. */
export function jsonOption(): Option {
  return new Option('--json', 'print one JSON object on stdout');
}

/** Writes `value` as one line of JSON on stdout (the `--json` output of every command). */
export function printJson(value: unknown): void {
  process.stdout.write(`${jsonText(value)}\n`);
}

/**
 * A finite value in text with `digits` decimals, except a nonzero value below 10^−(digits−1) in size, which `toFixed`
 * would print with one significant digit or as zero ("0.0000" for π = 1e−6): that one with three significant digits
 * in exponent form ("1.00e-6"). An exact zero stays "0.0000". Non-finite values print as ∞ / −∞ / NaN.
 */
export function decimalText(x: number, digits: number): string {
  if (!Number.isFinite(x)) return Number.isNaN(x) ? 'NaN' : x > 0 ? '∞' : '−∞';
  if (x !== 0 && Math.abs(x) < 10 ** -(digits - 1)) return x.toExponential(2).replace('e+', 'e');
  return x.toFixed(digits);
}

/** A 95 % interval in text, `[lo, hi]` by `decimalText`; an infinite end (a percentile's open interval) as ∞. */
export function intervalText(ci95: readonly [number, number], digits: number): string {
  const end = (x: number) => decimalText(x, digits);
  return `[${end(ci95[0])}, ${end(ci95[1])}]`;
}

/** Most decimals of an estimate in text (`estimateIntervalText`). */
const MAX_ESTIMATE_DECIMALS = 6;

/**
 * An estimate and its 95 % interval in text, "x [lo, hi]", by one rule for every row of a table (simulate, replay):
 * the decimals of stats `estimateDecimals` (two significant digits of the half-width h, at most 6; `fallback` without a
 * finite nonzero h), the same for x and both ends; a row whose values are all below 10⁻³ in size (and not all 0) in
 * exponent form with three significant digits throughout, so a row never mixes "0.00171 [7.91e-4, 0.00263]". h is
 * the estimate's own, else half the interval's width (a percentile's, not symmetric about x), else with one end open
 * (∞) the distance from x to the finite end. An infinite end prints as ∞.
 * @param width pad x to this many characters (a table's column; default none).
 * @example estimateIntervalText(0.00171, [7.91e-4, 0.00263], 9.2e-4) // "0.00171 [0.00079, 0.00263]"
 */
export function estimateIntervalText(
  mean: number,
  ci95: readonly [number, number],
  halfWidth = Number.NaN,
  fallback = 4,
  width = 0,
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
    !Number.isFinite(x) ? decimalText(x, k) : tiny ? (x === 0 ? '0' : x.toExponential(2).replace('e+', 'e')) : x.toFixed(k);
  return `${one(mean).padEnd(width)} [${one(lo)}, ${one(hi)}]`;
}
