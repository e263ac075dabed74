/**
 * The λ axis of run's figures writes its ticks in the shortest form: a grid of one λ (`run` with "lambda": [0.9])
 * drew its lone tick as "0.900000" (trial, 2026-12-03: a pareto grid at λ = 0.9).
 */
import { describe, expect, it } from 'vitest';
import type { CellOutcome } from '../../src/experiments/index.ts';
import { measureFigure } from '../../src/report/index.ts';
import { renderSvg } from '../../src/report/render.ts';

describe('run figures: the λ axis', () => {
  it('measureFigure over one λ = 0.9: the SVG tick reads 0.9, not 0.900000', async () => {
    const outcome = (key: string, policy: string, mean: number): CellOutcome =>
      ({
        cell: { key, service: 'exp', d: 2, n: 20, prediction: 'exact', policy, lambda: 0.9, seed: 1 },
        result: { meanResponseTime: { mean, halfWidth: 0.5, ci95: [mean - 0.5, mean + 0.5], standardError: 0.2, replications: 3 } },
      }) as unknown as CellOutcome;
    const fig = measureFigure([outcome('a', 'JSQ+FIFO', 3), outcome('b', 'JSQ+SRPT', 2)], 'meanResponseTime')!;
    const svg = await renderSvg(fig.spec);
    expect(svg).toMatch(/>0\.9<\/text>/);
    expect(svg).not.toMatch(/0\.900000/);
  }, 600_000);
});
