/**
 * `compare` on the worker pool, one pool of `--threads` workers for the whole command: the models of the sweep are
 * solved (`prepareComparisonModel`: limit, refined and second-order terms, exact small-n points, transients; longest
 * first) and each model's simulations (cells and trajectories) join the same batch as soon as it is solved, each
 * stored at once in the cell store (with `--shard`, the whole plan comes first: the shard's part depends on it); the
 * confirmatory reruns of the cells rejected after Holm run and are stored too; then the report's figures render on
 * the same workers (`figuresOnPool`). `runComparison` assembles the report from the stored values only, so the result
 * is bit-identical whatever the thread count, the order of completion or the number of shards (`--shard i/N` computes
 * only its part and writes no report; `supermarket merge` joins them).
 */
import type { Command } from 'commander';
import {
  cellKey,
  cellSimulation,
  planFromPrepared,
  runComparisonWith,
  sweepModels,
  type ComparisonConfig,
  type ComparisonResult,
  type ComparisonTask,
  type PreparedComparisonModel,
  type TaskValue,
} from '../compare/index.ts';
import { usableValue } from '../compare/plan.ts';
import { trajectoryComparison } from '../compare/summary.ts';
import { CellStore } from '../runs/cellStore.ts';
import { codeIdentity } from '../runs/codeIdentity.ts';
import { tQuantile } from '../lazy.ts';
import type { ShardSpec } from '../runs/shard.ts';
import type { SimulationResult, TrajectoryResult } from '../sim/index.ts';
import type { Figure, WriteReportOptions } from '../report/index.ts';
import { reportTransientFigure } from '../report/comparisonFigures.ts';
import { figurePaths, writeFigureData } from '../report/writeFigure.ts';
import { writeFileAtomic } from '../io/atomic.ts';
import path from 'node:path';
import { withPool, type FigureTask, type PoolTask, type PoolValue, type PrepareTask, type RasterTask, type WorkerPool } from './pool.ts';
import { timeline } from './timeline.ts';
import { SupermarketError } from '../errors.ts';
import { startShard, type ShardSummary } from './sharding.ts';

export interface ComparePoolOptions {
  /** The cell store of the whole run (`<out>/cells`) and the settings every cell is stored with. */
  readonly dir: string;
  readonly settings: unknown;
  readonly fresh: boolean;
  readonly threads?: number;
  readonly shard?: ShardSpec;
  /** The compare command (its options are what merge reruns) and its report folder. */
  readonly cmd: Command;
  readonly out: string;
  readonly onProgress?: (done: number, total: number, label: string) => void;
  /** An open pool to run on (kept open, e.g. to render the report's figures after); default: one of `threads` workers. */
  readonly pool?: WorkerPool;
}

/** Settings a stored task is checked by: the sweep's; a trajectory adds its own options (times, n, seed, …). */
function taskSettings(task: ComparisonTask, settings: unknown): unknown {
  return task.kind === 'trajectory' ? { settings, trajectory: task.options } : settings;
}

/**
 * Cost of solving one model, in the simulated events of the progress bar: about the events a worker simulates in
 * the second an exact chain or a second-order term takes; models with exact points first.
 */
const PREPARE_COST = 5e6;

/**
 * Does in this thread, while the workers simulate, the one-time work that folding their results in will need: the
 * code identity (two git calls) and the Student-t quantile (@stdlib: ~0.2 s of module loading). Left to the first
 * trajectory or cell, it ran while a worker waited for its next task (and, at the end, before the report).
 */
function warmAssembly(): void {
  codeIdentity();
  tQuantile(0.975, 9);
}

/**
 * Solves every model of the sweep on the pool and joins them into the plan (`planFromPrepared`). With `follow`, each
 * model's simulations (the tasks of its own plan that `follow.todo` keeps) join the same batch as soon as the model is
 * solved, so no worker waits for the slowest solve; `follow.keep` stores each. @returns the plan of the whole sweep.
 */
