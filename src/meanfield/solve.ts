/**
 * Picks the right n → ∞ solver for a model and returns its mean response time with what kind of answer it is.
 * The choice, strongest first (theory.md §2–§7):
 *
 * | model | solver | kind |
 * |---|---|---|
 * | d = 1 or random selection, any discipline | M/G/1 formulas (§7) | exact |
 * | JSQ(d), FIFO, exponential | SQ(d) closed form (§2) | exact |
 * | JSQ(d), FIFO, Erlang / hyperexponential | phase-type ODE fixed point (§3) | exact [D] |
 * | JSQ(d), FIFO, other laws | phase-type ODE on a two-moment PH fit (§3) | approximation |
 * | JSQ(d), other disciplines, or deterministic sizes | JSQ cavity iteration (§5) | cavity [A], with CI |
 * | LWL(d), FIFO | closed form (exponential) or FPE by Picard/FFT (§4) | exact |
 * | LWL(d), other disciplines | LWL cavity queue on the FPE workload (§5) | cavity, with CI |
 * | LPW(d) | none: theory.md §5 lists it as an untested ansatz | throws |
 *
 * Never falls back silently: a model without a solver throws InvalidModelError saying so.
 */
import { InvalidModelError } from '../errors.ts';
import { load, type SupermarketModel } from '../model/index.ts';
import {
  jsqCavity, lwlCavity, lwlExponentialClosedForm, lwlFixedPoint, lwlWorkloadCcdf, phaseTypeJsqFixedPoint, solveSqdFixedPoint,
} from './index.ts';
import type { Estimate } from '../stats/index.ts';
import { mg1 } from './mg1/index.ts';

export type SolutionKind = 'exact' | 'approximation' | 'cavity';

export interface MeanFieldSolution {
  /** E[T] in the n → ∞ limit (time units). For cavity results, the point estimate. */
  readonly meanResponseTime: number;
  /** The CI of a cavity (simulated) result; absent for deterministic solvers. */
  readonly estimate?: Estimate;
  /** E[Q] per server where the solver gives it. */
  readonly meanQueueLength?: number;
  /** Tail fractions s_0..s_K (JSQ solvers). */
  readonly tail?: number[];
  /** Solver name as shown in reports, e.g. "SQ(d) closed form", "LWL FPE (Picard/FFT)", "JSQ cavity". */
  readonly solver: string;
  readonly kind: SolutionKind;
  /** Equation and source. */
  readonly source: string;
  /** Numerical error bar of a deterministic solver (quadrature / grid / truncation), absolute, time units. */
  readonly numericalError?: number;
}

export interface SolveOptions {
  /** Seed of cavity simulations (default 1). */
  readonly seed?: number;
  /** Horizon of the LWL cavity queue (time units, default 2e5). */
  readonly cavityHorizon?: number;
}

const PH_KINDS = new Set(['exponential', 'erlang', 'hyperexponential']);

/**
 * Solves the mean-field limit of `model` with the strongest available method (table above).
 * @throws {InvalidModelError} for LPW(d) and for trace predictions in cavity methods (no solver), and whatever the chosen
 *   solver throws (UnstableModelError, ConvergenceError, SolverError).
 */
export function solveMeanField(model: SupermarketModel, options: SolveOptions = {}): MeanFieldSolution {
  const seed = options.seed ?? 1;
  if (model.selection === 'random' || model.d === 1) {
    const r = mg1({ ...model, d: 1, selection: 'random' });
    return { meanResponseTime: r.meanResponseTime, meanQueueLength: r.meanQueueLength, solver: `M/G/1 ${model.discipline.toUpperCase()} formula`,
      kind: 'exact', source: 'theory.md §7 (Kleinrock; Schrage & Miller; Mitzenmacher 2020 for predictions)', numericalError: r.diagnostics.quadratureError };
  }
  if (model.selection === 'lpw') {
    throw new InvalidModelError('no mean-field solver for LPW(d) selection: theory.md §5 lists its cavity method as an untested ansatz; use simulation');
  }
  if (model.selection === 'jsq') {
    if (model.discipline === 'fifo' && model.service.kind === 'exponential') {
      const fp = solveSqdFixedPoint(model);
      return { meanResponseTime: fp.meanResponseTime, meanQueueLength: fp.meanQueueLength, tail: fp.tail, solver: 'SQ(d) closed form',
        kind: 'exact', source: 'theory.md §2 (Vvedenskaya et al. 1996; Mitzenmacher 2001)', numericalError: 0 };
    }
    if (model.discipline === 'fifo' && model.service.kind !== 'deterministic' && model.service.kind !== 'empirical') {
      const r = phaseTypeJsqFixedPoint(model);
      const exact = PH_KINDS.has(model.service.kind);
      return { meanResponseTime: r.meanResponseTime, meanQueueLength: r.meanQueueLength, tail: r.tail,
        solver: exact ? 'phase-type SQ(d) ODE' : 'phase-type SQ(d) ODE on a two-moment PH fit', kind: exact ? 'exact' : 'approximation',
        source: 'theory.md §3' + (exact ? '' : ': only E[S] and the SCV match the true law') };
    }
    const r = jsqCavity(model, { seed });
    return { meanResponseTime: r.meanResponseTime.mean, estimate: r.meanResponseTime, meanQueueLength: r.meanQueueLength, tail: r.tail,
      solver: 'JSQ cavity iteration', kind: 'cavity', source: 'theory.md §5 [A]: asymptotic independence assumed; CI covers the final run only' };
  }
  // LWL(d)
  if (model.discipline === 'fifo') {
    if (model.service.kind === 'exponential' && model.service.mean === 1 && model.d >= 2) {
      const c = lwlExponentialClosedForm(model.lambda, model.d);
      return { meanResponseTime: c.meanResponseTime, meanQueueLength: model.lambda * c.meanResponseTime, solver: 'LWL(d) closed form',
        kind: 'exact', source: 'theory.md §4 (Hellemans & Van Houdt 2018)', numericalError: 0 };
    }
    const r = lwlFixedPoint(model);
    return { meanResponseTime: r.meanResponseTime, meanQueueLength: load(model) > 0 ? model.lambda * r.meanResponseTime : undefined,
      solver: 'LWL(d) FPE (Picard/FFT)', kind: 'exact', source: 'theory.md §4 (Hellemans & Van Houdt 2018)',
      numericalError: r.diagnostics.meanResponseTimeGridError };
  }
  const w = lwlWorkloadCcdf(model);
  const r = lwlCavity(model, { seed, horizon: options.cavityHorizon ?? 2e5, workloadCcdf: { grid: w.grid, ccdf: w.workloadCcdf } });
  return { meanResponseTime: r.meanResponseTime.mean, estimate: r.meanResponseTime, meanQueueLength: model.lambda * r.meanResponseTime.mean,
    solver: 'LWL cavity queue', kind: 'cavity', source: 'theory.md §5 [D]: exact in the limit given asymptotic independence; CI by batch means' };
}
