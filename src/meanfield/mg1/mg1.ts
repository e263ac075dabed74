/**
 * Exact single-queue baselines (d = 1, each server an M/G/1): mean response time, mean slowdown and mean workload
 * for all seven disciplines, with and without predictions, by numerical quadrature with error estimates.
 * Source: theory.md §7; Kleinrock, Queueing Systems II, 1976; Schrage & Miller, Oper. Res. 14(4), 1966;
 * Harchol-Balter, Performance Modeling and Design of Computer Systems, 2013; Mitzenmacher, ITCS 2020
 * (arXiv:1902.00732); Scully et al., SOAP, POMACS 2(1), 2018.
 */
import { memoryNotHere, modelHasMemory } from '../../model/memory.ts';
import { requirePoissonLimit } from '../../model/arrivals.ts';
import { requireBaseModel } from '../support.ts';
import { ConvergenceError, InvalidModelError } from '../../errors.ts';
import { DISCIPLINE_TABLE, unknownPolicy, type Discipline, type SupermarketModel } from '../../model/model.ts';
import { estimandFiniteness } from '../../model/moments.ts';
import { VERSION, codeId } from '../../version.ts';
import { knownSizeMeans, knownSizeResponseTimeAt, SrptAging, type KnownSizeDiscipline, type Mg1Means } from './knownSize.ts';
import { noiseLaw, type NoiseLaw } from './noise.ts';
import { predictedMeans, PredictedIntegrals, type PredictedDiscipline } from './predicted.ts';
import { integrate } from '../../numerics/quadrature.ts';
import { sharingMeans } from './sharing.ts';
import { refineGrid, SizeLaw, sortedUnique } from './sizeLaw.ts';

export interface Mg1Options {
  /** Relative tolerance of the outer quadratures (default 1e-10; inner ones use 1e-12 to 1e-13). */
  relTolerance?: number;
}

export interface Mg1Result {
  /** E[T], time units (mean service times when service.mean = 1). */
  meanResponseTime: number;
  /** False when E[T] = ∞ in theory (model/moments.ts; then E[T], E[T] − E[S], E[T/S], E[Q] are Infinity, JSON null). */
  responseTimeFinite: boolean;
  /** Why E[T] is infinite, in words (with `responseTimeFinite` false). */
  infiniteReason?: string;
  /** E[T] − E[S]: time not spent in service (waiting plus preempted time). */
  meanWaitingTime: number;
  /** E[T/S]; `Infinity` (JSON: null) when it diverges, i.e. `slowdownFinite` is false. */
  meanSlowdown: number;
  /** False when E[1/S] = ∞ and E[T(x)] stays positive as x → 0 (FIFO, SJF, SPJF; SPRPT with noisy predictions). */
  slowdownFinite: boolean;
  /** E[Q] = λE[T] (Little's law), jobs. */
  meanQueueLength: number;
  /** E[U] = λE[S²]/(2(1 − ρ)): time-average work in the system, the same for every work-conserving discipline. */
  meanWorkload: number;
  diagnostics: {
    /** Estimated absolute error of meanResponseTime (outer quadrature + propagated inner error); 0 when exact. */
    quadratureError: number;
    /** Estimated absolute error of meanSlowdown (0 when infinite). */
    slowdownQuadratureError: number;
    /** Integrand evaluations, all levels. */
    evaluations: number;
    /** Every quadrature met its tolerance. */
    converged: boolean;
  };
  provenance: {
    model: SupermarketModel;
    equation: string;
    source: string;
    version: string;
    /** The code identity (version.ts `codeIdentity`). */
    code: string;
    options: { relTolerance: number };
  };
}

const SOURCE =
  'theory.md §7; Kleinrock 1976; Schrage & Miller 1966; Schrage 1967 (FB); Harchol-Balter 2013; Mitzenmacher ITCS 2020 (arXiv:1902.00732); Scully et al. SOAP 2018';
