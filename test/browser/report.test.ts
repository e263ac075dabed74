/**
 * The report page in a real browser: Debian's Chromium (or $CHROMIUM_PATH) driven by puppeteer-core opens a small
 * comparison report's index.html from disk with every non-file request aborted, waits for the vega-embed charts, and
 * checks that no console error was printed, each chart drew marks, and a tooltip appears on hover. A screenshot goes
 * to test-output/report-browser.png. When no Chromium is found, Debian's `chromium` is installed with apt-get (as
 * root, unless SUPERMARKET_TEST_NO_INSTALL=1: ../system.ts); only where that cannot be done is the test skipped,
 * saying why.
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import puppeteer, { type Browser } from 'puppeteer-core';
import { runComparison } from '../../src/compare/index.ts';
import { writeComparisonReport } from '../../src/report/index.ts';
import { reportComparison, SHORT_TRAJECTORY } from '../compare/config.ts';
import { testMeta } from '../report/meta.ts';
import { ensureDebianPackages } from '../system.ts';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];
const findChromium = () => CANDIDATES.find((p): p is string => Boolean(p) && existsSync(p!));
/** The Chromium found, or Debian's installed now (when allowed); undefined after saying why it is missing. */
function chromiumOrInstall(): string | undefined {
  const found = findChromium();
  if (found) return found;
  const why = ensureDebianPackages(['chromium'], ['chromium']);
  const installed = findChromium();
  if (!installed)
    console.warn(`browser test skipped: no Chromium found (tried ${CANDIDATES.filter(Boolean).join(', ')}; set CHROMIUM_PATH): ${why}`);
  return installed;
}
const chromium = chromiumOrInstall();

const OUT = path.resolve('test-output');
const meta = testMeta('browser test');
const tiny = reportComparison({ lambdas: [0.5, 0.8], ns: [10, 50], jobs: 3_000, replications: 2, seed: 3, trajectory: SHORT_TRAJECTORY });

