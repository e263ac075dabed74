/**
 * Solves the n → ∞ limit of a model with the solver `meanFieldCapabilities` names (capabilities.ts), one dispatch.
 * Picks the right n → ∞ solver for a model and returns its mean response time with what kind of answer it is.
 * The choice, strongest first (theory.md §2–§7):
 *
 * | model | solver | kind |
 * |---|---|---|
 * | d = 1 or random selection, any discipline | M/G/1 formulas (§7) | exact |
 * | JSQ(d), FIFO, exponential | SQ(d) closed form (§2) | exact |
 * | JSQ(d), PS, any law | SQ(d) closed form: PS is insensitive (Bramson, Lu & Prabhakar 2012; §5) | exact |
 * | JSQ(d), FIFO, Erlang / hyperexponential | phase-type ODE fixed point (§3) | exact [D] |
 * | JSQ(d), FIFO, other laws (weibull, lognormal, pareto, deterministic, …) | JSQ cavity iteration (§5) | estimate [A], with CI |
 * | — the same, on request (`phaseTypeFit: true`) | phase-type ODE on a two-moment PH fit (§3), measured error stated | approximation |
 * | — the same, where the cavity refuses (ConvergenceError) | the PH fit, measured error and a `note` naming why (capabilities `fallback`) | approximation |
 * | JSQ(d), other disciplines (LAS too) | JSQ cavity iteration (§5) | estimate [A], with CI |
 * | LWL(d), FIFO | closed form (exponential) or FPE by Picard/FFT (§4) | exact |
 * | LWL(d), other disciplines (PS, LAS too) | LWL cavity queue on the FPE workload (§5) | estimate, with CI |
 * | LPW(d), priority disciplines | LPW cavity iteration on the law of predicted work (§5) | estimate [A], with CI |
 * | server speeds, random selection, other than FIFO/PS/LAS with exponential sizes | M/G/1 formula per speed class (§7, §13) | exact |
 *
 * Never falls back silently (the one fallback above is named in `note`): a model without a solver throws InvalidModelError saying so. This is the mean-field
 * room's one entry (exported from meanfield/index.ts); the solvers behind it stay exported for their own options and diagnostics.
 */
import { ConvergenceError, InvalidModelError } from '../errors.ts';
import { lpwAsLwl, refuseUnknownOptions, requireStable, unknownPolicy, type SupermarketModel } from '../model/index.ts';
import { serviceDistribution } from '../model/service/index.ts';
import {
  fifoQueueLengthTwin,
  memoryFifoTwin,
  meanFieldCapabilities,
  type SolutionKind,
  type SolverCapability,
  type TransientSolverId,
} from './capabilities.ts';
import { lwlTransient, type LwlTransientResult } from './lwl/transient.ts';
import { phaseTypeJsqTransient, type PhaseTypeTransientResult } from './phaseType/transient.ts';
import { solveTransient, type TransientResult } from './transient.ts';
import type { Estimate } from '../stats/index.ts';
import { VERSION, codeId } from '../version.ts';
import { jsqCavity } from './cavity/jsqCavity.ts';
import { lwlCavity } from './cavity/lwlCavity.ts';
import { lpwCavity } from './cavity/lpwCavity.ts';
import { solveSqdFixedPoint } from './fixedPoint.ts';
import { lwlExponentialClosedForm } from './lwl/closedForm.ts';
import { lwlFixedPoint } from './lwl/fixedPoint.ts';
import { lwlWorkloadCcdf } from './lwl/workload.ts';
import { mg1 } from './mg1/index.ts';
import { phaseTypeJsqFixedPoint } from './phaseType/fixedPoint.ts';
import { solveWithMemory, type MemoryReduction } from './memory/reduction.ts';
import { solveMemoryTransient } from './memory/transient.ts';
import { memoryLwlTransient, memoryPhaseTypeTransient } from './memory/sizedTransient.ts';
import { batchTransient, bsqFixedPoint, lldkFixedPoint, sqdkFixedPoint } from './batch.ts';
import { identicalRedundancy, independentRedundancy } from './redundancy.ts';
import type { TruncatedTransient } from './support.ts';
import type { PhaseTypeFitError } from './phaseType/fitError.ts';
import { heteroFixedPoint, heteroTransient, type HeteroClassResult, type HeteroTransient } from './hetero/occupancy.ts';
import { heteroLwlFixedPoint, type HeteroLwlClass } from './hetero/lwl.ts';
import { heteroCavity, heteroLwlCavity } from './hetero/cavity.ts';
import { heteroMg1, type HeteroMg1Class } from './hetero/mg1.ts';

