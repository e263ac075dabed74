#!/usr/bin/env node
// Entry point of the `supermarket` CLI: runs the compiled JavaScript in dist/ (built by `npm run build`, which `npm ci` runs).
import { existsSync } from 'node:fs';

const main = new URL('../dist/cli/main.js', import.meta.url);
if (!existsSync(main)) {
  process.stderr.write('supermarket: error: dist/ is missing; run `npm run build` (or `npm ci`) in the supermarket-lab folder first\n');
  process.exit(1);
}
await import(main.href);
