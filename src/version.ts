/**
 * Package version and code identity, recorded in every result's provenance. The package version is "0.1.0" in every
 * commit, so results also record which code computed them: `git:<commit>` where the package is a git checkout
 * (`+dirty:<hash of the diff>` when tracked files differ from the commit), else `dist:<hash>` (or `src:<hash>`) of the
 * built code the process runs. runs/codeIdentity.ts refuses cells and shards of another code on resume and merge.
 */
import { execFileSync } from 'node:child_process';
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

/**
 * The code that computes results in this process (`codeIdentity`), computed on first use; library results carry it in
 * `provenance.code`, as cells and shards do.
 */
export function codeId(): string {
  return codeIdentity();
}
