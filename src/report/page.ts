/**
 * The report folder every report writes: figures (PNG, SVG, vega-lite spec, CSV, JSON of the plotted rows),
 * results.json, metadata.json, report.md and a self-contained index.html (opens offline). Every file atomically.
 */
import path from 'node:path';
import { marked } from 'marked';
import type { Figure } from './figures.ts';
import { writeFigureFiles } from './writeFigure.ts';
import { writeFileAtomic, writeJsonAtomic } from '../io/atomic.ts';

/** Header facts of a run, supplied by the caller (CLI). */
export interface RunMetadata {
  readonly command: string;
  readonly startedAt: string;
  readonly wallSeconds: number;
  readonly versions: Record<string, string>;
  readonly machine: { readonly cpu: string; readonly cores: number; readonly platform?: string };
}

/** Markdown number formats of the reports: fixed with k digits, or scientific; 'n/a' when not finite. */
export const fix = (x: number, k = 4) => (Number.isFinite(x) ? x.toFixed(k) : 'n/a');
export const sci = (x: number) => (Number.isFinite(x) ? x.toExponential(2) : 'n/a');

/** A Markdown table: one column per (header, cell) pair, one line per item. */
export function markdownTable<T>(items: readonly T[], columns: readonly (readonly [string, (item: T) => string])[]): string {
  return [`| ${columns.map(([h]) => h).join(' | ')} |`, `|${columns.map(() => '---').join('|')}|`,
    ...items.map((x) => `| ${columns.map(([, cell]) => cell(x)).join(' | ')} |`)].join('\n');
}

/** The closing "Reproduce" section: the command, versions and machine. */
export function reproduceSection(meta: RunMetadata): string {
  const platform = meta.machine.platform ? `, ${meta.machine.platform}` : '';
  return `## Reproduce

\`\`\`
${meta.command}
\`\`\`

Versions: ${Object.entries(meta.versions).map(([k, v]) => `${k} ${v}`).join(', ')}. Machine: ${meta.machine.cpu}, ${meta.machine.cores} cores${platform}.
`;
}

export function htmlPage(markdownBody: string, title: string): string {
  const body = marked.parse(markdownBody, { async: false }) as string;
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
</style></head><body>
${body}
</body></html>
`;
}

/**
 * Renders the figures and writes the report folder: figures/, results.json, metadata.json, report.md, index.html.
 * @param outDir target folder (created if missing); files of the same name are replaced atomically.
 * @returns the paths written, relative to outDir.
 */
export async function writeReportFolder(outDir: string, page: {
  readonly figures: readonly Figure[]; readonly results: unknown; readonly metadata: unknown; readonly markdown: string; readonly title: string;
}): Promise<string[]> {
  const written: string[] = [];
  for (const f of page.figures) written.push(...(await writeFigureFiles(outDir, f)));
  writeJsonAtomic(path.join(outDir, 'results.json'), page.results);
  writeJsonAtomic(path.join(outDir, 'metadata.json'), page.metadata);
  writeFileAtomic(path.join(outDir, 'report.md'), page.markdown);
  writeFileAtomic(path.join(outDir, 'index.html'), htmlPage(page.markdown, page.title));
  written.push('results.json', 'metadata.json', 'report.md', 'index.html');
  return written;
}
