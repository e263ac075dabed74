/** Versions of the runtime and the numerical/plotting dependencies, for the metadata of every report. */
import { createRequire } from 'node:module';
import { VERSION } from '../version.ts';

const require = createRequire(import.meta.url);

export function dependencyVersions(): Record<string, string> {
  const out: Record<string, string> = { 'supermarket-lab': VERSION, node: process.version };
  for (const name of ['odex', 'mathjs', 'vega', 'vega-lite', '@resvg/resvg-js', 'commander']) {
    try {
      out[name] = (require(`${name}/package.json`) as { version: string }).version;
    } catch {
      out[name] = 'unknown';
    }
  }
  return out;
}
