/**
 * One rule for loads without a fixed point, shared by `model` and `ode` (theory.md §2): a fixed point exists only for
 * ρ < 1 and, for a model truncated at level K, is the model's only if its top level is empty there; the transient from
 * a given state exists at any load and is the model's over a finite horizon as long as its top level stays empty. So
 * both commands refuse what needs the fixed point (`noFixedPoint`) and permit a finite-horizon transient, cut where its
 * top level fills (`checkTransientTop`).
 */
import { InvalidModelError, UnstableModelError } from '../errors.ts';
import { TRUNCATION_TOLERANCE } from '../meanfield/population/index.ts';
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