const EQUATIONS: Record<Discipline, string> = {
  fifo: 'E[T(x)] = x + λE[S²]/(2(1−ρ))',
  sjf: 'E[T(x)] = x + λE[S²]/(2(1−ρ(x))(1−ρ(x⁻)))',
  psjf: 'E[T(x)] = m₂(x)/(2(1−ρ(x))(1−ρ(x⁻))) + x/(1−ρ(x⁻))',
  srpt: 'E[T(x)] = (m₂(x) + λx²Ḡ(x))/(2(1−ρ(x))(1−ρ(x⁻))) + ∫₀^x dt/(1−ρ(t))',
  spjf: 'E[T(x,y)] = x + λE[S²]/(2(1−ρ≤_y)(1−ρ_y))',
  pspjf: 'E[T(x,y)] = M_y/(2(1−ρ≤_y)(1−ρ_y)) + x/(1−ρ_y)',
  sprpt: 'E[T(x,y)] = (M_y + λE[((S−(Y−y))^+)²1(Y>y)])/(2(1−ρ≤_y)(1−ρ_y)) + ∫₀^x da/(1−ρ_{(y−a)^+})',
  ps: 'E[T(x)] = x/(1−ρ)',
  las: 'E[T(x)] = λm̃₂(x)/(2(1−ρ_x)²) + x/(1−ρ_x), ρ_x = λE[min(S,x)], m̃₂(x) = E[min(S,x)²]',
};
/** A result whose estimated relative error exceeds this is refused (ConvergenceError). */
const MAX_ACCEPTED_RELATIVE_ERROR = 1e-6;

/** A discipline whose row says it reads predictions (SPJF, PSPJF, SPRPT): its formulas average over Y given S. */
const isPredicted = (d: Discipline): d is PredictedDiscipline => DISCIPLINE_TABLE[d].usesPrediction;

/** The M/G/1 means of a discipline: the known-size formulas or the predicted ones (one case per row of the discipline table). */
function disciplineMeans(law: SizeLaw, noise: NoiseLaw | undefined, d: Discipline, relTolerance: number): Mg1Means {
  switch (d) {
    case 'fifo':
    case 'sjf':
    case 'psjf':
    case 'srpt':
      return knownSizeMeans(law, d, relTolerance);
    case 'spjf':
    case 'pspjf':
    case 'sprpt':
      if (noise === undefined) throw new InvalidModelError(`internal error: no prediction law for ${d}`);
      return predictedMeans(law, noise, d, relTolerance);
    case 'ps':
    case 'las':
      return sharingMeans(law, d, relTolerance);
    default:
      return unknownPolicy(d, 'discipline');
  }
}

/**
 * The formulas' own checks of a parsed model (trusted: λ > 0, ρ < 1 validated once): d = 1 and the conventions
 * the formulas assume; returns the size law (and R's law).
 */
function prepare(model: SupermarketModel): { law: SizeLaw; noise?: NoiseLaw } {
  if (model.d !== 1)
    throw new InvalidModelError(`the M/G/1 formulas are for d = 1 (every selection rule is random then), got d = ${model.d}`);
  const law = new SizeLaw(model.service, model.lambda);
  const d = model.discipline;
  const row = DISCIPLINE_TABLE[d];
  const psjfConvention = row.preemptive && (row.rank === 'size' || row.rank === 'predicted size');
  if (psjfConvention && model.conventions?.psjfPreemption === 'remaining') {
    throw new InvalidModelError(`no M/G/1 formula here for ${d} with psjfPreemption 'remaining'; use the default 'original'`);
  }
  return { law, noise: isPredicted(d) ? noiseLaw(model.prediction) : undefined };
}

/** The result when E[T] = ∞ in theory: every mean resting on it is +∞ (E[U] too when E[S²] = ∞), no quadrature. */
function infiniteMeans(model: SupermarketModel, law: SizeLaw, reason: string, relTolerance: number): Mg1Result {
  const rho = model.lambda * law.mean;
  return {
    meanResponseTime: Infinity,
    responseTimeFinite: false,
    infiniteReason: reason,
    meanWaitingTime: Infinity,
    meanSlowdown: Infinity,
    slowdownFinite: false,
    meanQueueLength: Infinity,
    meanWorkload: (model.lambda * law.secondMoment) / (2 * (1 - rho)),
    diagnostics: { quadratureError: 0, slowdownQuadratureError: 0, evaluations: 0, converged: true },
    provenance: {
      model,
      equation: `E[T] = ∞: ${reason}`,
      source: `${SOURCE}; model/moments.ts`,
      version: VERSION,
      code: codeId(),
      options: { relTolerance },
    },
  };
}

