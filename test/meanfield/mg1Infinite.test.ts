/**
 * Which moments E[T] < ∞ needs at d = 1, per discipline (model/moments.ts, theory.md §7), and that mg1 says ∞ where
 * it is, at once and with the reason, instead of integrating a divergent integral. Before: SPRPT with exp, uniform or
 * log-normal predictions and pareto:1.5 sizes ran the quadrature for 2–8 s (about 6·10⁶ iterations) and failed with
 * "estimated relative error 3.33e+0 of E[T] exceeds 0.000001"; `mg1 --all` failed as a whole.
 */
import { describe, expect, it } from 'vitest';
import { estimandFiniteness, parseModel, type Discipline, type ModelInput } from '../../src/model/index.ts';
import { mg1, mg1ResponseTimeAtSize } from '../../src/meanfield/mg1/index.ts';

const model = (input: Partial<ModelInput> & { lambda: number }) => parseModel({ d: 1, selection: 'random', ...input });

describe('mg1: E[T] = ∞ exactly where the moments say', () => {
  it.each(['exp', 'uniform:0.5', 'lognormal:1', 'lognormal:1:mean'])(
    'SPRPT with %s predictions and E[S²] = ∞ (pareto:1.5): E[T] = ∞ with its reason, no quadrature',
    (prediction) => {
      const m = model({ lambda: 0.5, discipline: 'sprpt', service: 'pareto:1.5', prediction });
      const r = mg1(m);
      expect(r.meanResponseTime).toBe(Infinity);
      expect(r.responseTimeFinite).toBe(false);
      expect(r.infiniteReason).toMatch(/^E\[S²\] = ∞ \(pareto α = 1\.5 ≤ 2\): SPRPT with \w+ predictions runs a job past its prediction/);
      expect(r.meanQueueLength).toBe(Infinity);
      expect(r.diagnostics.evaluations).toBe(0);
      expect(mg1ResponseTimeAtSize(m, 1, 1)).toBe(Infinity);
      expect(mg1ResponseTimeAtSize(m, 1)).toBe(Infinity);
      expect(estimandFiniteness(m).meanResponseTimeUnsettled).toBeUndefined();
    },
  );

  it('truth: SPRPT (exp predictions) over bounded Pareto α = 1.5 grows without bound as the bound grows, SRPT does not', () => {
    const at = (discipline: Discipline, ratio: number) =>
      mg1(model({ lambda: 0.5, discipline, service: `bpareto:1.5:${ratio}`, prediction: 'exp' })).meanResponseTime;
    const [a, b, c] = [1e2, 1e4, 1e6].map((ratio) => at('sprpt', ratio));
    expect(b / a).toBeGreaterThan(2); // E[((S − Y)^+)²] ∝ E[S²] ≍ √ratio
    expect(c / b).toBeGreaterThan(5);
    const [s4, s6] = [1e4, 1e6].map((ratio) => at('srpt', ratio));
    expect(s6 / s4).toBeLessThan(1.2); // SRPT needs E[S] only
  });

  it('the disciplines that need E[S] only stay finite at pareto:1.5: SRPT, PSJF, PS, LAS, PSPJF (any noise), SPRPT exact', () => {
    const finite = (discipline: Discipline, prediction = 'exact') => {
      const m = model({ lambda: 0.5, discipline, service: 'pareto:1.5', prediction });
      const f = estimandFiniteness(m);
      expect(f.meanResponseTime.finite, `${discipline} ${prediction}`).toBe(true);
      expect(f.meanResponseTimeUnsettled, `${discipline} ${prediction}`).toBeUndefined();
      return mg1(m).meanResponseTime;
    };
    for (const d of ['srpt', 'psjf', 'ps', 'las'] as const) expect(Number.isFinite(finite(d))).toBe(true);
    expect(finite('ps')).toBeCloseTo(2, 12); // E[S]/(1 − ρ)
    expect(finite('sprpt')).toBeCloseTo(finite('srpt'), 8);
    for (const p of ['exp', 'uniform:0.5']) expect(Number.isFinite(finite('pspjf', p))).toBe(true);
  });

  it('the disciplines that need E[S²] are ∞ at pareto:1.5 (FIFO, SJF, SPJF) and finite at pareto:2.5, SPRPT exp too', () => {
    for (const discipline of ['fifo', 'sjf', 'spjf', 'sprpt'] as const) {
      const prediction = discipline === 'sprpt' ? 'exp' : 'exact';
      expect(mg1(model({ lambda: 0.5, discipline, service: 'pareto:1.5', prediction })).meanResponseTime).toBe(Infinity);
      const r = mg1(model({ lambda: 0.5, discipline, service: 'pareto:2.5', prediction }));
      expect(Number.isFinite(r.meanResponseTime), discipline).toBe(true);
    }
  });
});
