/**
 * The reduction theorem for dispatchers with memory (theory.md §12; T. Hellemans, PhD thesis, Univ. Antwerp 2021,
 * ch. 6, Theorems response_SQd (exponential), response_SQd_PHD (phase-type), response_SQd_gen (general sizes) and
 * response_LLd (LL(d), general sizes)): in the mean-field (cavity) limit, SQ(d) or LL(d) with memory at arrival rate λ
 * has the response-time law of the same system without memory at rate λπ₀^{1/d}, π₀ the probability that the memory
 * is empty (pi0.ts). The tails scale: u_k = v_k/π₀^{1/d} (k ≥ 1), F̄(w) = H̄(w)/π₀^{1/d}; E[Q] = λE[T] (Little).
 *
 * The thesis proves it for FIFO servers. With d = 1 (JIQ with memory A) it holds for every work-conserving
 * discipline: a busy period starts with one job and sees Poisson(λπ₀) arrivals, as in the M/G/1 queue at rate λπ₀,
 * and a job's response time depends only on its busy period (theory.md §12). Other disciplines at d ≥ 2 are refused.
 */
import { InvalidModelError } from '../../errors.ts';
import { effectiveMemory, formatMemory, isJiq, modelHasMemory, NO_MEMORY, type EffectiveMemory } from '../../model/memory.ts';
import { load, type SupermarketModel } from '../../model/model.ts';
import { memoryEmptyProbability, probesPerArrival } from './pi0.ts';
import { requireBaseModel } from '../support.ts';

/** What the memory does to a model in the limit. */
export interface MemoryReduction {
  /** The memory the model acts on (classic JIQ: ISM with capacity +∞). */
  readonly memory: EffectiveMemory;
  /** Load ρ = λ·E[S]. */
  readonly rho: number;
  /** π₀: the probability that an arrival finds the memory empty. */
  readonly pi0: number;
  /** The reduced arrival rate λπ₀^{1/d} (0 when π₀ = 0: every job joins an idle server). */
  readonly reducedLambda: number;
  /** Probes (and ISM messages) per arrival, as the thesis counts them (pi0.ts `probesPerArrival`). */
  readonly probesPerArrival: number;
  /** π₀^{1/d}, the factor between the tails with and without memory (u_k = v_k/π₀^{1/d}). */
  readonly scale: number;
}

/** True when the model's dispatcher has a memory (including classic JIQ). */
export function hasMemory(model: SupermarketModel): boolean {
  return modelHasMemory(model);
}

/**
 * π₀, the reduced rate and the probe count of a model with memory.
 * @throws {InvalidModelError} on ρ outside [0, 1), and for server speeds, batches or redundancy (no term for them).
 */
export function memoryReduction(model: SupermarketModel): MemoryReduction {
  // π₀ and the probe count are derived for identical servers, single jobs, no replicas (a library caller could pass
  // another model and read the identical-server numbers as its own)
  requireBaseModel(model, 'the memory reduction theorem');
  const memory = effectiveMemory(model.selection, model.d, model.memory);
  const rho = load(model);
  const d = isJiq(model.selection) ? 1 : model.d;
  const pi0 = memoryEmptyProbability(memory, rho, d);
  const scale = pi0 ** (1 / d);
  return { memory, rho, pi0, reducedLambda: model.lambda * scale, probesPerArrival: probesPerArrival(memory, rho, d), scale };
}

/**
 * The model without memory at the reduced rate λπ₀^{1/d} whose response time the reduction theorem equates with
 * `model`'s (JIQ becomes random selection, d = 1). Not for π₀ = 0 (reduced rate 0; see `solveWithMemory`).
 * @throws {InvalidModelError} when the theorem does not cover the model (discipline other than FIFO with d ≥ 2).
 */
