/**
 * The LWL(d) equilibrium workload ccdf F̄(w) = P(U > w) on a grid, by Picard iteration on the FPE (picard.ts) or,
 * for exact phase-type sizes, by the ODE form (phaseType.ts), with a grid-error estimate from the step Δ/2.
 * F̄ is the same under every work-conserving discipline (theory.md §4), so `lwlWorkloadCcdf` accepts any.
 *
 * Horizon trimming: the FPE is a Volterra equation (F̄ on [0, w] depends only on F̄ on [0, w]), so solving on a
 * shorter interval changes nothing inside it. A coarse solve (step 8Δ) over the requested horizon W finds where
 * F̄ falls below 1e−14; the fine solves stop at 1.2× that point + 2E[S] (or W). This is what makes λ = 0.99 fast.
 */
import { InvalidModelError } from '../../errors.ts';
import type { SupermarketModel } from '../../model/model.ts';
import { VERSION, codeId } from '../../version.ts';
import { ccdfCellAverages } from './kernel.ts';
import { type LwlParameters, DEFAULT_STEP, defaultHorizon, lwlParameters, positiveOption } from './parameters.ts';
import { phaseTypeSolve } from './phaseType.ts';
import { picardSolve } from './picard.ts';

export type LwlMethod = 'picard' | 'phase-type';

/**
 * Factor from the Δ-vs-Δ/2 difference to a bound on the error of the Δ solution: a scheme of order p has
 * error(Δ) = diff/(1 − 2^−p), 4/3 at p = 2 (measured 1.34 at λ = 0.9 and 0.99, Weibull ½: the stated error was
 * the bare difference, 1.3× too small, issue 21 §6) and 2 at p = 1; 2 bounds every order p ≥ 1 (the kernel of a
 * law with an unbounded density at 0, Weibull k < 1, can lower the order near w = 0).
 */
export const GRID_ERROR_BOUND_FACTOR = 2;

export interface LwlOptions {
  /** Grid step Δ (time units); default 0.005·E[S]. */
  step?: number;
  /** Horizon W (time units); default 300·E[S], 600·E[S] for heavy tails (parameters.ts `isHeavyTailed`). */
  horizon?: number;
  /** Picard stop: max change < tolerance (default 1e−10); the odex tolerance for 'phase-type' (default 1e−12). */
  tolerance?: number;
  /** Picard iteration cap (default 2000). */
  maxIterations?: number;
  /** 'picard' (default, any law) or 'phase-type' (exponential, erlang, hyperexponential only). */
  method?: LwlMethod;
  /** Anderson acceleration depth for Picard (default 5; 0 = plain Picard). */
  andersonDepth?: number;
  /** Also solve with Δ/2 to estimate the grid error (default true). */
  gridCheck?: boolean;
  /** Stop the grid where F̄ is negligible, see the file comment (default true). */
  trimHorizon?: boolean;
}

export interface LwlDiagnostics {
  method: LwlMethod;
  /** Picard iterations of the returned solve (odex steps for 'phase-type'). */
  iterations: number;
  /** Last Picard max change (0 for 'phase-type'). */
  lastChange: number;
  /**
   * max_j |F̄_Δ(w_j) − F̄_{Δ/2}(w_j)| (NaN without gridCheck). The scheme is second order, so the error of the
   * returned F̄ is about 4/3 of this. For 'phase-type', F̄ is sampled from the ODE, and this compares with Picard on
   * the same grid instead (an independent check).
   */
  gridError: number;
  /** |E[T]_Δ − E[T]_{Δ/2}| for the FIFO mean response time (NaN without gridCheck). */
  meanResponseTimeGridError: number;
  /**
   * Bound on the grid error of the returned E[T] (time units, NaN without gridCheck): `GRID_ERROR_BOUND_FACTOR` ×
   * `meanResponseTimeGridError` for Picard (the returned value is the coarse E[T]_Δ, whose error is 4/3 of the
   * Δ-vs-Δ/2 difference for a second-order scheme, 2× for first order); for 'phase-type' the Picard difference itself.
   */
  meanResponseTimeErrorBound: number;
  /**
   * What the grid leaves out of E[W] = ∫ F̄^d: ∫_W^∞ F̄(w)^d dw beyond the horizon W (`tailBeyondHorizon`), time units,
   * included in `meanResponseTimeErrorBound` (a power tail, e.g. Pareto sizes, is far from negligible at W = 600·E[S]).
   */
  meanResponseTimeTailError: number;
  /** The same bound on max_j |F̄_Δ(w_j) − F̄(w_j)| (from `gridError`). */
  gridErrorBound: number;
  /** Δ (time units). */
  step: number;
  /** The end of the returned grid (time units), ≤ requestedHorizon. */
  horizon: number;
  requestedHorizon: number;
  /** F̄ at the horizon: what the means leave out is about this times the tail's decay length. */
  tailAtHorizon: number;
}

