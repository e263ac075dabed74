/**
 * Package version and code identity, recorded in every result's provenance. The package version is "0.1.0" in every
 * commit, so results also record which code computed them: `dist:<hash>` (or `src:<hash>` from the sources) of what
 * decides the numbers: the code folder the process runs from, the package's version and its runtime dependencies as
 * locked or installed (`codeIdentityOf`). A commit that changes no code (docs, tests, README) keeps it; any change to
 * the code that runs, committed or not, changes it. runs/codeIdentity.ts refuses cells and shards of another code on
 * resume and merge. Until 2026-12-03 it was the git commit (`git:<commit>[+dirty:<hash>]`), so a docs-only commit
 * forced `--fresh`.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync, type Stats } from 'node:fs';
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

/** The stamp `npm run build` writes into dist/ (`writeCodeIdentityStamp`): its code identity and what it was read from. */
export const IDENTITY_STAMP = 'code-identity.json';

/**
 * Files of the code folder that cannot change a number: type declarations, source maps, tsc's build state, and the
 * identity's own stamp.
 */
const NOT_CODE = /(\.d\.ts|\.d\.ts\.map|\.js\.map|\.tsbuildinfo|^code-identity\.json)$/;

/** Calls `each` with every code file under `dir` (its path and stat), in sorted order of names. */
function codeFiles(dir: string, each: (file: string, stat: Stats) => void): void {
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = path.join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else if (s.isFile() && !NOT_CODE.test(name)) each(p, s);
    }
  };
  walk(dir);
}

/** Feeds every code file under `dir` (relative path and bytes, in sorted order) to `h`. */
function hashTree(h: ReturnType<typeof createHash>, dir: string): void {
  codeFiles(dir, (p) => h.update(path.relative(dir, p)).update('\0').update(readFileSync(p)).update('\0'));
}

/** The installed version of `name` seen from `from` (node_modules of it or of a folder above), or 'absent'. */
function installedVersion(name: string, from: string): string {
  for (let dir = from; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'node_modules', name, 'package.json');
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? 'unknown';
    if (path.dirname(dir) === dir) return 'absent';
  }
}

/**
 * The runtime dependencies of the package at `packageDir`, one line each: from its package-lock.json the packages that
 * are not dev-only (path, version, integrity: the whole installed tree, transitive ones too), else (an npm install of
 * the package, which ships no lockfile) each dependency and optional dependency of package.json with its installed
 * version. Dev dependencies (tests, lint, build tools) decide no number and are left out.
 */
function dependencyLines(packageDir: string, manifest: Record<string, unknown>): string[] {
  const lockFile = path.join(packageDir, 'package-lock.json');
  if (existsSync(lockFile)) {
    const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as {
      packages?: Record<string, { version?: string; integrity?: string; dev?: boolean }>;
    };
    return Object.entries(lock.packages ?? {})
      .filter(([where, p]) => where !== '' && p.dev !== true)
      .map(([where, p]) => `${where}@${p.version ?? ''} ${p.integrity ?? ''}`)
      .sort();
  }
  const names = Object.keys({
    ...((manifest.dependencies as Record<string, string> | undefined) ?? {}),
    ...((manifest.optionalDependencies as Record<string, string> | undefined) ?? {}),
  }).sort();
  return names.map((name) => `${name}@${installedVersion(name, packageDir)}`);
}

/**
 * The code identity of the code folder `codeDir` of the package at `packageDir`: `<folder name>:<16 hex>`, the SHA-256
 * of every code file under `codeDir` (relative path and bytes; not .d.ts, .map, .tsbuildinfo), the package's name and
 * version (package.json) and its runtime dependencies (`dependencyLines`: the lockfile's non-dev packages, else the
 * installed versions). Git is not asked: what decides the numbers is the code that runs, whatever commit it came from.
 * @example codeIdentityOf('/x/supermarket-lab/dist', '/x/supermarket-lab') // 'dist:3f9c0e1a2b4d5c6e'
 */
export function codeIdentityOf(codeDir: string, packageDir: string): string {
  const h = createHash('sha256');
  const manifestFile = path.join(packageDir, 'package.json');
  const manifest = existsSync(manifestFile) ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, unknown>) : {};
  h.update(`package ${String(manifest.name)}@${String(manifest.version)}\n`);
  for (const line of dependencyLines(packageDir, manifest)) h.update(`${line}\n`);
  h.update('code\n');
  hashTree(h, codeDir);
  return `${path.basename(codeDir)}:${h.digest('hex').slice(0, 16)}`;
}

