import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { InvalidModelError } from '../../src/errors.ts';
import { parseModel } from '../../src/model/model.ts';
import { FIXED_POINT_FLOOR_TAUS, cappedWarmupWarning, simulationWarmup, warmupTime } from '../../src/meanfield/warmup.ts';
import { refinedTransient } from '../../src/meanfield/transient.ts';
import { refine } from '../../src/meanfield/refined.ts';
import { sqdClosedFormTail } from '../../src/meanfield/sqd.ts';

describe('simulationWarmup(model, { start })', () => {
  const model = parseModel({ lambda: 0.95, d: 2 });

  it("start 'empty' is the rule without a start, bit for bit (d = 2, 3; λ = 0.7, 0.95)", () => {
    for (const [lambda, d] of [
      [0.7, 2],
      [0.95, 3],
    ]) {
      const m = parseModel({ lambda, d });
      expect(simulationWarmup(m, { start: 'empty', n: 100 })).toEqual(simulationWarmup(m));
      expect(simulationWarmup(m).from).toBeUndefined();
    }
  });

  it("start 'fixed-point' starts at the closed-form tail and needs ≥ the floor (1τ), falling with n to it (λ = 0.95, d = 2)", () => {
    const tau = warmupTime(model).relaxationTime;
    const floor = FIXED_POINT_FLOOR_TAUS * tau;
    expect(FIXED_POINT_FLOOR_TAUS).toBe(1);
    const times = [3, 10, 100, 1000, 10_000].map((n) => simulationWarmup(model, { start: 'fixed-point', n, cap: Infinity }));
    for (const w of times) expect(w.time).toBeGreaterThanOrEqual(floor - 1e-9);
    for (let k = 1; k < times.length; k++) expect(times[k].time).toBeLessThanOrEqual(times[k - 1].time);
    expect(times[4].time).toBeCloseTo(floor, 9);
    // n = 1000: the first term 2 × 41.0 decides (≈ 3τ, above the floor)
    expect(times[3].time).toBeGreaterThan(2.9 * tau);
    // far shorter than the empty start's 2 × 157 at large n, longer at n = 3 (the 1/n part relaxes too)
    expect(times[4].time).toBeLessThan(0.3 * simulationWarmup(model, { cap: Infinity }).time);
    const w = times[0].from!;
    const star = sqdClosedFormTail(0.95, 2, w.length - 1);
    expect(w).toEqual(star);
  });

  it('at half its warm-up the refined transient from the fixed point is within the tolerance of s* + V/n, and not long before', () => {
    const n = 100;
    const w = simulationWarmup(model, { start: 'fixed-point', n, cap: Infinity, tolerance: 1e-3 });
    const reach = w.time / 2;
    const star = sqdClosedFormTail(0.95, 2, 12);
    const path = refinedTransient(model, { times: [0, 0.8 * reach, reach, 2 * reach], from: star });
    const V = refine(model, { truncationLevel: path.diagnostics.truncationLevel }).V;
    const distance = (j: number) => Math.max(...path.V[j].map((v, i) => Math.abs(v - V[i]) / n));
    expect(distance(0)).toBeGreaterThan(1e-3); // V(0) = 0: the start is s*, not s* + V/n
    expect(distance(1)).toBeGreaterThan(1e-3);
    expect(distance(2)).toBeLessThanOrEqual(1e-3);
    expect(distance(3)).toBeLessThanOrEqual(1e-3);
  });

  it('minRelaxationTimes sets the fixed-point floor: k·τ where the refined transient is within tolerance from t = 0', () => {
    const tau = warmupTime(model).relaxationTime;
    // at n = 10 000 max_i |V_i(t) − V_i|/n ≤ 1e−3 from t = 0 (λ = 0.95, d = 2), so the floor is all of the warm-up
    for (const k of [0, 1, 3]) {
      const w = simulationWarmup(model, { start: 'fixed-point', n: 10_000, cap: Infinity, minRelaxationTimes: k });
      expect(w.time).toBeCloseTo(k * tau, 9);
      expect(w.rule).toContain(`${k}τ`);
    }
    // at n = 100 the first term decides whatever the floor (≥ 3τ there)
    const at100 = [0, 3].map((k) => simulationWarmup(model, { start: 'fixed-point', n: 100, cap: Infinity, minRelaxationTimes: k }).time);
    expect(at100[0]).toBe(at100[1]);
    expect(() => simulationWarmup(model, { start: 'fixed-point', n: 100, minRelaxationTimes: -1 })).toThrow(/minRelaxationTimes/);
    expect(() => simulationWarmup(model, { start: 'auto', n: 100, minRelaxationTimes: Infinity })).toThrow(InvalidModelError);
  });

  it('start fixed-point at d = 1: the drift is linear, E[s(t)] = s* from the start, so the floor (1τ)', () => {
    const m = parseModel({ lambda: 0.9, d: 1 });
    const floor = FIXED_POINT_FLOOR_TAUS * warmupTime(m).relaxationTime;
    expect(floor).toBeGreaterThan(0);
    expect(simulationWarmup(m, { start: 'fixed-point', n: 5, cap: Infinity }).time).toBeCloseTo(floor, 9);
  });

  it('start fixed-point is refused for models whose fixed point is no start state, and without n', () => {
    for (const fields of [{ selection: 'lwl' }, { service: 'erlang:2' }, { discipline: 'srpt' }, { memory: 'ism:2' }] as const) {
      const m = parseModel({ lambda: 0.9, d: 2, ...fields });
      expect(() => simulationWarmup(m, { start: 'fixed-point', n: 100 })).toThrow(InvalidModelError);
    }
    expect(() => simulationWarmup(model, { start: 'fixed-point' })).toThrow(/needs n/);
    expect(() => simulationWarmup(model, { start: 'hot' as 'empty' })).toThrow(/unknown start/);
  });

  it("start 'auto': the fixed point for SQ(d) models (its rule, named), empty otherwise; n needed for SQ(d) only", () => {
    for (const n of [2, 10, 1000]) {
      const auto = simulationWarmup(model, { start: 'auto', n, cap: Infinity });
      expect(auto).toEqual(simulationWarmup(model, { start: 'fixed-point', n, cap: Infinity }));
      expect(auto.start).toBe('fixed-point');
    }
    const lwl = parseModel({ lambda: 0.9, d: 2, selection: 'lwl' });
    expect(simulationWarmup(lwl, { start: 'auto', n: 100 })).toEqual(simulationWarmup(lwl));
    expect(simulationWarmup(lwl, { start: 'auto' }).start).toBe('empty');
    expect(simulationWarmup(model).start).toBe('empty');
    expect(() => simulationWarmup(model, { start: 'auto' })).toThrow(/auto start of an SQ\(d\) model needs n/);
  });
});

