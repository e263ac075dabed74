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
});
