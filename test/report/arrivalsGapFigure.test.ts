/**
 * The gap figure of renewal arrivals (issue 19 item 2; theory.md §14): rows and data beside the plot, the fitted
 * slope per law, a common limit, no drawn 1/n coefficient, and a spec that renders (no clip).
 */
import { describe, expect, it } from 'vitest';
import { arrivalsGapFigure, type ArrivalsGapCell } from '../../src/report/arrivalsGapFigure.ts';
import { renderVegaLite } from '../../src/report/render.ts';
import { estimate } from '../stats/estimate.ts';

const limit = 2.6141;
// gap c/n exactly (c = 2 det, 8 hyperexp:4), half-widths small enough that every point is resolved but the last det one
const cells: ArrivalsGapCell[] = [10, 100, 1000].flatMap((n) => [
  { arrivals: 'hyperexp:4', scv: 4, n, meanResponseTime: estimate(limit + 8 / n, 0.001) },
  { arrivals: 'det', scv: 0, n, meanResponseTime: estimate(limit + 2 / n, n === 1000 ? 0.001 : 0.0001) },
]);

describe('arrivalsGapFigure', () => {
  const figure = arrivalsGapFigure({
    lambda: 0.9,
    d: 2,
    model: 'JSQ(2) FIFO',
    limit,
    solver: 'SQ(d) closed form',
    timeUnit: 'mean service times',
    cells,
  });

  it('one row per cell with gap, CI, n·gap and resolution; the laws ordered by SCV in the legend', () => {
    expect(figure.name).toBe('arrivals-gap');
    expect(figure.rows).toHaveLength(6);
    const det1000 = figure.rows.find((r) => r.arrivals === 'det' && r.n === 1000)!;
    expect(det1000.gap).toBeCloseTo(0.002, 12);
    expect(det1000.nGap).toBeCloseTo(2, 9);
    expect([det1000.lo, det1000.hi].map((v) => Number(v))).toEqual([expect.closeTo(0.001, 12), expect.closeTo(0.003, 12)]);
    expect(det1000.resolved).toBe('no'); // 0.002 ≤ 3 × 0.001
    expect(figure.rows.filter((r) => r.resolved === 'yes')).toHaveLength(5);
    const spec = JSON.stringify(figure.spec);
    expect(spec).toContain('"sort":["det (c² = 0)","hyperexp:4 (c² = 4)"]');
    expect(spec).not.toContain('"clip"');
  });

  it('the subtitle gives each law its log–log slope over the resolved points (−1 for c/n) and the common limit', () => {
    const subtitle = (figure.spec as unknown as { title: { subtitle: string[] } }).title.subtitle.join(' ');
    expect(subtitle).toContain('limit E[T]∞ = 2.6141 mean service times for every law (SQ(d) closed form)');
    expect(subtitle).toMatch(/det: -1\.00 \(n = 10, 100\)/);
    expect(subtitle).toMatch(/hyperexp:4: -1\.00 \(n = 10, 100, 1000\)/);
    expect(figure.caption).toMatch(/no 1\/n coefficient is drawn, as none is known for non-Poisson arrivals/);
  });

  it("names the model's time unit on the y axis and in every row (it said mean service times whatever E[S] was)", () => {
    const mean2 = arrivalsGapFigure({
      lambda: 0.45,
      d: 2,
      model: 'JSQ(2) FIFO',
      limit,
      solver: 'x',
      timeUnit: 'time units (E[S] = 2)',
      cells,
    });
    expect(JSON.stringify(mean2.spec)).toContain('"gap E[T]_n − E[T]∞ (time units (E[S] = 2))"');
    expect(JSON.stringify(mean2.spec)).not.toContain('mean service times');
    expect(new Set(mean2.rows.map((r) => r.timeUnit))).toEqual(new Set(['time units (E[S] = 2)']));
    expect(JSON.stringify(figure.spec)).toContain('"gap E[T]_n − E[T]∞ (mean service times)"');
  });

  it('renders to SVG and PNG', async () => {
    const { svg, png } = await renderVegaLite(figure.spec);
    expect(svg).toContain('servers n (log scale)');
    expect(png.length).toBeGreaterThan(1000);
  });
});
