/**
 * Writes the explorer's folder (Node side of `supermarket explore`): index.html with the browser bundle inlined
 * (dist/explorer/bundle.js, built by `npm run build`: scripts/build-explorer.ts) and assets/ with the vega, vega-lite
 * and vega-embed builds the reports use. The page opens from file:// with no network: its Content-Security-Policy
 * allows no connection at all, scripts only from the folder and inline, workers only from blob: URLs.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from '../io/atomic.ts';
import { assetFiles, REPORT_ASSETS } from '../report/page.ts';

/** The package root: the nearest folder above this module with a package.json (src/ from source, dist/ when built). */
function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('cannot find the supermarket-lab package folder');
    dir = up;
  }
  return dir;
}

/** Where `npm run build` puts the bundle. */
export const explorerBundlePath = (): string => path.join(packageRoot(), 'dist', 'explorer', 'bundle.js');

/**
 * The bundle's text, made safe to sit inside a <script> element: no "</script" can close it and no "<!--" can open
 * a script-data escape (both rewritten with a backslash, which JavaScript strings and regular expressions ignore).
 * @throws {Error} one line naming `npm run build` when the bundle is missing.
 */
export function explorerBundle(file = explorerBundlePath()): string {
  if (!existsSync(file)) throw new Error(`the explorer bundle ${file} is missing: run \`npm run build\` in the supermarket-lab folder`);
  return readFileSync(file, 'utf8')
    .replace(/<\/(script)/gi, '<\\/$1')
    .replace(/<!--/g, '<\\!--');
}

const CSP = [
  "default-src 'none'",
  "script-src 'self' file: 'unsafe-inline' 'unsafe-eval' blob:",
  'worker-src blob:',
  "style-src 'unsafe-inline'",
  'img-src data: blob:',
  "connect-src 'none'",
].join('; ');

/** The page: a header, the app's mount point, the vega scripts from assets/, then the bundle inline. */
export function explorerHtml(bundle: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Supermarket model explorer</title>
<style>
body { font-family: 'DejaVu Sans', system-ui, sans-serif; margin: 0; color: #222; background: #fafafa; }
header { padding: 0.6em 1.2em; background: #1f3b63; color: #fff; display: flex; align-items: baseline; gap: 1em; flex-wrap: wrap; }
header h1 { font-size: 1.15em; margin: 0; font-weight: 600; }
header p { margin: 0; font-size: 0.85em; opacity: 0.9; }
.layout { display: grid; grid-template-columns: 22em 1fr; gap: 1em; padding: 1em; align-items: start; }
aside fieldset { border: 1px solid #ccd; background: #fff; margin: 0 0 0.8em; padding: 0.5em 0.8em 0.7em; border-radius: 4px; }
aside legend { font-weight: 600; font-size: 0.9em; }
.row { display: grid; grid-template-columns: 6.5em 1fr; column-gap: 0.5em; align-items: center; margin: 0.35em 0; font-size: 0.88em; }
.row .name { font-family: 'DejaVu Sans Mono', monospace; }
.row .hint { grid-column: 2; font-size: 0.78em; color: #666; }
.row input[type=range] { grid-column: 2; }
.row input, .row select { font: inherit; padding: 0.15em 0.3em; min-width: 0; }
.buttons { display: flex; gap: 0.5em; margin: 0.5em 0; flex-wrap: wrap; }
button { font: inherit; font-size: 0.85em; padding: 0.25em 0.7em; cursor: pointer; }
progress { width: 100%; }
.status { font-size: 0.8em; color: #444; }
.hint { font-size: 0.78em; color: #666; }
.error { color: #a40000; }
main section { background: #fff; border: 1px solid #ccd; border-radius: 4px; padding: 0.6em 1em; margin-bottom: 1em; }
main section:empty { display: none; }
#summary.stale { opacity: 0.55; }
#summary h2, #notes h2 { font-size: 1em; margin: 0.2em 0 0.5em; }
table { border-collapse: collapse; font-size: 0.88em; }
th, td { border-bottom: 1px solid #e3e3e3; padding: 0.25em 0.7em 0.25em 0; text-align: left; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
td.sym { font-family: 'DejaVu Serif', serif; font-style: italic; white-space: nowrap; }
.provenance { font-size: 0.8em; color: #444; margin: 0.5em 0 0; }
.kind { display: inline-block; padding: 0 0.5em; border-radius: 3px; color: #fff; font-weight: 600; }
.kind-exact { background: #2a7d2a; } .kind-approximation { background: #b36b00; } .kind-estimate { background: #6b4fa0; }
#notes ul, .warnings { font-size: 0.82em; color: #555; margin: 0; }
#figures { display: flex; flex-wrap: wrap; gap: 1em; }
.figure { border: 1px solid #eee; padding: 0.4em; flex: 0 0 auto; }
#vg-tooltip-element { font-family: 'DejaVu Sans', system-ui, sans-serif; }
@media (max-width: 900px) { .layout { grid-template-columns: 1fr; } }
</style></head><body>
<header><h1>Supermarket model explorer</h1><p>n servers, arrivals λn, each job samples d servers; mean field n → ∞, refined 1/n, simulation at n. Time in mean service times.</p><p id="version"></p></header>
<div id="app"></div>
${REPORT_ASSETS.map((a) => `<script src="assets/${path.basename(a.file)}"></script>`).join('\n')}
<script id="explorer-bundle">${bundle}</script>
</body></html>
`;
}

/**
 * Writes `outDir`/index.html and `outDir`/assets/ (created if missing; files of the same name replaced atomically).
 * @returns the paths written, relative to outDir.
 */
export function writeExplorerPage(outDir: string, bundle = explorerBundle()): string[] {
  mkdirSync(path.join(outDir, 'assets'), { recursive: true });
  const written: string[] = [];
  for (const [rel, data] of assetFiles()) {
    writeFileAtomic(path.join(outDir, rel), data);
    written.push(rel);
  }
  writeFileAtomic(path.join(outDir, 'index.html'), explorerHtml(bundle));
  written.push('index.html');
  return written;
}
