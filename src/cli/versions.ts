/** The metadata of every report: the run (command line, start, wall time, machine) and the versions of the dependencies. */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { VERSION } from '../version.ts';

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

export function dependencyVersions(): Record<string, string> {
  const out: Record<string, string> = { 'supermarket-lab': VERSION, node: process.version };
  for (const name of ['odex', 'mathjs', 'vega', 'vega-lite', '@resvg/resvg-js', 'commander', 'zod', 'fft.js', 'ml-random-forest'])
    out[name] = installedVersion(name);
  return out;
}

/** What every report's metadata.json records of the run that wrote it. */
export interface RunMeta {
  /** The command line, e.g. `supermarket run experiments/smoke.json`. */
  command: string;
  /** Start, ISO 8601. */
  startedAt: string;
  /** Wall time from the start to the `RunMeta` call, in seconds. */
  wallSeconds: number;
  versions: Record<string, string>;
  machine: { cpu: string; cores: number; platform: string };
}

/** Starts the clock of a command's run; the returned function gives the run's `RunMeta` when the report is written. */
export function startRun(): () => RunMeta {
  const started = Date.now();
  return () => ({
    command: ['supermarket', ...process.argv.slice(2)].join(' '),
    startedAt: new Date(started).toISOString(),
    wallSeconds: (Date.now() - started) / 1000,
    versions: dependencyVersions(),
    machine: { cpu: os.cpus()[0]?.model ?? 'unknown', cores: os.cpus().length, platform: `${process.platform} ${process.arch}` },
  });
}
