/**
 * One rule for loads without a fixed point, shared by `model` and `ode` (theory.md §2): a fixed point exists only for
 * ρ < 1 and, for a model truncated at level K, is the model's only if its top level is empty there; the transient from
 * a given state exists at any load and is the model's over a finite horizon as long as its top level stays empty. So
 * both commands refuse what needs the fixed point (`noFixedPoint`) and permit a finite-horizon transient, cut where its
 * top level fills (`checkTransientTop`).
 */
import { InvalidModelError, UnstableModelError } from '../errors.ts';
import { TRUNCATION_TOLERANCE } from '../meanfield/population/index.ts';
import { poissonReach, sqdTransientEvaluations } from '../meanfield/transient.ts';
import { MAX_EVENTS, ODE_LEVEL_COST } from '../sim/budget.ts';
import { load, type SupermarketModel } from '../model/index.ts';
import { modelFromFlags, type ModelFlags } from './options.ts';

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
 * The model of the `addModelOptions` flags for a transient: as `modelFromFlags`, but a load ρ = λ·E[S] ≥ 1 (no fixed
 * point; the transient exists) is accepted. Every other check is `parseModel`'s: the flags are validated at a stable
 * stand-in λ, then λ is put back.
 * @returns the model and whether it is overloaded (ρ ≥ 1).
 * @throws as `modelFromFlags`, except UnstableModelError for ρ ≥ 1.
 */
export function transientModelFromFlags(o: ModelFlags): { model: SupermarketModel; overloaded: boolean } {
  try {
    return { model: modelFromFlags(o), overloaded: false };
  } catch (error) {
    if (!(error instanceof UnstableModelError) || !(o.lambda > 0)) throw error;
    const overloaded = Object.freeze({ ...modelFromFlags({ ...o, lambda: Number.MIN_VALUE }), lambda: o.lambda });
    if (!(load(overloaded) >= 1)) throw error;
    return { model: overloaded, overloaded: true };
  }
}

/** Most numbers (output times × levels) an overloaded SQ(d) transient keeps: 2e7 doubles, ~160 MB, ~400 MB as JSON. */
export const MAX_TRANSIENT_VALUES = 2e7;

/**
 * The truncation of the SQ(d) transient at ρ ≥ 1, where no fixed point sizes it, and its cost, refused before anything
 * is integrated when over the simulations' budget. K is the start's top level plus the levels a Poisson(ρ·d·t-end/E[S])
 * count of arrivals can climb (a server receives at most d·ρ arrivals per mean service time; solveTransient's own bound),
 * so K and odex's steps both grow with the horizon and the work as its square.
 * @param times the output times (model units). @param from the initial tail, if any.
 * @returns K and the work in event-equivalents (`ODE_LEVEL_COST` per level of each of `sqdTransientEvaluations`).
 * @throws {InvalidModelError} naming K, the work against MAX_EVENTS and --t-end; or the numbers kept (output times ×
 *   (K + 1)) against MAX_TRANSIENT_VALUES and --dt.
 */
export function overloadedTransientLevels(
  model: SupermarketModel,
  times: readonly number[],
  from: readonly number[] | undefined,
): { K: number; work: number } {
  const end = times[times.length - 1];
  const horizon = end / model.service.mean;
  const K = Math.max(1, (from?.length ?? 1) - 1) + poissonReach(load(model) * model.d * horizon);
  const evaluations = sqdTransientEvaluations(load(model), model.d, horizon);
  const work = ODE_LEVEL_COST * evaluations * K;
  const values = times.length * (K + 1);
  const head = `ode at load ρ = ${load(model)} to t = ${end} keeps K = ${K} levels (the reach of Poisson(ρ·d·t) arrivals)`;
  if (work > MAX_EVENTS)
    throw new InvalidModelError(
      `${head} and needs about ${work.toExponential(1)} event-equivalents of work (~${evaluations.toExponential(1)} odex evaluations × K levels ` +
        `× ${ODE_LEVEL_COST} of an event each), more than the ${MAX_EVENTS.toExponential(0)} a simulation may take; lower --t-end (the work grows as its square)`,
    );
  if (values > MAX_TRANSIENT_VALUES)
    throw new InvalidModelError(
      `${head} at ${times.length} output times, ${values.toExponential(1)} numbers, more than ${MAX_TRANSIENT_VALUES.toExponential(0)}; ` +
        'use a coarser --dt or a lower --t-end',
    );
  return { K, work };
}
