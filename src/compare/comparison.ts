/**
 * The comparison: runs the finite-n simulator over a list of n for a grid of (λ, d) and sets each result beside the
 * mean-field limit from `solveMeanField` (theory.md §2–§7), with the refined 1/n term where it exists (JSQ(d), FIFO,
 * exponential sizes: theory.md §6) and the fitted finite-n bias elsewhere ("Without V", §8). Optional extras: tail
 * fractions where the solver has them, the LWL(d) workload ccdf, and the transient from empty (SQ(d) ODE, LWL(d) PIDE).
 *
 * Plan → execute → assemble, as `simulate` (`planSimulation` → `runReplications` → `SimulationCollector`): the plan
 * (plan.ts) lists the tasks, an executor runs them (in this thread here, on worker threads in the CLI), the assembly
 * (cell.ts, summary.ts) reads their values by key only, so the result is the same whoever ran them. The sized runs of
 * `config.resolve` and the confirmatory reruns are further plans made from what came before (`comparisonSteps`).
 * Pure: progress and the cache of finished cells are hooks given by the caller.
 */
import { simulate, simulateTrajectory } from '../sim/index.ts';
import { cellSimulation } from './cell.ts';
import { confirmationTask, planComparison, sizingTasks, usableValue } from './plan.ts';
import { assembleSweep, confirmationCells, judgeSweep } from './summary.ts';
import type { ComparisonConfig, ComparisonHooks, ComparisonPlan, ComparisonResult, ComparisonTask, Execute, TaskValue } from './types.ts';

export * from './types.ts';
export { cellSimulation } from './cell.ts';
export {
  cellKey,
  modelExtrasLabel,
  modelLabel,
  planComparison,
  planFromPrepared,
  prepareComparisonModel,
  selectionLabel,
  serviceLabel,
  sweepModels,
  trajectoryGrid,
  withoutVReason,
} from './plan.ts';
export { storedSimulation } from '../runs/task.ts';
/** The seed of a cell (stats/rng.ts `cellSeed`, the one seed derivation), re-exported where compare's users import it. */
export { cellSeed } from '../stats/index.ts';

/**
 * The comparison as steps over a plan: yields each batch of tasks to run (the first runs; the sized runs of
 * `config.resolve`; the confirmatory reruns of the cells, limit checks and busy-fraction tests rejected after Holm:
 * `confirmationCells`), receives their values in task order,
 * and returns the result. Which tasks a batch holds depends only on the values of the batches before.
 */
export function* comparisonSteps(plan: ComparisonPlan): Generator<readonly ComparisonTask[], ComparisonResult, readonly TaskValue[]> {
  const values = new Map<string, TaskValue>();
  function* run(tasks: readonly ComparisonTask[]): Generator<readonly ComparisonTask[], void, readonly TaskValue[]> {
    if (tasks.length === 0) return;
    const got = yield tasks;
    tasks.forEach((t, i) => values.set(t.key, got[i]));
  }
  yield* run(plan.tasks);
  yield* run(sizingTasks(plan, values));
  const assembly = assembleSweep(plan, values);
  yield* run(confirmationCells(plan, assembly).map((i) => confirmationTask(plan.config, assembly.pending[i].p, assembly.cells[i])));
  return judgeSweep(plan, assembly, values);
}

/**
 * Runs the comparison sweep (theory.md §8 "n-sweeps").
 * Per (λ, d): the limit from `solveMeanField` (solver, kind, CI or numerical error) and, for JSQ(d) FIFO exponential,
 * the refined term ΣV, V (theory.md §6); the warm-up (`sweepWarmup`); one simulation per n with the model as given;
 * then the fits x̂_n = a + c₁/n (+ c₂/n²) (limit fitted, and held at the reference), the limit check of â, the slopes,
 * and per cell the verdict (`cellVerdict`: against π + V/n with V, else with the allowance |ĉ₁|/n + |ĉ₂|/n²).
 * The report's verdicts (`judgeFamily`): Holm over all judged cells; each rejected cell is rerun with the fresh seed
 * `cellSeed(master, key + '/confirm')` and `confirmFactor` × the replications (stored in the cache under that key),
 * and "disagrees" only when the rerun rejects too. With V, ĉ₁ over the trusted n is judged against ΣV/λ
 * (`c1Check`, Holm over the models); with `config.resolve` cells are sized to the 1/n term they test.
 * LWL(d) adds the workload ccdf at `workloadGrid`. With `config.trajectory`, the transient from empty against the
 * SQ(d) ODE or the LWL(d) PIDE (other models: skipped, with a note). Every simulation seed is recorded in its cell.
 * @throws see `prepareModels`; simulator errors pass through.
 */
export function runComparison(config: ComparisonConfig, hooks: ComparisonHooks = {}): ComparisonResult {
  const plan = hooks.plan?.config === config ? hooks.plan : planComparison(config);
  const steps = comparisonSteps(plan);
  const execute = inThisThread(plan, hooks);
  let step = steps.next();
  while (!step.done) step = steps.next(execute(step.value));
  return step.value;
}

/**
 * `runComparison` of a plan with another executor (e.g. the CLI's worker pool): `execute` runs each batch (or reads
 * its stored values: `usableValue`) and resolves to the values in task order. Same result as `runComparison`.
 */
export async function runComparisonWith(plan: ComparisonPlan, execute: Execute<Promise<readonly TaskValue[]>>): Promise<ComparisonResult> {
  const steps = comparisonSteps(plan);
  let step = steps.next();
  while (!step.done) step = steps.next(await execute(step.value));
  return step.value;
}

/** The in-process executor: each task from `hooks.cache` when usable, else simulated here (and stored), with progress. */
function inThisThread(plan: ComparisonPlan, hooks: ComparisonHooks): Execute<TaskValue[]> {
  let done = 0;
  let total = 0;
  return (tasks) => {
    total += tasks.reduce((s, t) => s + t.cost, 0);
    return tasks.map((t) => {
      const before = done;
      done += t.cost;
      if (t.kind === 'trajectory') {
        const { tail, events } = simulateTrajectory(t.model, t.options);
        hooks.onProgress?.(done, total, t.key);
        return { tail, events };
      }
      const cached = hooks.cache?.get(t.key);
      if (cached && usableValue(t, cached.simulation)) {
        hooks.onProgress?.(done, total, `${t.key} (resumed)`);
        return cached.simulation;
      }
      const onProgress = (x: number, all: number) => hooks.onProgress?.(before + (x / Math.max(all, 1)) * t.cost, total, t.key);
      const simulation = cellSimulation(
        simulate(t.model, { ...t.options, onProgress }),
        t.options.replications ?? plan.config.replications,
      );
      hooks.cache?.put({ key: t.key, seed: t.options.seed ?? plan.config.seed, simulation });
      hooks.onProgress?.(done, total, t.key);
      return simulation;
    });
  };
}
