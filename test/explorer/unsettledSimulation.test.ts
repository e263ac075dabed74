/**
 * The explorer's summary row of a simulated E[T]ₙ not settled (app.ts, now `simulatedResponseTimeText` in view.ts) had
 * no test of its own: driven here by a real simulation whose mean is not settled (JSQ(2) FIFO with pareto:1.5 sizes
 * sampled without replacement, E[S²] = ∞ and no theorem settling E[T] at n = 10), beside a settled and an infinite one.
 */
import { describe, expect, it } from 'vitest';
import { simulatedResponseTimeText } from '../../src/explorer/view.ts';
import { parseModel } from '../../src/model/index.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { isUnsettled } from '../../src/stats/index.ts';

const options = { n: 10, jobs: 1000, replications: 2, seed: 1, warmupTime: 5 };

describe("the explorer's simulated E[T] row", () => {
  it("not settled: the words, the reason and the run's average, no interval and no number posing as an estimate", () => {
    const e = simulate(parseModel({ lambda: 0.5, d: 2, service: 'pareto:1.5', sampling: 'without-replacement' }), options).meanResponseTime;
    expect(isUnsettled(e)).toBe(true);
    const text = simulatedResponseTimeText(e);
    expect(text).toMatch(/^not settled \(.+; the run's average [0-9.]+ is an observation, not an estimate\)$/);
    expect(text).toContain(e.reason);
    expect(text).not.toMatch(/±|95 % CI/);
  });

  it('settled: mean ± half-width (95 % CI); infinite in theory: ∞ with why', () => {
    const settled = simulate(parseModel({ lambda: 0.5, d: 2 }), options).meanResponseTime;
    expect(simulatedResponseTimeText(settled)).toMatch(/^[0-9.]+ ± [0-9.]+ \(95 % CI\)$/);
    const infinite = simulate(parseModel({ lambda: 0.5, d: 1, selection: 'random', service: 'pareto:1.5' }), options).meanResponseTime;
    expect(simulatedResponseTimeText(infinite)).toMatch(/^∞ \(infinite in theory/);
  });
});
