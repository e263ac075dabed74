/** What the commands print on stdout for `--json`: one JSON object on one line. */

/** Writes `value` as one line of JSON on stdout (the `--json` output of every command). */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
