/**
 * The report folder every report writes: figures (PNG, SVG, vega-lite spec, CSV, JSON of the raw rows), assets/
 * (browser builds of vega, vega-lite, vega-embed), results.json, metadata.json, report.md and an interactive index.html
 * that opens from disk offline. Every file atomically.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { marked } from '../lazy.ts';
import type { Figure } from './figures.ts';
import { writeFigureFiles } from './writeFigure.ts';
import { writeFileAtomic, writeJsonAtomic } from '../io/atomic.ts';
import { InterruptedError } from '../errors.ts';
import { jsonText } from '../io/jsonText.ts';
import { estimateIntervalText, isInfinite, isUnsettled, plusMinus, type Estimate } from '../stats/index.ts';

const require = createRequire(import.meta.url);

// one display text per status: compare/verdict.ts `statusText` (the explorer's bundle shows it too, without this file)
export { statusText } from '../compare/verdict.ts';

/** A fitted slope that is missing (fewer than 2 resolved points), in the report's tables and figure subtitles alike. */
export const NOT_RESOLVED = 'not resolved';

/**
 * What a run read back from its stored cells, each kind counted and named (compare's cells beside the transients of
 * its figure, conjecture's simulations beside its mean-field solves): "4 cells and 4 trajectories resumed".
 * @param parts per kind [count, singular, plural]; kinds counted 0 are left out.
 * @returns the phrase, or '' when nothing was resumed.
 * @example resumedText([[1, 'cell', 'cells'], [2, 'trajectory', 'trajectories']]) // '1 cell and 2 trajectories resumed'
 */
export function resumedText(parts: readonly (readonly [number, string, string])[]): string {
  const counted = countedText(parts);
  return counted === '' ? '' : `${counted} resumed`;
}

/**
 * Each kind counted and named, as `resumedText` and an interrupted run's "kept" line say it: "4 cells and 1 trajectory".
 * @param parts per kind [count, singular, plural]; kinds counted 0 are left out.
 * @returns the phrase, or '' when every count is 0.
 */
export function countedText(parts: readonly (readonly [number, string, string])[]): string {
  const named = parts.filter(([k]) => k > 0).map(([k, one, many]) => `${k} ${k === 1 ? one : many}`);
  if (named.length === 0) return '';
  return named.length === 1 ? named[0]! : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]}`;
}

/** Header facts of a run, supplied by the caller (CLI). */
export interface RunMetadata {
  readonly command: string;
  readonly startedAt: string;
  readonly wallSeconds: number;
  readonly versions: Record<string, string>;
  readonly machine: { readonly cpu: string; readonly cores: number; readonly platform?: string };
  /** Set when the report was merged from N shards of `command` (`--shard i/N`) by `merge`. */
  readonly mergedFrom?: { readonly shards: number; readonly merge: string };
  /** The code that wrote the report (a hash of the code that runs, its version and dependencies; runs/codeIdentity.ts). */
  readonly code?: string;
  /** The git commit checked out where it ran, when it ran in a git checkout (information; cli/versions.ts `gitCommit`). */
  readonly gitCommit?: string;
  /** Other codes whose stored cells or shards the report uses (--allow-mixed-code). */
  readonly mixedCode?: readonly string[];
}

/**
 * Markdown number formats of the reports: fixed with k digits, or scientific; ±∞ as ∞ and −∞ (the one text of an
 * infinite value or interval end, as the commands print it: cli/output.ts `intervalText`), 'n/a' for NaN.
 */
export const fix = (x: number, k = 4) => (Number.isFinite(x) ? x.toFixed(k) : notFinite(x));
export const sci = (x: number) => (Number.isFinite(x) ? x.toExponential(2) : notFinite(x));
const notFinite = (x: number) => (x === Infinity ? '∞' : x === -Infinity ? '−∞' : 'n/a');

/**
 * "x ± h", or "∞ (sample mean x)" for a mean infinite in theory (model/moments.ts): an ∞ has no error bar, never "∞ ± ∞";
 * "not settled (run's average x)" for a mean that may be ∞ with no rule settling it (stats `unsettledEstimate`): no
 * estimate, so no error bar either.
 */
export function estimateText(e: Estimate): string {
  if (isUnsettled(e)) return `not settled (run's average ${fix(e.sampleMean)})`;
  // a fraction no unit resolved (every value at a bound, stats `unresolvedFraction`): its interval, not "x ± h"
  if (e.unobserved) return estimateIntervalText(e.mean, e.ci95, e.halfWidth, 4, 0, 'not resolved');
  // "x ± h" by the one rule of simulated numbers (stats `plusMinus`: two significant digits of h, x rounded at the same
  // place), as run's tables and simulate's text: it printed four decimals whatever h, "9.7148 ± 1.0063"
  return isInfinite(e) ? `∞ (sample mean ${fix(e.sampleMean ?? Number.NaN)})` : plusMinus(e.mean, e.halfWidth);
}

