/**
 * Writes one figure next to its data: PNG and SVG (rendered), the vega-lite spec, and the plotted rows as JSON and CSV.
 */
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { TopLevelSpec } from 'vega-lite';
import { rasterise, renderSvg, svgToPdf } from './render.ts';
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
  const { svg, paths } = await writeFigureVectors(outDir, figure);
  await writeFigurePng(outDir, figure.name, svg);
  return paths;
}

/**
 * `writeFigureFiles` but the PNG: renders the SVG (and the PDF) and writes every file of the figure except
 * figures/<name>.png, which `writeFigurePng(outDir, figure.name, svg)` writes (in another thread, say: rasterising is
 * about half of a figure's CPU and needs no vega).
 * @returns the SVG, and the paths of all the figure's files relative to outDir, the PNG's in its place.
 */
export async function writeFigureVectors(outDir: string, figure: FigureFiles): Promise<{ svg: string; paths: string[] }> {
  const svg = await renderSvg(figure.spec);
  const pdf = figure.pdf ? await svgToPdf(svg) : null;
  const columns = [...new Set(figure.rows.flatMap((r) => Object.keys(r)))];
  const files: [string, string | Uint8Array][] = [
    [`figures/${figure.name}.svg`, svg],
    ...(pdf ? ([[`figures/${figure.name}.pdf`, pdf]] as [string, Uint8Array][]) : []),
    [`figures/${figure.name}.vl.json`, `${jsonText(figure.spec, 2)}\n`],
    [`figures/${figure.name}.json`, `${jsonText(figure.rows, 2)}\n`],
    // a flag as true, as in the JSON (csv-stringify's default would write 1); null as an empty cell
    [
      `figures/${figure.name}.csv`,
      stringify(figure.rows as Record<string, unknown>[], { header: true, columns, cast: { boolean: String } }),
    ],
  ];
  for (const [rel, data] of files) writeFileAtomic(path.join(outDir, rel), data);
  const paths = files.map(([rel]) => rel);
  paths.splice(1, 0, pngPath(figure.name));
  return { svg, paths };
}

/** Rasterises a figure's SVG (`rasterise`) and writes figures/<name>.png under `outDir`, atomically. */
export async function writeFigurePng(outDir: string, name: string, svg: string): Promise<void> {
  writeFileAtomic(path.join(outDir, pngPath(name)), await rasterise(svg));
}

function pngPath(name: string): string {
  return `figures/${name}.png`;
}
