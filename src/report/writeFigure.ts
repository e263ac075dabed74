/**
 * Writes one figure next to its data: PNG and SVG (rendered), the vega-lite spec, and the plotted rows as JSON and CSV.
 */
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { TopLevelSpec } from 'vega-lite';
import { renderVegaLite, svgToPdf } from './render.ts';
import { writeFileAtomic } from '../io/atomic.ts';
import { jsonText } from '../io/json.ts';

export interface FigureFiles {
  readonly name: string;
  readonly spec: TopLevelSpec;
  readonly rows: readonly Record<string, unknown>[];
  /** Also write the PDF. */
  readonly pdf?: boolean;
}

/**
 * Renders `figure` and writes figures/<name>.{png,svg,vl.json,json,csv} under `outDir`, each atomically, and
 * figures/<name>.pdf (the SVG in vector form, `svgToPdf`) when `figure.pdf`.
 * @returns the paths written, relative to outDir.
 */
export async function writeFigureFiles(outDir: string, figure: FigureFiles): Promise<string[]> {
  const { svg, png } = await renderVegaLite(figure.spec);
  const pdf = figure.pdf ? await svgToPdf(svg) : null;
  const columns = [...new Set(figure.rows.flatMap((r) => Object.keys(r)))];
  const files: [string, string | Uint8Array][] = [
    [`figures/${figure.name}.svg`, svg],
    [`figures/${figure.name}.png`, png],
    ...(pdf ? ([[`figures/${figure.name}.pdf`, pdf]] as [string, Uint8Array][]) : []),
    [`figures/${figure.name}.vl.json`, `${JSON.stringify(figure.spec, null, 2)}\n`],
    [`figures/${figure.name}.json`, `${jsonText(figure.rows, 2)}\n`],
    [`figures/${figure.name}.csv`, stringify(figure.rows as Record<string, unknown>[], { header: true, columns })],
  ];
  for (const [rel, data] of files) writeFileAtomic(path.join(outDir, rel), data);
  return files.map(([rel]) => rel);
}
