/**
 * The LWL(d) mean-field references of a convergence report (theory.md §4): the equilibrium workload ccdf F̄(w) at the
 * simulator's workload levels, and the busy fraction P(U(t) > 0) and E[U(t)] from empty by the transient PIDE.
 */
import type { SupermarketModel } from '../model/index.ts';
import {
  defaultHorizon,
  describeMemory,
  isHeavyTailed,
  lwlExponentialWorkloadCcdf,
  lwlTransient,
  lwlWorkloadCcdf,
  memoryLwlTransient,
  memoryReduction,
  reducedModel,
} from '../meanfield/index.ts';
import { InvalidModelError } from '../errors.ts';
import { modelHasMemory } from '../model/memory.ts';
import { serviceDistribution } from '../model/service/index.ts';
import { interpolateLinear } from '../stats/bisect.ts';

export interface WorkloadReference {
  /** Workload levels w_k (time units), as simulated. */
  readonly grid: number[];
  /** F̄(w_k) = P(U > w_k) in the mean field (same length as grid). */
  readonly ccdf: number[];
  readonly solver: string;
  /** Sup-norm error bound of F̄ on the grid (0 for the closed form; ~4/3 of the Δ vs Δ/2 difference for the FPE). */
  readonly numericalError: number;
}

/**
 * True when `lwlWorkloadReference` is the model's limit: single jobs on one class of servers. Batches (LL(d,K),
 * theory.md §15) and server speeds (per-class drain times, §13) have other workload laws, which the single-job
 * closed form or FPE would stand in for silently (a sup|F̂ − F̄| that does not shrink with n, from the wrong F̄).
 */
export function hasWorkloadReference(model: SupermarketModel): boolean {
  return model.batch === 1 && model.batchLaw === undefined && model.servers === undefined && model.redundancy === undefined;
}

/**
 * Mean-field workload ccdf of an LWL(d) model at the levels `grid`: the closed form for exponential sizes of mean 1
 * (theory.md §4 "Exponential sizes"), else `lwlWorkloadCcdf` (FPE by Picard/FFT, any discipline: F̄ is discipline-free)
 * interpolated linearly from its grid (step 0.005·E[S], so interpolation adds < 1e−5 for these smooth ccdfs).
 * @param model selection 'lwl'. @param grid workload levels ≥ 0, increasing (time units).
 * @throws whatever the solvers throw (InvalidModelError, UnstableModelError, ConvergenceError).
 */
export function lwlWorkloadReference(model: SupermarketModel, grid: readonly number[]): WorkloadReference {
  if (modelHasMemory(model)) {
    // with a dispatcher memory: F̄(w) = H̄(w)/π₀^{1/d}, H̄ the ccdf without memory at the reduced rate (theory.md §12)
    const reduction = memoryReduction(model);
    if (reduction.pi0 === 0)
      throw new InvalidModelError(
        `no LWL(d) workload reference for memory ${describeMemory(reduction.memory)} at π₀ = 0 (every job joins an idle server); use simulate`,
      );
    const base = lwlWorkloadReference(reducedModel(model, reduction), grid);
    return {
      ...base,
      ccdf: base.ccdf.map((v) => v / reduction.scale),
      solver: `${base.solver} at the reduced rate (memory ${describeMemory(reduction.memory)})`,
      numericalError: base.numericalError / reduction.scale,
    };
  }
  if (model.service.kind === 'exponential' && model.service.mean === 1) {
    return {
      grid: grid.slice(),
      ccdf: grid.map((w) => lwlExponentialWorkloadCcdf(model.lambda, model.d, w)),
      solver: 'LWL(d) closed form (theory.md §4)',
      numericalError: 0,
    };
  }
  const r = lwlWorkloadCcdf(model);
  const bound = Number.isFinite(r.diagnostics.gridErrorBound) ? r.diagnostics.gridErrorBound : 0;
  return {
    grid: grid.slice(),
    ccdf: grid.map((w) => interpolateLinear(r.grid, r.workloadCcdf, w)),
    solver: `LWL(d) FPE, ${r.diagnostics.method} (Δ = ${r.diagnostics.step})`,
    numericalError: bound,
  };
}

export interface LwlTransientReference {
  readonly times: number[];
  /** P(U(t) > 0): the fraction of busy servers, = s_1(t) of the simulator. */
  readonly busyFraction: number[];
  /** E[U(t)] (time units). */
  readonly meanWorkload: number[];
  /** How it was computed, with the step, horizon and the mass that reached the horizon. */
  readonly note: string;
}

/**
 * LWL(d) transient from empty by the mass-conserving PIDE scheme (theory.md §4 "Transient PIDE"), on a coarse step
 * Δ = 0.05·E[S] (first order: busy fractions within ~Δ·λ of the fine solution; the stationary busy fraction is ρ
 * exactly) and a horizon of at most 150·E[S] (mass beyond stays in the top cell and is reported), to keep it to seconds.
 * @param times output instants, increasing, ≥ 0.
 */
export function lwlTransientReference(model: SupermarketModel, times: number[]): LwlTransientReference {
  const mean = model.service.mean;
  const step = Math.min(0.05 * mean, 1 / (model.lambda * model.d));
  const service = serviceDistribution(model.service);
  const horizon = Math.min(defaultHorizon(service), (isHeavyTailed(service) ? 300 : 150) * mean);
  const options = { times, step, horizon, includeCcdf: false };
  // with a dispatcher memory: the same PIDE with the memory's routing (theory.md §12)
  const r = modelHasMemory(model) ? memoryLwlTransient(model, options) : lwlTransient(model, options);
  return {
    times: r.times.slice(),
    busyFraction: r.busyFraction.slice(),
    meanWorkload: r.meanWorkload.slice(),
    note:
      `${model.batch > 1 ? `LL(d,K) batch-sampling PIDE, K = ${model.batch} (theory.md §15),` : 'PIDE'} from empty (theory.md §4), Δ = ${step.toPrecision(3)}, horizon ${horizon.toPrecision(3)}, ` +
      `mass at horizon ${r.diagnostics.massAtHorizon.toExponential(1)}`,
  };
}

/** max_k |F̂(w_k) − F̄(w_k)| over the levels, and the largest CI half-width among them. */
export function workloadSupDistance(
  simulated: readonly { mean: number; halfWidth: number }[],
  reference: readonly number[],
): { sup: number; halfWidth: number } {
  let sup = 0;
  let halfWidth = 0;
  for (let k = 0; k < reference.length; k++) {
    sup = Math.max(sup, Math.abs(simulated[k].mean - reference[k]));
    halfWidth = Math.max(halfWidth, simulated[k].halfWidth);
  }
  return { sup, halfWidth };
}
