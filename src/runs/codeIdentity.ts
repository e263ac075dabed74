/**
 * Which code computed a result. The package version is "0.1.0" in every commit, so cells, shards and reports record a
 * code identity as well: `git:<commit>` where the package is a git checkout (`+dirty:<hash of the diff>` when tracked
 * files differ from the commit), else `dist:<hash>` (or `src:<hash>`) of the built code the process runs. Cells and
 * shards of another code are refused on resume and merge (`checkSameCode`) unless `--allow-mixed-code` is given; then
 * the report's metadata names the other codes (`mixedCodeSeen`).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SupermarketError } from '../errors.ts';

/** Where this module lives: <package>/src/runs or <package>/dist/runs. */
const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The code folder this process runs from (src/ or dist/) and the package root above it. */
const CODE_DIR = path.dirname(HERE);
const PACKAGE_DIR = path.dirname(CODE_DIR);

let cached: string | undefined;

function git(args: string[]): string {
  return execFileSync('git', ['-C', PACKAGE_DIR, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 });
}

/** SHA-256 (16 hex digits) of every file under `dir` (relative path and bytes, in sorted order). */
function treeHash(dir: string): string {
  const h = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else if (s.isFile()) h.update(path.relative(dir, p)).update('\0').update(readFileSync(p)).update('\0');
    }
  };
  walk(dir);
  return h.digest('hex').slice(0, 16);
}

/**
 * The code identity of this process (computed once): `git:<40 hex>` in a clean checkout, `git:<40 hex>+dirty:<12 hex>`
 * with uncommitted changes to tracked files (hash of `git diff HEAD`), else `dist:<16 hex>` / `src:<16 hex>`, the hash of
 * the code folder the process runs from. Overridable by SUPERMARKET_CODE_ID (tests, packaging).
 */
export function codeIdentity(): string {
  if (cached !== undefined) return cached;
  const forced = process.env.SUPERMARKET_CODE_ID;
  if (forced) return (cached = forced);
  if (existsSync(path.join(PACKAGE_DIR, '.git'))) {
    try {
      const commit = git(['rev-parse', 'HEAD']).trim();
      const diff = git(['diff', 'HEAD', '--no-ext-diff', '--', '.']);
      cached = `git:${commit}${diff === '' ? '' : `+dirty:${createHash('sha256').update(diff).digest('hex').slice(0, 12)}`}`;
      return cached;
    } catch {
      /* no git on this machine: hash the code */
    }
  }
  cached = `${path.basename(CODE_DIR)}:${treeHash(CODE_DIR)}`;
  return cached;
}

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