/** Whether the solver reached its answer; closed forms are converged by construction. */
export interface SolutionConvergence {
  readonly converged: boolean;
  /** Newton / Picard / cavity iterations, where the solver iterates. */
  readonly iterations?: number;
  /** The solver's residual or last change at the answer (its own measure), where it has one. */
  readonly residual?: number;
}

/** Which solver answered, its equation and source, and the package version. */
export interface SolutionProvenance {
  readonly solver: string;
  readonly source: string;
  readonly version: string;
  /** The code identity (version.ts `codeIdentity`; runs/codeIdentity.ts refuses mixed code). */
  readonly code: string;
}

/** A ccdf on a grid: P(X > points[k]) = ccdf[k], X the workload U, the predicted work P (LPW) or the response time T (time units). */
export interface SolutionCcdf {
  readonly of: 'workload' | 'response time' | 'predicted work';
  readonly points: number[];
  readonly ccdf: number[];
}

/** The one solution shape of `solveMeanField`. */
export interface MeanFieldSolution {
  readonly kind: SolutionKind;
  /** E[T] in the n → ∞ limit (time units). For estimates, the point estimate. */
  readonly meanResponseTime: number;
  /** E[Q] per server (jobs), where the solver gives it. */
  readonly meanQueueLength?: number;
  /** Tail fractions s_0..s_K (JSQ solvers). */
  readonly tail?: number[];
  /** A ccdf on a grid (LWL solvers: the workload ccdf, discipline-free). */
  readonly ccdf?: SolutionCcdf;
  /** Numerical error bar of E[T] for exact and approximation kinds (quadrature / grid / truncation), absolute, time units. */
  readonly numericalError?: number;
  /** The 95% CI of E[T] for the estimate kind (absent otherwise). */
  readonly estimate?: Estimate;
  /**
   * The 95% CI of E[Q] for the estimate kind: E[Q] = λE[T] (Little; λd replicas with redundancy) holds in the limit,
   * so it is `estimate` scaled by E[Q]/E[T], centred on `meanQueueLength` (absent otherwise, and where E[Q] is ∞).
   */
  readonly meanQueueLengthEstimate?: Estimate;
  /**
   * For the approximation kind: the relative error of E[T] measured for this law family (low, high as fractions, where
   * and against what) — the two-moment PH fit's size of error (meanfield/phaseType/fitError.ts).
   */
  readonly measuredError?: PhaseTypeFitError;
  /** Why the strongest solver was not used, where the answer is a fallback (`meanFieldCapabilities(model).fallback`). */
  readonly note?: string;
  readonly convergence: SolutionConvergence;
  readonly provenance: SolutionProvenance;
  /** Solver name as shown in reports, e.g. "SQ(d) closed form", "LWL FPE (Picard/FFT)", "JSQ cavity" (= provenance.solver). */
  readonly solver: string;
  /** Equation and source (= provenance.source). */
  readonly source: string;
  /** For a dispatcher with memory: π₀, the reduced rate λπ₀^{1/d} the answer was solved at, probes per arrival (theory.md §12). */
  readonly reduction?: MemoryReduction;
  /** Heterogeneous servers (theory.md §13): per class, its tail, busy fraction, E[Q], E[T] and share of the jobs. */
  readonly classes?: readonly (HeteroClassResult | HeteroLwlClass | HeteroMg1Class)[];
  /**
   * Redundancy-d (theory.md §16): the busy fraction F̄(0), the work per job E[W] = F̄(0)/λ (time units) and the largest
   * stable λ. meanQueueLength then counts replicas per server (λ·d·E[T]).
   */
  readonly redundancy?: { readonly busyFraction: number; readonly workPerJob: number; readonly lambdaMax: number };
}

export type { SolutionKind };

