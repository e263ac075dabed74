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

/** A 95 % interval in text, `[lo, hi]` with `digits` decimals; an infinite end (a percentile's open interval) as ∞. */
export function intervalText(ci95: readonly [number, number], digits: number): string {
  const end = (x: number) => (Number.isFinite(x) ? x.toFixed(digits) : x > 0 ? '∞' : '−∞');
  return `[${end(ci95[0])}, ${end(ci95[1])}]`;
}
