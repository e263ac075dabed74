/**
 * M/G/1 with predicted sizes Y = S·R: SPJF, PSPJF, SPRPT. With ρ_y = λE[S·1(Y < y)], ρ≤_y = λE[S·1(Y ≤ y)],
 * M_y = λE[S²·1(Y ≤ y)], J_y = λE[((S − (Y − y))^+)²·1(Y > y)] (ρ≤ = ρ except at atoms of Y):
 *   SPJF:  E[T(x,y)] = x + λE[S²]/(2(1 − ρ≤_y)(1 − ρ_y))
 *   PSPJF: E[T(x,y)] = M_y/(2(1 − ρ≤_y)(1 − ρ_y)) + x/(1 − ρ_y)
 *   SPRPT: E[T(x,y)] = (M_y + J_y)/(2(1 − ρ≤_y)(1 − ρ_y)) + ∫₀^x da/(1 − ρ_{(y−a)^+})
 * Means are not computed as the triple integral ∫∫E[T(x,y)]dP(y|x)dG(x) but reordered into double integrals:
 *   E[h(Y)·S^k] = ∫ h(y)·E[S^{k−1} f_R(y/S)] dy (continuous R) or E[h(S)S^k] (R ≡ 1), and, by Fubini,
 *   E[∫₀^S da/(1 − ρ_{(Y−a)^+})] = E[S]·E[(1 − R)^+] + ∫₀^∞ P(Y − S < z < Y)/(1 − ρ_z) dz.
 * Source: theory.md §7 "Predictions"; Mitzenmacher, ITCS 2020 (arXiv:1902.00732); Scully, Harchol-Balter,
 * Scheller-Wolf, SOAP, POMACS 2(1), 2018, Thm 5.5 (ρ≤ for old jobs, ρ for new ones).
 */
import type { Discipline } from '../../model/model.ts';
import type { Mg1Means } from './knownSize.ts';
import type { NoiseLaw } from './noise.ts';
import { integrateVector } from '../../numerics/quadrature.ts';
import { refineGrid, sortedUnique, type SizeLaw } from './sizeLaw.ts';

export type PredictedDiscipline = Extract<Discipline, 'spjf' | 'pspjf' | 'sprpt'>;

/** Inner expectations over S: values below 1e-20 cannot move an O(1) result; a cap keeps rounding noise finite. */
const INNER_OPTIONS = { relTolerance: 1e-12, absTolerance: 1e-20, maxIntervals: 500 };
/** Atoms beyond this many are not used as breakpoints (the adaptive rule then finds the jumps itself). */
const MAX_ATOM_BREAKPOINTS = 64;

/**
 * The y-dependent quantities of the formulas; the densities f_k(y) = E[S^{k−1} f_R(y/S)] only for continuous R, the
 * first two scaled to bounded quantities: `fm1` = y²·f_{−1}(y) = E[c²f_R(c)], `f0` = y·f_0(y) = E[c·f_R(c)], c = y/S
 * (f_{−1} itself overflows for tiny y and sizes, e.g. Weibull k = 0.1, whose xLo is ~1e-178: f/S² was 0/0 = NaN).
 */
export interface PredictedValues {
  rho: number;
  rhoLe: number;
  M: number;
  J: number;
  fm1: number;
  f0: number;
  f1: number;
}
/** Values with their absolute inner-quadrature error estimates (`err`, same fields). */
export interface PredictedState extends PredictedValues {
  err: PredictedValues;
}

/** Computes ρ_y, ρ≤_y, M_y, J_y and the densities by one vector expectation over S, with error estimates. */
export class PredictedIntegrals {
  evaluations = 0;

  constructor(
    readonly law: SizeLaw,
    readonly noise: NoiseLaw,
  ) {}

  /** Sizes s at which y/s or z/s crosses a breakpoint of R (and of R − 1), for the inner integrals. */
  private sizeBreaks(y: number): number[] {
    const out: number[] = [];
    for (const r of this.noise.breakpoints) {
      if (r > 0) out.push(y / r);
      if (r > 1) out.push(y / (r - 1));
    }
    return out;
  }

  state(y: number): PredictedState {
    const { noise, law } = this;
    const continuous = !noise.pointMass;
    const r = law.expect(
      (s, o) => {
        const c = y / s;
        o[0] = s * noise.cdfStrict(c);
        const le = noise.cdf(c);
        o[1] = s * le;
        o[2] = s * s * le;
        o[3] = s * s * noise.j(c);
        const f = continuous ? noise.density(c) : 0;
        o[4] = f === 0 ? 0 : c * c * f;
        o[5] = f === 0 ? 0 : c * f;
        o[6] = f;
      },
      7,
      { ...INNER_OPTIONS, breakpoints: this.sizeBreaks(y) },
    );
    this.evaluations += r.evaluations;
    const l = law.lambda;
    const pack = (v: Float64Array): PredictedValues => ({
      rho: l * v[0],
      rhoLe: l * v[1],
      M: l * v[2],
      J: l * v[3],
      fm1: v[4],
      f0: v[5],
      f1: v[6],
    });
    return { ...pack(r.value), err: pack(r.error) };
  }

