/**
 * Cavity method for LWL(d) under any discipline (theory.md §5 [D]): the workload ccdf F̄ of the mean field is
 * discipline-free (§4), so one queue with Poisson arrivals at rate λ(w) = λdF̄(w)^{d−1} (w > 0) and
 * λ(1 − ρ^d)/(1 − ρ) when idle, simulated under the discipline, gives the mean-field response time — exact in the
 * limit given asymptotic independence, here estimated with batch-means confidence intervals.
 */
import { InvalidModelError } from '../../errors.ts';
import type { SupermarketModel } from '../../model/model.ts';
import { predictionModel } from '../../model/prediction/index.ts';
import { serviceDistribution } from '../../model/service/index.ts';
import type { Estimate } from '../../stats/tInterval.ts';
import { Rng, streamSeed } from '../../stats/rng.ts';
import { VERSION, codeId } from '../../version.ts';
import { checkRhoD, requireBaseModel } from '../support.ts';
import { memoryNotHere, modelHasMemory } from '../../model/memory.ts';
import { requirePoissonLimit } from '../../model/arrivals.ts';
import { batchRatioEstimate } from './cavityEstimate.ts';
import { runCavityQueue } from './cavityQueue.ts';
import { ExponentialLwlAcceptance, TableLwlAcceptance, type WorkloadCcdfTable } from './lwlAcceptance.ts';
import { checkRunOptions } from './options.ts';
import type { ResponseTimeSample } from './responseSample.ts';

export interface LwlCavityOptions {
  /** Measured time, model time units (default 10⁶, as theory.md §5 asks at high load). */
  horizon?: number;
  /** Discarded time before measuring (default horizon/50). */
  warmup?: number;
  /** Batches for the batch-means interval, integer in [2, 1000] (default 25; theory.md §8 suggests 20–30). */
  batches?: number;
  /** Master seed (default 1); the run uses stream streamSeed(seed, 0). */
  seed?: number;
  /** F̄ as a table (e.g. from the LWL solver). Required unless the service law is exponential (closed form). */
  workloadCcdf?: WorkloadCcdfTable;
  /** Called every 2¹⁴ events with the fraction of the run done (simulated time); for progress output. Changes no number. */
  onProgress?: (fraction: number) => void;
}

export interface LwlCavityResult {
  /** E[T], model time units, pooled over the measured jobs; CI from batch means (`replications` = batches). */
  meanResponseTime: Estimate;
  /** E[T/S], same method. */
  meanSlowdown: Estimate;
  method: 'cavity';
  diagnostics: {
    horizon: number;
    warmup: number;
    batches: number;
    /** Lag-1 autocorrelation of the batch means of T (independence check: should be < ~0.2). */
    lag1: number;
    lag1Slowdown: number;
    acceptedJobs: number;
    completedJobs: number;
    events: number;
    /** Where F̄ came from. */
    workloadCcdf: 'exponential closed form' | 'table';
  };
  provenance: { model: SupermarketModel; equation: string; source: string; version: string; code: string; seed: number; stream: string };
}

/**
 * LWL(d) mean-field response time and slowdown under any discipline by the cavity queue of theory.md §5.
 * Potential arrivals at rate λd are thinned with acceptance F̄(w)^{d−1} at workload w > 0 and (1 − ρ^d)/(d(1 − ρ))
 * when idle; sizes from the service law, predictions from the prediction model (drawn once per job), served by a
 * preemptive-resume scheduler (theory.md §1 table; conventions `sprptOverrun`, `psjfPreemption`).
 * The result is a simulation estimate with a batch-means CI, labelled method 'cavity', never exact.
 * Same seed and options → the same numbers.
 * @param model `selection` 'lwl', any discipline, any service law, any prediction model but 'trace'.
 * @param options `horizon` (10⁶), `warmup` (horizon/50), `batches` (25), `seed` (1), `workloadCcdf`.
 * @param responses when given (one unit per batch), receives the response time of every measured job, by batch.
 * @returns `meanResponseTime`, `meanSlowdown` (Estimates, model time units), `method: 'cavity'`, `diagnostics`,
 *   `provenance`.
 * @throws {InvalidModelError} if the selection is not 'lwl', predictions are 'trace', options are out of range, the
 *   table is malformed, or the service law is not exponential and no `workloadCcdf` is given.
 * @throws {UnstableModelError} if ρ ∉ (0, 1). @throws {ConvergenceError} if a batch completes no job.
 * @example lwlCavity(parseModel({ lambda: 0.9, d: 2, selection: 'lwl' })).meanResponseTime.mean // ≈ 2.0503
 */
