/** Versions of the runtime and the numerical/plotting dependencies, for the metadata of every report. */
import { readFileSync } from 'node:fs';
import { VERSION } from '../version.ts';

/** Reads node_modules/<name>/package.json directly (some packages' `exports` hide it from require). */
function installedVersion(name: string): string {
  try {
    const file = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
    return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

export function dependencyVersions(): Record<string, string> {
  const out: Record<string, string> = { 'supermarket-lab': VERSION, node: process.version };
  for (const name of ['odex', 'mathjs', 'vega', 'vega-lite', '@resvg/resvg-js', 'commander', 'zod', 'fft.js', 'ml-random-forest']) out[name] = installedVersion(name);
  return out;
}
