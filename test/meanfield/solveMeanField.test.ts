import { describe, expect, it } from 'vitest';
import { solveMeanField } from '../../src/meanfield/solve.ts';
import { meanFieldCapabilities } from '../../src/meanfield/capabilities.ts';
import { parseModel } from '../../src/model/index.ts';
import { jsqCavity } from '../../src/meanfield/cavity/index.ts';
import { describeFitErrorOf, fitErrorRange } from '../../src/meanfield/phaseType/fitError.ts';
import { InvalidModelError } from '../../src/errors.ts';

describe('solveMeanField', () => {
  it('solveMeanField(model) uses the SQ(d) and LWL(d) closed forms for exponential FIFO (theory.md §10)', () => {
    const jsq = solveMeanField(parseModel({ lambda: 0.9, d: 2 }));
    expect(jsq).toMatchObject({ solver: 'SQ(d) closed form', kind: 'exact' });
    expect(jsq.meanResponseTime).toBeCloseTo(2.6141, 4);
    const lwl = solveMeanField(parseModel({ lambda: 0.9, d: 2, selection: 'lwl' }));
    expect(lwl).toMatchObject({ solver: 'LWL(d) closed form', kind: 'exact' });
    expect(lwl.meanResponseTime).toBeCloseTo(-Math.log(1 - 0.81) / 0.81, 12);
  });

  it('solveMeanField(model) answers d = 1 with the M/G/1 formulas: Pollaczek–Khinchine for Erlang-2 FIFO', () => {
    const s = solveMeanField(parseModel({ lambda: 0.9, d: 1, service: 'erlang:2' }));
    expect(s.kind).toBe('exact');
    expect(s.meanResponseTime).toBeCloseTo(1 + (0.9 * 1.5) / (2 * 0.1), 8); // E[S²] = 1.5 for Erlang-2 of mean 1
  });

  it('solveMeanField(model) labels the phase-type ODE exact for Erlang sizes; Weibull goes to the cavity unless the fit is asked', () => {
    expect(solveMeanField(parseModel({ lambda: 0.7, d: 2, service: 'erlang:2' })).kind).toBe('exact');
    const m = parseModel({ lambda: 0.7, d: 2, service: 'weibull:2' });
    expect(meanFieldCapabilities(m).fixedPoint).toMatchObject({ id: 'jsq-cavity', kind: 'estimate' });
    const w = solveMeanField(m, { phaseTypeFit: true });
    expect(w.kind).toBe('approximation');
    expect(w.solver).toMatch(/two-moment PH fit/);
    // the stated error is a measured one: the range of E[T] it implies for the fit's answer meets the cavity's CI
    const e = w.measuredError!;
    const c = jsqCavity(m, { restarts: 2, iterationHorizon: 2e4, averagingIterations: 2 }).meanResponseTime;
    expect(w.meanResponseTime / (1 + e.high)).toBeLessThanOrEqual(c.ci95[1]);
    expect(w.meanResponseTime / (1 + e.low)).toBeGreaterThanOrEqual(c.ci95[0]);
  });

  it('solveMeanField refuses the PH fit where its error was never measured, and no number for JSQ(2) FIFO with pareto:1.5', () => {
    expect(() => solveMeanField(parseModel({ lambda: 0.7, d: 2, service: 'bpareto:1.5:100' }), { phaseTypeFit: true })).not.toThrow();
    expect(() => solveMeanField(parseModel({ lambda: 0.7, d: 2, service: 'pareto:3' }), { phaseTypeFit: true })).toThrow(
      /never measured for that law family/,
    );
    expect(() => solveMeanField(parseModel({ lambda: 0.7, d: 2, service: 'erlang:2' }), { phaseTypeFit: true })).toThrow(InvalidModelError);
    // E[T]∞ not settled (theory.md §8 "Heavy tails, in the limit"): refused with the reason, the PH fit too
    expect(() => solveMeanField(parseModel({ lambda: 0.7, d: 2, service: 'pareto:1.5' }))).toThrow(/E\[T\]∞ not settled: E\[S²\] = ∞/);
    expect(() => solveMeanField(parseModel({ lambda: 0.7, d: 2, service: 'pareto:1.5' }), { phaseTypeFit: true })).toThrow(/not settled/);
  });

  it('the PH fit states no bound outside the grid its error was measured on (λ 0.99 was given [10.48, 12.78])', () => {
    const inside = solveMeanField(parseModel({ lambda: 0.9, d: 2, service: 'weibull:0.5' }), { phaseTypeFit: true });
    expect(inside.measuredError!.outside).toBeUndefined();
    expect(fitErrorRange(inside.meanResponseTime, inside.measuredError!)[1]).toBeLessThan(Infinity);
    expect(describeFitErrorOf(inside.meanResponseTime, inside.measuredError!)).toMatch(/i\.e\. E\[T\] in \[/);
    for (const [input, why] of [
      [{ lambda: 0.99, d: 2, service: 'weibull:0.5' }, /load ρ = 0\.99 is outside 0\.7–0\.95/],
      [{ lambda: 0.9, d: 4, service: 'weibull:0.5' }, /d = 4 is not among 2, 3/],
      [{ lambda: 0.9, d: 2, service: 'weibull:0.2' }, /shape 0\.2 is outside 0\.5–2/],
      [{ lambda: 0.9, d: 2, service: 'bpareto:1.5:1000' }, /ratio 1000 is outside 100/],
    ] as const) {
      const s = solveMeanField(parseModel(input), { phaseTypeFit: true });
      expect(s.measuredError!.outside).toMatch(why);
      expect(fitErrorRange(s.meanResponseTime, s.measuredError!)).toEqual([0, Infinity]);
      expect(describeFitErrorOf(s.meanResponseTime, s.measuredError!)).toMatch(/outside that grid .*: no bound$/);
    }
  });

  it('solveMeanField(model) marks cavity results as estimates and gives their CI', () => {
    const s = solveMeanField(parseModel({ lambda: 0.7, d: 2, selection: 'lwl', discipline: 'srpt' }), { cavityHorizon: 2e4 });
    expect(s.kind).toBe('estimate');
    expect(s.provenance.solver).toBe('LWL cavity queue');
    expect(s.estimate!.ci95[0]).toBeLessThan(s.meanResponseTime);
    // SRPT with LWL selection beats LWL FIFO (closed form) at the same load
    expect(s.estimate!.ci95[1]).toBeLessThan(-Math.log(1 - 0.49) / 0.49);
    // E[Q] has its interval too (L2 of the fresh-user trial): Little's E[Q] = λE[T] scales E[T]'s
    const q = s.meanQueueLengthEstimate!;
    expect(q.mean).toBe(s.meanQueueLength);
    expect(q.ci95[0]).toBeCloseTo(0.7 * s.estimate!.ci95[0], 12);
    expect(q.ci95[1]).toBeCloseTo(0.7 * s.estimate!.ci95[1], 12);
    expect(q.halfWidth).toBeCloseTo(0.7 * s.estimate!.halfWidth, 12);
    expect(q.replications).toBe(s.estimate!.replications);
    // exact kinds have neither
    const exact = solveMeanField(parseModel({ lambda: 0.7, d: 2 }));
    expect(exact.estimate).toBeUndefined();
    expect(exact.meanQueueLengthEstimate).toBeUndefined();
  });

  it('meanFieldCapabilities(model) gives LPW(d) the LPW cavity (estimate), and refuses it with trace predictions', () => {
    const cap = meanFieldCapabilities(
      parseModel({ lambda: 0.7, d: 2, selection: 'lpw', discipline: 'sprpt', prediction: 'exp' }),
    ).fixedPoint;
    expect(cap).toMatchObject({ available: true, id: 'lpw-cavity', kind: 'estimate' });
    expect(cap.available && cap.source).toMatch(/theory\.md §5/);
  });
});