/**
 * What a solution's E[Q] counts, in the words every output uses (CLI, explorer): "replicas per server (λ·d·E[T])" for
 * redundancy-d, whose every job holds a replica on each of d servers until it completes; "jobs per server" otherwise.
 * @example meanQueueLengthUnit(solveMeanField(parseModel({ lambda: 0.5, d: 2, redundancy: 'cancel-on-complete' }))) // 'replicas per server (λ·d·E[T])'
 */
export function meanQueueLengthUnit(solution: Pick<MeanFieldSolution, 'redundancy'>): string {
  return solution.redundancy ? 'replicas per server (λ·d·E[T])' : 'jobs per server';
}

export interface SolveOptions {
  /** Seed of cavity simulations (default 1). */
  readonly seed?: number;
  /** Horizon of the LWL cavity queue (time units, default 2e5). */
  readonly cavityHorizon?: number;
  /**
   * JSQ(d) FIFO with a size law that is not phase-type: answer with the two-moment phase-type fit (kind
   * 'approximation', its measured error in `measuredError`) instead of the default JSQ cavity. Refused (InvalidModelError,
   * the capability's reason) for another model or a law family whose fit error was never measured.
   */
  readonly phaseTypeFit?: boolean;
  /**
   * Sees the progress of the long solves (progress output; pure: no output here): the JSQ and LPW cavities' estimated
   * fraction done (`cavityFraction`), stage 'JSQ cavity' or 'LPW cavity', the LWL cavities' simulated time (stage 'LWL
   * cavity', or 'LWL cavity per class (speeds)'), and the phase-type fit's ODE legs (the JSQ
   * cavity's fallback, or asked for), stage naming the fit and K.
   */
  readonly onProgress?: (fraction: number, stage: string) => void;
}

type Parts = Omit<MeanFieldSolution, 'provenance' | 'convergence'> & { readonly convergence?: SolutionConvergence };

/** Completes a solver's answer with its provenance (and convergence true for closed forms). */
function solution(parts: Parts): MeanFieldSolution {
  const { estimate: e, meanQueueLength: q, meanResponseTime: t } = parts;
  const little = e !== undefined && q !== undefined && Number.isFinite(q) && t > 0 ? q / t : undefined;
  return {
    ...parts,
    ...(e !== undefined && little !== undefined
      ? {
          meanQueueLengthEstimate: {
            ...e,
            mean: q!,
            ci95: [little * e.ci95[0], little * e.ci95[1]] as [number, number],
            halfWidth: little * e.halfWidth,
          },
        }
      : {}),
    convergence: parts.convergence ?? { converged: true },
    provenance: { solver: parts.solver, source: parts.source, version: VERSION, code: codeId() },
  };
}

/** Every field of `SolveOptions` (the compiler checks the list against the type): another key is refused. */
const SOLVE_OPTION_KEYS = { seed: true, cavityHorizon: true, phaseTypeFit: true, onProgress: true } as const satisfies Record<
  keyof SolveOptions,
  true
>;

/**
 * Solves the mean-field limit of `model` with the strongest available method (table above).
 * @param model from `parseModel` (trusted). @param options `seed`, `cavityHorizon` of the estimate kinds.
 * @returns one `MeanFieldSolution`: kind, E[T], E[Q], tail or ccdf where the solver gives them, error bars
 *   (`numericalError`, or `estimate` with its CI), `convergence`, `provenance`.
 * @throws {InvalidModelError} for trace predictions in cavity methods (no solver), and whatever the chosen
 *   solver throws (ConvergenceError, SolverError).
 * @example solveMeanField(parseModel({ lambda: 0.9, d: 2 })).meanResponseTime // 2.6141 (SQ(d) closed form, exact)
 */
