/**
 * M/G/1-PS and M/G/1-FB (LAS) means (src/meanfield/mg1/sharing.ts) against values computed another way: PS's
 * E[S]/(1 − ρ); FB for exponential sizes = PS's 1/(1 − ρ) (Kleinrock's check); FB for deterministic sizes in closed
 * form (every job ties: λD²/(2(1 − ρ)²) + D/(1 − ρ)); FB for hyperexponential sizes with ρ_x and m₂(x) written out
 * for an exponential mixture and E[T(S)] by composite Simpson in x, independent of the law's partial moments and
 * of its quadrature.
 */
import { describe, expect, it } from 'vitest';
import { balancedH2, serviceDistribution } from '../../src/model/service/index.ts';
import { parseModel } from '../../src/model/index.ts';
import { sharingMeans, sharingResponseTimeAt } from '../../src/meanfield/mg1/sharing.ts';
import { SizeLaw } from '../../src/meanfield/mg1/sizeLaw.ts';

const lawOf = (service: string, lambda: number) => new SizeLaw(parseModel({ lambda, d: 1, selection: 'random', service }).service, lambda);
const close = (a: number, b: number) => expect(Math.abs(a - b) / Math.abs(b), `${a} vs ${b}`).toBeLessThan(1e-6);

/** FB mean for a balanced H2 with closed-form truncated moments and Simpson in x (N intervals on [0, X]). */
function fbHyperexp(lambda: number, scv: number): number {
  const { p1, p2, mu1, mu2 } = balancedH2(1, scv);
  const ps = [p1, p2];
  const mus = [mu1, mu2];
  const T = (x: number) => {
    let intF = 0;
    let intTF = 0;
    for (let i = 0; i < 2; i++) {
      const e = Math.exp(-mus[i] * x);
      intF += (ps[i] * (1 - e)) / mus[i];
      intTF += ps[i] * (1 / mus[i] ** 2 - e * (x / mus[i] + 1 / mus[i] ** 2));
    }
    const rho = lambda * intF;
    return (lambda * 2 * intTF) / (2 * (1 - rho) ** 2) + x / (1 - rho);
  };
  const g = (x: number) => ps[0] * mus[0] * Math.exp(-mus[0] * x) + ps[1] * mus[1] * Math.exp(-mus[1] * x);
  const X = 80 / Math.min(mu1, mu2);
  const N = 400_000;
  const h = X / N;
  let sum = T(0) * g(0) + T(X) * g(X);
  for (let k = 1; k < N; k++) sum += (k % 2 === 1 ? 4 : 2) * T(k * h) * g(k * h);
  return (sum * h) / 3;
}

describe('M/G/1-PS and M/G/1-FB means', () => {
  for (const service of ['exp', 'hyperexp:10', 'weibull:0.5', 'det']) {
    it(`PS: E[T] = E[S]/(1 − ρ) and E[T/S] = 1/(1 − ρ) (${service}, λ = 0.7)`, () => {
      const law = lawOf(service, 0.7);
      const m = sharingMeans(law, 'ps', 1e-10);
      close(m.meanResponseTime, 1 / 0.3);
      close(m.meanSlowdown, 1 / 0.3);
    });
  }

  it('FB with exponential sizes has the PS mean 1/(1 − ρ) at λ = 0.5, 0.9', () => {
    for (const lambda of [0.5, 0.9]) close(sharingMeans(lawOf('exp', lambda), 'las', 1e-10).meanResponseTime, 1 / (1 - lambda));
  });

  it('FB with deterministic sizes: λD²/(2(1 − ρ)²) + D/(1 − ρ)', () => {
    const lambda = 0.8;
    close(sharingMeans(lawOf('det', lambda), 'las', 1e-10).meanResponseTime, lambda / (2 * 0.2 ** 2) + 1 / 0.2);
  });

  it('FB with hyperexponential (SCV 10) sizes against closed-form truncated moments and Simpson', () => {
    const lambda = 0.8;
    close(sharingMeans(lawOf('hyperexp:10', lambda), 'las', 1e-10).meanResponseTime, fbHyperexp(lambda, 10));
  });

  it('FB E[T(x)] → x as x → 0 and ~ x/(1 − ρ) for large x (Weibull ½)', () => {
    const law = lawOf('weibull:0.5', 0.7);
    expect(sharingResponseTimeAt(law, 'las', 1e-9) / 1e-9).toBeCloseTo(1, 5);
    const big = 1e4;
    expect(sharingResponseTimeAt(law, 'las', big) / big).toBeCloseTo(1 / 0.3, 2);
    expect(serviceDistribution(law.spec).mean).toBeCloseTo(1, 12);
  });
});
