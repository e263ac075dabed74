import { describe, expect, it } from 'vitest';
import { InvalidModelError } from '../../src/errors.ts';
import { solveExact } from '../../src/meanfield/exact/index.ts';
import { refine } from '../../src/meanfield/refined.ts';
import { sqdClosedFormTail } from '../../src/meanfield/sqd.ts';
import { parseModel } from '../../src/model/model.ts';
import { occupancyChainSpec, runOccupancyChains } from '../../src/sim/occupancyChain.ts';
import { tInterval } from '../../src/stats/tInterval.ts';

/** Runs of one cell, their 99.9% t interval (a fixed-seed check at 95% would fail one cell in twenty by design). */
function simulateCell(model: ReturnType<typeof parseModel>, n: number, runs: number, events: number, seed = 7) {
  const spec = occupancyChainSpec(model, n);
  const values = runOccupancyChains(spec, { warmupEvents: 20 * n * 30, events, seed, key: `test|${n}`, first: 0, count: runs });
  return tInterval(values, 0.999);
}

describe('occupancy-chain engine against the exact n-server chain', () => {
  for (const [lambda, d, n, sampling] of [
    [0.7, 2, 2, 'with-replacement'],
    [0.8, 2, 3, 'without-replacement'],
    [0.85, 3, 3, 'with-replacement'],
    [0.7, 2, 5, 'without-replacement'],
  ] as const) {
    it(`λ = ${lambda}, d = ${d}, n = ${n}, ${sampling}: E[Q] within the 99.9% CI of the exact value`, () => {
      const model = parseModel({ lambda, d, sampling });
      const exact = solveExact(model, { n, truncationBound: 1e-8 }).meanQueueLength;
      const e = simulateCell(model, n, 12, 150_000);
      expect(Math.abs(e.mean - exact), `sim ${e.mean} ± ${e.halfWidth}, exact ${exact}`).toBeLessThanOrEqual(e.halfWidth);
      // the interval is informative (99.9% level, 12 runs)
      expect(e.halfWidth / exact).toBeLessThan(0.1);
    });
  }
  it('d = 1 (random selection), n = 4, λ = 0.6: E[Q] within the 99.9% CI of M/M/1, ρ/(1 − ρ)', () => {
    const e = simulateCell(parseModel({ lambda: 0.6, d: 1, selection: 'random' }), 4, 8, 150_000);
    expect(Math.abs(e.mean - 1.5), `sim ${e.mean} ± ${e.halfWidth}`).toBeLessThanOrEqual(e.halfWidth);
    expect(e.halfWidth).toBeLessThan(0.15);
  });
});

describe('occupancy-chain engine at large n', () => {
  it('λ = 0.7, d = 2, n = 200: E[Q] within CI + 2ΣV/n of the mean-field fixed point, and above it', () => {
    const model = parseModel({ lambda: 0.7, d: 2 });
    const { fixedPoint, sumV } = refine(model);
    const e = simulateCell(model, 200, 6, 400_000);
    expect(Math.abs(e.mean - fixedPoint.meanQueueLength)).toBeLessThanOrEqual(e.halfWidth + (2 * sumV) / 200);
    expect(e.mean - fixedPoint.meanQueueLength).toBeGreaterThan(-e.halfWidth);
  });
});

describe('occupancy-chain engine determinism', () => {
  const spec = occupancyChainSpec(parseModel({ lambda: 0.9, d: 2 }), 10);
  const options = { warmupEvents: 1000, events: 20_000, seed: 3, key: 'k' };
  it('the same seed gives the same values, whatever the split of runs into calls', () => {
    const all = runOccupancyChains(spec, { ...options, first: 0, count: 4 });
    const again = runOccupancyChains(spec, { ...options, first: 0, count: 4 });
    const tail = runOccupancyChains(spec, { ...options, first: 2, count: 2 });
    expect(Array.from(again)).toEqual(Array.from(all));
    expect(Array.from(tail)).toEqual(Array.from(all.subarray(2)));
    expect(new Set(all).size).toBe(4);
  });
  it('another seed or cell key gives other values', () => {
    const all = runOccupancyChains(spec, { ...options, first: 0, count: 2 });
    expect(runOccupancyChains(spec, { ...options, seed: 4, first: 0, count: 2 })[0]).not.toBe(all[0]);
    expect(runOccupancyChains(spec, { ...options, key: 'other', first: 0, count: 2 })[0]).not.toBe(all[0]);
  });
});

describe('occupancy-chain engine start state (table --start)', () => {
  const spec = occupancyChainSpec(parseModel({ lambda: 0.9, d: 2 }), 10);
  const options = { warmupEvents: 0, events: 1, seed: 3, key: 'k', first: 0, count: 5 };
  it('runs start with the given counts: after one event the total is theirs ± 1 (counts 10, 7, 2: 19 jobs)', () => {
    for (const v of runOccupancyChains(spec, { ...options, startCounts: [10, 7, 2] })) expect(Math.abs(10 * v - 19)).toBeLessThanOrEqual(1);
    for (const v of runOccupancyChains(spec, options)) expect(10 * v).toBeLessThanOrEqual(1); // empty by default
  });
  it('from the fixed point (round(n·s_i*)) a short run averages near the mean field, from empty far below it', () => {
    const model = parseModel({ lambda: 0.9, d: 2 });
    const n = 100;
    const big = occupancyChainSpec(model, n);
    const tail = sqdClosedFormTail(0.9, 2, 30);
    const counts = tail.slice(1).map((s) => Math.round(n * s));
    const short = { ...options, events: 2000, count: 8 };
    const mean = (a: Float64Array) => a.reduce((x, y) => x + y, 0) / a.length;
    const meanField = tail.slice(1).reduce((x, y) => x + y, 0); // E[Q] = Σ s_i* = 2.35
    expect(Math.abs(mean(runOccupancyChains(big, { ...short, startCounts: counts })) - meanField)).toBeLessThan(0.1);
    expect(mean(runOccupancyChains(big, short))).toBeLessThan(meanField - 0.5);
  });
  it('refuses counts that are not a tail', () => {
    expect(() => runOccupancyChains(spec, { ...options, startCounts: [3, 5] })).toThrow(/non-increasing integers in \[0, 10\]/);
    expect(() => runOccupancyChains(spec, { ...options, startCounts: [11] })).toThrow(InvalidModelError);
  });
});

describe('occupancy-chain engine refuses models without a queue-length state', () => {
  it('names the field', () => {
    expect(() => occupancyChainSpec(parseModel({ lambda: 0.5, d: 2, selection: 'lwl' }), 10)).toThrow(/selection "lwl"/);
    expect(() => occupancyChainSpec(parseModel({ lambda: 0.5, d: 2, discipline: 'srpt' }), 10)).toThrow(/discipline/);
    expect(() => occupancyChainSpec(parseModel({ lambda: 0.5, d: 2, service: { kind: 'deterministic', mean: 1 } }), 10)).toThrow(
      /exponential/,
    );
    expect(() => occupancyChainSpec(parseModel({ lambda: 0.5, d: 3 }), 2)).toThrow(InvalidModelError);
    const spec = occupancyChainSpec(parseModel({ lambda: 0.5, d: 2 }), 4);
    expect(() => runOccupancyChains(spec, { warmupEvents: 0, events: 0.5, seed: 1, key: 'k', first: 0, count: 1 })).toThrow(/events/);
  });
});