async function planOnPool(
  config: ComparisonConfig,
  o: ComparePoolOptions,
  pool: WorkerPool,
  follow?: {
    todo: (tasks: readonly ComparisonTask[]) => ComparisonTask[];
    keep: (key: string, result: PoolValue, task: PoolTask<string>) => void;
    /** After each result: may add tasks that need only the models solved so far and the values stored (`drawAhead`). */
    ahead?: (prepared: readonly (PreparedComparisonModel | undefined)[], more: (tasks: readonly PoolTask<string>[]) => void) => void;
  },
) {
  const models = sweepModels(config);
  const exactNs = config.exact?.ns.length ?? 0;
  const tasks: PrepareTask<number>[] = models.map((m, index) => ({
    key: index,
    kind: 'prepare',
    config,
    index,
    // exact chains and the second-order term grow with λ: heaviest first
    cost: PREPARE_COST * (1 + exactNs) * (1 + m.lambda),
  }));
  const prepared: PreparedComparisonModel[] = new Array(models.length);
  // for the timeline's reader: which cells (keys containing the prefix) each model's solve releases
  models.forEach((m, index) => timeline('model', { index, prefix: cellKey(m, 1).replace(/n1$/, 'n') }));
  // the tasks sent to the pool so far, by key: a model's first simulations come ahead of its solve (`onFirstTasks`)
  const queued = new Map<string, string>();
  let warmed = false;
  const join = (planned: readonly ComparisonTask[], more: (tasks: readonly PoolTask<number | string>[]) => void) => {
    const todo = follow!.todo(planned.filter((t) => !queued.has(t.key)));
    for (const t of todo) queued.set(t.key, JSON.stringify(t));
    more(todo);
    // the workers have simulations now: this thread is free until the first comes back
    if (todo.length > 0 && !warmed) setImmediate(warmAssembly);
    warmed ||= todo.length > 0;
  };
  await pool.run<number | string>(
    tasks,
    (key, value, task, more) => {
      if (task.kind !== 'prepare') {
        follow!.keep(key as string, value, task as PoolTask<string>);
        return follow!.ahead?.(prepared, more);
      }
      const model = value as PreparedComparisonModel;
      prepared[key as number] = model;
      if (!follow) return;
      // the model's own plan lists exactly its tasks of the sweep's plan (keys, seeds and options from the model alone);
      // those sent ahead must be these very tasks, or what was stored under their keys would not be the plan's
      const planned = planFromPrepared(config, [model]).tasks;
      for (const t of planned) {
        const ahead = queued.get(t.key);
        if (ahead !== undefined && ahead !== JSON.stringify(t))
          throw new SupermarketError(`internal: the task ${t.key} sent ahead of its model's solve is not the plan's`);
      }
      join(planned, more);
      follow.ahead?.(prepared, more);
    },
    {
      ...(follow
        ? {
            preloadWhenIdle: 'renderer' as const,
            // the figure drawn ahead (`drawAhead`) stays on the renderer's holder
            minCostToLoad: { renderer: Number.POSITIVE_INFINITY },
            onPartial: (_key, first, more) => join(first as ComparisonTask[], more),
          }
        : {}),
      onProgress: o.onProgress && ((done, total, label) => o.onProgress!(done, total, follow ? label : `solving the models: ${label}`)),
    },
  );
  return planFromPrepared(config, prepared);
}

/**
 * Runs the sweep's simulations on the pool and assembles the comparison; with a shard, only the shard's part
 * (then `{ shardSummary }`). One pool serves the solves, the simulations and the reruns: `o.pool` (left open), else one
 * of `o.threads` workers, closed at the end, on error and on Ctrl-C; its workers start once and keep their modules.
 * @throws as `runComparison`; pool errors pass through.
 */
export async function runComparisonOnPool(
  config: ComparisonConfig,
  o: ComparePoolOptions,
): Promise<{ result: ComparisonResult; resumed: number; resumedKeys: readonly string[] } | { shardSummary: ShardSummary }> {
  if (o.pool) return compareOnPool(config, o, o.pool);
  return withPool(o.threads, (pool) => compareOnPool(config, o, pool));
}

