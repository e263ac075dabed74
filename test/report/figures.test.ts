import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import type { CellOutcome } from '../../src/experiments/index.ts';
import {
  ciLayers,
  facetOrder,
  htmlPage,
  logAxis,
  measureFigure,
  renderVegaLite,
  settingsFolderName,
  ticksAt,
  wrapText,
  writeReportFolder,
} from '../../src/report/index.ts';
import { readFontWidths } from '../../src/report/fontMetrics.ts';

const FONTS = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const resvg = (svg: string) => new Resvg(svg, { font: { fontDirs: [FONTS], loadSystemFonts: false, defaultFontFamily: 'DejaVu Sans' } });

/** Width of the drawn content of an SVG (resvg's bounding box, white background removed) over the SVG's own width. */
function inkFraction(svg: string): number {
  const r = resvg(svg.replace(/<rect width="[\d.]+" height="[\d.]+" fill="white"\/>/, ''));
  return (r.getBBox()!.x + r.getBBox()!.width) / r.width;
}

describe('figure builders', () => {
  it('facetOrder sorts panels by their numbers, not their text: n = 20 before n = 100, d = 2 before d = 10', () => {
    const rows = [
      { panel: 'exp, d = 2, n = 100', service: 'exp', d: 2, n: 100 },
      { panel: 'exp, d = 10, n = 20', service: 'exp', d: 10, n: 20 },
      { panel: 'exp, d = 2, n = 20', service: 'exp', d: 2, n: 20 },
      { panel: 'exp, d = 2, n = 100', service: 'exp', d: 2, n: 100 },
    ];
    expect(facetOrder(rows, 'panel', ['service', 'd', 'n'])).toEqual(['exp, d = 2, n = 20', 'exp, d = 2, n = 100', 'exp, d = 10, n = 20']);
  });

  it('ciLayers gives the error-bar layer and the estimate layer the same y title (no null title to erase it)', () => {
    const layers = ciLayers({ x: { field: 'n' }, mark: { type: 'point' }, yTitle: 'E[T]' }) as { encoding: { y: { title: unknown } } }[];
    expect(layers.map((l) => l.encoding.y.title)).toEqual(['E[T]', 'E[T]']);
  });

  it('wrapText(text, 20) breaks at spaces into lines of at most 20 characters that rejoin to the text', () => {
    const text = 'Convergence of E[T]: simulation − mean field (points ± 95% CI) vs refined prediction';
    const lines = wrapText(text, 20);
    expect(lines.length).toBeGreaterThan(3);
    for (const l of lines) expect(l.length).toBeLessThanOrEqual(20);
    expect(lines.join(' ')).toBe(text);
  });

  it('logAxis(1e-6) ticks the powers of ten 1 … 1e-7 and labels the small ones 1e-4, not 0.0001', () => {
    expect(logAxis(1e-6).values).toEqual([1, 0.1, 0.01, 0.001, 1e-4, 1e-5, 1e-6, 1e-7]);
  });

  it('an n axis ticked with ticksAt(ns) shows every n of the sweep, 3 000 and 10 000 included, none hidden', async () => {
    const ns = [10, 20, 50, 100, 200, 500, 1000, 3000, 10000];
    const { svg } = await renderVegaLite({
      data: { values: ns.map((n) => ({ n, y: 1 / n })) },
      width: 300,
      height: 200,
      mark: 'point',
      encoding: {
        x: { field: 'n', type: 'quantitative', scale: { type: 'log' }, axis: { values: ticksAt(ns), labelFlush: true } },
        y: { field: 'y', type: 'quantitative', scale: { type: 'log' } },
      },
    } as never);
    const labels = (svg.match(/<g class="mark-text role-axis-label"[^]*?<\/g>/g) ?? [])[0] ?? '';
    expect([...labels.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1])).toEqual([
      '10',
      '20',
      '50',
      '100',
      '200',
      '500',
      '1,000',
      '3,000',
      '10,000',
    ]);
    expect(labels).not.toContain('opacity="0"');
  });

  it('readFontWidths agrees with resvg: the ink of "H"×11 is 10 advances of "H" wider than the ink of "H"', () => {
    const svg = (s: string) =>
      `<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="100"><text x="10" y="60" font-family="DejaVu Sans" font-size="40">${s}</text></svg>`;
    const ink = (s: string) => resvg(svg(s)).getBBox()!.width;
    const advance = readFontWidths(path.join(FONTS, 'DejaVuSans.ttf')).width('H', 40);
    expect(ink('H'.repeat(11)) - ink('H')).toBeCloseTo(10 * advance, 0);
    const bold = readFontWidths(path.join(FONTS, 'DejaVuSans-Bold.ttf'));
    expect(bold.width('WWW', 13)).toBeGreaterThan(readFontWidths(path.join(FONTS, 'DejaVuSans.ttf')).width('WWW', 13));
  });

  it('a rendered figure with a long title and a legend has no empty right margin (ink reaches 95% of the width)', async () => {
    const rows = [1, 2, 3].flatMap((x) => ['a long series name', 'another'].map((s) => ({ x, y: x * x, s })));
    const { svg } = await renderVegaLite({
      data: { values: rows },
      width: 200,
      height: 150,
      mark: 'line',
      encoding: {
        x: { field: 'x', type: 'quantitative' },
        y: { field: 'y', type: 'quantitative' },
        color: { field: 's', type: 'nominal' },
      },
      title: 'A title that is about as wide as the chart and its legend',
    });
    expect(inkFraction(svg)).toBeGreaterThan(0.95);
  });

  it('measureFigure facets rows by service, d and n in numeric order (n = 20 before n = 100), keeps raw CI bounds, and renders', async () => {
    const outcome = (n: number, lo: number): CellOutcome =>
      ({
        cell: { service: 'exp', d: 2, n, prediction: 'none', policy: 'JSQ', lambda: 0.9, seed: 1 },
        result: { meanResponseTime: { mean: 2, halfWidth: 0.5, ci95: [lo, 4], standardError: 1, count: 3 } },
      }) as unknown as CellOutcome;
    const fig = measureFigure([outcome(100, -1), outcome(20, 1.5)], 'meanResponseTime')!;
    const facet = (fig.spec as unknown as { facet: { row: { sort: string[] } } }).facet;
    expect(facet.row.sort).toEqual(['exp, d = 2, n = 20', 'exp, d = 2, n = 100']);
    expect(fig.rows.map((r) => r.lo)).toEqual([-1, 1.5]); // the CSV holds the interval as estimated; the drawing clamps
    const { svg } = await renderVegaLite(fig.spec);
    expect(svg).toContain('mean response time E[T]');
    // the y axis says its unit, as the comparison figures do
    expect((fig.spec as unknown as { spec: { layer: { encoding: { y: { title: unknown } } }[] } }).spec.layer[1].encoding.y.title).toEqual([
      'mean response time E[T]',
      '(mean service times, log)',
    ]);
    expect(svg).toContain('(mean service times, log)');
    const slowdown = measureFigure(
      [{ ...outcome(20, 1.5), result: { meanSlowdown: outcome(20, 1.5).result.meanResponseTime } } as CellOutcome],
      'meanSlowdown',
    )!;
    expect(JSON.stringify(slowdown.spec)).toContain('(ratio T/S, no unit, log)');
  });
});