  /** ρ_z and D_k(z) = E[S^k·P(z/S < R ≤ 1 + z/S)] for k = 0, −1 (the SPRPT aging term), each with its error. */
  aging(z: number): { rho: number; d0: number; dm1: number; err: { rho: number; d0: number; dm1: number } } {
    const { noise, law } = this;
    const r = law.expect(
      (s, o) => {
        const c = z / s;
        o[0] = s * noise.cdfStrict(c);
        const p = noise.ccdf(c) - noise.ccdf(1 + c);
        o[1] = p;
        o[2] = p / s;
      },
      3,
      { ...INNER_OPTIONS, breakpoints: this.sizeBreaks(z) },
    );
    this.evaluations += r.evaluations;
    const e = r.error;
    return { rho: law.lambda * r.value[0], d0: r.value[1], dm1: r.value[2], err: { rho: law.lambda * e[0], d0: e[1], dm1: e[2] } };
  }

  /** Split points in ln y for outer integrals over y (or z): the size grid shifted by R's median, R's kinks at atoms. */
  outerLogGrid(): number[] {
    const { law, noise } = this;
    const v: number[] = [];
    const lnMid = Math.log(noise.rMid);
    v.push(Math.log(law.xLo * noise.rLo), Math.log(law.xHi * noise.rHi));
    if (law.atoms) {
      const step = Math.max(1, Math.floor(law.atoms.length / MAX_ATOM_BREAKPOINTS));
      for (let i = 0; i < law.atoms.length; i += step) {
        const x = law.atoms[i].x;
        if (!(x > 0)) continue;
        v.push(Math.log(x) + lnMid);
        if (law.atoms.length <= MAX_ATOM_BREAKPOINTS) {
          for (const r of [...noise.breakpoints, ...noise.breakpoints.map((b) => b - 1)]) if (r > 0) v.push(Math.log(x * r));
        }
      }
    } else {
      for (const u of law.logGrid) v.push(u + lnMid);
      const lower = law.dist.quantile(0);
      for (const edge of [lower, law.dist.supportMax]) {
        if (edge > 0 && Number.isFinite(edge)) for (const r of noise.breakpoints) if (r > 0) v.push(Math.log(edge * r));
      }
    }
    const lo = Math.log(law.xLo * noise.rLo),
      hi = Math.log(law.xHi * noise.rHi);
    return refineGrid(sortedUnique(v.filter((u) => u >= lo && u <= hi)), 2);
  }
}

/** Whether E[T/S] is finite: SPJF needs E[1/S] < ∞; SPRPT too unless R ≥ 1 a.s. (then J_0 = 0); PSPJF always. */
export function predictedSlowdownFinite(law: SizeLaw, noise: NoiseLaw, discipline: PredictedDiscipline): boolean {
  if (law.inverseMomentFinite || discipline === 'pspjf') return true;
  return discipline === 'sprpt' && noise.pointMass;
}

/**
 * Coefficients with E[T(x,y)] = a(y) + x·b(y) for the y-dependent part of the formula, and first-order bounds
 * (da, db) of their error from the inner errors of ρ, ρ≤, M, J.
 */
function split(law: SizeLaw, discipline: PredictedDiscipline, st: PredictedState): { a: number; b: number; da: number; db: number } {
  const w = 1 / ((1 - st.rhoLe) * (1 - st.rho));
  const dw = w * (st.err.rhoLe / (1 - st.rhoLe) + st.err.rho / (1 - st.rho));
  switch (discipline) {
    case 'spjf': {
      const c = 0.5 * law.lambda * law.secondMoment;
      return { a: c * w, b: 1, da: c * dw, db: 0 };
    }
    case 'pspjf': {
      const b = 1 / (1 - st.rho);
      return { a: 0.5 * st.M * w, b, da: 0.5 * (st.err.M * w + st.M * dw), db: b * b * st.err.rho };
    }
    case 'sprpt':
      return { a: 0.5 * (st.M + st.J) * w, b: 0, da: 0.5 * ((st.err.M + st.err.J) * w + (st.M + st.J) * dw), db: 0 };
  }
}

