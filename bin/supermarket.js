#!/usr/bin/env node
// Entry point of the `supermarket` CLI: runs the compiled JavaScript in dist/ (built by `npm run build`, which `npm ci` runs):
// its bundle dist/bundle/cli.js (the same modules in a few chunks, faster to start: scripts/build-cli.ts), else dist/cli/main.js.
import { existsSync } from 'node:fs';

const bundle = new URL('../dist/bundle/cli.js', import.meta.url);
const main = existsSync(bundle) ? bundle : new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('supermarket: error: dist/ is missing; run `npm run build` (or `npm ci`) in the supermarket-lab folder first\n');
  process.exit(1);
}
try {
  await import(main.href);
} catch (error) {
  // an install with --omit=optional has the library (model, mean field, simulation) but not the command line's packages
  const missing = /Cannot find (?:package|module) '([^']+)'/.exec(error?.message ?? '')?.[1];
  if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !missing) throw error;
  process.stderr.write(
    `supermarket: error: ${missing} is not installed: the command line needs the optional dependencies (reinstall without --omit=optional)\n`,
  );
  process.exit(1);
}