export interface LwlWorkloadResult {
  /** w_j = jΔ, j = 0..M (length M + 1, time units). */
  grid: number[];
  /** F̄(w_j) = P(U > w_j) (length M + 1), workloadCcdf[0] = ρ, non-increasing. */
  workloadCcdf: number[];
  /** E[U] = ∫F̄ dw (trapezoid on the grid), time units. */
  meanWorkload: number;
  diagnostics: LwlDiagnostics;
  provenance: {
    model: SupermarketModel;
    method: LwlMethod;
    equation: string;
    source: string;
    version: string;
    /** The code identity (version.ts `codeIdentity`). */
    code: string;
    options: Required<Omit<LwlOptions, 'method'>> & { method: LwlMethod };
  };
}

/** Internal: the solved grid with its kernel, for lwlFixedPoint. */
export interface WorkloadSolution {
  params: LwlParameters;
  step: number;
  ccdf: Float64Array;
  K: Float64Array;
  /** F̄ on the Δ/2 grid and its kernel (gridCheck only). */
  half?: { ccdf: Float64Array; K: Float64Array };
  result: LwlWorkloadResult;
}

export const LWL_SOURCE = 'theory.md §4; Hellemans & Van Houdt, POMACS 2(2), 2018, arXiv:1802.05420';
const FPE = 'F(w) = ρ - λ ∫_0^w (1 - F(u)^d) G(w-u) du (Picard, product midpoint rule, FFT convolution)';
const PH_ODE = "F' = -λ[(1 - F^d) + α A ξ], ξ' = (1 - F^d)1 + A ξ, F(0) = ρ, ξ(0) = 0 (odex)";
const TAIL_CUT = 1e-14;
const COARSE_FACTOR = 8;

/** Trapezoid ∫ of v^power over the grid. */
export function trapezoid(v: Float64Array, step: number, power = 1): number {
  let s = 0;
  for (let j = 0; j + 1 < v.length; j++) s += v[j] ** power + v[j + 1] ** power;
  return 0.5 * step * s;
}

/** Linear interpolation of a coarse grid (step `ratio`·Δ) onto M + 1 fine nodes. */
function refine(coarse: Float64Array, ratio: number, cells: number): Float64Array {
  const out = new Float64Array(cells + 1);
  const last = coarse.length - 1;
  for (let j = 0; j <= cells; j++) {
    const x = j / ratio,
      i = Math.min(last, Math.floor(x)),
      t = x - i;
    out[j] = i >= last ? coarse[last] : (1 - t) * coarse[i] + t * coarse[i + 1];
  }
  return out;
}

function resolveOptions(params: LwlParameters, options: LwlOptions) {
  const mean = params.service.mean;
  const method = options.method ?? 'picard';
  if (method !== 'picard' && method !== 'phase-type') {
    throw new InvalidModelError(`method must be "picard" or "phase-type", got ${JSON.stringify(method)}`);
  }
  const step = positiveOption('step', options.step ?? DEFAULT_STEP * mean);
  const horizon = positiveOption('horizon', options.horizon ?? defaultHorizon(params.service));
  if (horizon < 2 * step) throw new InvalidModelError(`horizon must be ≥ 2·step = ${2 * step}, got ${horizon}`);
  if (horizon / step > 5e6) throw new InvalidModelError(`horizon/step must be ≤ 5e6 grid cells, got ${horizon / step}`);
  const tolerance = positiveOption('tolerance', options.tolerance ?? (method === 'picard' ? 1e-10 : 1e-12));
  const maxIterations = options.maxIterations ?? 2000;
  if (!Number.isInteger(maxIterations) || maxIterations < 1) {
    throw new InvalidModelError(`maxIterations must be an integer ≥ 1, got ${maxIterations}`);
  }
  const andersonDepth = options.andersonDepth ?? 5;
  if (!Number.isInteger(andersonDepth) || andersonDepth < 0 || andersonDepth > 20) {
    throw new InvalidModelError(`andersonDepth must be an integer in [0, 20], got ${andersonDepth}`);
  }
  if (method === 'phase-type' && params.service.phaseType === undefined) {
    throw new InvalidModelError(
      `method "phase-type" needs exact phase-type sizes (exponential, erlang, hyperexponential), got service kind ` +
        `${JSON.stringify(params.service.spec.kind)}; use method "picard"`,
    );
  }
  return {
    method,
    step,
    horizon,
    tolerance,
    maxIterations,
    andersonDepth,
    gridCheck: options.gridCheck ?? true,
    trimHorizon: options.trimHorizon ?? true,
  };
}

