/** The metadata of every report: the run (command line, start, wall time, machine) and the versions of the dependencies. */
import { readFileSync } from 'node:fs';
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
  /** The code that wrote the report (runs/codeIdentity.ts: git commit and dirty flag, else a hash of the built code). */
  code: string;
  /** Other codes whose stored cells or shards the report uses (only with --allow-mixed-code). */
  mixedCode?: string[];
  machine: { cpu: string; cores: number; platform: string };
}

/** Starts the clock of a command's run; the returned function gives the run's `RunMeta` when the report is written. */
export function startRun(): () => RunMeta {
  const started = Date.now();
  const merged = mergedRun;
  return () => ({
    command: merged?.command ?? commandLine(process.argv.slice(2)),
    ...(merged ? { mergedFrom: merged.mergedFrom } : {}),
    startedAt: new Date(started).toISOString(),
    wallSeconds: (Date.now() - started) / 1000,
    versions: dependencyVersions(),
    code: codeIdentity(),
    ...(mixedCodeSeen().length ? { mixedCode: mixedCodeSeen() } : {}),
    machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, platform: `${process.platform} ${process.arch}` },
  });
}