export function reducedModel(model: SupermarketModel, reduction: MemoryReduction = memoryReduction(model)): SupermarketModel {
  const d = isJiq(model.selection) ? 1 : model.d;
  if (d >= 2 && model.discipline !== 'fifo') {
    throw new InvalidModelError(
      `no mean-field solver for memory ${formatMemory(model.memory)} with discipline ${model.discipline} at d = ${d}: the reduction theorem (Hellemans 2021, ch. 6) covers FIFO servers (any discipline at d = 1); use simulate`,
    );
  }
  return Object.freeze({
    ...model,
    selection: isJiq(model.selection) ? 'random' : model.selection,
    d,
    lambda: reduction.reducedLambda,
    memory: NO_MEMORY,
  });
}

/** The parts of a mean-field answer the reduction maps (a subset of `MeanFieldSolution`, solve.ts). */
export interface ReducibleSolution {
  readonly meanResponseTime: number;
  readonly meanQueueLength?: number;
  readonly tail?: number[];
  readonly ccdf?: { readonly of: string; readonly points: number[]; readonly ccdf: number[] };
  readonly solver: string;
  readonly source: string;
}

/**
 * Solves a model with memory through the reduction: `solveBase` answers the reduced model, and the answer is mapped
 * back (E[T] and the response-time ccdf unchanged; E[Q] = λE[T]; tails and workload ccdf divided by π₀^{1/d}, level 0
 * kept at 1). With π₀ = 0 (CP with d ≥ 1/(1 − ρ), classic JIQ) every job joins an idle server: E[T] = E[S] exactly,
 * tail (1, ρ, 0, …), without calling `solveBase`.
 * @param solveBase the mean-field entry for models without memory (solveMeanField).
 * @returns the mapped solution plus `reduction` (π₀, reduced rate, probes per arrival).
 * @throws {InvalidModelError} from `reducedModel`, and whatever `solveBase` throws.
 */
export function solveWithMemory<S extends ReducibleSolution>(
  model: SupermarketModel,
  solveBase: (reduced: SupermarketModel) => S,
  exactIdle: (meanResponseTime: number, tail: number[]) => S,
): S & { readonly reduction: MemoryReduction } {
  const reduction = memoryReduction(model);
  if (reduction.pi0 === 0) {
    reducedModel(model, reduction); // the same refusals as π₀ > 0
    const base = exactIdle(model.service.mean, [1, reduction.rho, 0]);
    return { ...base, reduction };
  }
  const base = solveBase(reducedModel(model, reduction));
  const s = reduction.scale;
  const source = `theory.md §12: reduction theorem (Hellemans 2021, ch. 6): the same law as without memory at rate λπ₀^{1/d} = ${reduction.reducedLambda.toPrecision(6)}, π₀ = ${reduction.pi0.toPrecision(6)}; base: ${base.source}`;
  return {
    ...base,
    meanQueueLength: model.lambda * base.meanResponseTime,
    ...(base.tail === undefined ? {} : { tail: base.tail.map((v, k) => (k === 0 ? v : v / s)) }),
    ...(base.ccdf === undefined || base.ccdf.of !== 'workload' ? {} : { ccdf: { ...base.ccdf, ccdf: base.ccdf.ccdf.map((v) => v / s) } }),
    solver: `${base.solver} at the reduced rate (memory ${describeMemory(reduction.memory)})`,
    source,
    reduction,
  };
}

/**
 * The memory in the CLI's words: `ip`, `cp`, `bcp:5`, `ism:10` (the `--memory` values), or `jiq (unbounded)` for ISM
 * with unbounded memory, which only `--selection jiq` selects (issue 18: one name per concept, no name the CLI refuses).
 */
export function describeMemory(memory: EffectiveMemory): string {
  if (memory.kind === 'ism' && memory.capacity === Infinity) return 'jiq (unbounded)';
  if (memory.kind === 'bcp' || memory.kind === 'ism') return `${memory.kind}:${memory.capacity}`;
  return memory.kind;
}
