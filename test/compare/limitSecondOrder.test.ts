// The limit check fits x̂_n = a + c₁/n through two n (here 10 and 100) and left the 1/n² term in â: at λ = 0.9, d = 2
// (c₂ = ΣA/λ ≈ 5.9) â sat c₂/(n₁n₂) low, and the mean t of LAS's and FIFO's limit checks was negative over seeds
// (scripts/limit-busy-false-alarms.ts). Where the second order is computed, c₂/n² is now subtracted first (summary.ts
// `modelLimitCheck`), as the c₁ check does (`c1Check`).
import { describe, expect, it } from 'vitest';
import { fitInverseN, limitCheck, runComparison } from '../../src/compare/index.ts';
import { referenceValue } from '../../src/compare/cell.ts';
import { refineSecondOrder } from '../../src/meanfield/index.ts';
import { parseModel } from '../../src/model/index.ts';
import { testComparison } from './config.ts';

describe('limit check with the computed second order', () => {
  for (const discipline of ['fifo', 'las'] as const) {
    it(`${discipline.toUpperCase()}, λ = 0.9, n = 10, 100: â moves up by c₂/(n₁n₂), the c₂/n² term the two-point fit left in`, () => {
      const r = runComparison(
        testComparison({ model: { discipline }, lambdas: [0.9], ns: [10, 100], jobs: 2_000, replications: 5, seed: 3 }),
      );
      const m = r.models[0];
      const c2 = refineSecondOrder(parseModel({ lambda: 0.9, d: 2 })).sumA / 0.9;
      expect(c2).toBeGreaterThan(5);
      expect(m.limit.rule).toMatch(/c₂\/n² = ΣA\/\(λn²\) subtracted/);
      const points = r.cells
        .filter((c) => !c.key.startsWith('exact-'))
        .map((c) => ({ n: c.n, ...c.simulation.meanResponseTime }))
        .map((e) => ({ n: e.n, value: e.mean, halfWidth: e.halfWidth, replications: e.replications }));
      const before = limitCheck(fitInverseN(points), referenceValue(m.reference), null, points);
      expect(m.limit.difference - before.difference).toBeCloseTo(c2 / (10 * 100), 9);
    });
  }
});
