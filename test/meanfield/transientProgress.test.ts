/**
 * Every transient solver behind `solveMeanFieldTransient` reports its progress (the fraction of the horizon done,
 * non-decreasing, reaching the end), so `ode` can show a bar with an ETA for any long transient — the LL(d) PIDE with
 * a memory ran 9 CPU seconds for t = 50 with no sign of life (fresh-user trial, issue 18/21).
 */
import { describe, expect, it, vi } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { solveMeanField, solveMeanFieldTransient } from '../../src/meanfield/index.ts';
import { cavityFraction } from '../../src/meanfield/cavity/jsqCavity.ts';
import { solveResponseTime } from '../../src/meanfield/responseTime.ts';
import { createLateProgress, LATE_PROGRESS_MS } from '../../src/cli/progress.ts';

const cases: [string, Parameters<typeof parseModel>[0]][] = [
  ['sqd-ode', { lambda: 0.7, d: 2 }],
  ['phase-type-ode', { lambda: 0.7, d: 2, service: 'erlang:2' }],
  ['lwl-pide', { lambda: 0.7, d: 2, selection: 'lwl' }],
  ['memory-cavity-ode', { lambda: 0.7, d: 2, memory: 'ism:3' }],
  ['memory-phase-type-ode', { lambda: 0.7, d: 2, memory: 'ism:3', service: 'erlang:2' }],
  ['memory-lwl-pide', { lambda: 0.7, d: 2, selection: 'lwl', memory: 'ism:3' }],
  ['hetero-occupancy-ode', { lambda: 0.7, d: 2, servers: { speeds: '1,2', fractions: '0.5,0.5' } }],
];

describe('solveMeanFieldTransient: onProgress reaches every solver', () => {
  for (const [solver, input] of cases) {
    it(`${solver}: fractions in [0, 1], non-decreasing, the last ≥ 0.9`, () => {
      const seen: number[] = [];
      const r = solveMeanFieldTransient(parseModel(input), [0, 5, 10], { onProgress: (f) => seen.push(f) });
      expect(r.solver).toBe(solver);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((f, k) => f >= 0 && f <= 1 + 1e-9 && (k === 0 || f >= seen[k - 1] - 1e-12))).toBe(true);
      expect(seen[seen.length - 1]).toBeGreaterThanOrEqual(0.9);
    });
  }
});

/**
 * The long fixed-point solves report progress too (F3: `fixed-point --lambda 0.99 --service weibull:0.2` ran minutes
 * without output: the JSQ cavity, 21 CPU s, then its phase-type fallback, 181 CPU s).
 */
describe('solveMeanField: onProgress reaches the JSQ and LPW cavities and the phase-type fit', () => {
  it('jsq-cavity (SRPT): fractions in [0, 1], stage "JSQ cavity", ending at 1', () => {
    const seen: [number, string][] = [];
    const r = solveMeanField(parseModel({ lambda: 0.5, d: 2, discipline: 'srpt' }), { onProgress: (f, stage) => seen.push([f, stage]) });
    expect(r.solver).toMatch(/cavity/i);
    expect(seen.length).toBeGreaterThan(4);
    expect(seen.every(([f, stage]) => f >= 0 && f <= 1 && stage === 'JSQ cavity')).toBe(true);
    expect(seen[seen.length - 1][0]).toBe(1);
  });

  it('lpw-cavity (SPRPT, exp predictions): fractions in [0, 1], stage "LPW cavity", ending at 1', () => {
    const seen: [number, string][] = [];
    const model = parseModel({ lambda: 0.5, d: 2, selection: 'lpw', discipline: 'sprpt', prediction: 'exp' });
    solveMeanField(model, { onProgress: (f, stage) => seen.push([f, stage]) });
    expect(seen.length).toBeGreaterThan(4);
    expect(seen.every(([f, stage]) => f >= 0 && f <= 1 && stage === 'LPW cavity')).toBe(true);
    expect(seen[seen.length - 1][0]).toBe(1);
  });

  it('the two-moment phase-type fit (weibull:0.5, λ = 0.9): its ODE legs, stage naming K', () => {
    const seen: [number, string][] = [];
    solveMeanField(parseModel({ lambda: 0.9, d: 2, service: 'weibull:0.5' }), {
      phaseTypeFit: true,
      onProgress: (f, stage) => seen.push([f, stage]),
    });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every(([f, stage]) => f >= 0 && f <= 1 && /ODE at K = \d+$/.test(stage))).toBe(true);
  });

  it('solveResponseTime (fixed-point --quantiles): the JSQ cavity of PS reports its progress, ending at 1, same numbers', () => {
    const model = parseModel({ lambda: 0.5, d: 2, discipline: 'ps' });
    const seen: [number, string][] = [];
    const options = { quantiles: [0.5, 0.99], times: [], cavityHorizon: 4000 };
    const law = solveResponseTime(model, { ...options, onProgress: (f, stage) => seen.push([f, stage]) });
    expect(seen.length).toBeGreaterThan(4);
    expect(seen.every(([f, stage]) => f >= 0 && f <= 1 && stage === 'JSQ cavity')).toBe(true);
    expect(seen[seen.length - 1][0]).toBe(1);
    expect(solveResponseTime(model, options).quantiles).toEqual(law.quantiles);
  });

  it('cavityFraction: the current restart at least done + least, later ones as the finished ones did', () => {
    expect(cavityFraction([], 10, 30, 4)).toBeCloseTo(10 / 160, 15); // none finished: 4 restarts of 40
    expect(cavityFraction([100], 20, 10, 4)).toBeCloseTo(120 / 400, 15); // the current one costs the mean, 100
    expect(cavityFraction([100], 150, 10, 4)).toBeCloseTo(250 / 460, 15); // … or more, once past it
    expect(cavityFraction([100, 100, 100, 100], 0, 0, 4)).toBe(1);
  });
});

describe('createLateProgress (fixed-point, ode): silent for 3 s, then a bar per stage', () => {
  it('writes nothing before LATE_PROGRESS_MS, decile lines after, and a new title when the stage changes', () => {
    vi.useFakeTimers({ now: 0 });
    const lines: string[] = [];
    const spy = vi.spyOn(process.stderr, 'write').mockImplementation((s) => (lines.push(String(s)), true));
    const isTTY = process.stderr.isTTY;
    process.stderr.isTTY = false;
    try {
      const p = createLateProgress('fixed-point', true);
      p.update(0.5, 'JSQ cavity');
      expect(lines).toEqual([]);
      vi.setSystemTime(LATE_PROGRESS_MS);
      p.update(0.5, 'JSQ cavity');
      p.update(1, 'JSQ cavity');
      p.update(0.2, 'fallback');
      p.stop();
      expect(lines[0]).toMatch(/^fixed-point: JSQ cavity: 10% \(0s elapsed, ETA \d+s\)\n$/);
      expect(lines.filter((l) => l.startsWith('fixed-point: JSQ cavity:'))).toHaveLength(10);
      expect(lines.filter((l) => l.startsWith('fixed-point: fallback:'))).toHaveLength(2); // 10 %, 20 %
      const off = createLateProgress('fixed-point', false);
      off.update(0.5, 'JSQ cavity');
      expect(lines.filter((l) => l.startsWith('fixed-point:'))).toHaveLength(12);
    } finally {
      process.stderr.isTTY = isTTY;
      spy.mockRestore();
      vi.useRealTimers();
    }
  });
});