export function solveMeanField(given: SupermarketModel, options: SolveOptions = {}): MeanFieldSolution {
  refuseUnknownOptions('solveMeanField', options, SOLVE_OPTION_KEYS);
  requireStable(given);
  const seed = options.seed ?? 1;
  const onProgress = options.onProgress;
  const capabilities = meanFieldCapabilities(given);
  // LPW with exact predictions is solved as the LWL model it equals (lpwAsLwl; the capabilities name it)
  const model = lpwAsLwl(given) ?? given;
  if (options.phaseTypeFit) {
    const fit = capabilities.phaseTypeFit;
    if (!fit.available) throw new InvalidModelError(fit.reason);
    const r = phaseTypeJsqFixedPoint(model, onProgress ? { onProgress: (f, K) => onProgress(f, `${fit.name}, ODE at K = ${K}`) } : {});
    return solution({
      solver: fit.name,
      kind: fit.kind,
      source: fit.source,
      meanResponseTime: r.meanResponseTime,
      meanQueueLength: r.meanQueueLength,
      tail: r.tail,
      measuredError: fit.measuredError,
      convergence: { converged: true, iterations: r.diagnostics.newtonIterations, residual: r.diagnostics.residual },
    });
  }
  const cap = capabilities.fixedPoint;
  if (!cap.available) throw new InvalidModelError(cap.reason);
  const named = { solver: cap.name, kind: cap.kind, source: cap.source };
  const id = cap.id;
  switch (id) {
    case 'redundancy-independent':
    case 'redundancy-identical': {
      const mean = model.service.mean;
      const rho = model.lambda * mean;
      const r = id === 'redundancy-independent' ? independentRedundancy(rho, model.d) : identicalRedundancy(rho, model.d);
      return solution({
        ...named,
        meanResponseTime: r.meanResponseTime * mean,
        meanQueueLength: r.meanQueueLength,
        numericalError: r.numericalError * mean,
        redundancy: { busyFraction: r.busyFraction, workPerJob: r.workPerJob * mean, lambdaMax: r.lambdaMax / mean },
      });
    }
    case 'batch-sqdk':
    case 'batch-lldk':
    case 'batch-bsq': {
      const mean = model.service.mean;
      const rho = model.lambda * mean;
      const r =
        id === 'batch-sqdk'
          ? sqdkFixedPoint(rho, model.d, model.batch, mean)
          : id === 'batch-lldk'
            ? lldkFixedPoint(rho, model.d, model.batch, mean)
            : bsqFixedPoint(rho, model.d, model.batchLaw ?? model.batch, mean);
      return solution({
        ...named,
        meanResponseTime: r.meanResponseTime,
        meanQueueLength: r.meanQueueLength,
        ...(r.tail ? { tail: r.tail } : {}),
        numericalError: r.numericalError,
      });
    }
    case 'memory-reduction': {
      // the reduced model (no memory, rate λπ₀^{1/d}) goes back through this entry and its own capability
      // JSQ(d) with PS (any law) or LAS (exponential sizes): answered through FIFO (capabilities.ts `memoryFifoTwin`)
      const twin = memoryFifoTwin(model);
      const r = solveWithMemory(
        twin ?? model,
        (reduced) => solveMeanField(reduced, options),
        (meanResponseTime, tail) =>
          solution({
            meanResponseTime,
            meanQueueLength: model.lambda * meanResponseTime,
            tail,
            solver: 'memory never empty (π₀ = 0): every job joins an idle server',
            kind: 'exact',
            source: 'theory.md §12 (Hellemans 2021, ch. 6): π₀ = 0, so T = S',
            numericalError: 0,
          }),
      );
      const { provenance: _provenance, ...parts } = r;
      // through FIFO: the capability's kind (approximation for PS with non-exponential sizes) and its source
      return solution(twin === undefined || r.reduction.pi0 === 0 ? parts : { ...parts, kind: cap.kind, source: cap.source });
    }
    case 'infinite-mean':
      // theory.md §8: E[T] = ∞ in the limit (the capability's source gives the reason); E[Q] = λE[T] = ∞ too
      return solution({ ...named, meanResponseTime: Infinity, meanQueueLength: Infinity, numericalError: 0 });
    case 'mg1': {
      const r = mg1({ ...model, d: 1, selection: 'random' });
      return solution({
        ...named,
        meanResponseTime: r.meanResponseTime,
        meanQueueLength: r.meanQueueLength,
        numericalError: r.diagnostics.quadratureError,
        convergence: { converged: r.diagnostics.converged },
      });
    }
    case 'sqd-closed-form':
    case 'sqd-insensitive': {
      // JSQ(d) with PS ('sqd-insensitive'): the exponential SQ(d) fixed point of the same mean, any law (capabilities.ts)
      const mean = serviceDistribution(model.service).mean;
      const sqd =
        id === 'sqd-closed-form'
          ? model
          : ({ ...model, discipline: 'fifo', service: { kind: 'exponential', mean }, prediction: { kind: 'exact' } } as const);
      const fp = solveSqdFixedPoint(sqd);
      return solution({
        ...named,
        meanResponseTime: fp.meanResponseTime,
        meanQueueLength: fp.meanQueueLength,
        tail: fp.tail,
        numericalError: 0,
        convergence: { converged: true, iterations: fp.diagnostics.iterations, residual: fp.diagnostics.residual },
      });
    }
    case 'phase-type-ode': {
      const r = phaseTypeJsqFixedPoint(model);
      return solution({
        ...named,
        meanResponseTime: r.meanResponseTime,
        meanQueueLength: r.meanQueueLength,
        tail: r.tail,
        convergence: { converged: true, iterations: r.diagnostics.newtonIterations, residual: r.diagnostics.residual },
      });
    }
    case 'jsq-cavity': {
      let r: ReturnType<typeof jsqCavity>;
      try {
        r = jsqCavity(model, { seed, ...(onProgress ? { onProgress: (f) => onProgress(f, 'JSQ cavity') } : {}) });
      } catch (error) {
        const fallback = capabilities.fallback;
        if (!(error instanceof ConvergenceError) || !fallback.available) throw error;
        const fit = phaseTypeJsqFixedPoint(
          model,
          onProgress ? { onProgress: (f, K) => onProgress(f, `JSQ cavity refused; ${fallback.name}, ODE at K = ${K}`) } : {},
        );
        return solution({
          solver: fallback.name,
          kind: fallback.kind,
          source: fallback.source,
          meanResponseTime: fit.meanResponseTime,
          meanQueueLength: fit.meanQueueLength,
          tail: fit.tail,
          measuredError: fallback.measuredError,
          note: `the JSQ cavity was not used (${error.message}); the two-moment PH fit answers, with its measured error`,
          convergence: { converged: true, iterations: fit.diagnostics.newtonIterations, residual: fit.diagnostics.residual },
        });
      }
      return solution({
        ...named,
        meanResponseTime: r.meanResponseTime.mean,
        estimate: r.meanResponseTime,
        meanQueueLength: r.meanQueueLength,
        tail: r.tail,
        convergence: { converged: r.convergence.converged, iterations: r.convergence.iterations, residual: r.convergence.residual },
      });
    }
    case 'lwl-closed-form': {
      const c = lwlExponentialClosedForm(model.lambda, model.d);
      return solution({
        ...named,
        meanResponseTime: c.meanResponseTime,
        meanQueueLength: model.lambda * c.meanResponseTime,
        numericalError: 0,
      });
    }
    case 'lwl-fpe': {
      const r = lwlFixedPoint(model);
      return solution({
        ...named,
        meanResponseTime: r.meanResponseTime,
        meanQueueLength: model.lambda * r.meanResponseTime,
        ccdf: { of: 'workload', points: r.grid, ccdf: r.workloadCcdf },
        numericalError: r.diagnostics.meanResponseTimeErrorBound,
        convergence: { converged: true, iterations: r.diagnostics.iterations, residual: r.diagnostics.lastChange },
      });
    }
    case 'lwl-cavity': {
      const w = lwlWorkloadCcdf(model);
      const r = lwlCavity(model, {
        seed,
        horizon: options.cavityHorizon ?? 2e5,
        workloadCcdf: { grid: w.grid, ccdf: w.workloadCcdf },
        ...(onProgress ? { onProgress: (f: number) => onProgress(f, 'LWL cavity') } : {}),
      });
      // one long run of the cavity queue on a converged F̄ (its input, not part of the answer): nothing iterates
      return solution({
        ...named,
        meanResponseTime: r.meanResponseTime.mean,
        estimate: r.meanResponseTime,
        meanQueueLength: model.lambda * r.meanResponseTime.mean,
      });
    }
    case 'hetero-occupancy': {
      const r = heteroFixedPoint(model);
      return solution({
        ...named,
        meanResponseTime: r.meanResponseTime,
        meanQueueLength: r.meanQueueLength,
        tail: r.tail,
        classes: r.classes,
        convergence: { converged: true, iterations: r.diagnostics.iterations, residual: r.diagnostics.residual },
      });
    }
    case 'hetero-mg1': {
      const r = heteroMg1(model);
      return solution({
        ...named,
        meanResponseTime: r.meanResponseTime,
        meanQueueLength: r.meanQueueLength,
        classes: r.classes,
        numericalError: r.numericalError,
        convergence: { converged: r.converged },
      });
    }
    case 'hetero-lwl': {
      const r = heteroLwlFixedPoint(model);
      return solution({
        ...named,
        meanResponseTime: r.meanResponseTime,
        meanQueueLength: model.lambda * r.meanResponseTime,
        classes: r.classes,
        numericalError: r.numericalError,
        convergence: { converged: true, iterations: r.iterations, residual: r.residual },
      });
    }
    case 'hetero-cavity': {
      const r = heteroCavity(model, { seed, ...(onProgress ? { onProgress: (f) => onProgress(f, 'cavity per class (speeds)') } : {}) });
      return solution({
        ...named,
        meanResponseTime: r.meanResponseTime.mean,
        estimate: r.meanResponseTime,
        meanQueueLength: r.meanQueueLength,
        tail: r.tail,
        classes: r.classes,
        convergence: { converged: r.convergence.converged, iterations: r.convergence.iterations, residual: r.convergence.residual },
      });
    }
    case 'hetero-lwl-cavity': {
      // one run per class on the converged drain-time law (its input, not part of the answer): nothing iterates
      const r = heteroLwlCavity(model, {
        seed,
        horizon: options.cavityHorizon ?? 2e5,
        ...(onProgress ? { onProgress: (f: number) => onProgress(f, 'LWL cavity per class (speeds)') } : {}),
      });
      return solution({
        ...named,
        meanResponseTime: r.meanResponseTime.mean,
        estimate: r.meanResponseTime,
        meanQueueLength: model.lambda * r.meanResponseTime.mean,
        classes: r.classes,
      });
    }
    case 'lpw-cavity': {
      const r = lpwCavity(model, { seed, ...(onProgress ? { onProgress: (f) => onProgress(f, 'LPW cavity') } : {}) });
      return solution({
        ...named,
        meanResponseTime: r.meanResponseTime.mean,
        estimate: r.meanResponseTime,
        meanQueueLength: r.meanQueueLength,
        ccdf: { of: 'predicted work', points: r.predictedWork.points, ccdf: r.predictedWork.ccdf },
        convergence: { converged: r.convergence.converged, iterations: r.convergence.iterations, residual: r.convergence.residual },
      });
    }
    default:
      return unknownPolicy(id, 'fixed-point solver');
  }
}