export function lwlCavity(model: SupermarketModel, options: LwlCavityOptions = {}, responses?: ResponseTimeSample): LwlCavityResult {
  if (model.selection !== 'lwl') {
    throw new InvalidModelError(`lwlCavity needs selection "lwl", got ${JSON.stringify(model.selection)} (use jsqCavity for "jsq")`);
  }
  if (modelHasMemory(model)) throw memoryNotHere(model);
  requirePoissonLimit(model);
  requireBaseModel(model, 'lwlCavity');
  if (model.prediction.kind === 'trace') {
    throw new InvalidModelError('lwlCavity needs a prediction law given the size; "trace" predictions are per-job columns');
  }
  const service = serviceDistribution(model.service);
  const rho = model.lambda * service.mean;
  checkRhoD(rho, model.d);
  const horizon = options.horizon ?? 1e6;
  const run = checkRunOptions(horizon, options.warmup ?? horizon / 50, options.batches ?? 25, options.seed ?? 1);
  let acceptance;
  let source: 'exponential closed form' | 'table';
  if (options.workloadCcdf !== undefined) {
    acceptance = new TableLwlAcceptance(options.workloadCcdf, rho, model.d);
    source = 'table';
  } else if (model.service.kind === 'exponential') {
    acceptance = new ExponentialLwlAcceptance(rho, model.d, service.mean);
    source = 'exponential closed form';
  } else {
    throw new InvalidModelError(
      `lwlCavity for service ${JSON.stringify(model.service.kind)} needs options.workloadCcdf ({ grid, ccdf } of F̄ from the LWL(d) solver); only exponential sizes have a closed form`,
    );
  }
  const out = runCavityQueue({
    discipline: model.discipline,
    conventions: model.conventions,
    service,
    prediction: predictionModel(model.prediction),
    potentialRate: model.lambda * model.d,
    acceptance,
    warmup: run.warmup,
    horizon: run.horizon,
    batches: run.batches,
    rng: new Rng(streamSeed(run.seed, 0)),
    levels: false,
    onResponse: responses && ((T, batch) => responses.push(batch, T)),
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
  });
  options.onProgress?.(1);
  const T = batchRatioEstimate(out.responseSum, out.completed);
  const slowdown = batchRatioEstimate(out.slowdownSum, out.completed);
  return {
    meanResponseTime: T.estimate,
    meanSlowdown: slowdown.estimate,
    method: 'cavity',
    diagnostics: {
      horizon: run.horizon,
      warmup: run.warmup,
      batches: run.batches,
      lag1: T.lag1,
      lag1Slowdown: slowdown.lag1,
      acceptedJobs: out.acceptedJobs,
      completedJobs: out.completed.reduce((a, b) => a + b, 0),
      events: out.events,
      workloadCcdf: source,
    },
    provenance: {
      model,
      equation: 'one queue, Poisson rate λ*d thinned by F̄(w)^(d-1) (w > 0) or (1 - ρ^d)/(d(1 - ρ)) (idle); discipline simulated',
      source: 'theory.md §5 [D] (cavity queue), §4 (F̄; Hellemans and Van Houdt, POMACS 2(2), 2018); Bramson, Lu, Prabhakar 2012',
      version: VERSION,
      code: codeId(),
      seed: run.seed,
      stream: 'streamSeed(seed, 0)',
    },
  };
}
