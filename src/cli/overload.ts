/**
 * One rule for loads without a fixed point, shared by `model` and `ode` (theory.md §2): a fixed point exists only for
 * ρ < 1 and, for a model truncated at level K, is the model's only if its top level is empty there; the transient from
 * a given state exists at any load and is the model's over a finite horizon as long as its top level stays empty. So
 * both commands refuse what needs the fixed point (`noFixedPoint`) and permit a finite-horizon transient, cut where its
 * top level fills (`checkTransientTop`).
 */
import { effectiveMemory, isJiq } from '../model/memory.ts';
import { memoryFixedPointTail } from '../meanfield/memory/index.ts';
import { InvalidModelError } from '../errors.ts';
import { poissonReach, sqdTransientEvaluations, sqdTransientTruncation } from '../meanfield/transient.ts';
import { LWL_CELL_COST, MAX_EVENTS, ODE_LEVEL_COST, PHASE_TYPE_VARIABLE_COST, POPULATION_VARIABLE_COST } from '../sim/budget.ts';
import { lwlTransientGrid } from '../meanfield/lwl/transient.ts';
import { phaseTypeJsqFixedPoint } from '../meanfield/phaseType/index.ts';
import { TRUNCATION_TOLERANCE, populationTransient, type PopulationModel } from '../meanfield/population/index.ts';
import { load, validateModel, type SupermarketModel } from '../model/index.ts';
import { modelInputFromFlags, type ModelFlags } from './options.ts';

/**
 * The refusal of an answer that needs the fixed point where there is none.
 * @param found what shows there is none, e.g. "load ρ = λ·E[S] = 1.2 ≥ 1". @param needs the answer asked for, e.g.
 *   "--until-steady".
 */
export function noFixedPoint(found: string, needs: string): InvalidModelError {
  return new InvalidModelError(
    `${found}; ${needs} needs a fixed point, and a load ρ ≥ 1 has none (a finite-horizon transient alone is still meaningful: ` +
      'model --transient, ode)',
  );
}

/**
 * Refuses a transient from the first time its top level is not empty (above TRUNCATION_TOLERANCE): from there it is a
 * state of the truncated model only.
 * @param times the output times. @param topAt the top level's name and value at output j, or undefined if empty.
 * @param remedy what the user can change besides the horizon, e.g. "raise K".
 * @throws {InvalidModelError} naming the level, its value, the time and `--t-end < t`.
 */
export function checkTransientTop(
  times: readonly number[],
  topAt: (j: number) => { name: string; value: number } | undefined,
  remedy: string,
): void {
  for (let j = 0; j < times.length; j++) {
    const top = topAt(j);
    if (top === undefined || !(Math.abs(top.value) > TRUNCATION_TOLERANCE)) continue;
    throw new InvalidModelError(
      `${top.name} = ${top.value.toPrecision(3)} at t = ${times[j]}: the transient reaches the truncation at the last level, ` +
        `so from there it is not the model's; end it earlier (--t-end < ${times[j]})${remedy ? ` or ${remedy}` : ''}`,
    );
  }
}

/**
 * The model of the `addModelOptions` flags for a transient: valid (`validateModel`), at any load — a load
 * ρ = λ·E[S] ≥ 1 has no fixed point but a transient (what needs the fixed point calls `requireStable`).
 * @returns the model and whether it is overloaded (ρ ≥ 1).
 * @throws as `validateModel`.
 */
export function transientModelFromFlags(o: ModelFlags): { model: SupermarketModel; overloaded: boolean } {
  const model = validateModel(modelInputFromFlags(o));
  return { model, overloaded: !(load(model) < 1) };
}

/** Most numbers (output times × levels) an overloaded SQ(d) transient keeps: 2e7 doubles, ~160 MB, ~400 MB as JSON. */
export const MAX_TRANSIENT_VALUES = 2e7;

/**
 * Refuses, before anything is integrated, a transient whose work is over the simulations' budget, in one line naming
 * the work against MAX_EVENTS and --t-end. Shared by the SQ(d) ODE at any load and by population models.
 * @param head what is integrated, e.g. "ode at load ρ = 0.9 to t = 1e9 keeps K = 9 levels (…)".
 * @param evaluations odex right-hand-side evaluations (estimate). @param size levels or variables per evaluation.
 * @param cost event-equivalents per level (or variable) of one evaluation. @param grows how the work grows with --t-end.
 * @returns the work in event-equivalents.
 * @throws {InvalidModelError} when the work exceeds MAX_EVENTS.
 */
