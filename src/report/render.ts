/**
 * Renders a vega-lite spec to SVG (vega, headless) and PNG (resvg with the DejaVu fonts shipped by the
 * `dejavu-fonts-ttf` package, so text renders the same on every machine).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { TopLevelSpec } from 'vega-lite';

const require = createRequire(import.meta.url);
const FONT_DIR = path.join(path.dirname(require.resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT = 'DejaVu Sans';

export interface RenderedFigure {
  readonly svg: string;
  readonly png: Uint8Array;
}

/** Compiles and renders a vega-lite spec (data inline). PNG at 2× scale. */
export async function renderVegaLite(spec: TopLevelSpec): Promise<RenderedFigure> {
  // loaded here, not at import: vega, vega-lite and resvg take ~1 s to load and only figure-writing commands need them
  const [vega, { compile }, { Resvg }] = await Promise.all([import('vega'), import('vega-lite'), import('@resvg/resvg-js')]);
  const withFont = { ...spec, config: { font: FONT, ...(spec as { config?: object }).config } } as TopLevelSpec;
  const compiled = compile(withFont).spec;
  const view = new vega.View(vega.parse(compiled), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  const png = new Resvg(svg, {
    font: { fontDirs: [FONT_DIR], loadSystemFonts: false, defaultFontFamily: FONT },
    fitTo: { mode: 'zoom', value: 2 },
    background: 'white',
  }).render().asPng();
  return { svg, png };
}