/**
 * What a stamp is checked by: the size and modification time of every code file under `codeDir` (relative path, in
 * the order `codeIdentityOf` hashes them) and of the package's package.json and package-lock.json; null without a
 * lockfile (an npm install of the package: its dependencies' installed versions decide, `dependencyLines`, and are
 * read each time). A file added, removed or written since changes it; reading it costs a stat per file, no hashing.
 */
function stampFingerprint(codeDir: string, packageDir: string): string | null {
  const stats = (file: string, s: Stats) => `${file}\t${s.size}\t${s.mtimeMs}`;
  const lockFile = path.join(packageDir, 'package-lock.json');
  const manifestFile = path.join(packageDir, 'package.json');
  if (!existsSync(lockFile) || !existsSync(manifestFile)) return null;
  const lines = [stats('package.json', statSync(manifestFile)), stats('package-lock.json', statSync(lockFile))];
  codeFiles(codeDir, (p, s) => lines.push(stats(path.relative(codeDir, p), s)));
  return lines.join('\n');
}

/**
 * Writes `codeIdentityOf(codeDir, packageDir)` into `codeDir`/code-identity.json with the fingerprint it is checked by
 * (`stampFingerprint`), for `stampedCodeIdentity` to read instead of hashing the code (≈ 0.1 s at each start of a
 * command that stores cells). `npm run build` calls it last (scripts/build-identity.ts). Nothing without a lockfile.
 * @returns the identity written, or null.
 */
export function writeCodeIdentityStamp(codeDir: string, packageDir: string): string | null {
  const fingerprint = stampFingerprint(codeDir, packageDir);
  if (fingerprint === null) return null;
  const code = codeIdentityOf(codeDir, packageDir);
  writeFileSync(path.join(codeDir, IDENTITY_STAMP), `${JSON.stringify({ code, fingerprint })}\n`);
  return code;
}

/**
 * The code identity stamped into `codeDir` at build time (`writeCodeIdentityStamp`) when every file it was computed
 * from is as it was then (same sizes and modification times, no file added or removed); else (no stamp, an edit since
 * the build, no lockfile) undefined, and the caller hashes the code (`codeIdentityOf`). The rule is `codeIdentityOf`'s:
 * the stamp only saves recomputing it when nothing it reads has changed.
 */
export function stampedCodeIdentity(codeDir: string, packageDir: string): string | undefined {
  try {
    const stamp = JSON.parse(readFileSync(path.join(codeDir, IDENTITY_STAMP), 'utf8')) as { code?: unknown; fingerprint?: unknown };
    if (typeof stamp.code !== 'string' || typeof stamp.fingerprint !== 'string') return undefined;
    return stampFingerprint(codeDir, packageDir) === stamp.fingerprint ? stamp.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The code identity of this process (computed once): `codeIdentityOf` its code folder (dist/ when the compiled CLI
 * runs, src/ through tsx) and the package above it, read from the build's stamp when nothing changed since
 * (`stampedCodeIdentity`). Overridable by SUPERMARKET_CODE_ID (tests, packaging).
 */
export function codeIdentity(): string {
  if (cached !== undefined) return cached;
  const forced = process.env.SUPERMARKET_CODE_ID;
  cached = forced ? forced : (stampedCodeIdentity(CODE_DIR, PACKAGE_DIR) ?? codeIdentityOf(CODE_DIR, PACKAGE_DIR));
  return cached;
}

/**
 * Computes `codeIdentity` soon (on the next turn of the event loop, after the caller's synchronous start-up), for a
 * command that will want it (`compare`, whose worker threads take it from this thread): a later `codeIdentity()` finds
 * it cached. Does nothing when it is known.
 */
export function primeCodeIdentity(): void {
  if (cached !== undefined) return;
  setImmediate(() => void codeIdentity());
}

/**
 * Takes `code` as this thread's code identity, unless one is known already: a worker thread of the pool takes its
 * parent's (cli/pool.ts), so it hashes no code of its own and names the same code.
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
