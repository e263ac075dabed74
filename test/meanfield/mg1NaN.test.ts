/**
 * No NaN from the M/G/1 formulas (honesty): `mg1 --all --lambda 0.99 --service weibull:0.1 --prediction exp` printed
 * E[T/S] = NaN for PSPJF. Weibull k = 0.1 has its lower size cut near 2.8e-178, and the slowdown density
 * E[f_R(y/S)/S²] was computed as f/(s·s): s·s underflows to 0, f/0 = NaN (0/0) or ∞. The inner integrals now carry
 * the bounded y²·f_{−1}(y) and y·f_0(y) (predicted.ts `PredictedValues`); mg1 refuses a finite-in-theory E[T/S] that
 * is not a number. Measured once: PSPJF E[T/S] = 1.4968340470147843 at λ = 0.99, and an independent double
 * integral over (S, R) of E[T(S, Y)/S] (the E[T(x, y)] formula, no densities) gave 1.4968340470147814.
 */
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { mg1 } from '../../src/meanfield/mg1/index.ts';
import { SizeLaw } from '../../src/meanfield/mg1/sizeLaw.ts';
import { noiseLaw } from '../../src/meanfield/mg1/noise.ts';
import { PredictedIntegrals } from '../../src/meanfield/mg1/predicted.ts';
import { integrate } from '../../src/numerics/quadrature.ts';

const model = (lambda: number, discipline: 'pspjf' | 'spjf' | 'sprpt', service: string) =>
  parseModel({ d: 1, selection: 'random', lambda, discipline, service, prediction: 'exp' });

describe('mg1 predicted disciplines: never NaN', () => {
  it('the scaled densities are finite down to the smallest sizes of weibull:0.1 and equal y²·f_{−1}, y·f_0', () => {
    const m = model(0.5, 'pspjf', 'weibull:0.1');
    const law = new SizeLaw(m.service, m.lambda);
    expect(law.xLo).toBeLessThan(1e-160); // s·s underflows here
    const ints = new PredictedIntegrals(law, noiseLaw(m.prediction));
    for (const y of [1e-190, 1e-170, 1e-100, 1e-20, 1, 100]) {
      const st = ints.state(y);
      for (const [k, v] of Object.entries(st)) if (k !== 'err') expect(Number.isFinite(v), `${k} at y = ${y}`).toBe(true);
      expect(st.fm1).toBeGreaterThanOrEqual(0);
      expect(st.f0).toBeGreaterThanOrEqual(0);
    }
    // independent: E[f_R(y/S)/S^j]·y^{j+1} at y = 1 over S = θ·E^{1/k}, E ~ Exp(1), e = exp(t), f_R(r) = e^{−r}
    const k = 0.1;
    const theta = 1 / 3628800; // 1/Γ(1 + 1/k) = 1/10!
    const at = (j: number) =>
      integrate(
        (t) => {
          const s = theta * Math.exp(t / k);
          return Math.exp(t - Math.exp(t) - 1 / s - j * Math.log(s)); // one exp: e^{−1/s}·s^{−j} is 0·∞ at s ~ 1e-178;
        },
        -39,
        3.9,
        { relTolerance: 1e-10 },
      ).value;
    const st = ints.state(1);
    expect(st.fm1).toBeCloseTo(at(2), 10);
    expect(st.f0).toBeCloseTo(at(1), 10);
  });

  it('PSPJF at weibull:0.1, λ = 0.99, exp predictions: E[T/S] a finite number ≥ 1 that met its tolerance', () => {
    const r = mg1(model(0.99, 'pspjf', 'weibull:0.1'), { relTolerance: 1e-8 });
    expect(r.slowdownFinite).toBe(true);
    expect(Number.isFinite(r.meanSlowdown)).toBe(true);
    expect(r.meanSlowdown).toBeGreaterThanOrEqual(1);
    expect(r.meanSlowdown).toBeLessThan(1 / (1 - 0.99));
    expect(r.diagnostics.slowdownQuadratureError / r.meanSlowdown).toBeLessThan(1e-6);
    expect(r.diagnostics.converged).toBe(true);
  });
});