/**
 * Figures drawn ahead on a pool (`drawAhead`), by name: the spec they were drawn from (compact JSON) and the SVG.
 * `figuresOnPool` writes such a figure's SVG instead of drawing it again when the report's spec is the same.
 */
const drawnAhead = new WeakMap<WorkerPool, Map<string, { spec: string; svg: string }>>();

/** Key of the transient figure's task drawn ahead (no cell key starts so). */
const TRANSIENT_AHEAD = 'figure-ahead:transient';

/**
 * The report's transient figure as soon as its inputs exist (every model solved, every trajectory stored), drawn by a
 * worker in the simulations' batch (`svgOnly`), not in the report's after it: the figure needs no cell
 * (`TransientInputs`), and it is the report's largest (the heavy cell's: ~0.15–0.25 s of CPU, the first figure paying
 * the renderer's warm-up). It goes after every simulation waiting (pool.ts `rank`: nothing waits for it before the batch
 * ends), so the worker that holds the renderer (loaded early: `preloadWhenIdle`) draws it as the batch's last
 * simulations end, while another worker runs its last or this thread folds the last cell's replications in (~0.2 s for
 * the heavy cell), where the workers idled; any other worker leaves it to that one (`minCostToLoad` of the batch).
 * @returns the `follow.ahead` hook of `planOnPool` for `config` (one figure per run), storing the SVG for `figuresOnPool`.
 */
function drawAhead(
  config: ComparisonConfig,
  pool: WorkerPool,
  valueOf: (t: ComparisonTask) => TaskValue | undefined,
): (prepared: readonly (PreparedComparisonModel | undefined)[], more: (tasks: readonly PoolTask<string>[]) => void) => void {
  let asked = false;
  let trajectories: ComparisonTask[] | undefined; // of the plan, once every model is solved
  return (prepared, more) => {
    if (asked || !config.trajectory || prepared.includes(undefined)) return; // a hole: a model not solved yet
    const models = prepared as readonly PreparedComparisonModel[];
    trajectories ??= planFromPrepared(config, models).tasks.filter((t) => t.kind === 'trajectory');
    const values = new Map<string, TaskValue>();
    for (const t of trajectories) {
      const value = valueOf(t);
      if (!usableValue(t, value)) return;
      values.set(t.key, value!);
    }
    asked = true;
    const solved = models.map((m) => m.prepared).filter((p) => p.transient);
    if (solved.length === 0) return;
    const figure: Figure = reportTransientFigure({
      config,
      models: models.map(({ prepared: p }) => ({
        model: p.model,
        d: p.model.d,
        lambda: p.model.lambda,
        relaxationTime: p.warm.relaxationTime,
      })),
      trajectories: solved.map((p) => trajectoryComparison(p, config, values)),
    });
    const spec = JSON.stringify(figure.spec);
    const drawn = drawnAhead.get(pool) ?? new Map<string, { spec: string; svg: string }>();
    drawnAhead.set(pool, drawn);
    more([
      {
        key: TRANSIENT_AHEAD,
        kind: 'figure',
        outDir: '',
        figure: { name: figure.name, spec: figure.spec, rows: [] },
        svgOnly: true,
        cost: 1,
      },
    ]);
    // the result comes back through `keep` (`keepAhead`)
    pendingAhead.set(pool, { name: figure.name, spec, drawn });
  };
}

/** The figure `drawAhead` asked of a pool and not yet stored. */
const pendingAhead = new WeakMap<WorkerPool, { name: string; spec: string; drawn: Map<string, { spec: string; svg: string }> }>();

/** Stores the SVG of the figure drawn ahead on `pool` (`drawAhead`); false for any other task. */
function keepAhead(pool: WorkerPool, key: string, result: PoolValue): boolean {
  if (key !== TRANSIENT_AHEAD) return false;
  const pending = pendingAhead.get(pool);
  if (pending) pending.drawn.set(pending.name, { spec: pending.spec, svg: (result as { svg: string }).svg });
  pendingAhead.delete(pool);
  return true;
}