export function checkTransientWork(
  head: string,
  evaluations: number,
  size: { count: number; name: string },
  cost: number,
  grows: string,
): number {
  const work = cost * evaluations * size.count;
  if (work > MAX_EVENTS)
    throw new InvalidModelError(
      `${head} and needs about ${work.toExponential(1)} event-equivalents of work (~${evaluations.toExponential(1)} odex evaluations × ${size.name} ` +
        `× ${cost} of an event each), more than the ${MAX_EVENTS.toExponential(0)} a simulation may take; lower --t-end (the work grows ${grows})`,
    );
  return work;
}

/**
 * The truncation of the SQ(d) transient and its cost, refused before anything is integrated when over the simulations'
 * budget (`checkTransientWork`). At ρ ≥ 1, where no fixed point sizes it, K is the start's top level plus the levels a
 * Poisson(ρ·d·t-end/E[S]) count of arrivals can climb (a server receives at most d·ρ arrivals per mean service time;
 * solveTransient's own bound), so K and odex's steps both grow with the horizon and the work as its square. At ρ < 1 K
 * is the one solveTransient starts with (`sqdTransientTruncation`, from the fixed point; a start above it may double K
 * up to the Poisson bound, which the estimate counts) and the work grows linearly with the horizon.
 * @param times the output times (model units). @param from the initial tail, if any.
 * @returns K (undefined at ρ < 1: solveTransient chooses it) and the work in event-equivalents (`ODE_LEVEL_COST` per
 *   level of each of `sqdTransientEvaluations`, an upper estimate at either load).
 * @throws {InvalidModelError} naming K, the work against MAX_EVENTS and --t-end; or at ρ ≥ 1 the numbers kept (output
 *   times × (K + 1)) against MAX_TRANSIENT_VALUES and --dt.
 */
export function sqdTransientLevels(
  model: SupermarketModel,
  times: readonly number[],
  from: readonly number[] | undefined,
): { K: number | undefined; levels: number; work: number } {
  const end = times[times.length - 1];
  const rho = load(model);
  const horizon = (end - times[0]) / model.service.mean;
  const overloaded = rho >= 1;
  const stable = overloaded ? undefined : sqdTransientTruncation(rho, model.d, from ?? [1], horizon);
  const K = stable ? stable.cap : Math.max(1, (from?.length ?? 1) - 1) + poissonReach((rho * model.d * end) / model.service.mean);
  const evaluations = sqdTransientEvaluations(rho, model.d, horizon);
  const head = `ode at load ρ = ${rho} to t = ${end} keeps ${stable ? 'at most ' : ''}K = ${K} levels ${stable ? "(where the fixed point's tail falls below 1e-12, or the reach of Poisson(ρ·d·t) arrivals)" : '(the reach of Poisson(ρ·d·t) arrivals)'}`;
  const work = checkTransientWork(
    head,
    evaluations,
    { count: K, name: 'K levels' },
    ODE_LEVEL_COST,
    overloaded ? 'as its square' : 'linearly with it',
  );
  const values = times.length * (K + 1);
  if (overloaded && values > MAX_TRANSIENT_VALUES)
    throw new InvalidModelError(
      `${head} at ${times.length} output times, ${values.toExponential(1)} numbers, more than ${MAX_TRANSIENT_VALUES.toExponential(0)}; ` +
        'use a coarser --dt or a lower --t-end',
    );
  return { K: stable ? undefined : K, levels: K, work };
}

/**
 * The work of a phase-type JSQ(d) transient (`ode` with a non-exponential law, theory.md §3), refused before anything
 * is integrated when over the simulations' budget (`checkTransientWork`): `sqdTransientEvaluations` odex evaluations
 * (the SQ(d) ODE's rate) of K·m variables (K the fixed point's truncation, as `phaseTypeJsqTransient` takes it; m
 * phases) at PHASE_TYPE_VARIABLE_COST each. The work grows linearly with --t-end (`--t-end 1e9` would have run for days).
 * @returns the work in event-equivalents. @throws {InvalidModelError} naming the work against MAX_EVENTS and --t-end.
 */
export function phaseTypeTransientWork(model: SupermarketModel, times: readonly number[]): number {
  const end = times[times.length - 1];
  const { truncationLevel: K, stateDimension } = phaseTypeJsqFixedPoint(model).diagnostics;
  const rho = load(model);
  return checkTransientWork(
    `ode (phase-type ODE) at load ρ = ${rho} to t = ${end} integrates ${stateDimension} variables (K = ${K} levels × phases)`,
    sqdTransientEvaluations(rho, model.d, (end - times[0]) / model.service.mean),
    { count: stateDimension, name: 'variables' },
    PHASE_TYPE_VARIABLE_COST,
    'linearly with it',
  );
}