/**
 * Exact M/G/1 means (d = 1) of the model's discipline; predicted disciplines use the model's prediction law.
 * Known sizes: E[T] = E[T(S)] over G; predictions: E[T] = ∫∫E[T(x,y)]dP(y|x)dG(x), reordered into double integrals
 * (predicted.ts). Atoms (deterministic, empirical sizes) are summed exactly. Time in the units of service.mean.
 * @param model d = 1 (any selection rule), λ > 0 and ρ = λE[S] < 1; prediction exact, exponential, uniform or lognormal
 *   for SPJF/PSPJF/SPRPT (ignored by the others). The SPRPT overrun convention does not change the means (Y > 0 a.s.).
 * @param options `relTolerance` (default 1e-10) of the outer quadratures.
 * Which moments E[T] < ∞ needs (model/moments.ts `estimandFiniteness`, with sources): E[S²] for FIFO, SJF, SPJF
 * (Pollaczek–Khinchine, Cobham: the λE[S²]/2 residual) and for SPRPT with noisy predictions (Mitzenmacher 2020: a job run
 * past its prediction keeps the server, the term λE[((S − (Y − y))^+)²1(Y > y)]); E[S] only for PSJF, SRPT
 * (Schrage–Miller 1966), PS, LAS (Kleinrock 1976; Schrage 1967), PSPJF and SPRPT with exact predictions, and PSPJF with
 * noisy ones. Where E[T] = ∞ no quadrature runs (a divergent integral would spin and fail): the result says ∞ and why.
 * @returns plain data: E[T] (Infinity, with `responseTimeFinite` false and `infiniteReason`, when infinite in theory),
 *   E[T] − E[S], E[T/S] (Infinity when divergent), E[Q] = λE[T], E[U] = λE[S²]/(2(1−ρ)),
 *   `diagnostics.quadratureError` (absolute error estimate of E[T]), provenance.
 * @throws {InvalidModelError} if d ≠ 1, trace predictions with a predicted discipline, or psjfPreemption 'remaining'.
 * @throws {ConvergenceError} if the estimated relative error of E[T] (or of a finite E[T/S]) exceeds 1e-6, or either is
 *   not a finite number in floating point where it is finite in theory (never NaN).
 * @example mg1(parseModel({ lambda: 0.9, d: 1, selection: 'random' })).meanResponseTime // 10 (M/M/1 FIFO)
 */
export function mg1(model: SupermarketModel, options: Mg1Options = {}): Mg1Result {
  if (modelHasMemory(model)) throw memoryNotHere(model);
  requirePoissonLimit(model);
  requireBaseModel(model, 'the M/G/1 formulas');
  const relTolerance = options.relTolerance ?? 1e-10;
  if (!(relTolerance > 0 && relTolerance < 1)) throw new InvalidModelError(`relTolerance must be in (0, 1), got ${relTolerance}`);
  const { law, noise } = prepare(model);
  const d = model.discipline;
  // E[T] = ∞ in theory (model/moments.ts: a non-preemptive discipline with E[S²] = ∞, d = 1): no quadrature of a divergent integral
  const responseTime = estimandFiniteness(model).meanResponseTime;
  if (!responseTime.finite) return infiniteMeans(model, law, responseTime.reason, relTolerance);
  const means = disciplineMeans(law, noise, d, relTolerance);
  const rho = model.lambda * law.mean;
  const relErr = means.responseTimeError / Math.abs(means.meanResponseTime);
  if (!(relErr <= MAX_ACCEPTED_RELATIVE_ERROR) || !Number.isFinite(means.meanResponseTime)) {
    throw new ConvergenceError(
      Number.isFinite(means.meanResponseTime)
        ? `M/G/1 ${d} quadrature: estimated relative error ${relErr.toExponential(2)} of E[T] exceeds ${MAX_ACCEPTED_RELATIVE_ERROR}`
        : `M/G/1 ${d}: E[T] is not finite in floating point (${means.meanResponseTime}) for this size law; its moments overflow`,
      relErr,
      means.evaluations,
    );
  }
  // E[T/S] finite in theory must be a number that met the same tolerance: never NaN (0·∞, ∞ − ∞ in floating point)
  const slowErr = means.slowdownError / Math.abs(means.meanSlowdown);
  if (means.slowdownFinite && !(Number.isFinite(means.meanSlowdown) && slowErr <= MAX_ACCEPTED_RELATIVE_ERROR)) {
    throw new ConvergenceError(
      Number.isFinite(means.meanSlowdown)
        ? `M/G/1 ${d} quadrature: estimated relative error ${slowErr.toExponential(2)} of E[T/S] exceeds ${MAX_ACCEPTED_RELATIVE_ERROR}`
        : `M/G/1 ${d}: E[T/S] is finite in theory but not computed: its quadrature gave ${means.meanSlowdown} in floating point`,
      slowErr,
      means.evaluations,
    );
  }
  return {
    meanResponseTime: means.meanResponseTime,
    responseTimeFinite: true,
    meanWaitingTime: means.meanResponseTime - law.mean,
    meanSlowdown: means.meanSlowdown,
    slowdownFinite: means.slowdownFinite,
    meanQueueLength: model.lambda * means.meanResponseTime,
    meanWorkload: (model.lambda * law.secondMoment) / (2 * (1 - rho)),
    diagnostics: {
      quadratureError: means.responseTimeError,
      slowdownQuadratureError: means.slowdownError,
      evaluations: means.evaluations,
      converged: means.converged,
    },
    provenance: {
      model,
      equation: `${EQUATIONS[d]}; E[T] = ∫E[T(x${isPredicted(d) ? ',y' : ''})]dP; E[U] = λE[S²]/(2(1−ρ))`,
      source: SOURCE,
      version: VERSION,
      code: codeId(),
      options: { relTolerance },
    },
  };
}

