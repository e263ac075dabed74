/**
 * Heavy traffic (issue 20 §5): with exponential sizes of mean 1, −E[W]/log(1 − λ) tends to 1/log d for SQ(d) FIFO
 * (Mitzenmacher 2001: E[T] ~ log(1/(1 − λ))/log d) and to 1/(d − 1) for LL(d) FIFO (Hellemans & Van Houdt 2018:
 * E[T] = Σ_n λ^{dn}/(1 + n(d − 1))). The approach is slow: −E[W] = L/c − C + o(1) with L = log(1/(1 − λ)), so the
 * ratio misses its limit by C/L (about 17 % at λ = 0.9999, SQ(2)). The test asks of the solvers (solveMeanField) at
 * λ = 0.99, 0.999, 0.9999 that the ratio rises monotonically, that the gap times L settles (C constant: the gap shrinks
 * as 1/L and nothing else), and that the two-point extrapolation r = a − C/L of the two largest λ gives the limit a
 * within 2 %; the gap at λ = 0.9999 itself is below 25 %.
 */
import { describe, expect, it } from 'vitest';
import { solveMeanField } from '../../src/meanfield/solve.ts';
import { parseModel } from '../../src/model/index.ts';

const LAMBDAS = [0.99, 0.999, 0.9999];

function ratios(selection: 'jsq' | 'lwl', d: number): { L: number; r: number }[] {
  return LAMBDAS.map((lambda) => {
    const s = solveMeanField(parseModel({ lambda, d, selection }));
    expect(s.kind).toBe('exact');
    const L = -Math.log1p(-lambda);
    return { L, r: (s.meanResponseTime - 1) / L };
  });
}

describe('heavy traffic: −E[W]/log(1 − λ) → 1/log d (SQ(d)) and 1/(d − 1) (LL(d)) as λ → 1', () => {
  for (const [selection, limit, name] of [
    ['jsq', (d: number) => 1 / Math.log(d), '1/log d'],
    ['lwl', (d: number) => 1 / (d - 1), '1/(d − 1)'],
  ] as const) {
    for (const d of [2, 3, 5]) {
      it(`${selection === 'jsq' ? 'SQ' : 'LL'}(${d}): the ratio rises to ${name} = ${limit(d).toFixed(4)} at the rate C/log(1/(1 − λ))`, () => {
        const a = limit(d);
        const pts = ratios(selection, d);
        for (let i = 1; i < pts.length; i++) expect(pts[i].r).toBeGreaterThan(pts[i - 1].r);
        for (const p of pts) expect(p.r).toBeLessThan(a);
        const C = pts.map((p) => (a - p.r) * p.L);
        expect(Math.abs(C[2] - C[1]) / C[2]).toBeLessThan(0.05);
        const [p1, p2] = pts.slice(1);
        const extrapolated = (p2.r * p2.L - p1.r * p1.L) / (p2.L - p1.L);
        expect(Math.abs(extrapolated - a) / a).toBeLessThan(0.02);
        expect((a - p2.r) / a).toBeLessThan(0.25);
      });
    }
  }
});

/**
 * Batches of K spread over the K best of d (Hellemans' thesis §8; theory.md §15): −E[W]/log(1 − λ) → K/(d − K) for
 * LL(d,K) and 1/log(d/K) for SQ(d,K). The same structure as above, further out (the recursions and the quadrature
 * reach λ = 1 − 10⁻⁹ cheaply): at λ = 1 − 10⁻³, 10⁻⁴, 10⁻⁶, 10⁻⁹ the ratio rises monotonically below its limit, the
 * gap times L settles (C of the 10⁻⁶ and 10⁻⁹ points within 0.1 %: the gap shrinks as C/L and nothing else), and the
 * two-point extrapolation of those points gives the limit within 0.1 %; the gap at 10⁻⁹ itself is below 15 %.
 */
describe('heavy traffic with batches: −E[W]/log(1 − λ) → K/(d − K) (LL(d,K)) and 1/log(d/K) (SQ(d,K))', () => {
  const EXPONENTS = [3, 4, 6, 9];
  for (const [selection, limit, name] of [
    ['lwl', (d: number, K: number) => K / (d - K), 'K/(d − K)'],
    ['jsq', (d: number, K: number) => 1 / Math.log(d / K), '1/log(d/K)'],
  ] as const) {
    for (const [d, K] of [
      [3, 2],
      [4, 2],
      [6, 3],
    ]) {
      it(`${selection === 'jsq' ? 'SQ' : 'LL'}(${d},${K}): the ratio rises to ${name} = ${limit(d, K).toFixed(4)} at the rate C/log(1/(1 − λ))`, () => {
        const a = limit(d, K);
        const pts = EXPONENTS.map((e) => {
          const lambda = 1 - 10 ** -e;
          const s = solveMeanField(parseModel({ lambda, d, selection, batch: K }));
          expect(s.solver).toMatch(selection === 'jsq' ? /SQ\(d,K\)/ : /LL\(d,K\)/);
          const L = -Math.log1p(-lambda);
          return { L, r: (s.meanResponseTime - 1) / L };
        });
        for (let i = 1; i < pts.length; i++) expect(pts[i].r).toBeGreaterThan(pts[i - 1].r);
        for (const p of pts) expect(p.r).toBeLessThan(a);
        const C = pts.map((p) => (a - p.r) * p.L);
        expect(Math.abs(C[3] - C[2]) / C[3]).toBeLessThan(1e-3);
        const [p1, p2] = pts.slice(2);
        const extrapolated = (p2.r * p2.L - p1.r * p1.L) / (p2.L - p1.L);
        expect(Math.abs(extrapolated - a) / a).toBeLessThan(1e-3);
        expect((a - p2.r) / a).toBeLessThan(0.15);
      });
    }
  }
});
