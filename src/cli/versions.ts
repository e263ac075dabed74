/** Versions of the runtime and the numerical/plotting dependencies, for the metadata of every report. */
import { readFileSync } from 'node:fs';
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