/** Outer components: 0, 1 = E[T] and E[T/S] integrands; 2, 3 = their propagated inner errors (loose tolerance). */
const OUTER_TOLERANCES = (rel: number) => [rel, rel, 0.5, 0.5];

/**
 * E[T] and E[T/S] of SPJF, PSPJF or SPRPT (time units), by the reordered double integrals above.
 * @param relTolerance relative tolerance of the outer quadratures (the inner ones use 1e-12).
 */
export function predictedMeans(law: SizeLaw, noise: NoiseLaw, discipline: PredictedDiscipline, relTolerance: number): Mg1Means {
  const ints = new PredictedIntegrals(law, noise);
  const slowdownFinite = predictedSlowdownFinite(law, noise, discipline);
  const sf = slowdownFinite ? 1 : 0;
  const options = { relTolerance, componentRelTolerances: OUTER_TOLERANCES(relTolerance) };
  let meanT = 0,
    slow = 0,
    errT = 0,
    errS = 0,
    evaluations = 0,
    converged = true;
  const add = (r: { value: Float64Array; error: Float64Array; evaluations: number; converged: boolean }) => {
    meanT += r.value[0];
    slow += r.value[1];
    errT += r.error[0] + r.value[2];
    errS += r.error[1] + r.value[3];
    evaluations += r.evaluations;
    converged &&= r.converged;
  };
  if (noise.pointMass) {
    // R ≡ 1: Y = S; outer over the size law.
    add(
      law.expect(
        (s, o) => {
          const { a, b, da, db } = split(law, discipline, ints.state(s));
          o[0] = a + s * b;
          o[1] = sf * (a / s + b);
          o[2] = da + s * db;
          o[3] = sf * (da / s + db);
        },
        4,
        options,
      ),
    );
  } else {
    const pspjf = discipline === 'pspjf' ? 1 : 0; // b·E[S f_R(y/S)/S] = b·f1; SPJF's b = 1 is E[S], added below
    add(
      integrateVector(
        (u, o) => {
          const y = Math.exp(u);
          const st = ints.state(y);
          const { a, b, da, db } = split(law, discipline, st);
          const e = st.err;
          // st.f0 = y·f_0(y), st.fm1 = y²·f_{−1}(y) (scaled, see PredictedValues)
          o[0] = a * st.f0 + pspjf * b * y * st.f1;
          o[1] = sf * ((a / y) * st.fm1 + pspjf * b * st.f0);
          o[2] = da * st.f0 + a * e.f0 + pspjf * (db * y * st.f1 + b * y * e.f1);
          o[3] = sf * ((da / y) * st.fm1 + (a / y) * e.fm1 + pspjf * (db * st.f0 + b * e.f0));
        },
        4,
        ints.outerLogGrid(),
        options,
      ),
    );
    if (discipline === 'spjf') {
      meanT += law.mean;
      slow += 1;
    }
  }
  if (discipline === 'sprpt') {
    const grid = ints.outerLogGrid();
    const breaks =
      noise.pointMass && law.atoms && law.atoms.length <= MAX_ATOM_BREAKPOINTS
        ? law.atoms.filter((a) => a.x > 0).map((a) => Math.log(a.x))
        : [];
    const agingTerm = (z: number, jacobian: number, o: Float64Array) => {
      const g = ints.aging(z);
      const q = 1 / (1 - g.rho);
      o[0] = jacobian * g.d0 * q;
      o[1] = sf * jacobian * g.dm1 * q;
      o[2] = jacobian * (g.err.d0 * q + g.d0 * q * q * g.err.rho);
      o[3] = sf * jacobian * (g.err.dm1 * q + g.dm1 * q * q * g.err.rho);
    };
    // z in (0, z0): linear variable (D(z) does not vanish there, e.g. P(S > z) = 1 below the smallest atom);
    // z in (z0, ∞): v = ln z over the outer grid.
    const z0 = Math.exp(grid[0]);
    const linearBreaks = breaks.map(Math.exp).filter((b) => b < z0);
    add(integrateVector((z, o) => agingTerm(z, 1, o), 4, [0, ...linearBreaks, z0], options));
    add(
      integrateVector(
        (u, o) => agingTerm(Math.exp(u), Math.exp(u), o),
        4,
        sortedUnique([...grid, ...breaks.filter((b) => b > grid[0] && b < grid[grid.length - 1])]),
        options,
      ),
    );
    meanT += law.mean * noise.meanShortfall;
    slow += noise.meanShortfall;
  }
  return {
    meanResponseTime: meanT,
    responseTimeError: errT,
    meanSlowdown: slowdownFinite ? slow : Infinity,
    slowdownError: slowdownFinite ? errS : 0,
    slowdownFinite,
    evaluations: evaluations + ints.evaluations,
    converged,
  };
}