describe('report folder', () => {
  it('settingsFolderName is file-safe and differs exactly when the settings differ', () => {
    const a = settingsFolderName('compare-lwl-fifo-weibull:0.5-d2-l0.9', { n: [10, 100] });
    expect(a).toMatch(/^compare-lwl-fifo-weibull_0\.5-d2-l0\.9-[0-9a-f]{8}$/);
    expect(settingsFolderName('compare-lwl-fifo-weibull:0.5-d2-l0.9', { n: [10, 100] })).toBe(a);
    expect(settingsFolderName('compare-lwl-fifo-weibull:0.5-d2-l0.9', { n: [10, 200] })).not.toBe(a);
  });

  it('writeReportFolder removes figures of an earlier run, keeps cells/, and copies the browser builds to assets/', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-folder-'));
    mkdirSync(path.join(dir, 'figures'));
    mkdirSync(path.join(dir, 'cells'));
    writeFileSync(path.join(dir, 'figures', 'tail-fractions.svg'), '<svg/>');
    writeFileSync(path.join(dir, 'cells', 'c.json'), '{}');
    const figure = {
      name: 'f',
      title: 'F',
      caption: 'c',
      rows: [{ x: 1, y: 2 }],
      spec: {
        data: { values: [{ x: 1, y: 2 }] },
        mark: 'point',
        encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative' } },
      },
    } as const;
    const files = await writeReportFolder(dir, {
      figures: [figure as never],
      results: {},
      metadata: {},
      markdown: '![F](figures/f.svg)',
      title: 't',
    });
    expect(existsSync(path.join(dir, 'figures', 'tail-fractions.svg'))).toBe(false);
    expect(existsSync(path.join(dir, 'cells', 'c.json'))).toBe(true);
    for (const a of ['vega.min.js', 'vega-lite.min.js', 'vega-embed.min.js']) expect(files).toContain(`assets/${a}`);
  });

  it('htmlPage inlines each figure spec (script-safe), loads only local scripts, and keeps the static SVG', () => {
    const html = htmlPage('![F](figures/f.svg)', 't', [
      { name: 'f', spec: { data: { values: [{ s: '</script><b>' }] }, mark: 'point' } as never },
    ]);
    expect(html).toContain('<span class="figure" data-figure="f"><span class="vega-chart"></span><img class="static" src="figures/f.svg"');
    expect(html).not.toContain('</script><b>');
    expect(html.match(/<script src="[^"]+"/g)).toEqual([
      '<script src="assets/vega.min.js"',
      '<script src="assets/vega-lite.min.js"',
      '<script src="assets/vega-embed.min.js"',
    ]);
    expect(html).not.toMatch(/(src|href)="https?:/);
  });
});