/** Options of `solveMeanFieldTransient` (each solver reads the ones it has; see its own options). */
export interface MeanFieldTransientOptions {
  /** SQ(d) ODE: initial tail s_0..s_K' (default: the empty system; the other solvers start empty). */
  readonly from?: number[];
  /** SQ(d) and phase-type ODEs: truncation level K (default: the solver's own choice). */
  readonly truncationLevel?: number;
  /** odex relative and absolute tolerance (default 1e−10). */
  readonly tolerance?: number;
  /** Every transient solver: the fraction of the horizon integrated, after every accepted step (ODEs) or every 256 steps (LWL PIDE). */
  readonly onProgress?: (fraction: number) => void;
}

/** A transient of the mean field: tail fractions per instant (SQ(d), phase-type ODE) or the LWL(d) workload. */
export type MeanFieldTransient =
  | { readonly solver: 'sqd-ode'; readonly capability: SolverCapability<TransientSolverId>; readonly result: TransientResult }
  | {
      readonly solver: 'phase-type-ode';
      readonly capability: SolverCapability<TransientSolverId>;
      readonly result: PhaseTypeTransientResult;
    }
  | { readonly solver: 'lwl-pide'; readonly capability: SolverCapability<TransientSolverId>; readonly result: LwlTransientResult }
  | { readonly solver: 'memory-cavity-ode'; readonly capability: SolverCapability<TransientSolverId>; readonly result: TruncatedTransient }
  | { readonly solver: 'hetero-occupancy-ode'; readonly capability: SolverCapability<TransientSolverId>; readonly result: HeteroTransient }
  | { readonly solver: 'batch-ode'; readonly capability: SolverCapability<TransientSolverId>; readonly result: TruncatedTransient }
  | {
      readonly solver: 'memory-phase-type-ode';
      readonly capability: SolverCapability<TransientSolverId>;
      readonly result: PhaseTypeTransientResult;
    }
  | { readonly solver: 'memory-lwl-pide'; readonly capability: SolverCapability<TransientSolverId>; readonly result: LwlTransientResult };

