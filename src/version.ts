/**
 * Package version and code identity, recorded in every result's provenance. The package version is "0.1.0" in every
 * commit, so results also record which code computed them: `git:<commit>` where the package is a git checkout
 * (`+dirty:<hash of the diff>` when tracked files differ from the commit), else `dist:<hash>` (or `src:<hash>`) of the
 * built code the process runs. runs/codeIdentity.ts refuses cells and shards of another code on resume and merge.
 */
import { execFile, execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
const require = createRequire(import.meta.url);
const pkg = require('../package.json') as { version: string };
export const VERSION: string = pkg.version;

/** The code folder this process runs from (src/ or dist/: where this module lives) and the package root above it. */
const CODE_DIR = path.dirname(fileURLToPath(import.meta.url));
const PACKAGE_DIR = path.dirname(CODE_DIR);

let cached: string | undefined;

/** The git calls of the identity: the commit, and the diff of tracked files against it. */
const GIT_CALLS = { commit: ['rev-parse', 'HEAD'], diff: ['diff', 'HEAD', '--no-ext-diff', '--', '.'] } as const;

function git(args: readonly string[]): string {
  return execFileSync('git', ['-C', PACKAGE_DIR, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 20_000 });
}

/** `git:<commit>`, with `+dirty:<hash of the diff>` when the diff is not empty. */
function gitIdentity(commit: string, diff: string): string {
  return `git:${commit.trim()}${diff === '' ? '' : `+dirty:${createHash('sha256').update(diff).digest('hex').slice(0, 12)}`}`;
}

/** Whether the identity comes from git: none forced (SUPERMARKET_CODE_ID) and the package a git checkout. */
function fromGit(): boolean {
  return !process.env.SUPERMARKET_CODE_ID && existsSync(path.join(PACKAGE_DIR, '.git'));
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
  if (fromGit()) {
    try {
      cached = gitIdentity(git(GIT_CALLS.commit), git(GIT_CALLS.diff));
      return cached;
    } catch {
      /* no git on this machine: hash the code */
    }
  }
  cached = `${path.basename(CODE_DIR)}:${treeHash(CODE_DIR)}`;
  return cached;
}

/**
 * Starts computing `codeIdentity` in the background (its git calls as child processes, this thread free meanwhile),
 * for a command that will want it soon (`compare`, whose worker threads take it from this thread): a later
 * `codeIdentity()` finds it cached, or, called before the calls end, computes it itself. Does nothing when the identity
 * is known, forced or not from git; a failed call leaves it to `codeIdentity`.
 */
export function primeCodeIdentity(): void {
  if (cached !== undefined || !fromGit()) return;
  const out: { commit?: string; diff?: string } = {};
  const call = (which: keyof typeof GIT_CALLS) =>
    execFile('git', ['-C', PACKAGE_DIR, ...GIT_CALLS[which]], { encoding: 'utf8', timeout: 20_000 }, (error, stdout) => {
      if (error) return;
      out[which] = stdout;
      if (cached === undefined && out.commit !== undefined && out.diff !== undefined) cached = gitIdentity(out.commit, out.diff);
    });
  call('commit');
  call('diff');
}

/**
 * Takes `code` as this thread's code identity, unless one is known already: a worker thread of the pool takes its
 * parent's (cli/pool.ts), so it runs no git of its own and names the same code.
 */
export function adoptCodeIdentity(code: string): void {
  cached ??= code;
}

/**
 * The code that computes results in this process (`codeIdentity`), computed on first use; library results carry it in
 * `provenance.code`, as cells and shards do.
 */
export function codeId(): string {
  return codeIdentity();
}
