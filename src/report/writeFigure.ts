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
 * @returns the SVG, and the paths of all the figure's files relative to outDir (`figurePaths`), the PNG's in its place.
 */
export async function writeFigureVectors(outDir: string, figure: FigureFiles): Promise<{ svg: string; paths: string[] }> {
  const svg = await writeFigureDrawing(outDir, figure);
  writeFigureData(outDir, figure);
  return { svg, paths: figurePaths(figure) };
}

/**
 * Renders a figure's SVG (and its PDF with `figure.pdf`) and writes figures/<name>.svg (and .pdf) under `outDir`, each
 * atomically: the part of a figure that needs vega (its rows are not read: the spec holds its data).
 * @returns the SVG.
 */
export async function writeFigureDrawing(outDir: string, figure: Pick<FigureFiles, 'name' | 'spec' | 'pdf'>): Promise<string> {
  const svg = await renderSvg(figure.spec);
  writeFileAtomic(path.join(outDir, `figures/${figure.name}.svg`), svg);
  if (figure.pdf) writeFileAtomic(path.join(outDir, `figures/${figure.name}.pdf`), await svgToPdf(svg));
  return svg;
}

/**
 * Writes a figure's spec and plotted rows under `outDir`: figures/<name>.vl.json, .json and .csv, each atomically; no
 * rendering (e.g. in the thread that made the figure while a worker draws it: for a large report's figures, ~0.5 s of
 * CPU off the workers).
 */
export function writeFigureData(outDir: string, figure: FigureFiles): void {
  const columns = [...new Set(figure.rows.flatMap((r) => Object.keys(r)))];
  const files: [string, string][] = [
    [`figures/${figure.name}.vl.json`, `${jsonText(figure.spec, 2)}\n`],
    [`figures/${figure.name}.json`, `${jsonText(figure.rows, 2)}\n`],
    // a flag as true, as in the JSON (csv-stringify's default would write 1); null as an empty cell
    [
      `figures/${figure.name}.csv`,
      stringify(figure.rows as Record<string, unknown>[], { header: true, columns, cast: { boolean: String } }),
    ],
  ];
  for (const [rel, data] of files) writeFileAtomic(path.join(outDir, rel), data);
}

/** The files of a figure, relative to the report folder, in the order `writeFigureFiles` returns them. */
export function figurePaths(figure: Pick<FigureFiles, 'name' | 'pdf'>): string[] {
  const n = `figures/${figure.name}`;
  return [`${n}.svg`, pngPath(figure.name), ...(figure.pdf ? [`${n}.pdf`] : []), `${n}.vl.json`, `${n}.json`, `${n}.csv`];
}

/** Rasterises a figure's SVG (`rasterise`) and writes figures/<name>.png under `outDir`, atomically. */
export async function writeFigurePng(outDir: string, name: string, svg: string): Promise<void> {
  writeFileAtomic(path.join(outDir, pngPath(name)), await rasterise(svg));
}

function pngPath(name: string): string {
  return `figures/${name}.png`;
}