/**
 * Spec characters (compact JSON) of the figures still waiting below which a worker without the renderer leaves them
 * to one that has it (`PoolOptions.minCostToLoad`). Measured on this machine: once the renderer is warm a figure takes
 * ~40 ms plus ~0.44 ms per 1000 characters (the six figures of one cell, 0.14 M characters: ~0.3 s; of the reduced
 * default preset, 1.84 M: ~1.0 s, 0.88 M of it after its largest); loading the renderer and warming its code costs
 * a worker ~0.35 s of CPU, worth it for ~0.4 M characters (~0.25 s of rendering) or more.
 */
const FIGURES_WORTH_A_RENDERER = 400_000;

/**
 * `WriteReportOptions.writeFigures` on the pool: each figure drawn (SVG, and PDF with --latex) by a worker (largest
 * spec first; the worker may have loaded the renderer while it waited for the last simulations; a few small figures
 * stay on the workers that have it, `FIGURES_WORTH_A_RENDERER`), its PNG rasterised from the SVG by a task of its own
 * on any worker (a worker without the renderer meanwhile), and its data files (spec, rows as JSON and CSV) written by
 * this thread while the workers draw (~0.5 s of CPU for the default report's, most of it the largest figures', which
 * end the batch); paths in figure order.
 */
export function figuresOnPool(pool: WorkerPool): NonNullable<WriteReportOptions['writeFigures']> {
  return async (outDir, figures) => {
    // a figure drawn while the simulations ran (`drawAhead`), from this very spec: its SVG is written here, its PNG
    // rasterised by the first worker free; not with a PDF (drawn with the figure, from the same SVG)
    const ahead = drawnAhead.get(pool);
    const early = figures.map((f) => {
      const drawn = ahead?.get(f.name);
      return drawn !== undefined && !f.pdf && drawn.spec === JSON.stringify(f.spec) ? drawn.svg : undefined;
    });
    const tasks = figures.flatMap((f, i): (FigureTask<number> | RasterTask<number>)[] => {
      const svg = early[i];
      if (svg !== undefined) {
        writeFileAtomic(path.join(outDir, `figures/${f.name}.svg`), svg);
        return [{ key: i, kind: 'raster' as const, outDir, name: f.name, svg, cost: 1 }];
      }
      // the spec holds the plotted data: the rows, for the data files only, stay here
      const figure = { name: f.name, spec: f.spec, rows: [], ...(f.pdf ? { pdf: true } : {}) };
      // a PDF takes about half the time of the SVG and PNG together (WriteReportOptions.latex)
      return [
        {
          key: i,
          kind: 'figure' as const,
          outDir,
          figure,
          drawingOnly: true,
          cost: JSON.stringify(figure.spec).length * (f.pdf ? 1.5 : 1),
        },
      ];
    });
    // each figure's PNG is a task of its own, from its SVG (resvg, about half of a figure's CPU, needs no vega): a
    // worker without the renderer takes it while the one that has it renders the next figure. Its cost (1) puts it
    // after every figure still waiting, so the renderer's holder renders figures first and the others rasterise.
    const drawn = pool.run<number>(
      tasks,
      (i, value, task, more) => {
        if (task.kind !== 'figure') return;
        more([{ key: i, kind: 'raster', outDir, name: task.figure.name, svg: (value as { svg: string }).svg, cost: 1 }]);
      },
      { minCostToLoad: FIGURES_WORTH_A_RENDERER },
    );
    // the workers have their first figures (the batch dispatches at once): the data files meanwhile
    try {
      for (const f of figures) writeFigureData(outDir, f);
    } catch (error) {
      drawn.catch(() => {}); // the batch's own error, if any, is not the one to report
      throw error;
    }
    await drawn;
    return figures.flatMap((f) => figurePaths(f));
  };
}

