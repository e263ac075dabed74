/** What the commands print on stdout for `--json`: one JSON object on one line. */
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