/**
 * The one transient entry: the mean-field trajectory of `model` at `times`, by the transient solver
 * `meanFieldCapabilities(model).transient` names (SQ(d) ODE, phase-type ODE, LWL(d) workload PIDE). Any load: a
 * transient over a finite horizon exists at ρ ≥ 1 too (a model from `validateModel`).
 * @param times output instants (strictly increasing, ≥ 0, model time units). @param options see the type.
 * @returns the solver id, its capability (name, kind, source) and its result.
 * @throws {InvalidModelError} if the model has no transient solver (the capability's reason), `from` given to a solver
 *   that starts from an empty system, and whatever the solver throws (SolverError).
 */
export function solveMeanFieldTransient(
  given: SupermarketModel,
  times: number[],
  options: MeanFieldTransientOptions = {},
): MeanFieldTransient {
  const capability = meanFieldCapabilities(given).transient;
  const model = lpwAsLwl(given) ?? given; // LPW with exact predictions: LWL's transient (lpwAsLwl)
  if (!capability.available) throw new InvalidModelError(capability.reason);
  const id = capability.id;
  if (id !== 'sqd-ode' && id !== 'memory-cavity-ode' && options.from !== undefined)
    throw new InvalidModelError(`${capability.name} starts from an empty system; an initial tail applies to the SQ(d) ODE`);
  switch (id) {
    case 'sqd-ode': {
      // PS/LAS with exponential sizes: FIFO's queue-length process (capabilities.ts); the provenance names the model
      const twin = fifoQueueLengthTwin(model);
      const result = solveTransient(twin ?? model, {
        times,
        from: options.from,
        tolerance: options.tolerance,
        truncationLevel: options.truncationLevel,
        onProgress: options.onProgress,
      });
      if (twin) result.provenance = { ...result.provenance, model, source: capability.source };
      return { solver: id, capability, result };
    }
    case 'phase-type-ode':
      return {
        solver: id,
        capability,
        result: phaseTypeJsqTransient(model, {
          times,
          tolerance: options.tolerance,
          truncationLevel: options.truncationLevel,
          onProgress: options.onProgress,
        }),
      };
    case 'lwl-pide':
      return { solver: id, capability, result: lwlTransient(model, { times, onProgress: options.onProgress }) };
    case 'hetero-occupancy-ode':
      return {
        solver: id,
        capability,
        result: heteroTransient(model, { times, tolerance: options.tolerance, onProgress: options.onProgress }),
      };
    case 'memory-cavity-ode':
      return {
        solver: id,
        capability,
        // PS/LAS with exponential sizes run as their FIFO twin (capabilities.ts `memoryFifoTwin`)
        result: solveMemoryTransient(memoryFifoTwin(model) ?? model, {
          times,
          from: options.from,
          tolerance: options.tolerance,
          truncationLevel: options.truncationLevel,
          onProgress: options.onProgress,
        }),
      };
    case 'memory-phase-type-ode':
      return {
        solver: id,
        capability,
        result: memoryPhaseTypeTransient(model, {
          times,
          tolerance: options.tolerance,
          truncationLevel: options.truncationLevel,
          onProgress: options.onProgress,
        }),
      };
    case 'memory-lwl-pide':
      return { solver: id, capability, result: memoryLwlTransient(model, { times, onProgress: options.onProgress }) };
    case 'batch-ode':
      return {
        solver: id,
        capability,
        result: batchTransient(model, { times, tolerance: options.tolerance, onProgress: options.onProgress }),
      };
    default:
      return unknownPolicy(id, 'transient solver');
  }
}