describe.skipIf(!chromium)('report index.html in Chromium (offline)', () => {
  let browser: Browser;
  const dir = path.join(OUT, 'browser-report');

  beforeAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(OUT, { recursive: true });
    await writeComparisonReport(dir, runComparison(tiny), meta);
    browser = await puppeteer.launch({
      executablePath: chromium,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run'],
    });
  }, 600_000); // a comparison and six rendered figures: tens of seconds on a loaded 2-core machine
  afterAll(async () => {
    await browser?.close();
  });

  it('draws every figure with vega-embed from the report folder alone: marks in each chart, a tooltip on hover, no console error', async () => {
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 900 });
    const outside: string[] = [];
    const errors: string[] = [];
    await page.setRequestInterception(true);
    page.on('request', (req) => {
      if (req.url().startsWith('file:') || req.url().startsWith('data:')) void req.continue();
      else {
        outside.push(req.url());
        void req.abort();
      }
    });
    const warnings: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
      else if (msg.type() === 'warn') warnings.push(msg.text());
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(pathToFileURL(path.join(dir, 'index.html')).href, { waitUntil: 'load' });
    await page.waitForFunction(
      () => {
        const s = (window as unknown as { reportCharts?: { total: number; drawn: number; failed: string[] } }).reportCharts;
        return s !== undefined && s.total > 0 && s.drawn + s.failed.length === s.total;
      },
      { timeout: 300_000 },
    );
    const status = await page.evaluate(
      () => (window as unknown as { reportCharts: { total: number; drawn: number; failed: string[] } }).reportCharts,
    );
    expect(status.failed).toEqual([]);
    expect(status.total).toBe(6); // tail fractions, convergence, n·error, E[T] against λ, response-time ccdf, transient

    const charts = await page.$$eval('.figure', (els) =>
      els.map((el) => ({
        name: el.getAttribute('data-figure'),
        interactive: el.classList.contains('interactive'),
        marks: el.querySelectorAll('.vega-chart svg .role-mark path, .vega-chart svg .role-mark line').length,
        axisTitles: [...el.querySelectorAll('.vega-chart svg .role-axis-title text')].map((t) => t.textContent),
        staticShown: getComputedStyle(el.querySelector('img.static')!).display !== 'none',
      })),
    );
    expect(charts.map((c) => c.name)).toEqual(['tail-fractions', 'convergence', 'scaled-error', 'load', 'response-time', 'transient']);
    for (const c of charts) {
      expect(c.interactive, c.name!).toBe(true);
      expect(c.staticShown, c.name!).toBe(false);
      expect(c.marks, c.name!).toBeGreaterThan(5);
      expect(c.axisTitles.length, c.name!).toBeGreaterThanOrEqual(2); // x and y titled
    }
    expect(charts[0].axisTitles).toContain('s_i (servers with ≥ i jobs)');
    expect(charts[1].axisTitles.join(' ')).toContain('E[T]_n − E[T]_∞ (mean service times)');

    // hover the last simulation point of the tail figure (deepest level, clear of the lines): vega-embed's tooltip shows its fields
    const points = await page.$$('.figure[data-figure="tail-fractions"] .vega-chart svg .mark-symbol.role-mark path');
    expect(points.length).toBeGreaterThan(3);
    await points[points.length - 1].hover(); // scrolls it into view, then moves the mouse onto it
    await page.waitForSelector('#vg-tooltip-element.visible', { timeout: 120_000 });
    const tip = await page.$eval('#vg-tooltip-element', (el) => el.textContent ?? '');
    expect(tip).toContain('curve');
    expect(tip).toMatch(/simulation, n = (10|50)/);
    expect(tip).not.toMatch(/panel|series|loDrawn/);
    await page.mouse.move(0, 0);
    await page.waitForSelector('#vg-tooltip-element:not(.visible)', { timeout: 120_000 });

    // a convergence point's tooltip: the field's words, 4 significant digits, no internal names
    const conv = await page.$$('.figure[data-figure="convergence"] .vega-chart svg .mark-symbol.role-mark path');
    expect(conv.length).toBeGreaterThan(0);
    await conv[0].hover();
    await page.waitForSelector('#vg-tooltip-element.visible', { timeout: 120_000 });
    const convTip = await page.$eval('#vg-tooltip-element', (el) => el.textContent ?? '');
    expect(convTip).toContain('E[T]_n − E[T]_∞');
    expect(convTip).not.toMatch(/signedError|halfWidth|facet|loDrawn/);
    const values = await page.$$eval('#vg-tooltip-element td.value', (tds) => tds.map((td) => td.textContent ?? ''));
    expect(values.length).toBeGreaterThan(4);
    for (const v of values.filter((x) => /^-?\d+\.\d+$/.test(x)))
      expect(v.replace(/^-?0\.0*/, '').replace(/[-.]/g, '').length, `${v} in ${convTip}`).toBeLessThanOrEqual(4);
    await page.mouse.move(0, 0);
    await page.waitForSelector('#vg-tooltip-element:not(.visible)', { timeout: 120_000 });

    // the wheel zooms the panel under the mouse: its y axis labels change
    const yLabels = () => page.$eval('.figure[data-figure="tail-fractions"] .vega-chart svg .role-axis-label', (g) => g.textContent);
    const before = await yLabels();
    await points[points.length - 1].hover(); // back over the tail panel
    await page.mouse.wheel({ deltaY: -400 });
    await page.waitForFunction(
      (b) => document.querySelector('.figure[data-figure="tail-fractions"] .vega-chart svg .role-axis-label')?.textContent !== b,
      { timeout: 120_000 },
      before,
    );
    await page.mouse.move(0, 0);

    await page.screenshot({ path: path.join(OUT, 'report-browser.png'), fullPage: true });
    // each figure as the browser draws it, to look at (test-output/browser-<figure>.png)
    for (const el of await page.$$('.figure')) {
      const name = await el.evaluate((e) => e.getAttribute('data-figure'));
      await el.screenshot({ path: path.join(OUT, `browser-${name}.png`) });
    }
    expect(outside).toEqual([]);
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
  });
});
