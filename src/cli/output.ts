/** What the commands print on stdout: `--json` as one JSON object on one line; interval ends in text. */
import { Option } from 'commander';
import { jsonText } from '../io/index.ts';

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