async function compareOnPool(
  config: ComparisonConfig,
  o: ComparePoolOptions,
  pool: WorkerPool,
): Promise<{ result: ComparisonResult; resumed: number; resumedKeys: readonly string[] } | { shardSummary: ShardSummary }> {
  // without a shard the simulations follow each model's solve in one batch; a shard needs the whole plan first
  let store = o.shard ? undefined : new CellStore<unknown>(o.dir, { fresh: o.fresh });
  // a stored cell holds { key, seed, simulation }, a stored trajectory its tail fractions and events
  const valueOf = (t: ComparisonTask, stored: unknown): TaskValue | undefined =>
    stored === undefined ? undefined : t.kind === 'trajectory' ? (stored as TaskValue) : (stored as { simulation: TaskValue }).simulation;
  // what this run computed: with --fresh the store reads nothing back, and a batch must not redo them
  const computed = new Map<string, TaskValue>();
  const missing = (tasks: readonly ComparisonTask[]) =>
    tasks.filter((t) => !usableValue(t, computed.get(t.key) ?? valueOf(t, store!.get(t.key, taskSettings(t, o.settings)))));
  const keep = (key: string, result: PoolValue, task: PoolTask<string>) => {
    if (keepAhead(pool, key, result)) return;
    const t = task as ComparisonTask;
    const value =
      t.kind === 'trajectory'
        ? { tail: (result as TrajectoryResult).tail, events: (result as TrajectoryResult).events }
        : {
            key,
            seed: t.options.seed,
            simulation: cellSimulation(result as SimulationResult, t.options.replications ?? config.replications),
          };
    store!.put(key, taskSettings(t, o.settings), value);
    computed.set(key, valueOf(t, value)!);
  };
  timeline('phase', { name: store ? 'prepare + simulations' : 'prepare' });
  const stored = (t: ComparisonTask) => computed.get(t.key) ?? valueOf(t, store!.get(t.key, taskSettings(t, o.settings)));
  const plan = await planOnPool(config, o, pool, store ? { todo: missing, keep, ahead: drawAhead(config, pool, stored) } : undefined);
  if (o.shard) {
    timeline('phase', { name: 'simulations' });
    const shard = startShard(
      o.shard,
      o.cmd,
      o.out,
      plan.tasks.map((t) => ({ key: t.key, cost: t.cost, settings: taskSettings(t, o.settings) })),
    );
    store = new CellStore<unknown>(shard.cellsDir, { fresh: o.fresh });
    const todo = missing(plan.tasks.filter((t) => shard.mine.has(t.key)));
    const resumed = store.resumed;
    await pool.run(todo, keep, { onProgress: o.onProgress });
    shard.finish();
    // the figure's transients from empty share the store: counted apart, as the resume and interrupt messages count them
    const isTrajectory = (key: string) => key.startsWith('trajectory-');
    const trajectories = {
      isTrajectory,
      computed: todo.filter((t) => t.kind === 'trajectory').length,
      resumed: store.resumedKeys.filter(isTrajectory).length,
    };
    return { shardSummary: shard.summary(store.written, resumed, trajectories) };
  }
  const resumed = store!.resumed;
  const resumedKeys = store!.resumedKeys; // compare names what they are: cells and trajectories
  // every value from the store (as a resumed run reads it), never from this run's memory: the sized runs of --resolve
  // and the confirmatory reruns ("<cell key>/confirm") are tasks of later batches, stored with the sweep's settings
  const reader = new CellStore<never>(o.dir);
  let batch = 0;
  const execute = async (tasks: readonly ComparisonTask[]): Promise<TaskValue[]> => {
    timeline('phase', { name: batch++ === 0 ? 'assemble' : 'reruns' });
    const todo = missing(tasks);
    if (todo.length > 0)
      await pool.run(todo, keep, {
        preloadWhenIdle: 'renderer',
        onProgress: o.onProgress && ((done, total, label) => o.onProgress!(done, total, `sized runs and confirmatory reruns: ${label}`)),
      });
    return tasks.map((t) => valueOf(t, reader.get(t.key, taskSettings(t, o.settings)))!);
  };
  return { result: await runComparisonWith(plan, execute), resumed, resumedKeys };
}
