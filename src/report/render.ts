/**
 * Renders a vega-lite spec to SVG (vega, headless) and PNG (resvg with the DejaVu fonts shipped by the
 * `dejavu-fonts-ttf` package, so text renders the same on every machine).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { TopLevelSpec } from 'vega-lite';
import { readFontWidths } from './fontMetrics.ts';

const require = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT = 'DejaVu Sans';
/** The faces of FONT that figures use: regular and bold (vega's titles); no figure sets an italic style. */
const FONT_FILES = [path.join(FONT_DIR, 'DejaVuSans.ttf'), path.join(FONT_DIR, 'DejaVuSans-Bold.ttf')];

/**
 * Headless vega has no canvas to measure text and guesses 0.8 em per character (about 30% too wide for DejaVu Sans),
 * which pads every figure on the right; measure with the font's own advance widths instead (regular and bold).
 */
let measuring = false;
function measureTextWithFont(vega: typeof import('vega')): void {
  if (measuring) return;
  measuring = true;
  const regular = readFontWidths(FONT_FILES[0]);
  const bold = readFontWidths(FONT_FILES[1]);
  const metrics = (
    vega as unknown as { textMetrics: { width: (item: { fontSize?: number; fontWeight?: string | number }, text?: unknown) => number } }
  ).textMetrics;
  metrics.width = (item, text) => {
    const size = item.fontSize != null ? Number(item.fontSize) || 0 : 11;
    const line = text == null ? '' : String(text).trim();
    const weight = item.fontWeight;
    const font = weight === 'bold' || weight === 'bolder' || Number(weight) >= 600 ? bold : regular;
    return size <= 0 || !line ? 0 : font.width(line, size);
  };
}

export interface RenderedFigure {
  readonly svg: string;
  readonly png: Uint8Array;
}

/**
 * Loads the renderer's modules (vega, vega-lite, resvg), once: they take ~1 s and only figure-writing commands need
 * them, so they load here, not at import; a worker thread may call this ahead of rendering.
 */
export function loadRenderer(): Promise<[typeof import('vega'), typeof import('vega-lite'), typeof import('@resvg/resvg-js')]> {
  return Promise.all([import('vega'), import('vega-lite'), import('@resvg/resvg-js')]);
}

/** Compiles and renders a vega-lite spec (data inline): `renderSvg`, then `rasterise`. The same spec gives the same bytes. */
export async function renderVegaLite(spec: TopLevelSpec): Promise<RenderedFigure> {
  const svg = await renderSvg(spec);
  return { svg, png: await rasterise(svg) };
}

/**
 * The SVG of a vega-lite spec (data inline), text measured with the DejaVu fonts (vega and vega-lite, headless).
 * Loads them on first use.
 */
export async function renderSvg(spec: TopLevelSpec): Promise<string> {
  const [vega, { compile }] = await Promise.all([import('vega'), import('vega-lite')]);
  measureTextWithFont(vega);
  // clip-path and gradient ids count from 1 in every figure, so its SVG does not depend on what was rendered before
  // (in this thread or a worker's)
  vega.resetSVGDefIds();
  const withFont = { ...spec, config: { font: FONT, ...(spec as { config?: object }).config } } as TopLevelSpec;
  const compiled = compile(withFont).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  return svg;
}

/**
 * A figure's SVG (`renderSvg`) as PNG bytes at 2× scale, white background, text in the DejaVu faces (resvg; loads
 * only it on first use, no vega: a thread that did not render the SVG rasterises it at little cost).
 */
export async function rasterise(svg: string): Promise<Uint8Array> {
  const { Resvg } = await import('@resvg/resvg-js');
  return new Resvg(svg, {
    // the two faces vega measured the text with (measureTextWithFont), not the 22 files of the folder: resvg reads and
    // indexes every font it is given, for each figure (~0.2 of its CPU time); the PNG is the same byte for byte
    font: { fontFiles: FONT_FILES, loadSystemFonts: false, defaultFontFamily: FONT },
    fitTo: { mode: 'zoom', value: 2 },
    background: 'white',
  })
    .render()
    .asPng();
}

/**
 * A vega SVG as a one-page vector PDF of the same size (1 SVG px = 1 pt), text in the DejaVu fonts of the PNG
 * (embedded, subset), by pdfkit and svg-to-pdfkit; the creation date is fixed so the same SVG gives the same bytes.
 * Loads both libraries on first use (only figure-writing commands need them).
 * @param svg the SVG of `renderVegaLite`. @returns the PDF bytes.
 */
export async function svgToPdf(svg: string): Promise<Uint8Array> {
  const [{ default: PDFDocument }, { default: SVGtoPDF }] = await Promise.all([import('pdfkit'), import('svg-to-pdfkit')]);
  const size = /<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"/.exec(svg);
  const [width, height] = size ? [Number(size[1]), Number(size[2])] : [600, 400];
  const doc = new PDFDocument({
    size: [width, height],
    margin: 0,
    compress: true,
    info: { CreationDate: new Date(0), Producer: 'supermarket-lab' },
  });
  doc.registerFont(FONT, FONT_FILES[0]);
  doc.registerFont(`${FONT}-Bold`, FONT_FILES[1]);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  // a dash with a zero length or gap (vega's solid [1, 0]) is refused by pdfkit: drawn solid, as the SVG means it
  const solid = svg.replace(/\sstroke-dasharray="([^"]*)"/g, (all, v: string) =>
    v.split(/[\s,]+/).some((x) => !(Number(x) > 0)) ? '' : all,
  );
  SVGtoPDF(doc, solid, 0, 0, {
    width,
    height,
    fontCallback: (_family: string, bold: boolean) => (bold ? `${FONT}-Bold` : FONT),
    warningCallback: () => undefined,
  });
  doc.end();
  await done;
  return new Uint8Array(Buffer.concat(chunks));
}