/**
 * Whether an exact value has no error bar: an exact ∞ (E[T]_n = ∞ in theory, the M/G/1 quadrature did not run; its
 * bound is NaN). The tables print "none (∞)" there: a bound of 0 would claim an exact ∞ to the last digit.
 */
export function exactInfinite(p: { readonly meanResponseTime: number; readonly infinite?: string }): boolean {
  return p.infinite !== undefined || !Number.isFinite(p.meanResponseTime);
}

/** A Markdown table: one column per (header, cell) pair, one line per item. */
export function markdownTable<T>(items: readonly T[], columns: readonly (readonly [string, (item: T) => string])[]): string {
  return [
    `| ${columns.map(([h]) => h).join(' | ')} |`,
    `|${columns.map(() => '---').join('|')}|`,
    ...items.map((x) => `| ${columns.map(([, cell]) => cell(x)).join(' | ')} |`),
  ].join('\n');
}

/** The closing "Reproduce" section: the command, versions and machine. */
export function reproduceSection(meta: RunMetadata): string {
  const platform = meta.machine.platform ? `, ${meta.machine.platform}` : '';
  const m = meta.mergedFrom;
  const merged = m
    ? `\nMerged from ${m.shards} shards: each ran this command with \`--shard i/${m.shards}\` (i = 1 … ${m.shards}), ` +
      `then \`${m.merge}\` joined them; one run of the command without \`--shard\` gives the same report.\n`
    : '';
  return `## Reproduce

\`\`\`
${meta.command}
\`\`\`
${merged}
Versions: ${Object.entries(meta.versions)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}.${meta.code ? ` Code: ${meta.code}${meta.gitCommit ? ` (git commit ${meta.gitCommit})` : ''}.` : ''}${
    meta.mixedCode?.length
      ? ` **Mixed code** (--allow-mixed-code): some stored cells or shards were computed by ${meta.mixedCode.join(', ')}.`
      : ''
  } Machine: ${meta.machine.cpu}, ${meta.machine.cores} cores${platform}.
`;
}

/** The browser builds copied into every report's assets/ folder (vega, vega-lite, vega-embed), in load order. */
export const REPORT_ASSETS: readonly { readonly pkg: string; readonly file: string }[] = [
  { pkg: 'vega', file: 'build/vega.min.js' },
  { pkg: 'vega-lite', file: 'build/vega-lite.min.js' },
  { pkg: 'vega-embed', file: 'build/vega-embed.min.js' },
];

/** The installed folder of an npm package (its exports hide package.json, so walk up from its entry point). */
function packageDir(pkg: string): string {
  let dir = path.dirname(require.resolve(pkg));
  while (!(path.basename(dir) === pkg && existsSync(path.join(dir, 'package.json')))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`cannot find the installed folder of ${pkg}`);
    dir = up;
  }
  return dir;
}

/** assets/ of a report (and of the explorer page): the three browser builds and their licences, as [relative path, bytes]. */
export function assetFiles(): [string, Uint8Array][] {
  return REPORT_ASSETS.flatMap(({ pkg, file }) => {
    const dir = packageDir(pkg);
    return [
      [`assets/${path.basename(file)}`, readFileSync(path.join(dir, file))],
      [`assets/LICENSE-${pkg}.txt`, readFileSync(path.join(dir, 'LICENSE'))],
    ] as [string, Uint8Array][];
  });
}

