/**
 * Transients with dispatcher memory beyond exponential sizes (theory.md §12 "Transient"; T. Hellemans, PhD thesis,
 * Univ. Antwerp 2021, ch. 6): the mean-field equations of the same system without memory, with the arrivals split as
 * the memory splits them. A fraction π₀(t) finds the memory empty and follows the base rule; the rest joins an idle
 * server. The memory moves on the fast time scale (it holds O(1) ids and sees λn arrivals per time unit), so π₀(t) is
 * the quasi-stationary π₀ given the servers' state (transient.ts `quasiStationaryPi0FromFlows`): the busy fraction for
 * the probing schemes, the rate at which servers become idle per arrival for ISM.
 * - SQ(d), phase-type sizes, FIFO: the phase-type ODE of theory.md §3 with λ → λπ₀(t) in the JSQ terms and
 *   λ(1 − π₀(t))α_j added at level 1 (idle servers start a job in phase j); emptying rate Σ_j x_{1,j}μ_j.
 * - LL(d), any size law (any discipline: the workload is discipline-free): the LWL(d) workload PIDE of theory.md §4
 *   with the LL(d) arrivals at rate λπ₀(t) and λ(1 − π₀(t)) sent from the idle cell; emptying rate: the mass that
 *   reached 0 in the step.
 * At the fixed point both give back the reduction theorem (reduction.ts): the tails / workload ccdf of the system
 * without memory at rate λπ₀^{1/d}, divided by π₀^{1/d} (tested).
 */
import { InvalidModelError } from '../../errors.ts';
import { effectiveMemory, isJiq, modelHasMemory, NO_MEMORY } from '../../model/memory.ts';
import type { SupermarketModel } from '../../model/model.ts';
import { lwlTransient, type LwlTransientOptions, type LwlTransientResult } from '../lwl/transient.ts';
import { phaseTypeJsqTransient, type PhaseTypeTransientOptions, type PhaseTypeTransientResult } from '../phaseType/transient.ts';
import { describeMemory } from './reduction.ts';
import { memoryRouting } from './transient.ts';

const PH_KINDS = new Set(['exponential', 'erlang', 'hyperexponential']);

/**
 * Why the phase-type memory transient does not cover the model, or undefined: SQ(d) (jsq or jiq) with FIFO and a law
 * that is phase type or has a two-moment PH fit (not deterministic or empirical).
 */
export function memoryPhaseTypeRefusal(model: SupermarketModel): string | undefined {
  if (!(model.selection === 'jsq' || isJiq(model.selection)) || model.discipline !== 'fifo')
    return `the phase-type memory ODE covers SQ(d) (jsq or jiq) with FIFO servers, not ${model.selection} with ${model.discipline}`;
  if (model.service.kind === 'deterministic' || model.service.kind === 'empirical')
    return `the phase-type memory ODE needs a phase-type law or a two-moment PH fit, not ${model.service.kind} sizes`;
  return undefined;
}

/** Whether the phase-type memory transient is exact for the law (phase type) or on a two-moment PH fit. */
export function memoryPhaseTypeIsExact(model: SupermarketModel): boolean {
  return PH_KINDS.has(model.service.kind);
}

/**
 * The SQ(d) memory transient with phase-type sizes (module comment), from empty.
 * @param model jsq (or jiq) with FIFO, a memory, ρ < 1; sizes phase type (exact) or with a two-moment PH fit.
 * @param options as `phaseTypeJsqTransient` (K defaults to the fixed point's K of the model without memory, an upper
 *   bound: memory thins the tail).
 * @returns the `PhaseTypeTransientResult` of the phase-type ODE, its provenance naming the model with its memory.
 * @throws {InvalidModelError} for models outside the module comment; {SolverError} if odex fails.
 */
export function memoryPhaseTypeTransient(
  model: SupermarketModel,
  options: Omit<PhaseTypeTransientOptions, 'routing'>,
): PhaseTypeTransientResult {
  if (!modelHasMemory(model)) throw new InvalidModelError('memoryPhaseTypeTransient needs a model with a dispatcher memory');
  const refusal = memoryPhaseTypeRefusal(model);
  if (refusal) throw new InvalidModelError(refusal);
  const jiq = isJiq(model.selection);
  const d = jiq ? 1 : model.d;
  const memory = effectiveMemory(model.selection, model.d, model.memory);
  const twin: SupermarketModel = { ...model, selection: jiq ? 'random' : model.selection, d, memory: NO_MEMORY };
  const r = phaseTypeJsqTransient(twin, { ...options, routing: memoryRouting(memory, d) });
  r.provenance = {
    ...r.provenance,
    model,
    equation: `phase-type JSQ(d) ODE of theory.md §3 with arrivals λπ₀(t) by JSQ(d) and λ(1 − π₀(t)) to idle servers, π₀(t) quasi-stationary (memory ${describeMemory(memory)})`,
    source: 'theory.md §3, §12; Hellemans 2021 (PhD thesis, Univ. Antwerp), ch. 6; odex',
  };
  return r;
}

/**
 * The LL(d) memory transient, any size law and discipline (module comment), from empty.
 * @param model selection lwl with a memory, ρ < 1. @param options as `lwlTransient`.
 * @returns the `LwlTransientResult` of the workload PIDE, its provenance naming the model with its memory.
 * @throws {InvalidModelError} for another selection or bad options.
 */
export function memoryLwlTransient(model: SupermarketModel, options: Omit<LwlTransientOptions, 'routing'>): LwlTransientResult {
  if (!modelHasMemory(model)) throw new InvalidModelError('memoryLwlTransient needs a model with a dispatcher memory');
  if (model.selection !== 'lwl') throw new InvalidModelError(`the LL(d) memory PIDE needs selection lwl, got ${model.selection}`);
  const memory = effectiveMemory(model.selection, model.d, model.memory);
  const r = lwlTransient({ ...model, memory: NO_MEMORY }, { ...options, routing: memoryRouting(memory, model.d) });
  r.provenance = {
    ...r.provenance,
    model,
    equation: `${r.provenance.equation}; LL(d) arrivals at rate λ·π₀(t), λ·(1 − π₀(t)) from the idle cell, π₀(t) quasi-stationary (memory ${describeMemory(memory)})`,
    source: `${r.provenance.source}; theory.md §12; Hellemans 2021 (PhD thesis, Univ. Antwerp), ch. 6`,
  };
  return r;
}
