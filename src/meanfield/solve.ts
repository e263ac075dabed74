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
 * | JSQ(d), other disciplines, or deterministic sizes | JSQ cavity iteration (§5) | estimate [A], with CI |
 * | LWL(d), FIFO | closed form (exponential) or FPE by Picard/FFT (§4) | exact |
 * | LWL(d), other disciplines | LWL cavity queue on the FPE workload (§5) | estimate, with CI |
 * | LPW(d) | none: theory.md §5 lists it as an untested ansatz | throws |
 *
 * Never falls back silently: a model without a solver throws InvalidModelError saying so. This is the mean-field
 * room's one entry (exported from meanfield/index.ts); the solvers behind it stay exported for their own options and diagnostics.
 */
import { InvalidModelError } from '../errors.ts';
import type { SupermarketModel } from '../model/index.ts';
import type { Estimate } from '../stats/index.ts';
import { VERSION } from '../version.ts';
import { jsqCavity } from './cavity/jsqCavity.ts';
import { lwlCavity } from './cavity/lwlCavity.ts';
import { solveSqdFixedPoint } from './fixedPoint.ts';
import { lwlExponentialClosedForm } from './lwl/closedForm.ts';
import { lwlFixedPoint } from './lwl/fixedPoint.ts';
import { lwlWorkloadCcdf } from './lwl/workload.ts';
import { mg1 } from './mg1/index.ts';
import { phaseTypeJsqFixedPoint } from './phaseType/fixedPoint.ts';
import { hasMemory, solveWithMemory, type MemoryReduction } from './memory/reduction.ts';

/**
 * What kind of answer a solution is: 'exact' (the n → ∞ limit up to `numericalError`), 'approximation' (a solver
 * for a nearby model, e.g. a two-moment phase-type fit), 'estimate' (a simulation of the limit — the cavity
 * methods — with a confidence interval in `estimate`).
 */
export type SolutionKind = 'exact' | 'approximation' | 'estimate';

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
}

/** A ccdf on a grid: P(X > points[k]) = ccdf[k], X the workload U or the response time T (time units). */
export interface SolutionCcdf {
  readonly of: 'workload' | 'response time';
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
  readonly convergence: SolutionConvergence;
  readonly provenance: SolutionProvenance;
  /** Solver name as shown in reports, e.g. "SQ(d) closed form", "LWL FPE (Picard/FFT)", "JSQ cavity" (= provenance.solver). */
  readonly solver: string;
  /** Equation and source (= provenance.source). */
  readonly source: string;
  /** For a dispatcher with memory: π₀, the reduced rate λπ₀^{1/d} the answer was solved at, probes per arrival (theory.md §12). */
  readonly reduction?: MemoryReduction;
}

export interface SolveOptions {
  /** Seed of cavity simulations (default 1). */
  readonly seed?: number;
  /** Horizon of the LWL cavity queue (time units, default 2e5). */
  readonly cavityHorizon?: number;
}

const PH_KINDS = new Set(['exponential', 'erlang', 'hyperexponential']);

type Parts = Omit<MeanFieldSolution, 'provenance' | 'convergence'> & { readonly convergence?: SolutionConvergence };

/** Completes a solver's answer with its provenance (and convergence true for closed forms). */
function solution(parts: Parts): MeanFieldSolution {
  return {
    ...parts,
    convergence: parts.convergence ?? { converged: true },
    provenance: { solver: parts.solver, source: parts.source, version: VERSION },
  };
}

/**
 * Solves the mean-field limit of `model` with the strongest available method (table above).
 * @param model from `parseModel` (trusted). @param options `seed`, `cavityHorizon` of the estimate kinds.
 * @returns one `MeanFieldSolution`: kind, E[T], E[Q], tail or ccdf where the solver gives them, error bars
 *   (`numericalError`, or `estimate` with its CI), `convergence`, `provenance`.
 * @throws {InvalidModelError} for LPW(d) and for trace predictions in cavity methods (no solver), and whatever the chosen
 *   solver throws (ConvergenceError, SolverError).
 * @example solveMeanField(parseModel({ lambda: 0.9, d: 2 })).meanResponseTime // 2.6141 (SQ(d) closed form, exact)
 */