describe("README's --start example quotes the warm-ups the rule gives", () => {
  it('compare --lambda 0.95 --d 2 --n 10000 --start empty: "warm-up E instead of F from the fixed point"', () => {
    // a fresh-user trial: the README still said "314.6 instead of 82" after the fixed-point floor went from 3τ to 1τ
    // (82.0 is now the n = 1000 value; at n = 10 000 the floor 1τ = 27.3 decides, theory.md §8 "Floor")
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    const line = readme.split('\n').find((l) => l.includes('--n 10000 --start empty'));
    expect(line, 'the --start example of README.md').toBeDefined();
    const m = /warm-up ([\d.]+) instead of ([\d.]+) from the fixed point/.exec(line!);
    expect(m, line).not.toBeNull();
    const model = parseModel({ lambda: 0.95, d: 2 });
    expect(Number(m![1])).toBe(Number(simulationWarmup(model, { start: 'empty', n: 10_000 }).time.toFixed(1)));
    expect(Number(m![2])).toBe(Number(simulationWarmup(model, { start: 'fixed-point', n: 10_000 }).time.toFixed(1)));
  });
});

describe('a capped warm-up rule states the product it computed, then the cap', () => {
  // compare --service pareto:1.5 --d 1 --lambda 0.9 read "SQ(1) mean-field warm-up 5752.9 × size factor 10.00 … = 5000.0,
  // capped at 5000": a product it is not (trial, 2026-12-03); the time stays the cap
  it('M/M/1-based rule at λ = 0.9 with pareto:1.5 sizes: "= <base × 10>, capped at 5000", time 5000; uncapped rules say no cap', () => {
    const model = parseModel({ lambda: 0.9, d: 1, service: 'pareto:1.5' });
    const w = simulationWarmup(model, { cap: 5000 });
    expect(w.time).toBe(5000);
    // the cap the caller gave is named with the rule's own time, which the default (no cap) gives
    expect(w.uncappedTime).toBe(simulationWarmup(model).time);
    expect(simulationWarmup(model).uncappedTime).toBeUndefined();
    expect(cappedWarmupWarning(w, 'maxWarmup')).toMatch(
      /^warm-up capped by maxWarmup = 5000: the one warm-up rule asks [\d.]+ time units \(theory\.md §8\), so the replications warmed up 8\.69 % of it/,
    );
    expect(cappedWarmupWarning(simulationWarmup(model), 'maxWarmup')).toBeUndefined();
    const m = /warm-up ([\d.]+) × size factor ([\d.]+) .* = ([\d.]+), capped at 5000$/.exec(w.rule)!;
    expect(m).not.toBeNull();
    expect(Number(m[3])).toBeCloseTo(Number(m[1]) * Number(m[2]), 0);
    expect(Number(m[3])).toBeGreaterThan(5000);
    const free = simulationWarmup(parseModel({ lambda: 0.9, d: 2 }), { start: 'empty' });
    expect(free.rule).not.toMatch(/capped/);
    expect(free.rule).toMatch(new RegExp(`= ${free.time.toFixed(1)}$`));
  });
});
