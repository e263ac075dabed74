import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/model.ts';
import { checkRhoD } from '../../src/meanfield/support.ts';
import { sqdTruncationLevel } from '../../src/meanfield/sqd.ts';
import { sqdkFixedPoint } from '../../src/meanfield/batch.ts';
import { ipPi0 } from '../../src/meanfield/memory/pi0.ts';
import { refinementBase } from '../../src/meanfield/refined.ts';
import { solveSqdFixedPoint } from '../../src/meanfield/fixedPoint.ts';
import { lwlTransientGrid } from '../../src/meanfield/lwl/transient.ts';

/** The message `f` throws (fails the test when it does not throw). */
function message(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected a throw');
}

// Messages write the load and the arrival rate as ρ and λ (README, docs, figures); the ASCII words were a leftover.
const ASCII = /\b(rho|lambda)\b/;

describe('error messages name the load ρ and the arrival rate λ in Greek', () => {
  const cases: [string, () => unknown, RegExp][] = [
    ['unstable load', () => parseModel({ lambda: 1, d: 2 }), /^unstable load: ρ = λ·E\[S\] = 1 ≥ 1/],
    ['unstable load, E[S] = 2', () => parseModel({ lambda: 0.6, d: 2, service: 'exp@2' }), /ρ = λ·E\[S\] = 1\.2 ≥ 1/],
    ['no arrivals', () => parseModel({ lambda: 0, d: 2 }), /^λ must be > 0, got λ = 0$/],
    [
      'heterogeneous, whole system',
      () => parseModel({ lambda: 1.6, d: 2, servers: { speeds: [1, 2] } }),
      /^unstable load: ρ = λ·E\[S\]\/Σ f·speed/,
    ],
    [
      'heterogeneous, one class',
      () => parseModel({ lambda: 0.5, d: 2, servers: { speeds: [0.1, 10], fractions: [0.9, 0.1] } }),
      /at least λ·E\[S\]·/,
    ],
    ['kernel load', () => checkRhoD(1.5, 2), /^the load ρ = λ·E\[S\] must lie in \(0, 1\), got ρ = 1\.5$/],
    ['kernel load not finite', () => checkRhoD(NaN, 2), /^the load ρ must be a finite number/],
    ['truncation cap', () => sqdTruncationLevel(0.99, 1, 1e-15, 10), /\(d = 1, ρ = 0\.99,/],
    ['batch kernel', () => sqdkFixedPoint(1.2, 2, 2), /^the load ρ = 1\.2 must lie in \(0, 1\)$/],
    ['memory π₀', () => ipPi0(1, 2), /^the load ρ must lie in \[0, 1\), got ρ = 1$/],
    [
      'refinement of another model',
      () => refinementBase(parseModel({ lambda: 0.8, d: 2 }), { fixedPoint: solveSqdFixedPoint(parseModel({ lambda: 0.9, d: 2 })) }),
      /fixedPoint is for λ = 0\.9, d = 2, not the model's λ = 0\.8/,
    ],
    ['LWL transient step', () => lwlTransientGrid(parseModel({ lambda: 0.9, d: 2, selection: 'lwl' }), { step: 0.6 }), /λ·d·step ≤ 1/],
  ];
  for (const [name, f, expected] of cases) {
    it(`${name}: ${expected.source}`, () => {
      const m = message(f);
      expect(m).toMatch(expected);
      expect(m).not.toMatch(ASCII);
    });
  }
});