/**
 * E[T(x, y)] of a predicted discipline at size x and prediction y (time units), by theory.md §7 "Predictions".
 * The SPRPT aging term ∫₀^x da/(1 − ρ_{(y−a)^+}) = (x − y)^+ + ∫_{(y−x)^+}^{y} dz/(1 − ρ_z) is integrated in z.
 */
function predictedAt(ints: PredictedIntegrals, d: PredictedDiscipline, x: number, y: number): number {
  const { law } = ints;
  const st = ints.state(y);
  const w = 1 / ((1 - st.rhoLe) * (1 - st.rho));
  if (d === 'spjf') return x + 0.5 * law.lambda * law.secondMoment * w;
  if (d === 'pspjf') return 0.5 * st.M * w + x / (1 - st.rho);
  const from = Math.max(0, y - x);
  let aging = Math.max(0, x - y);
  if (y > from) {
    const breaks = law.atoms && law.atoms.length <= 64 ? law.atoms.map((a) => a.x) : [];
    aging += integrate((z) => 1 / (1 - ints.state(z).rho), from, y, { relTolerance: 1e-11, breakpoints: breaks }).value;
  }
  return 0.5 * (st.M + st.J) * w + aging;
}

/**
 * E[T(x)] (known sizes, or predicted disciplines averaged over Y given S = x), or E[T(x, y)] when `y` is given
 * (predicted disciplines only), for the model's discipline at d = 1. Time units of service.mean; +∞ wherever E[T] = ∞
 * in theory (`mg1`: the residual wait term is infinite for every x and y then).
 * @param x job size ≥ 0; @param y prediction ≥ 0 (optional).
 * @throws {InvalidModelError} if x or y is negative or not finite, y is given for a known-size discipline, or as `mg1`.
 * @example mg1ResponseTimeAtSize(parseModel({ lambda: 0.5, d: 1, discipline: 'psjf' }), 1) // m₂(1)/(2(1−ρ(1))²) + 1/(1−ρ(1))
 */
export function mg1ResponseTimeAtSize(model: SupermarketModel, x: number, y?: number): number {
  if (!(Number.isFinite(x) && x >= 0)) throw new InvalidModelError(`size x must be a finite number ≥ 0, got ${x}`);
  if (y !== undefined && !(Number.isFinite(y) && y >= 0)) throw new InvalidModelError(`prediction y must be a finite number ≥ 0, got ${y}`);
  const { law, noise } = prepare(model);
  const d = model.discipline;
  // E[T(x)] = ∞ wherever E[T] = ∞ (model/moments.ts): E[S²] in a residual wait, never a divergent integral's value
  if (!estimandFiniteness(model).meanResponseTime.finite) return Infinity;
  if (!noise) {
    if (y !== undefined) throw new InvalidModelError(`discipline ${d} does not use predictions; call without y`);
    return knownSizeResponseTimeAt(law, d as KnownSizeDiscipline, x, new SrptAging(law));
  }
  const ints = new PredictedIntegrals(law, noise);
  const pd = d as PredictedDiscipline;
  if (y !== undefined) return predictedAt(ints, pd, x, y);
  if (noise.pointMass || x === 0) return predictedAt(ints, pd, x, x);
  // E over R with density: ∫ T(x, x·e^u) f_R(e^u) e^u du
  const points = refineGrid(
    sortedUnique([
      Math.log(noise.rLo),
      Math.log(noise.rMid),
      0,
      Math.log(noise.rHi),
      ...noise.breakpoints.filter((r) => r > 0).map(Math.log),
    ]),
    1,
  );
  let total = 0;
  for (let k = 0; k + 1 < points.length; k++) {
    total += integrate(
      (u) => {
        const r = Math.exp(u);
        const f = noise.density(r);
        return f === 0 ? 0 : predictedAt(ints, pd, x, x * r) * f * r;
      },
      points[k],
      points[k + 1],
      { relTolerance: 1e-9 },
    ).value;
  }
  return total;
}