/** The script that draws every figure with vega-embed and swaps out its static SVG; a failure keeps the SVG. */
const EMBED_SCRIPT = `(function () {
  var status = window.reportCharts = { total: 0, drawn: 0, failed: [] };
  var specs = JSON.parse(document.getElementById('figure-specs').textContent);
  var figures = document.querySelectorAll('.figure[data-figure]');
  if (typeof vegaEmbed !== 'function') { status.failed.push('vega-embed did not load'); return; }
  figures.forEach(function (el) {
    var name = el.getAttribute('data-figure');
    var spec = specs[name];
    if (!spec) return;
    status.total++;
    var target = el.querySelector('.vega-chart');
    vegaEmbed(target, spec, {
      renderer: 'svg', actions: { export: true, source: false, compiled: false, editor: false },
      config: { font: "'DejaVu Sans', 'Verdana', sans-serif" }, tooltip: { theme: 'light' }
    }).then(function () {
      el.classList.add('interactive');
      status.drawn++;
    }).catch(function (e) {
      status.failed.push(name + ': ' + e);
      target.remove();
      console.warn('figure ' + name + ' kept static: ' + e);
    });
  });
})();`;

/** JSON (io/jsonText.ts: ∞ in its one form) that may sit inside a <script> element (no "</script>" or "<!--" can close or comment it). */
const scriptJson = (x: unknown) =>
  jsonText(x)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The report's index.html: the Markdown body as HTML; each figure image (figures/NAME.svg) becomes an interactive
 * vega-embed chart (tooltips, export) drawn from its spec, which is inlined in the page. The scripts come from the
 * report's own assets/ folder, so the page opens from disk offline; the static SVG stays when scripts are off or a chart
 * fails, and is what prints.
 * @param figures the figures whose specs to inline (none: a static page).
 */