/**
 * ∫_W^∞ F̄(w)^d dw beyond the last grid point W = cells·step, from a power law F̄(w) ≈ F̄(W)(w/W)^{−β}:
 * W·F̄(W)^d/(dβ − 1). β is the tail index when theory gives it (`tailIndex`: α − 1 for Pareto(α) sizes, theory.md §8
 * "Heavy tails, in the limit"), else the slope of log F̄ between W/2 and W; +∞ when a known dβ ≤ 1 (the integral
 * diverges; `meanFieldFiniteness` refuses those laws before the solver runs). A slope that is flat (a coarse grid's
 * round-off plateau) or too shallow for a law without a known index counts one horizon of decay, W·F̄(W)^d. A tail
 * lighter than every power (exponential, Weibull, log-normal) is over-estimated by its power-law tangent, so this
 * errs on the side of a larger error bar.
 * @param ccdf F̄ on the grid (length cells + 1). @param tailIndex β where known. @returns time units, ≥ 0.
 */
export function tailBeyondHorizon(ccdf: ArrayLike<number>, cells: number, step: number, d: number, tailIndex?: number): number {
  const end = ccdf[cells];
  if (!(end > 0)) return 0;
  const horizon = cells * step;
  if (tailIndex !== undefined) return d * tailIndex > 1 ? (horizon * end ** d) / (d * tailIndex - 1) : Infinity;
  const mid = ccdf[Math.floor(cells / 2)];
  const beta = mid > end ? Math.log(mid / end) / Math.log(cells / Math.floor(cells / 2)) : 0;
  return d * beta > 2 ? (horizon * end ** d) / (d * beta - 1) : horizon * end ** d;
}

