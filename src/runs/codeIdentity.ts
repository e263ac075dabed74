/**
 * Which code computed a result: the one rule by which cells and shards are keyed to their code. The package version
 * is "0.1.0" in every commit, so cells, shards and reports record a code identity as well: `dist:<hash>` (or
 * `src:<hash>`) of what decides the numbers: the code folder the process runs from, the package's version and its
 * runtime dependencies, locked or installed (version.ts `codeIdentityOf`). A docs-only commit keeps it, so stored
 * cells resume; a change to the code, committed or not (a dirty tree), or to a dependency changes it. Cells and
 * shards of another code are refused on resume and merge (`checkSameCode`) unless `--allow-mixed-code` is given; then
 * the report's metadata names the other codes (`mixedCodeSeen`). Cells stored before 2026-12-03 carry a git identity
 * (`git:<commit>`) and are refused once: rerun with --fresh.
 */
import { SupermarketError } from '../errors.ts';
import { adoptCodeIdentity, codeIdentity, codeIdentityOf, primeCodeIdentity } from '../version.ts';

// the identity itself is computed on the ground floor (version.ts), where library results read it too; the pool's
// workers adopt their parent's (cli/pool.ts), which `compare` primes at start (cli/main.ts)
export { adoptCodeIdentity, codeIdentity, codeIdentityOf, primeCodeIdentity };

let allowMixed = false;
const mixed = new Set<string>();

/** `--allow-mixed-code`: resume and merge accept cells and shards of another code (named in the report). */
export function allowMixedCode(allow: boolean): void {
  allowMixed = allow;
}

/**
 * Forgets `--allow-mixed-code` and the other codes accepted so far. Called as each command starts (program.ts
 * `startCommand`): both are the command's, not the process's, and a process that runs several commands (the tests: vitest
 * shares one process between test files) named an earlier command's mixed code in every later report.
 */
export function resetMixedCode(): void {
  allowMixed = false;
  mixed.clear();
}

/** The other code identities this command accepted (with `--allow-mixed-code`), for the report's metadata. */
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
  // a git identity: stored before cells were keyed by the code's content (2026-12-03); say so, it is not other code
  const git = other.startsWith('git:') ? ', keyed by its git commit before cells were keyed by the code’s content' : '';
  if (!allowMixed) {
    throw new SupermarketError(
      `${what} was computed by other code (${other}${git}; this is ${mine}): rerun with --fresh, or --allow-mixed-code to use it anyway (noted in the report)`,
    );
  }
  mixed.add(other);
}
