/** The metadata of every report: the run (command line, start, wall time, machine) and the versions of the dependencies. */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { VERSION } from '../version.ts';
import { codeIdentity, mixedCodeSeen } from '../runs/codeIdentity.ts';

/**
 * Reads <dir>/node_modules/<name>/package.json for the nearest enclosing dir that has it, as Node resolves packages (some
 * packages' `exports` hide package.json from require). Works from the sources, from dist/, and when installed as a dependency.
 */
function installedVersion(name: string): string {
  for (let dir = new URL('./', import.meta.url); ;) {
    try {
      const file = new URL(`node_modules/${name}/package.json`, dir);
      return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
    } catch {
      const parent = new URL('../', dir);
      if (parent.href === dir.href) return 'unknown';
      dir = parent;
    }
  }
}

/**
 * The versions of node and of the runtime dependencies whose code computes or draws the results (not odex: the ODE
 * solver is our port of it, src/numerics/odexCore.ts, and the package is a dev dependency that only its test loads).
 */
export function dependencyVersions(): Record<string, string> {
  const out: Record<string, string> = { 'supermarket-lab': VERSION, node: process.version };
  for (const name of ['mathjs', 'vega', 'vega-lite', '@resvg/resvg-js', 'commander', 'zod', 'fft.js', 'ml-random-forest'])
    out[name] = installedVersion(name);
  return out;
}

/**
 * The git commit checked out where this code runs (40 hex digits), for a reader who wants the sources back; undefined
 * outside a git checkout (an npm install). Read from the nearest enclosing `.git` (a folder, or a worktree's `gitdir:`
 * file), its HEAD and loose or packed refs: no git process. Information only: the code identity (runs/codeIdentity.ts,
 * a hash of the code that runs) keys cells and tells whether the tree differs from that commit.
 */
export function gitCommit(): string | undefined {
  try {
    for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
      let git = path.join(dir, '.git');
      let found = false;
      try {
        if (statSync(git).isFile()) git = path.resolve(dir, /^gitdir: (.*)$/m.exec(readFileSync(git, 'utf8'))![1].trim());
        found = true;
      } catch {
        /* no .git here */
      }
      if (found) return resolveHead(git);
      if (path.dirname(dir) === dir) return undefined;
    }
  } catch {
    return undefined;
  }
}

/** HEAD's commit in the git folder `git` (a worktree's folder keeps HEAD; refs live in its `commondir`). */
function resolveHead(git: string): string | undefined {
  const head = readFileSync(path.join(git, 'HEAD'), 'utf8').trim();
  if (/^[0-9a-f]{40}$/.test(head)) return head;
  const ref = /^ref: (.*)$/.exec(head)?.[1];
  if (!ref) return undefined;
  let common = git;
  try {
    common = path.resolve(git, readFileSync(path.join(git, 'commondir'), 'utf8').trim());
  } catch {
    /* not a worktree */
  }
  try {
    return readFileSync(path.join(common, ref), 'utf8').trim();
  } catch {
    const packed = readFileSync(path.join(common, 'packed-refs'), 'utf8');
    return new RegExp(`^([0-9a-f]{40}) ${ref.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm').exec(packed)?.[1];
  }
}

/** A report joined by `supermarket merge` from the shards of a run (`--shard i/N`). */
export interface MergedFrom {
  /** N: the run was split into shards 1/N … N/N, each `command` with `--shard i/N`. */
  shards: number;
  /** The merge command that joined them and wrote the report. */
  merge: string;
}

/** One shell word: as it is when it needs no quoting, else in single quotes. */
function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, "'\\''")}'`;
}

/** A command line of `supermarket` with `args`, quoted for a POSIX shell so that it can be pasted back. */
export function commandLine(args: readonly string[]): string {
  return ['supermarket', ...args].map(shellWord).join(' ');
}

/** Set by `asMergedRun` while merge reruns the shards' command: the run the report is then said to come from. */
let mergedRun: { command: string; mergedFrom: MergedFrom } | undefined;

/**
 * Runs `f` (merge rerunning the command of the shards over the whole grid) so that the report it writes gives, as its
 * command, the sharded run's `command` (not `supermarket merge DIR`, from which the report could not be reproduced)
 * and says it was merged from the shards (`mergedFrom`).
 */
export async function asMergedRun<T>(command: string, mergedFrom: MergedFrom, f: () => Promise<T>): Promise<T> {
  mergedRun = { command, mergedFrom };
  try {
    return await f();
  } finally {
    mergedRun = undefined;
  }
}

/** What every report's metadata.json records of the run that wrote it. */
export interface RunMeta {
  /** The command line, e.g. `supermarket run experiments/smoke.json` (of a merged report: the sharded run's, less `--shard`). */
  command: string;
  /** Present when the report was merged from shards. */
  mergedFrom?: MergedFrom;
  /** Start, ISO 8601. */
  startedAt: string;
  /** Wall time from the start to the `RunMeta` call, in seconds. */
  wallSeconds: number;
  versions: Record<string, string>;
  /** The code that wrote the report (runs/codeIdentity.ts: a hash of the code that runs, its version and dependencies). */
  code: string;
  /** The git commit checked out where the code ran (information for the reader; `code` says whether it was edited). */
  gitCommit?: string;
  /** Other codes whose stored cells or shards the report uses (only with --allow-mixed-code). */
  mixedCode?: string[];
  machine: { cpu: string; cores: number; platform: string };
}

/** Starts the clock of a command's run; the returned function gives the run's `RunMeta` when the report is written. */
export function startRun(): () => RunMeta {
  const started = Date.now();
  const merged = mergedRun;
  const commit = gitCommit();
  return () => ({
    command: merged?.command ?? commandLine(process.argv.slice(2)),
    ...(merged ? { mergedFrom: merged.mergedFrom } : {}),
    startedAt: new Date(started).toISOString(),
    wallSeconds: (Date.now() - started) / 1000,
    versions: dependencyVersions(),
    code: codeIdentity(),
    ...(commit ? { gitCommit: commit } : {}),
    ...(mixedCodeSeen().length ? { mixedCode: mixedCodeSeen() } : {}),
    machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, platform: `${process.platform} ${process.arch}` },
  });
}
