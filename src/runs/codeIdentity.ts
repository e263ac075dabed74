/**
 * Which code computed a result. The package version is "0.1.0" in every commit, so cells, shards and reports record a
 * code identity as well: `git:<commit>` where the package is a git checkout (`+dirty:<hash of the diff>` when tracked
 * files differ from the commit), else `dist:<hash>` (or `src:<hash>`) of the built code the process runs. Cells and
 * shards of another code are refused on resume and merge (`checkSameCode`) unless `--allow-mixed-code` is given; then
 * the report's metadata names the other codes (`mixedCodeSeen`).
 */
import { SupermarketError } from '../errors.ts';
import { adoptCodeIdentity, codeIdentity, primeCodeIdentity } from '../version.ts';

// the identity itself is computed on the ground floor (version.ts), where library results read it too; the pool's
// workers adopt their parent's (cli/pool.ts), which `compare` primes at start (cli/main.ts)
export { adoptCodeIdentity, codeIdentity, primeCodeIdentity };

let allowMixed = false;
const mixed = new Set<string>();

/** `--allow-mixed-code`: resume and merge accept cells and shards of another code (named in the report). */
export function allowMixedCode(allow: boolean): void {
  allowMixed = allow;
}

/** The other code identities this process accepted (with `--allow-mixed-code`), for the report's metadata. */
export function mixedCodeSeen(): string[] {
  return [...mixed];
}

/**
 * Checks that `stored` (a cell's or a shard's code identity; undefined for files written before code identities) is
 * this process's code.
 * @param what the stored thing in words, e.g. "the stored cell reports/x/cells/a.json".
 * @throws {SupermarketError} one line, unless `allowMixedCode(true)`: then the other code is remembered for the report.
 */
export function checkSameCode(stored: string | undefined, what: string): void {
  const mine = codeIdentity();
  if (stored === mine) return;
  const other = stored ?? 'unknown (written before code identities)';
  if (!allowMixed) {
    throw new SupermarketError(
      `${what} was computed by other code (${other}; this is ${mine}): rerun with --fresh, or --allow-mixed-code to use it anyway (noted in the report)`,
    );
  }
  mixed.add(other);
}
