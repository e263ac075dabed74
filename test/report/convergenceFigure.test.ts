import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/index.ts';
import { FIT_LEGEND_NOTE, convergenceFigure, scaledErrorDomain, scaledErrorFigure } from '../../src/report/comparisonFigures.ts';
import { nLabel, nTicks, paddedLogDomain, type Row } from '../../src/report/figures.ts';
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

  it('lists in the line legend only the curves drawn: refined first and second order, or the fit ĉ₁/n alone, titled "fit"', () => {
    const dash = (f: ReturnType<typeof convergenceFigure>) =>
      lineLayer(f).encoding.strokeDash.scale as { domain: string[]; range: number[][] };
    expect(dash(convergenceFigure(refined)).domain).toEqual(['refined ΣV/(λn)', 'refined 2nd order']);
    const f = convergenceFigure(fitted);
    expect(f.rows.some((r) => String(r.series).startsWith('refined'))).toBe(false);
    expect(dash(f).domain).toEqual([expect.stringMatching(/^fit ĉ₁\/n/)]);
    // the legend says what ĉ₁ is and on which n it was fitted (it was an unexplained "fit ĉ₁/n + ĉ₂/n²")
    expect(lineLayer(f).encoding.strokeDash.title).toEqual(['fit', FIT_LEGEND_NOTE]);
    expect(FIT_LEGEND_NOTE).toMatch(/ĉ₁: fitted 1\/n coefficient/);
    const m = fitted.models[0];
    const used = (m.fitThroughReference ?? m.fit)!.nUsed;
    expect(dash(f).domain[0]).toMatch(new RegExp(`, fitted on n = ${[...used].sort((a, b) => a - b).join(', ')}$`));
    expect(f.caption).toContain('ĉ₁ is the fitted coefficient of 1/n');
    expect(lineLayer(convergenceFigure(refined)).encoding.strokeDash.title).toBe('prediction');
    for (const s of dash(f).domain) expect(f.rows.some((r) => r.series === s)).toBe(true);
  });

  it('draws the fit with a dash of its own, unlike the refined lines', () => {
    const r = lineLayer(convergenceFigure(refined)).encoding.strokeDash.scale as { range: number[][] };
    const fit = lineLayer(convergenceFigure(fitted)).encoding.strokeDash.scale as { range: number[][] };
    for (const dash of r.range) expect(fit.range[0]).not.toEqual(dash);
  });

  it('draws the signed error on a symmetric-log axis: a CI crossing 0 is drawn whole, from err − h to err + h', () => {
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
    const sim = f.rows.filter((r) => r.series === 'simulation');
    for (const r of sim) {
      expect(r.lo as number).toBeCloseTo((r.signedError as number) - (r.halfWidth as number), 12);
      expect(r.hi as number).toBeCloseTo((r.signedError as number) + (r.halfWidth as number), 12);
    }
    expect(sim.some((r) => (r.lo as number) < 0 && (r.hi as number) > 0)).toBe(true);
    const bar = layers(f).find((l) => l.mark.type === 'errorbar')!;
    expect(bar.encoding.y.field).toBe('lo');
    expect(bar.encoding.y2.field).toBe('hi');
    expect(bar.encoding.y.scale.type).toBe('symlog');
    // ticks at 0 and ±10^k, symmetric
    const ticks = bar.encoding.y.axis.values as number[];
    expect(ticks).toContain(0);
    for (const t of ticks) expect(ticks).toContain(-t);
    // the signs survive: the refined prediction is positive, and the rows keep the signed value
    expect(f.rows.filter((r) => r.series === 'refined ΣV/(λn)').every((r) => (r.signedError as number) > 0)).toBe(true);
  });

  it("tooltips name fields in the field's words with 4 significant digits, never an internal field name", () => {
    for (const f of [convergenceFigure(refined), convergenceFigure(fitted)]) {
      const tips = layers(f).flatMap((l) => (l.encoding.tooltip ?? []) as { field: string; title?: string; format?: string }[]);
      expect(tips.length).toBeGreaterThan(0);
      for (const t of tips) {
        expect(t.title, t.field).toBeTruthy();
        expect(t.title).not.toMatch(/signedError|halfWidth|loDrawn|facet|label/);
        if (t.format) expect(t.format).toBe('.4~g');
      }
      // every layer with marks a pointer can reach has a tooltip (vega-lite's default one lists internal fields)
      for (const l of layers(f)) if (l.mark.type !== 'rule') expect(l.encoding.tooltip, l.mark.type).toBeDefined();
    }
  });

  it('scaledErrorFigure: n·(E[T]_n − E[T]_∞) with the level ΣV/λ flat in n and the second-order curve ΣV/λ + ΣA/(λn)', () => {
    const f = scaledErrorFigure(refined);
    const m = refined.models[0];
    const level = f.rows.filter((r) => r.series === 'refined level ΣV/λ');
    expect(level.length).toBeGreaterThan(2);
    for (const r of level) expect(r.scaledError as number).toBeCloseTo(m.refined!.sumV / m.lambda, 10);
    const second = f.rows.filter((r) => r.series === 'refined ΣV/λ + ΣA/(λn)');
    for (const r of second)
      expect(r.scaledError as number).toBeCloseTo(m.refined!.sumV / m.lambda + m.secondOrder!.c2 / (r.n as number), 10);
    for (const r of f.rows.filter((x) => x.series === 'simulation'))
      expect(r.scaledError as number).toBeCloseTo((r.n as number) * (r.signedError as number), 10);
    const g = scaledErrorFigure(fitted);
    expect(g.rows.some((r) => String(r.series).startsWith('fit ĉ₁'))).toBe(true);
    expect(g.rows.some((r) => String(r.series).startsWith('refined'))).toBe(false);
  });

  it('nTicks keeps n labels apart: 2, 3, 4, 5, 10 … on a 300 px axis drops the colliding ones, keeps the ends', () => {
    const ns = [2, 3, 4, 5, 10, 20, 50, 100, 200, 500, 1000, 10000];
    const domain = paddedLogDomain(ns);
    const ticks = nTicks(ns, domain, 300);
    expect(ticks[0]).toBe(2);
    expect(ticks[ticks.length - 1]).toBe(10000);
    const x = (v: number) => (300 * Math.log(v / domain[0])) / Math.log(domain[1] / domain[0]);
    for (let k = 1; k < ticks.length; k++) {
      const half = (v: number) => (nLabel(v).length * 6.4) / 2;
      expect(x(ticks[k]) - x(ticks[k - 1])).toBeGreaterThanOrEqual(half(ticks[k]) + half(ticks[k - 1]) + 4);
    }
    // squeezed to 120 px, fewer survive but the largest n always does
    const few = nTicks(ns, domain, 120);
    expect(few.length).toBeLessThan(ticks.length);
    expect(few[few.length - 1]).toBe(10000);
  });

  it('pads the log n axis so that the points at the smallest and largest n sit inside the plot', () => {
    const scale = (f: ReturnType<typeof convergenceFigure>) =>
      (layers(f)[1].encoding.x as { scale: { type: string; domain: [number, number]; nice: boolean } }).scale;
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

describe('scaledErrorDomain', () => {
  it('scaledErrorDomain fits the curves and informative points, and leaves out a scaled bar far wider than the levels', () => {
    const rows: Row[] = [
      { series: 'refined level ΣV/λ', scaledError: 4.4 },
      { series: 'refined level ΣV/λ', scaledError: 9.3 },
      { series: 'simulation', scaledError: 5, scaledLo: 3, scaledHi: 7, scaledHalfWidth: 2 },
      // n = 10 000: n × h = 300, the bar that flattened every level to a line
      { series: 'simulation', scaledError: -98, scaledLo: -398, scaledHi: 202, scaledHalfWidth: 300 },
    ];
    const [lo, hi] = scaledErrorDomain(rows)!;
    expect(lo).toBeLessThanOrEqual(0);
    expect(hi).toBeGreaterThan(9.3);
    expect(hi - lo).toBeLessThan(20);
    expect(scaledErrorDomain([{ series: 'simulation', scaledError: 1, scaledHalfWidth: 1 }])).toBeUndefined();
  });
});