export function htmlPage(markdownBody: string, title: string, figures: readonly Pick<Figure, 'name' | 'spec'>[] = []): string {
  const names = new Set(figures.map((f) => f.name));
  const body = (marked().marked.parse(markdownBody, { async: false }) as string).replace(
    /<img src="figures\/([^"/]+)\.svg"([^>]*)>/g,
    (img, name: string) =>
      names.has(name)
        ? `<span class="figure" data-figure="${name}"><span class="vega-chart"></span>${img.replace('<img ', '<img class="static" ')}</span>`
        : img,
  );
  const scripts =
    figures.length === 0
      ? ''
      : `${REPORT_ASSETS.map((a) => `<script src="assets/${path.basename(a.file)}"></script>`).join('\n')}
<script id="figure-specs" type="application/json">${scriptJson(Object.fromEntries(figures.map((f) => [f.name, f.spec])))}</script>
<script>
${EMBED_SCRIPT}
</script>
`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>
body { font-family: 'DejaVu Sans', system-ui, sans-serif; max-width: 1200px; margin: 2em auto; padding: 0 1em; line-height: 1.45; color: #222; }
table { border-collapse: collapse; font-size: 0.82em; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: right; }
th { background: #f3f3f3; }
img { max-width: 100%; border: 1px solid #eee; }
code, pre { background: #f6f6f6; }
pre { padding: 0.6em; overflow-x: auto; }
.figure { display: block; overflow-x: auto; }
.figure.interactive img.static { display: none; }
#vg-tooltip-element { font-family: 'DejaVu Sans', system-ui, sans-serif; }
@media print {
  .figure .vega-chart { display: none; }
  .figure.interactive img.static { display: inline; }
}
</style></head><body>
${body}
${scripts}</body></html>
`;
}

/** What a report folder held before a run: the previous run's command and start time (from its metadata.json). */
export interface PreviousReport {
  readonly command: string;
  readonly startedAt: string;
}

/** The report already in `outDir` (its metadata.json), or null when there is none or it cannot be read. */
export function previousReport(outDir: string): PreviousReport | null {
  try {
    const meta = JSON.parse(readFileSync(path.join(outDir, 'metadata.json'), 'utf8')) as Partial<PreviousReport>;
    return { command: String(meta.command ?? 'unknown command'), startedAt: String(meta.startedAt ?? 'unknown time') };
  } catch {
    return null;
  }
}

/**
 * A report folder name for a run's settings: `label` made file-safe (letters, digits, '.', '-', '_'), then 8 hex digits
 * of the SHA-256 of `settings` (JSON), so runs with different settings never share a folder and the same settings
 * reuse theirs (and its resumable cells). E.g. ("compare-lwl-fifo-exp-d2-l0.9", {...}) → "compare-lwl-fifo-exp-d2-l0.9-3fa9c2d1".
 */
export function settingsFolderName(label: string, settings: unknown): string {
  const safe = label
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/_+/g, '_')
    .slice(0, 100);
  return `${safe}-${createHash('sha256').update(JSON.stringify(settings)).digest('hex').slice(0, 8)}`;
}

/** Folders of a report that hold only this run's files: anything else in them is left over from another run. */
const OWNED_FOLDERS = ['figures', 'assets'];

/** How a report folder is written. */
export interface WriteReportOptions {
  /**
   * Writes the figures' files (`writeFigureFiles` for each) and returns the paths written, in figure order; e.g. on
   * worker threads. Default: one after the other in this thread.
   */
  readonly writeFigures?: (outDir: string, figures: readonly Figure[]) => Promise<string[]>;
  /**
   * Paper export (`--latex`): every figure also as PDF (figures/<name>.pdf) and, where the report has them, booktabs
   * tables (tables.tex) and a standalone report.tex. Default false: PDF rendering takes about half the time of SVG
   * and PNG together, which the default report does not pay.
   */
  readonly latex?: boolean;
  /**
   * Set by a Ctrl-C (the CLI's SIGINT handler aborts it): the folder is then not completed. Its index.html, the mark
   * of a whole report, is removed before anything is written and written last only if the signal has not fired, so
   * an interrupted write leaves no index.html beside new results (it left the previous run's, or this one's over
   * files half of this run); `writeReportFolder` then throws `InterruptedError`.
   */
  readonly signal?: AbortSignal;
}

async function writeFiguresInTurn(outDir: string, figures: readonly Figure[]): Promise<string[]> {
  const written: string[] = [];
  for (const f of figures) written.push(...(await writeFigureFiles(outDir, f)));
  return written;
}

/**
 * Renders the figures and writes the report folder: figures/, assets/ (the browser builds of vega, vega-lite and
 * vega-embed, so index.html is interactive offline), results.json, metadata.json, report.md, index.html, and any
 * `extraFiles`; index.html last, after the figures. Files in figures/ and assets/ that this run did not write (another run's figures) are removed, so a
 * folder never mixes two runs; cells/ and other folders are kept (they hold resumable work).
 * @param outDir target folder (created if missing); files of the same name are replaced atomically.
 * @returns the paths written, relative to outDir.
 */
export async function writeReportFolder(
  outDir: string,
  page: {
    readonly figures: readonly Figure[];
    readonly results: unknown;
    readonly metadata: unknown;
    readonly markdown: string;
    readonly title: string;
    readonly extraFiles?: Readonly<Record<string, string | Uint8Array>>;
  },
  options: WriteReportOptions = {},
): Promise<string[]> {
  // no index.html until this report is whole: a previous run's would stand beside this run's files if it stopped
  rmSync(path.join(outDir, 'index.html'), { force: true });
  // the figures render (elsewhere, with options.writeFigures) while this thread writes the other files
  const toWrite = options.latex ? page.figures.map((f) => ({ ...f, pdf: true })) : page.figures;
  const figures = (options.writeFigures ?? writeFiguresInTurn)(outDir, toWrite);
  figures.catch(() => {}); // awaited below; a write error here must not leave it unhandled
  const written: string[] = [];
  for (const [rel, data] of assetFiles()) {
    writeFileAtomic(path.join(outDir, rel), data);
    written.push(rel);
  }
  for (const [rel, data] of Object.entries(page.extraFiles ?? {})) {
    writeFileAtomic(path.join(outDir, rel), data);
    written.push(rel);
  }
  writeJsonAtomic(path.join(outDir, 'results.json'), page.results);
  writeJsonAtomic(path.join(outDir, 'metadata.json'), page.metadata);
  writeFileAtomic(path.join(outDir, 'report.md'), page.markdown);
  const html = htmlPage(page.markdown, page.title, page.figures);
  written.unshift(...(await figures));
  // last, once its figures are on disk: a folder with an index.html holds a whole report (a run stopped while writing
  // leaves none, and the next run says so); a Ctrl-C before this line leaves none either
  if (options.signal?.aborted)
    throw new InterruptedError(`interrupted while writing the report in ${outDir}: it is incomplete (no index.html); rerun to write it`);
  writeFileAtomic(path.join(outDir, 'index.html'), html);
  written.push('results.json', 'metadata.json', 'report.md', 'index.html');
  const keep = new Set(written);
  for (const folder of OWNED_FOLDERS) {
    const dir = path.join(outDir, folder);
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      const rel = `${folder}/${name}`;
      if (!keep.has(rel)) rmSync(path.join(dir, name), { recursive: true, force: true });
    }
  }
  return written;
}
