import { describe, expect, it } from 'vitest';
import { InvalidModelError, UnstableModelError } from '../../src/errors.ts';
import { solveSqdFixedPoint } from '../../src/meanfield/fixedPoint.ts';
import { solveTransient } from '../../src/meanfield/transient.ts';
import type { SupermarketModel } from '../../src/model/index.ts';
import { maxAbsDiff, seriesMeanResponseTime, sqd } from './helpers.ts';

const LAMBDAS = [0.5, 0.7, 0.8, 0.9, 0.95, 0.99];
// theory.md §10, JSQ(d) FIFO E[T], rows d = 1, 2, 3, 5.
const TABLE: Record<number, number[]> = {
  1: [2.0, 3.3333, 5.0, 10.0, 20.0, 100.0],
  2: [1.2657, 1.6145, 1.9474, 2.6141, 3.383, 5.432],
  3: [1.1252, 1.3568, 1.5809, 2.0279, 2.5351, 3.8578],
  5: [1.0313, 1.1681, 1.3289, 1.6329, 1.9888, 2.9017],
};

describe('solveSqdFixedPoint', () => {
  for (const d of [1, 2, 3, 5]) {
    it(`solveSqdFixedPoint(model) matches the E[T] series to 1e−9 and theory.md §10 to 1e−4 at d = ${d}, all λ`, () => {
      LAMBDAS.forEach((lambda, j) => {
        const fp = solveSqdFixedPoint(sqd(lambda, d));
        const series = seriesMeanResponseTime(lambda, d);
        expect(Math.abs(fp.meanResponseTime - series) / series).toBeLessThan(1e-9);
        expect(Math.abs(fp.meanResponseTime - TABLE[d][j])).toBeLessThan(1e-4 * Math.max(1, TABLE[d][j] / 10));
        expect(fp.meanQueueLength).toBeCloseTo(lambda * fp.meanResponseTime, 12);
        expect(fp.diagnostics.residual).toBeLessThanOrEqual(1e-12);
        expect(fp.tail[0]).toBe(1);
        expect(fp.tail.length).toBe(fp.truncationLevel + 1);
      });
    });
  }

  it('solveSqdFixedPoint(model) matches the closed form to 1e−9 at d = 2, λ = 0.99 (tail s_i = λ^(2^i − 1))', () => {
    const fp = solveSqdFixedPoint(sqd(0.99, 2));
    fp.tail.forEach((s, i) => expect(Math.abs(s - 0.99 ** (2 ** i - 1))).toBeLessThan(1e-9));
    expect(fp.provenance.model.lambda).toBe(0.99);
    expect(fp.provenance.source).toMatch(/theory\.md §2/);
  });

  it('solveSqdFixedPoint(model) at d = 1 is M/M/1 (s_i = λ^i, E[T] = 1/(1 − λ)) with no M/M/1/K bias', () => {
    const fp = solveSqdFixedPoint(sqd(0.99, 1));
    expect(fp.truncationLevel).toBeGreaterThan(3400);
    expect(fp.meanResponseTime).toBeCloseTo(100, 10);
    expect(fp.tail[60]).toBeCloseTo(0.99 ** 60, 14);
  });

  for (const d of [2, 3, 5]) {
    it(`solveSqdFixedPoint(model, { method: 'newton' }) equals the closed form to 1e−9 at d = ${d}, all λ, from a perturbed start`, () => {
      for (const lambda of LAMBDAS) {
        const closed = solveSqdFixedPoint(sqd(lambda, d));
        const start = closed.tail.map((s, i) => (i === 0 ? 1 : s * (1 - 0.2 * (1 - s))));
        const newton = solveSqdFixedPoint(sqd(lambda, d), { method: 'newton', initialGuess: start });
        expect(maxAbsDiff(newton.tail, closed.tail)).toBeLessThan(1e-9);
        expect(Math.abs(newton.meanResponseTime - closed.meanResponseTime)).toBeLessThan(1e-9);
        expect(newton.diagnostics.residual).toBeLessThanOrEqual(1e-12);
        expect(newton.diagnostics.iterations).toBeGreaterThan(0);
        expect(newton.diagnostics.method).toBe('newton');
      }
    });
  }

  it("solveSqdFixedPoint(model, { method: 'newton' }) converges from an ODE state (d = 2, λ = 0.95, t = 20)", () => {
    const model = sqd(0.95, 2);
    const ode = solveTransient(model, { times: [0, 20], truncationLevel: solveSqdFixedPoint(model).truncationLevel });
    const newton = solveSqdFixedPoint(model, { method: 'newton', initialGuess: ode.tail[1] });
    expect(maxAbsDiff(newton.tail, solveSqdFixedPoint(model).tail)).toBeLessThan(1e-9);
  });

  it("solveSqdFixedPoint(model, { method: 'newton' }) at d = 1 gives the M/M/1 answer within the truncation (K ≈ 3,437 at λ = 0.99)", () => {
    for (const lambda of [0.5, 0.9, 0.99]) {
      const newton = solveSqdFixedPoint(sqd(lambda, 1), { method: 'newton', initialGuess: [1] });
      expect(newton.diagnostics.residual).toBeLessThanOrEqual(1e-12);
      expect(Math.abs(newton.meanResponseTime - 1 / (1 - lambda))).toBeLessThan(1e-9);
      expect(
        maxAbsDiff(
          newton.tail,
          newton.tail.map((_, i) => lambda ** i),
        ),
      ).toBeLessThan(1e-14);
    }
  });

  it('solveSqdFixedPoint(model) with service mean 2 keeps the tail of ρ = λ·E[S] and doubles E[T] in time units', () => {
    const unit = solveSqdFixedPoint(sqd(0.9, 2));
    const slow = solveSqdFixedPoint(sqd(0.45, 2, { service: { kind: 'exponential', mean: 2 } }));
    expect(maxAbsDiff(slow.tail, unit.tail)).toBeLessThan(1e-15);
    expect(slow.meanResponseTime).toBeCloseTo(2 * unit.meanResponseTime, 12);
  });

  it('solveSqdFixedPoint(model, { truncationLevel: 30 }) pads the closed form with levels below 1e−300', () => {
    const fp = solveSqdFixedPoint(sqd(0.9, 2), { truncationLevel: 30 });
    expect(fp.tail.length).toBe(31);
    expect(fp.meanResponseTime).toBeCloseTo(seriesMeanResponseTime(0.9, 2), 12);
  });

  it('solveSqdFixedPoint(model) does not modify the model', () => {
    const model = sqd(0.9, 3);
    const copy = JSON.parse(JSON.stringify(model));
    solveSqdFixedPoint(model, { method: 'newton' });
    expect(model).toEqual(copy);
  });

  it('solveSqdFixedPoint(model) throws InvalidModelError "no mean-field solver for ..." on an unsupported selection', () => {
    const lwl = { ...sqd(0.9, 2), selection: 'lwl' } as unknown as SupermarketModel;
    expect(() => solveSqdFixedPoint(lwl)).toThrow(InvalidModelError);
    expect(() => solveSqdFixedPoint(lwl)).toThrow(/no mean-field solver for selection "lwl"/);
    const sjf = { ...sqd(0.9, 2), discipline: 'sjf' } as unknown as SupermarketModel;
    expect(() => solveSqdFixedPoint(sjf)).toThrow(/no mean-field solver for discipline "sjf"/);
    const weibull = { ...sqd(0.9, 2), service: { kind: 'weibull', mean: 1 } } as unknown as SupermarketModel;
    expect(() => solveSqdFixedPoint(weibull)).toThrow(/no mean-field solver for service kind "weibull"/);
  });

  it('solveSqdFixedPoint(model) throws UnstableModelError at ρ ≥ 1 and InvalidModelError on bad options', () => {
    const unstable = { ...sqd(0.9, 2), lambda: 1.2 } as SupermarketModel;
    expect(() => solveSqdFixedPoint(unstable)).toThrow(UnstableModelError);
    expect(() => solveSqdFixedPoint(sqd(0.9, 2), { truncationLevel: 0 })).toThrow(InvalidModelError);
    expect(() => solveSqdFixedPoint(sqd(0.9, 2), { method: 'bogus' as 'newton' })).toThrow(InvalidModelError);
    expect(() => solveSqdFixedPoint(sqd(0.9, 2), { method: 'newton', initialGuess: [0.5, 0.2] })).toThrow(InvalidModelError);
  });

  it("solveSqdFixedPoint(model, { method: 'newton' }) throws ConvergenceError from a start where the drift is not finite", () => {
    // K = 1: f(s) = λ(1 − s²) − s, and s = MAX_VALUE makes s² overflow.
    expect(() => solveSqdFixedPoint(sqd(0.9, 2), { method: 'newton', truncationLevel: 1, initialGuess: [1, Number.MAX_VALUE] })).toThrow(
      /not finite/,
    );
  });
});
