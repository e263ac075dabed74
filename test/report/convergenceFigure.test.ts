import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/index.ts';
import { convergenceFigure } from '../../src/report/comparisonFigures.ts';
import { EXACT_LEGEND } from '../../src/report/refinementSection.ts';
import { reportComparison } from '../compare/config.ts';

type Layer = { transform?: { filter?: string }[]; mark: { type: string; shape?: string }; encoding: Record<string, any> };

/** The layers of a convergence figure's spec (one facet, layered). */
const layers = (f: ReturnType<typeof convergenceFigure>) => (f.spec as unknown as { spec: { layer: Layer[] } }).spec.layer;
const lineLayer = (f: ReturnType<typeof convergenceFigure>) => layers(f).find((l) => l.mark.type === 'line')!;

describe('convergenceFigure', () => {
  // JSQ(2) FIFO exponential: refined term, second order and exact points at n = 2, 3
  const refined = runComparison(
    reportComparison({
      lambdas: [0.5],
      ns: [10, 50],
      jobs: 2_000,
      replications: 3,
      seed: 2,
      exact: { ns: [2, 3], truncationBound: 1e-4, maxStates: 2e5, jobs: 2_000, replications: 3 },
    }),
  );
  // JSQ(2) SRPT with Weibull ½ sizes: no refined term, the fitted |ĉ₁|/n instead
  const fitted = runComparison(
    reportComparison({
      lambdas: [0.7],
      ns: [20, 100],
      jobs: 2_000,
      replications: 3,
      seed: 3,
      model: { service: 'weibull:0.5', discipline: 'srpt' },
    }),
  );

  it('gives the exact small-n diamonds a legend entry and names them in the title', () => {
    const f = convergenceFigure(refined);
    const exact = layers(f).find((l) => l.transform?.[0]?.filter === "datum.series === 'exact'")!;
    expect(exact.mark.shape).toBe('diamond');
    expect(exact.encoding.fill.datum).toBe(EXACT_LEGEND);
    expect(exact.encoding.fill.legend.symbolType).toBe('diamond');
    expect(EXACT_LEGEND).toBe('exact E[T]_n (n-server chain)');
    expect((f.spec as unknown as { title: { text: string[] } }).title.text.join(' ')).toContain('exact n-server chain (black diamonds)');
    // no exact points, no legend entry
    const plain = convergenceFigure({ ...refined, models: refined.models.map((m) => ({ ...m, exact: null })) });
    expect(layers(plain).some((l) => l.encoding.fill?.datum === EXACT_LEGEND)).toBe(false);
  });

  it('lists in the line legend only the predictions drawn: refined first and second order, or the fitted |ĉ₁|/n alone', () => {
    const dash = (f: ReturnType<typeof convergenceFigure>) =>
      lineLayer(f).encoding.strokeDash.scale as { domain: string[]; range: number[][] };
    expect(dash(convergenceFigure(refined)).domain).toEqual(['refined ΣV/(λn)', 'refined 2nd order']);
    const f = convergenceFigure(fitted);
    expect(f.rows.some((r) => String(r.series).startsWith('refined'))).toBe(false);
    expect(dash(f).domain).toEqual(['fitted |ĉ₁|/n']);
    for (const s of dash(f).domain) expect(f.rows.some((r) => r.series === s)).toBe(true);
  });

  it('draws the fitted |ĉ₁|/n with a dash of its own, unlike the refined lines', () => {
    const r = lineLayer(convergenceFigure(refined)).encoding.strokeDash.scale as { range: number[][] };
    const fit = lineLayer(convergenceFigure(fitted)).encoding.strokeDash.scale as { range: number[][] };
    for (const dash of r.range) expect(fit.range[0]).not.toEqual(dash);
  });

  it('cuts a CI reaching 0 at the axis bottom, marks it with an open triangle there and says so in the caption', () => {
    // one cell with a half-width ten times its error: its interval reaches below 0
    const cells = refined.cells.map((c, k) =>
      k === refined.cells.length - 1
        ? {
            ...c,
            simulation: {
              ...c.simulation,
              meanResponseTime: { ...c.simulation.meanResponseTime, halfWidth: 10 * Math.abs(c.errors.meanResponseTime) },
            },
          }
        : c,
    );
    const f = convergenceFigure({ ...refined, cells });
    const cutRows = f.rows.filter((r) => r.series === 'simulation' && (r.lo as number) <= 0);
    expect(cutRows.length).toBeGreaterThan(0);
    const bar = layers(f).find((l) => l.mark.type === 'errorbar')!;
    const floor = bar.encoding.y.scale.domainMin as number;
    // the axis bottom is a power of ten at or below every positive value drawn
    expect(Math.log10(floor)).toBeCloseTo(Math.round(Math.log10(floor)), 12);
    for (const r of f.rows) for (const v of [r.error, r.lo]) if (typeof v === 'number' && v > 0) expect(v).toBeGreaterThanOrEqual(floor);
    // the bar is drawn down to the axis, not to an arbitrary |err|/10, and an open triangle marks the cut end
    expect(bar.transform).toContainEqual({ calculate: `max(datum.lo, ${floor})`, as: 'loDrawn' });
    const mark = layers(f).find((l) => l.mark.shape === 'triangle-down')!;
    expect(mark.mark).toMatchObject({ type: 'point', filled: false });
    expect(mark.transform).toContainEqual({ filter: `datum.lo < ${floor}` });
    expect(f.caption).toMatch(/open triangle ▽ at the bottom of the axis is a 95% interval reaching 0/);
    expect((f.spec as unknown as { title: { subtitle: string[] } }).title.subtitle.join(' ')).toContain('95% CI reaches 0');
  });

  it('pads the log n axis so that the points at the smallest and largest n sit inside the plot', () => {
    const scale = (f: ReturnType<typeof convergenceFigure>) =>
      (layers(f)[0].encoding.x as { scale: { type: string; domain: [number, number]; nice: boolean } }).scale;
    for (const [result, lo, hi] of [
      [refined, 2, 50],
      [fitted, 20, 100],
    ] as const) {
      const s = scale(convergenceFigure(result));
      expect(s).toMatchObject({ type: 'log', nice: false });
      expect(s.domain[0]).toBeLessThan(lo / 1.1);
      expect(s.domain[1]).toBeGreaterThan(hi * 1.1);
    }
  });
});