/**
 * The work of the SQ(d) cavity ODE with memory (`ode --memory`, theory.md §12), refused before anything is integrated
 * when over the simulations' budget: the SQ(d) ODE's evaluation estimate over K = the fixed point's levels + 10, at
 * POPULATION_VARIABLE_COST per level (one more π₀ per evaluation, small).
 */
export function memoryTransientWork(model: SupermarketModel, times: readonly number[]): number {
  const end = times[times.length - 1];
  const rho = load(model);
  const d = isJiq(model.selection) ? 1 : model.d;
  const K = memoryFixedPointTail(effectiveMemory(model.selection, model.d, model.memory), rho, d).length + 9;
  return checkTransientWork(
    `ode (SQ(d) cavity ODE with memory) at load ρ = ${rho} to t = ${end} keeps K = ${K} levels`,
    sqdTransientEvaluations(rho, d, (end - times[0]) / model.service.mean),
    { count: K, name: 'levels' },
    POPULATION_VARIABLE_COST,
    'linearly with it',
  );
}

/**
 * The work of an LWL(d) workload transient (`ode --selection lwl`, the PIDE of theory.md §4), refused before anything
 * is integrated when over the simulations' budget: one step per Δ of time over horizon/Δ workload cells
 * (`lwlTransientGrid`) at LWL_CELL_COST each; it grows linearly with --t-end (~0.3–0.5 s a time unit at λ = 0.9, d = 2).
 * @returns the work in event-equivalents. @throws {InvalidModelError} naming the work against MAX_EVENTS and --t-end.
 */
export function lwlTransientWork(model: SupermarketModel, times: readonly number[]): number {
  const end = times[times.length - 1];
  const { step, horizon } = lwlTransientGrid(model);
  const steps = (end - times[0]) / step;
  const cells = Math.max(2, Math.round(horizon / step));
  const work = LWL_CELL_COST * steps * cells;
  if (work > MAX_EVENTS)
    throw new InvalidModelError(
      `ode (LWL(d) workload PIDE) at load ρ = ${load(model)} to t = ${end} takes ${steps.toExponential(1)} steps of Δ = ${step} over ` +
        `${cells} workload cells, about ${work.toExponential(1)} event-equivalents of work (× ${LWL_CELL_COST} of an event a cell), more than the ` +
        `${MAX_EVENTS.toExponential(0)} a simulation may take; lower --t-end (the work grows linearly with it)`,
    );
  return work;
}

/** Work (event-equivalents) from which a transient (`ode`, `model --transient`) shows progress with ETA: ~5 s. */
export const TRANSIENT_PROGRESS_WORK = 2.5e7;

/** Horizon (model time units) of the pilot integration that measures a population model's odex evaluation rate. */
const PILOT_HORIZON = 100;

/**
 * The work of a population model's transient (`model --transient`), refused before the whole horizon is integrated
 * when over the simulations' budget (`checkTransientWork`). A model's stiffness is not known from its file, so odex's
 * evaluations are measured on a pilot of the first PILOT_HORIZON time units (its early, accuracy-bound steps are the
 * shortest: threshold-probe.json makes 36 evaluations per time unit there, 19 once near its fixed point) and scaled to
 * the horizon; each evaluation costs POPULATION_VARIABLE_COST per variable. The work grows linearly with --t-end.
 * @returns the work in event-equivalents.
 * @throws {InvalidModelError} naming the work against MAX_EVENTS and --t-end.
 */
export function populationTransientWork(model: PopulationModel, times: readonly number[], tolerance: number): number {
  const horizon = times[times.length - 1] - times[0];
  if (!(horizon > PILOT_HORIZON)) return 0; // at most the pilot itself
  const pilot = populationTransient(model, { times: [times[0], times[0] + PILOT_HORIZON], tolerance });
  const evaluations = (pilot.diagnostics.nEval * horizon) / PILOT_HORIZON;
  const head = `model --transient of ${model.name} to t = ${times[times.length - 1]} has ${model.variables.length} variables and makes ${(pilot.diagnostics.nEval / PILOT_HORIZON).toPrecision(3)} odex evaluations per time unit (its first ${PILOT_HORIZON})`;
  return checkTransientWork(
    head,
    evaluations,
    { count: model.variables.length, name: 'variables' },
    POPULATION_VARIABLE_COST,
    'linearly with it',
  );
}