export function solveMeanField(model: SupermarketModel, options: SolveOptions = {}): MeanFieldSolution {
  const seed = options.seed ?? 1;
  if (hasMemory(model)) {
    const r = solveWithMemory(
      model,
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
    return solution(parts);
  }
  if (model.selection === 'random' || model.d === 1) {
    const r = mg1({ ...model, d: 1, selection: 'random' });
    return solution({
      meanResponseTime: r.meanResponseTime,
      meanQueueLength: r.meanQueueLength,
      solver: `M/G/1 ${model.discipline.toUpperCase()} formula`,
      kind: 'exact',
      source: 'theory.md §7 (Kleinrock; Schrage & Miller; Mitzenmacher 2020 for predictions)',
      numericalError: r.diagnostics.quadratureError,
      convergence: { converged: r.diagnostics.converged },
    });
  }
  if (model.selection === 'lpw') {
    throw new InvalidModelError(
      'no mean-field solver for LPW(d) selection: theory.md §5 lists its cavity method as an untested ansatz; use simulation',
    );
  }
  if (model.selection === 'jsq') {
    if (model.discipline === 'fifo' && model.service.kind === 'exponential') {
      const fp = solveSqdFixedPoint(model);
      return solution({
        meanResponseTime: fp.meanResponseTime,
        meanQueueLength: fp.meanQueueLength,
        tail: fp.tail,
        solver: 'SQ(d) closed form',
        kind: 'exact',
        source: 'theory.md §2 (Vvedenskaya et al. 1996; Mitzenmacher 2001)',
        numericalError: 0,
        convergence: { converged: true, iterations: fp.diagnostics.iterations, residual: fp.diagnostics.residual },
      });
    }
    if (model.discipline === 'fifo' && model.service.kind !== 'deterministic' && model.service.kind !== 'empirical') {
      const r = phaseTypeJsqFixedPoint(model);
      const exact = PH_KINDS.has(model.service.kind);
      return solution({
        meanResponseTime: r.meanResponseTime,
        meanQueueLength: r.meanQueueLength,
        tail: r.tail,
        solver: exact ? 'phase-type SQ(d) ODE' : 'phase-type SQ(d) ODE on a two-moment PH fit',
        kind: exact ? 'exact' : 'approximation',
        source: 'theory.md §3' + (exact ? '' : ': only E[S] and the SCV match the true law'),
        convergence: { converged: true, iterations: r.diagnostics.newtonIterations, residual: r.diagnostics.residual },
      });
    }
    const r = jsqCavity(model, { seed });
    return solution({
      meanResponseTime: r.meanResponseTime.mean,
      estimate: r.meanResponseTime,
      meanQueueLength: r.meanQueueLength,
      tail: r.tail,
      solver: 'JSQ cavity iteration',
      kind: 'estimate',
      source:
        'theory.md §5 [A]: asymptotic independence assumed; s1 = rho held, CI from independent restarts, checked (Little, FIFO phase-type ODE)',
      convergence: { converged: r.convergence.converged, iterations: r.convergence.iterations, residual: r.convergence.residual },
    });
  }
  // LWL(d)
  if (model.discipline === 'fifo') {
    if (model.service.kind === 'exponential' && model.service.mean === 1 && model.d >= 2) {
      const c = lwlExponentialClosedForm(model.lambda, model.d);
      return solution({
        meanResponseTime: c.meanResponseTime,
        meanQueueLength: model.lambda * c.meanResponseTime,
        solver: 'LWL(d) closed form',
        kind: 'exact',
        source: 'theory.md §4 (Hellemans & Van Houdt 2018)',
        numericalError: 0,
      });
    }
    const r = lwlFixedPoint(model);
    return solution({
      meanResponseTime: r.meanResponseTime,
      meanQueueLength: model.lambda * r.meanResponseTime,
      ccdf: { of: 'workload', points: r.grid, ccdf: r.workloadCcdf },
      solver: 'LWL(d) FPE (Picard/FFT)',
      kind: 'exact',
      source: 'theory.md §4 (Hellemans & Van Houdt 2018)',
      numericalError: r.diagnostics.meanResponseTimeGridError,
      convergence: { converged: true, iterations: r.diagnostics.iterations, residual: r.diagnostics.lastChange },
    });
  }
  const w = lwlWorkloadCcdf(model);
  const r = lwlCavity(model, { seed, horizon: options.cavityHorizon ?? 2e5, workloadCcdf: { grid: w.grid, ccdf: w.workloadCcdf } });
  // one long run of the cavity queue on a converged F̄ (its input, not part of the answer): nothing iterates
  return solution({
    meanResponseTime: r.meanResponseTime.mean,
    estimate: r.meanResponseTime,
    meanQueueLength: model.lambda * r.meanResponseTime.mean,
    solver: 'LWL cavity queue',
    kind: 'estimate',
    source: 'theory.md §5 [D]: exact in the limit given asymptotic independence; CI by batch means',
  });
}
