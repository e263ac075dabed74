/**
 * `exact` decides before building any chain whether its level cap can reach the truncation bound (closing3.md: `exact
 * --n 3 --d 2 --lambda 0.99` refused "level cap 255 reached" only after about 2 minutes of work). The estimate is a
 * lower one (the M/M/n tail beyond the cap; with one sampled server the exact M/M/1/K error), so it refuses only what
 * the solver could not do: checked against the solver's own estimate at the cap.
 */
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { solveExact } from '../../src/meanfield/index.ts';
import { truncationErrorAtLeast } from '../../src/meanfield/exact/solveExact.ts';
import { exactPoints } from '../../src/compare/exactPoints.ts';
import { runCli } from '../cli/runCli.ts';

describe('exact: the level cap is decided before any chain is built', () => {
  it('n = 3, d = 2, λ = 0.99 is refused in one line, and no chain is built', async () => {
    const built: number[] = [];
    expect(() => solveExact(parseModel({ lambda: 0.99, d: 2 }), { n: 3, onProgress: ({ states }) => built.push(states) })).toThrow(
      /level cap 255 cannot reach the E\[T\] truncation bound 0\.000001: even the M\/M\/3 tail beyond it is 5\.\d+e-3/,
    );
    expect(built).toEqual([]);
    const r = await runCli('exact --n 3 --d 2 --lambda 0.99');
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/use simulate, or a looser --truncation-bound/);
  });

  it('the estimate is below the solver’s own at the cap (it refuses nothing the solver could do)', () => {
    // M/M/1 (n = 1): the estimate is the exact error of the capped queue; the solver's estimate at K = 255 is above it
    for (const lambda of [0.93, 0.935, 0.94]) {
      const model = parseModel({ lambda, d: 1 });
      const least = truncationErrorAtLeast(1, lambda, lambda, 255, true);
      const atCap = solveExact(model, { n: 1, truncationLevel: 255, fixedLevel: true });
      expect(least).toBeLessThanOrEqual(atCap.truncation.errorEstimate);
      // the exact M/M/1/K response time against the chain's: the estimate is that difference
      expect(1 / (1 - lambda) - atCap.meanResponseTime).toBeCloseTo(least, 12);
    }
    // JSQ(2), n = 2 near where the estimate crosses 1e−6: the solver's estimate at the cap is far above it
    const model = parseModel({ lambda: 0.9672, d: 2 });
    const atCap = solveExact(model, { n: 2, truncationLevel: 255, fixedLevel: true });
    expect(truncationErrorAtLeast(2, 0.9672, 0.9672, 255)).toBeLessThan(atCap.truncation.errorEstimate / 10);
  });

  it('a load the solver can do still solves (n = 1, λ = 0.92; n = 2, λ = 0.95)', () => {
    expect(solveExact(parseModel({ lambda: 0.92, d: 1 }), { n: 1 }).meanResponseTime).toBeCloseTo(1 / 0.08, 4);
    expect(solveExact(parseModel({ lambda: 0.95, d: 2 }), { n: 2 }).truncation.errorEstimate).toBeLessThanOrEqual(1e-6);
  });

  it('compare skips such an exact point with the reason instead of failing the run', () => {
    const r = exactPoints(parseModel({ lambda: 0.99, d: 2 }), [3], { truncationBound: 1e-6, maxStates: 2e5 });
    expect(r.points).toEqual([]);
    expect(r.skipped).toEqual([{ n: 3, reason: expect.stringMatching(/^level cap 255 cannot reach/) as unknown as string }]);
  });
});
