/**
 * M/G/1 with known sizes: FIFO (Pollaczek–Khinchine), SJF, PSJF, SRPT. Per size x, with ρ(x) = λE[S·1(S ≤ x)],
 * ρ(x⁻) = λE[S·1(S < x)], m₂(x) = λE[S²·1(S ≤ x)] (ρ(x⁻) = ρ(x) unless x is an atom; equal sizes are served FIFO,
 * so a job waits behind its own class but is preempted only by strictly smaller ones):
 *   FIFO: x + λE[S²]/(2(1 − ρ))
 *   SJF:  x + λE[S²]/(2(1 − ρ(x))(1 − ρ(x⁻)))
 *   PSJF: m₂(x)/(2(1 − ρ(x))(1 − ρ(x⁻))) + x/(1 − ρ(x⁻))
 *   SRPT: (m₂(x) + λx²P(S > x))/(2(1 − ρ(x))(1 − ρ(x⁻))) + ∫₀^x dt/(1 − ρ(t))
 * Source: theory.md §7 (continuous case); Kleinrock, Queueing Systems II (1976) §3 (priority classes, which give
 * the (1 − ρ(x))(1 − ρ(x⁻)) form at atoms); Schrage & Miller, Oper. Res. 14(4), 1966 (SRPT); Scully et al., SOAP,
 * POMACS 2(1), 2018, Thm 5.5 (the same three from one formula).
 */
import type { Discipline } from '../../model/model.ts';
import { integrate } from '../../numerics/quadrature.ts';
import { countAtMost } from '../../stats/bisect.ts';
import type { SizeLaw } from './sizeLaw.ts';

export type KnownSizeDiscipline = Extract<Discipline, 'fifo' | 'sjf' | 'psjf' | 'srpt'>;

/** Means of one discipline with their quadrature error estimates (absolute, time units). */
export interface Mg1Means {
  meanResponseTime: number;
  responseTimeError: number;
  /** E[T/S]; Infinity when it diverges (`slowdownFinite` false). */
  meanSlowdown: number;
  slowdownError: number;
  slowdownFinite: boolean;
  evaluations: number;
  converged: boolean;
}

const INNER_TOLERANCE = 1e-13;

/** Φ(x) = ∫₀^x dt/(1 − ρ(t)): prefix sums over the atoms of a discrete law, else adaptive G7K15. */
export class SrptAging {
  private readonly xs?: Float64Array;
  private readonly cum?: Float64Array;
  private readonly rhoAt?: Float64Array;
  /** Largest relative error estimate of the quadratures so far. */
  maxRelativeError = 0;
  evaluations = 0;

  constructor(private readonly law: SizeLaw) {
    if (law.atoms) {
      const k = law.atoms.length;
      this.xs = Float64Array.from(law.atoms, (a) => a.x);
      this.rhoAt = new Float64Array(k);
      this.cum = new Float64Array(k);
      let rho = 0;
      for (let i = 0; i < k; i++) {
        this.cum[i] =
          (i === 0 ? 0 : this.cum[i - 1]) + (this.xs[i] - (i === 0 ? 0 : this.xs[i - 1])) / (1 - (i === 0 ? 0 : this.rhoAt[i - 1]));
        rho += law.lambda * law.atoms[i].x * law.atoms[i].p;
        this.rhoAt[i] = rho;
      }
    }
  }

  phi(x: number): number {
    if (!(x > 0)) return 0;
    if (this.xs && this.cum && this.rhoAt) {
      const lo = countAtMost(this.xs, x); // atoms ≤ x
      if (lo === 0) return x;
      return this.cum[lo - 1] + (x - this.xs[lo - 1]) / (1 - this.rhoAt[lo - 1]);
    }
    const law = this.law;
    const lower = law.dist.quantile(0);
    const r = integrate((t) => 1 / (1 - law.rho(t)), 0, x, { relTolerance: INNER_TOLERANCE, breakpoints: lower > 0 ? [lower] : [] });
    this.evaluations += r.evaluations;
    if (r.value !== 0) this.maxRelativeError = Math.max(this.maxRelativeError, r.error / Math.abs(r.value));
    return r.value;
  }
}

/**
 * E[T(x)] of a known-size discipline at size x (time units), by the formulas above.
 * @param aging Φ for SRPT (built once per law and reused).
 */
export function knownSizeResponseTimeAt(law: SizeLaw, discipline: KnownSizeDiscipline, x: number, aging?: SrptAging): number {
  const halfLambdaS2 = 0.5 * law.lambda * law.secondMoment;
  if (discipline === 'fifo') return x + halfLambdaS2 / (1 - law.lambda * law.mean);
  const rho = law.rho(x);
  const rhoBefore = law.rhoBefore(x);
  const denominator = (1 - rho) * (1 - rhoBefore);
  switch (discipline) {
    case 'sjf':
      return x + halfLambdaS2 / denominator;
    case 'psjf':
      return law.m2(x) / (2 * denominator) + x / (1 - rhoBefore);
    case 'srpt':
      return (law.m2(x) + law.lambda * x * x * law.ccdf(x)) / (2 * denominator) + (aging ?? new SrptAging(law)).phi(x);
  }
}

/**
 * E[T] = E[T(S)] and E[T/S] for FIFO, SJF, PSJF, SRPT; E[T/S] = Infinity when E[1/S] = ∞ and E[T(x)] stays
 * positive as x → 0 (FIFO, SJF); PSJF and SRPT have E[T(x)] = O(x) there, so their slowdown is finite.
 */
export function knownSizeMeans(law: SizeLaw, discipline: KnownSizeDiscipline, relTolerance: number): Mg1Means {
  const slowdownFinite = law.inverseMomentFinite || discipline === 'psjf' || discipline === 'srpt';
  const aging = new SrptAging(law);
  const r = law.expect(
    (x, out) => {
      const t = knownSizeResponseTimeAt(law, discipline, x, aging);
      out[0] = t;
      out[1] = slowdownFinite ? t / x : 0;
    },
    2,
    { relTolerance },
  );
  const inner = aging.maxRelativeError;
  // FIFO: E[T] = E[S] + λE[S²]/(2(1 − ρ)) in closed form (Pollaczek–Khinchine); the quadrature is for E[T/S].
  const fifo = discipline === 'fifo';
  return {
    meanResponseTime: fifo ? knownSizeResponseTimeAt(law, 'fifo', law.mean) : r.value[0],
    responseTimeError: fifo ? 0 : r.error[0] + inner * Math.abs(r.value[0]),
    meanSlowdown: slowdownFinite ? r.value[1] : Infinity,
    slowdownError: slowdownFinite ? r.error[1] + inner * Math.abs(r.value[1]) : 0,
    slowdownFinite,
    evaluations: r.evaluations + aging.evaluations,
    converged: r.converged,
  };
}