/** Internal solver shared by lwlWorkloadCcdf and lwlFixedPoint. */
export function solveWorkload(model: SupermarketModel, params: LwlParameters, options: LwlOptions): WorkloadSolution {
  const o = resolveOptions(params, options);
  const { lambda, rho, d, service } = params;
  const mean = service.mean;
  const picard = (step: number, cells: number, K: Float64Array, initial?: Float64Array, tolerance = o.tolerance) =>
    picardSolve(lambda, rho, d, K, step, cells, mean, {
      tolerance,
      maxIterations: o.maxIterations,
      initial,
      andersonDepth: o.andersonDepth,
    });

  // Coarse pass: where F̄ becomes negligible, and a warm start.
  let cells = Math.max(2, Math.round(o.horizon / o.step));
  let start: Float64Array | undefined;
  const ratio = COARSE_FACTOR;
  if (cells >= 50 * ratio) {
    const coarseCells = Math.ceil(cells / ratio);
    const coarseStep = o.step * ratio;
    const coarse = picard(
      coarseStep,
      coarseCells,
      ccdfCellAverages(service, coarseStep, coarseCells),
      undefined,
      Math.max(o.tolerance, 1e-9),
    ).ccdf;
    if (o.trimHorizon) {
      let j = 0;
      while (j < coarseCells && coarse[j] >= TAIL_CUT) j++;
      if (j < coarseCells) cells = Math.min(cells, Math.ceil((1.2 * j * coarseStep + 2 * mean) / o.step));
    }
    if (o.method === 'picard') start = refine(coarse, ratio, cells);
  }

  const K = ccdfCellAverages(service, o.step, cells);
  let ccdf: Float64Array, iterations: number, lastChange: number;
  let half: WorkloadSolution['half'];
  let gridError = NaN;
  let meanResponseTimeGridError = NaN;
  if (o.method === 'picard') {
    ({ ccdf, iterations, lastChange } = picard(o.step, cells, K, start));
    if (o.gridCheck) {
      const K2 = ccdfCellAverages(service, o.step / 2, 2 * cells);
      const fine = picard(o.step / 2, 2 * cells, K2, refine(ccdf, 2, 2 * cells)).ccdf;
      half = { ccdf: fine, K: K2 };
      gridError = 0;
      for (let j = 0; j <= cells; j++) gridError = Math.max(gridError, Math.abs(ccdf[j] - fine[2 * j]));
      meanResponseTimeGridError = Math.abs(trapezoid(ccdf, o.step, d) - trapezoid(fine, o.step / 2, d));
    }
  } else {
    const sol = phaseTypeSolve(lambda, rho, d, service.phaseType!, o.step, cells, o.tolerance);
    ccdf = sol.ccdf;
    iterations = sol.nStep;
    lastChange = 0;
    if (o.gridCheck) {
      const check = picard(o.step, cells, K, ccdf).ccdf;
      gridError = 0;
      for (let j = 0; j <= cells; j++) gridError = Math.max(gridError, Math.abs(ccdf[j] - check[j]));
      meanResponseTimeGridError = Math.abs(trapezoid(ccdf, o.step, d) - trapezoid(check, o.step, d));
    }
  }
  // the returned values are the coarse grid's: their error is not the Δ-vs-Δ/2 difference but 1/(1 − 2^−p) of it
  const factor = o.method === 'picard' ? GRID_ERROR_BOUND_FACTOR : 1;
  const tailError = tailBeyondHorizon(ccdf, cells, o.step, d, service.spec.kind === 'pareto' ? service.spec.alpha - 1 : undefined);
  const result: LwlWorkloadResult = {
    grid: Array.from({ length: cells + 1 }, (_, j) => j * o.step),
    workloadCcdf: Array.from(ccdf),
    meanWorkload: trapezoid(ccdf, o.step),
    diagnostics: {
      method: o.method,
      iterations,
      lastChange,
      gridError,
      meanResponseTimeGridError,
      meanResponseTimeErrorBound: factor * meanResponseTimeGridError + tailError,
      meanResponseTimeTailError: tailError,
      gridErrorBound: factor * gridError,
      step: o.step,
      horizon: cells * o.step,
      requestedHorizon: o.horizon,
      tailAtHorizon: ccdf[cells],
    },
    provenance: {
      model,
      method: o.method,
      equation: o.method === 'picard' ? FPE : PH_ODE,
      source: LWL_SOURCE,
      version: VERSION,
      code: codeId(),
      options: o,
    },
  };
  return { params, step: o.step, ccdf, K, half, result };
}

/**
 * Equilibrium workload ccdf of LWL(d) = LL(d) in the mean-field limit, any service law, any work-conserving
 * discipline (F̄ is discipline-free, theory.md §4).
 * @param model `selection` 'lwl'; any `discipline`; `lambda` per server, ρ = λE[S] < 1.
 * @param options see `LwlOptions` (step, horizon, tolerance, maxIterations, method, andersonDepth, gridCheck, trimHorizon).
 * @returns `grid` w_j = jΔ and `workloadCcdf` F̄(w_j) (both length M + 1, time units), `meanWorkload` E[U],
 *   `diagnostics` (method, iterations, lastChange, gridError, step, horizon, tailAtHorizon), `provenance`.
 * @throws {InvalidModelError} if selection is not 'lwl', d is not an integer ≥ 1, an option is out of range, or
 *   method 'phase-type' is asked for a law without an exact PH form.
 * @throws {ConvergenceError} if Picard exceeds maxIterations.
 * @throws {SolverError} if odex fails ('phase-type').
 * @example lwlWorkloadCcdf(parseModel({ lambda: 0.9, d: 2, selection: 'lwl' })).meanWorkload // ≈ 1.8453 (= λE[T])
 */
export function lwlWorkloadCcdf(model: SupermarketModel, options: LwlOptions = {}): LwlWorkloadResult {
  return solveWorkload(model, lwlParameters(model, false), options).result;
}
