/**
 * The one worker pool of the CLI: independent work (the simulations of `compare`, `run`, `conjecture`, `simulate`,
 * `model --compare`, the mean-field solves of each model of a `compare` sweep and its report's figures) runs on worker
 * threads, one per core by default (`--threads N`). A `WorkerPool` keeps its workers (and the modules they loaded)
 * across the batches of a command; `runPool` is one batch on a pool of its own. Results come back in completion order
 * through `onResult`; callers store each at once and assemble in their own (key) order, and every seed derives from a
 * cell's key, so results are bit-identical whatever the thread count or the order of completion. Progress (and so the
 * ETA) is over the whole batch: finished tasks plus the running ones' reported fractions, weighted by each task's
 * estimated cost. The first error stops the batch. The library stays pure: only the CLI starts threads.
 */
import os from 'node:os';
import type { Worker } from 'node:worker_threads';
import { ConvergenceError, FileSystemError, InvalidModelError, SolverError, SupermarketError, UnstableModelError } from '../errors.ts';
import type { ComparisonConfig, PreparedComparisonModel } from '../compare/index.ts';
import type { SupermarketModel } from '../model/index.ts';
import type { PopulationModel } from '../model/population/parse.ts';
import type { FigureFiles } from '../report/writeFigure.ts';
import {
  expectedEvents,
  collectTrajectory,
  planSimulation,
  planTrajectory,
  simulate,
  SimulationCollector,
  type PopulationSimulationOptions,
  type SimulationPlan,
  type PopulationSimulationResult,
  type ReplicationPart,
  type SimulateOptions,
  type SimulationResult,
  type TrajectoryPart,
  type TrajectoryPlan,
  type TrajectoryResult,
} from '../sim/index.ts';
import type { SimulationTask, TrajectoryTask } from '../runs/task.ts';
import { codeIdentity } from '../runs/codeIdentity.ts';
import { lendShared } from '../sim/buffers.ts';
import { timeline } from './timeline.ts';
import { preloadedAhead, startWorker, takePrestarted, type Preload } from './workerStart.ts';

export type { SimulationTask, TrajectoryTask } from '../runs/task.ts';

/** Model `index` of a comparison sweep to solve (`prepareComparisonModel`: limit, refined terms, exact points, transients). */
export interface PrepareTask<K> {
  readonly key: K;
  readonly kind: 'prepare';
  readonly config: ComparisonConfig;
  readonly index: number;
  readonly cost?: number;
}

/** A population-process simulation (`simulatePopulation`, `model --compare`) for the pool. */
export interface PopulationTask<K> {
  readonly key: K;
  readonly kind: 'population';
  readonly model: PopulationModel;
  readonly options: PopulationSimulationOptions;
  readonly cost?: number;
}

/** Replications first, …, first + count − 1 of one `simulate` run (`runReplications`), for the pool. */
export interface ReplicationsTask<K> {
  readonly key: K;
  readonly kind: 'replications';
  readonly model: SupermarketModel;
  readonly options: Omit<SimulateOptions, 'onProgress'>;
  readonly first: number;
  readonly count: number;
  readonly cost?: number;
}

/** Replications first, …, first + count − 1 of one transient simulation (`runTrajectoryReplications`), for the pool. */
export interface TrajectoryReplicationsTask<K> {
  readonly key: K;
  readonly kind: 'trajectory-replications';
  readonly model: SupermarketModel;
  readonly options: TrajectoryTask<K>['options'];
  readonly first: number;
  readonly count: number;
  readonly cost?: number;
}

/**
 * A report figure to render and write (`writeFigureFiles(outDir, figure)`), for the pool; with `vectorsOnly`, all but
 * its PNG (`writeFigureVectors`: the result is the SVG and the paths), left to a `RasterTask`; with `drawingOnly`, its
 * SVG and PDF alone (`writeFigureDrawing`: the result is the SVG and its paths), the PNG left to a `RasterTask` and the
 * data files to the caller (`writeFigureData`), so the figure's rows need not be sent; with `svgOnly`, its SVG alone,
 * written nowhere (`renderSvg`: the result is the SVG, no paths), for a figure drawn before its report folder is.
 */
export interface FigureTask<K> {
  readonly key: K;
  readonly kind: 'figure';
  readonly outDir: string;
  readonly figure: FigureFiles;
  readonly vectorsOnly?: boolean;
  readonly drawingOnly?: boolean;
  readonly svgOnly?: boolean;
  readonly cost?: number;
}

/** A figure's PNG from its SVG (`writeFigurePng(outDir, name, svg)`), for the pool: resvg only, no vega to load. */
export interface RasterTask<K> {
  readonly key: K;
  readonly kind: 'raster';
  readonly outDir: string;
  readonly name: string;
  readonly svg: string;
  readonly cost?: number;
}

export type PoolTask<K> =
  | SimulationTask<K>
  | TrajectoryTask<K>
  | PrepareTask<K>
  | PopulationTask<K>
  | ReplicationsTask<K>
  | TrajectoryReplicationsTask<K>
  | FigureTask<K>
  | RasterTask<K>;
/**
 * What a task gives back: `simulate`'s, `simulateTrajectory`'s, `prepareComparisonModel`'s, `simulatePopulation`'s
 * result, `runReplications`'s or `runTrajectoryReplications`'s parts, the paths `writeFigureFiles` wrote, or
 * `writeFigureVectors`' SVG and paths (a raster task gives an empty list).
 */
export type PoolValue =
  | SimulationResult
  | TrajectoryResult
  | PreparedComparisonModel
  | PopulationSimulationResult
  | ReplicationPart[]
  | TrajectoryPart[]
  | string[]
  | { svg: string; paths: string[] };

export interface PoolOptions {
  /** Worker threads (default: the machine's cores, at most the number of tasks); ignored with `pool`. */
  readonly threads?: number;
  /** An open pool to run on (kept open), instead of a pool of the call's own. */
  readonly pool?: WorkerPool;
  /** Progress over the whole pool in cost units (finished + running fractions), with a label "k/m done". */
  readonly onProgress?: (done: number, total: number, label: string) => void;
  /**
   * Modules one worker loads ahead of the next batch (the solvers of 'prepare' tasks or the figure renderer): with two
   * workers or more, the first to finish a task once no solve is running or waiting, while the others simulate (it
   * takes tasks again after); with one, when it has no task left. The batch does not wait for it.
   */
  readonly preloadWhenIdle?: Preload;
  /**
   * For tasks that need modules a worker loads once (figures: the renderer): while the cost waiting (in the tasks'
   * own units) is below this, a worker that does not hold them (loaded, loading or asked to) takes none of those
   * tasks when another worker does: loading them, with the compilation of their code, costs more CPU (~0.3 s for the
   * renderer) than its share of the work would save, and on a machine whose cores are all busy that CPU is the
   * others' time. A number applies to every kind of modules; a record to those it names (a simulation batch that draws
   * a figure ahead leaves it to the renderer's holder: `{ renderer: Infinity }`, the solves free to any worker). Default: no
   * such limit.
   */
  readonly minCostToLoad?: number | Partial<Record<Preload, number>>;
}

/** Default thread count: the machine's cores. */
export function defaultThreads(): number {
  return os.availableParallelism();
}

function rebuildError(e: { name: string; message: string }): Error {
  if (e.name === 'InvalidModelError') return new InvalidModelError(e.message);
  if (e.name === 'UnstableModelError') return new UnstableModelError(e.message);
  if (e.name === 'SolverError') return new SolverError(e.message);
  if (e.name === 'FileSystemError') return new FileSystemError(e.message); // a figure written in a worker: exit 1 too
  if (e.name === 'ConvergenceError') return ConvergenceError.fromMessage(e.message);
  return new SupermarketError(`a simulation or solve failed in a worker thread: ${e.message}`);
}

/** What a worker answers: a task's progress, its result or its error. */
interface WorkerMessage {
  id: number;
  progress?: number;
  /** What a preload (id −1) loaded. */
  modules?: Preload;
  /** Part of a task's result sent ahead of it (a 'prepare': its model's first simulations). */
  partial?: unknown;
  /** Milliseconds the worker spent on the task (wall; CPU with the timeline on). */
  ms?: number;
  cpu?: number;
  result?: unknown;
  /** A 'replications' task: the shared buffers it took for its arrays, fresh and reused (a count each). */
  shared?: { fresh: number; reused: number };
  error?: { name: string; message: string };
}

/** The modules a task loads on first use (`WorkerPool.preload`), if any: the renderer for a figure, the solvers for a solve. */
function modulesOf(task: PoolTask<unknown>): Preload | undefined {
  return task.kind === 'figure' ? 'renderer' : task.kind === 'prepare' ? 'solvers' : undefined;
}

/** 1 for a task whose result typically adds tasks to its batch (a model's solve: its simulations follow), else 0. */
function unlocks(task: PoolTask<unknown>): number {
  return task.kind === 'prepare' ? 1 : 0;
}

/**
 * Which waiting tasks go first: solves (their simulations follow), then figures (a figure waits for nothing once its
 * inputs exist, and the report waits for it), then transients from empty (the figure drawn ahead, `drawAhead` in
 * comparePool.ts, waits for every one of them: run after the cells, as their lower cost put them, they held it back
 * past the cells), then the rest; by cost within each. Last of all a figure drawn ahead of its report (`svgOnly`):
 * nothing waits for it before the batch ends, so it fills the batch's tail, where a worker would idle while another runs
 * its last simulation or this thread folds the last cell's replications in (~0.2 s for the heavy cell: drawn before the
 * cells instead, it left that fold alone at the tail).
 */
function rank(task: PoolTask<unknown>): number {
  switch (task.kind) {
    case 'prepare':
      return 3;
    case 'figure':
      return task.svgOnly ? -1 : 2;
    case 'trajectory':
    case 'trajectory-replications':
      return 1;
    case undefined:
    case 'simulate':
    case 'replications':
    case 'population':
    case 'raster':
      return 0;
    default:
      return unknownKind(task);
  }
}

function unknownKind(task: never): never {
  throw new SupermarketError(`internal: no rank for a pool task of kind ${JSON.stringify((task as { kind?: string }).kind)}`);
}

/**
 * A task run as its independent replications, one pool task each, folded in replication order once all are in, so
 * its result is the whole task's (timing fields aside) whichever worker ran which replication, and a grid with fewer
 * tasks than cores (one heavy cell, one long trajectory) still uses every core.
 */
interface Split<K> {
  readonly task: PoolTask<K>;
  /** Replications, one pool task each. */
  readonly count: number;
  /** The pool tasks of the replications, each with its share of the task's cost. */
  units(): PoolTask<K>[];
  /**
   * Takes a replication's part, which a worker ran in `ms` milliseconds; the whole result once every replication is
   * in (then never again), else undefined.
   */
  take(part: unknown, ms: number): PoolValue | undefined;
}

/** One pool task per replication of `task`, `kind`, each with the task's cost shared equally. */
function unitTasks<K>(task: PoolTask<K>, kind: 'replications' | 'trajectory-replications', count: number): PoolTask<K>[] {
  const { key, model, options, cost } = task as SimulationTask<K> | TrajectoryTask<K>;
  const share = (cost ?? 1) / count;
  return Array.from({ length: count }, (_, r) => ({ key, kind, model, options, first: r, count: 1, cost: share }) as PoolTask<K>);
}

/**
 * A simulation task run as its replications (`runReplications`, unit r on its own stream `streamSeed(seed, r)`),
 * folded in replication order by a `SimulationCollector`: `simulate`'s result.
 */
class ReplicationSplit<K> implements Split<K> {
  private readonly parts: (ReplicationPart | undefined)[];
  private readonly collector: SimulationCollector;
  private ms = 0;

  constructor(
    readonly task: SimulationTask<K>,
    readonly plan: SimulationPlan,
  ) {
    this.parts = new Array(plan.minUnits);
    this.collector = new SimulationCollector(plan);
  }

  get count(): number {
    return this.plan.minUnits;
  }

  units(): PoolTask<K>[] {
    return unitTasks(this.task, 'replications', this.count);
  }

  /**
   * Its wall time is the workers' time on its replications (not the time it waited in the queue), so its events per
   * second are the simulator's speed.
   */
  take(value: unknown, ms: number): SimulationResult | undefined {
    const part = (value as ReplicationPart[])[0];
    this.parts[part.index] = part;
    this.ms += ms;
    const c = this.collector;
    while (c.wantsMore() && this.parts[c.count] !== undefined) {
      const next = this.parts[c.count]!;
      this.parts[c.count] = undefined;
      c.add(next);
    }
    if (c.wantsMore()) return undefined;
    const result = c.result();
    const wallSeconds = this.ms / 1000;
    return { ...result, wallSeconds, eventsPerSecond: wallSeconds > 0 ? result.events / wallSeconds : result.eventsPerSecond };
  }
}

/**
 * A transient simulation run as its replications (`runTrajectoryReplications`, replication r on its own stream),
 * joined by `collectTrajectory` in replication order: `simulateTrajectory`'s result.
 */
class TrajectorySplit<K> implements Split<K> {
  private readonly parts: TrajectoryPart[] = [];

  constructor(
    readonly task: TrajectoryTask<K>,
    readonly plan: TrajectoryPlan,
  ) {}

  get count(): number {
    return this.plan.replications;
  }

  units(): PoolTask<K>[] {
    return unitTasks(this.task, 'trajectory-replications', this.count);
  }

  take(value: unknown): TrajectoryResult | undefined {
    this.parts.push((value as TrajectoryPart[])[0]);
    return this.parts.length < this.count ? undefined : collectTrajectory(this.plan, this.parts);
  }
}

/**
 * The replication split of a task: a `simulate` task of independent replications (no batch means, no precision
 * target) or a transient simulation; null for other kinds and for a task whose options are refused (it runs whole
 * and the worker reports the error).
 */
function splitTask<K>(task: PoolTask<K>): Split<K> | null {
  try {
    if (task.kind === 'trajectory') return new TrajectorySplit(task, planTrajectory(task.model, task.options));
    if (task.kind !== undefined && task.kind !== 'simulate') return null;
    const plan = planSimulation(task.model, task.options);
    return plan.batchMode || plan.target !== undefined ? null : new ReplicationSplit(task, plan);
  } catch {
    return null;
  }
}

/** The batch a pool is running: how its workers' messages and losses are handled. */
interface Batch {
  message(worker: Worker, msg: WorkerMessage): void;
  lost(worker: Worker, error: Error): void;
  /** Gives an idle worker (e.g. one started during the batch) a task, if any is left. */
  dispatch(worker: Worker): void;
  /** A worker finished loading modules (`preload`): if it idles in this batch, it takes a task. */
  loaded(worker: Worker): void;
}

/**
 * Worker threads that live across several batches of tasks (`run`), so a command with phases (`compare`: the models'
 * solves, the simulations, the confirmatory reruns) starts its workers and loads their modules once. Workers start on
 * `warm` or the first `run` (at most `threads`, at most the batch's tasks); a worker keeps the modules its tasks
 * loaded (the solvers, the figure renderer) for the next batch. Idle workers do not keep the process alive; `close`
 * ends them (`withPool` does so on return, on error and on Ctrl-C). One batch at a time.
 */
export class WorkerPool {
  readonly threads: number;
  private readonly workers: Worker[] = [];
  private batch: Batch | undefined;
  private closed = false;
  private started = 0;
  /** Per worker, the modules it was asked to load ahead (`preload`) and those it has loaded (its answers). */
  private readonly preloaded = new WeakMap<Worker, Set<string>>();
  private readonly loaded = new WeakMap<Worker, Set<Preload>>();
  /** Workers that have this thread's code identity (`identify`). */
  private readonly identified = new WeakSet<Worker>();
  /** Shared buffers this thread has read, by the worker that lent them, to post back (`giveBack`). */
  private readonly givenBack = new Map<Worker, SharedArrayBuffer[]>();
  /**
   * Shared buffers the workers took for the replications' arrays they sent (fresh ones and ones given back), over the
   * pool's life: with buffers given back, fresh ones are needed only up to the most a worker's results hold at once.
   */
  readonly sharedBuffers = { fresh: 0, reused: 0 };

  /** @param threads worker threads (default: the machine's cores); at least 1. */
  constructor(threads?: number) {
    this.threads = Math.max(1, Math.floor(threads ?? defaultThreads()));
  }

  /** Workers alive now. */
  get size(): number {
    return this.workers.length;
  }

  /**
   * Starts workers up to `count` (default and at most `threads`) now, so they load their modules while this thread
   * does other work.
   */
  warm(count = this.threads): void {
    if (this.closed) throw new SupermarketError('the worker pool is closed');
    while (this.workers.length < Math.min(count, this.threads)) this.spawn();
  }

  private spawn(): Worker {
    const label = this.started++;
    timeline('worker-start', { worker: label });
    // a worker the command started ahead (workerStart.ts) has loaded its modules, or is loading them, already
    const worker = takePrestarted() ?? startWorker();
    // what it was asked to load when started ahead is not asked again (`preload`)
    const ahead = preloadedAhead(worker);
    this.preloaded.set(worker, new Set(ahead.asked));
    this.loaded.set(worker, new Set(ahead.loaded));
    if (this.batch) worker.ref();
    else worker.unref();
    this.workers.push(worker);
    worker.once('online', () => timeline('worker-online', { worker: label }));
    worker.on('message', (msg: WorkerMessage) => {
      // a preload's answer (id −1) belongs to no batch; the timeline keeps what it cost
      if (msg.id === -1) {
        timeline('preload-end', { worker: this.workers.indexOf(worker), modules: msg.modules, ms: msg.ms, cpu: msg.cpu });
        if (msg.modules) this.loaded.get(worker)?.add(msg.modules);
        this.batch?.loaded(worker);
      } else this.batch?.message(worker, msg);
    });
    const lose = (error: Error) => {
      const i = this.workers.indexOf(worker);
      if (i < 0) return;
      this.workers.splice(i, 1);
      this.batch?.lost(worker, error);
    };
    worker.on('error', lose);
    worker.on('exit', (code) => {
      if (!this.closed) lose(new SupermarketError(`a worker thread stopped (exit code ${code})`));
    });
    if (this.batch) this.batch.dispatch(worker);
    return worker;
  }

  /**
   * Runs every task on the pool's workers; `onResult` is called as each finishes (store it there, so nothing finished
   * is lost) and may add tasks to the batch with `more` (e.g. the simulations of a model as soon as it is solved).
   * A `simulate` task of independent replications and a transient simulation run as one pool task per replication
   * (`ReplicationSplit`, `TrajectorySplit`), the result the whole task's whichever worker ran which, so a grid with
   * fewer cells than workers (one heavy cell, one long trajectory) uses every worker. Waiting tasks start in the order of `rank` (solves, whose simulations follow, first), then largest cost first (ties:
   * given order), which shortens the tail of the batch; the order never changes a result. After the first error no task starts; the running ones finish (and are handed to `onResult`),
   * then the batch rejects; the pool stays usable (a lost worker is replaced by the next batch).
   * @throws the first task error (typed as in the library), or an error thrown by `onResult`.
   */
  async run<K>(
    tasks: readonly PoolTask<K>[],
    onResult: (key: K, result: PoolValue, task: PoolTask<K>, more: (tasks: readonly PoolTask<K>[]) => void) => void,
    options: Pick<PoolOptions, 'onProgress' | 'preloadWhenIdle' | 'minCostToLoad'> & {
      /**
       * Called with what a running task sends ahead of its result (a 'prepare': its model's first simulations, as
       * `prepareComparisonModel`'s `onFirstTasks`); may add tasks to the batch with `more`. Ignored when not given.
       */
      readonly onPartial?: (key: K, partial: unknown, more: (tasks: readonly PoolTask<K>[]) => void) => void;
    } = {},
  ): Promise<void> {
    if (this.closed) throw new SupermarketError('the worker pool is closed');
    if (this.batch) throw new SupermarketError('the worker pool is running another batch');
    if (tasks.length === 0) return;
    const all: PoolTask<K>[] = []; // task id → task
    const cost: number[] = [];
    const waiting: number[] = []; // ids not started, largest cost first
    const idle = new Set<Worker>(); // workers that found no task waiting
    const loadingEarly = new Set<Worker>(); // workers loading modules while tasks wait (`preloadEarly`), given none meanwhile
    let total = 0;
    const splitOf: (Split<K> | undefined)[] = []; // task id → the task its replication belongs to
    const push = (t: PoolTask<K>, split?: Split<K>) => {
      all.push(t);
      splitOf.push(split);
      const c = t.cost !== undefined && Number.isFinite(t.cost) && t.cost > 0 ? t.cost : 1;
      cost.push(c);
      total += c;
      waiting.push(all.length - 1);
    };
    const add = (added: readonly PoolTask<K>[]) => {
      for (const t of added) {
        const split = splitTask(t);
        if (split) for (const unit of split.units()) push(unit, split);
        else push(t);
      }
      waiting.sort((a, b) => rank(all[b]) - rank(all[a]) || cost[b] - cost[a] || a - b);
    };
    add(tasks);
    const running = new Map<number, number>(); // task id → fraction reported
    const current = new Map<Worker, number>(); // worker → task id it runs
    let finishedCost = 0;
    let finished = 0;
    let ended = 0; // tasks whose worker answered (`finished` counts them once folded in)
    let failed: Error | undefined;
    const report = () => {
      if (!options.onProgress) return;
      let partial = 0;
      for (const [id, f] of running) partial += f * cost[id];
      options.onProgress(finishedCost + partial, total, `${finished}/${all.length} done`);
    };
    timeline('pool-start', { tasks: all.length, size: Math.min(this.threads, Math.max(this.workers.length, all.length)) });
    try {
      await new Promise<void>((resolve, reject) => {
        const settle = () => {
          if (running.size > 0) return;
          if (failed) reject(failed);
          else if (finished === all.length) resolve();
          else if (this.workers.length === 0) reject(new SupermarketError('the worker pool has no worker left'));
        };
        /**
         * Whether `worker` loads `options.preloadWhenIdle` now instead of taking a task, while tasks still wait: the
         * first worker to finish a task (not one given its first at the batch's start) once no task running or waiting
         * may add more (a model's solve: its simulations follow), so that with two or more workers the one that will
         * hold the modules (one worker only) loads them while the others simulate, and takes tasks again when its load
         * ends (`loaded`). Loaded at the batch's tail instead, the others idled while it loaded (the figures waited for
         * it): 0.2–0.3 s of the heavy cell's 2-thread wall time. Not with one worker (the load waits for the tail, as
         * the figures would).
         */
        const preloadEarly = (worker: Worker): boolean => {
          const modules = options.preloadWhenIdle;
          if (failed || modules === undefined || ended === 0 || Math.min(this.threads, this.workers.length) < 2) return false;
          if (this.preloaded.get(worker)?.has(modules) || this.heldByAnother(worker, modules)) return false;
          return ![...current.values(), ...waiting].some((id) => unlocks(all[id]) > 0);
        };
        const dispatch = (worker: Worker) => {
          if (waiting.length > 0 && preloadEarly(worker)) {
            // no task until the load ends: one given meanwhile runs first and the modules load only between tasks
            idle.add(worker);
            loadingEarly.add(worker);
            this.preload(worker, options.preloadWhenIdle!);
            return;
          }
          if (failed || waiting.length === 0) {
            idle.add(worker);
            // not while a running task may still add tasks (a model's solve sends its simulations ahead): a worker
            // loading modules then would take them late; it preloads when it idles again at the batch's tail
            const mayAdd = [...current.values()].some((id) => unlocks(all[id]) > 0);
            // nor when another worker has them (or loads them): whether this one should load them too is the next
            // batch's to decide (`minCostToLoad`; the heavy cell's few figures stay on one worker), and loading now
            // would take a core
            const held = options.preloadWhenIdle !== undefined && this.heldByAnother(worker, options.preloadWhenIdle);
            if (!failed && options.preloadWhenIdle && !mayAdd && !held) this.preload(worker, options.preloadWhenIdle);
            settle();
            return;
          }
          // the first waiting task this worker may take: not one whose modules it would load only to take work from
          // the workers that hold them (`minCostToLoad`), e.g. a figure, while a figure's PNG (no vega) is waiting
          const pick = waiting.findIndex((w) => {
            const needs = modulesOf(all[w]);
            return (
              needs === undefined ||
              this.preloaded.get(worker)?.has(needs) ||
              !this.leaveToHolders(worker, needs, waiting, cost, all, options)
            );
          });
          if (pick < 0) {
            idle.add(worker);
            settle();
            return;
          }
          idle.delete(worker);
          const id = waiting.splice(pick, 1)[0];
          const t = all[id];
          const need = modulesOf(t);
          running.set(id, 0);
          current.set(worker, id);
          // the task loads its modules (if not loaded yet): the worker holds them from now on
          if (need !== undefined) this.preloaded.get(worker)?.add(need);
          timeline('task-start', { worker: this.workers.indexOf(worker), key: t.key, kind: t.kind ?? 'simulate' });
          this.identify(worker);
          this.giveBack(); // what this thread read since the last batch (a caller folding the parts after it)
          worker.postMessage({ ...t, key: undefined, cost: undefined, id, kind: t.kind ?? 'simulate' });
        };
        // tasks added while the batch runs go to the idle workers first, then to new ones (up to `threads`)
        const more = (added: readonly PoolTask<K>[]) => {
          add(added);
          for (const worker of [...idle]) if (waiting.length > 0 && !loadingEarly.has(worker)) dispatch(worker);
          this.warm(running.size + waiting.length);
        };
        this.batch = {
          dispatch,
          loaded: (worker) => {
            loadingEarly.delete(worker);
            if (idle.has(worker) && waiting.length > 0) dispatch(worker);
          },
          message: (worker, msg) => {
            if (current.get(worker) !== msg.id) return; // not this batch's task
            if (msg.partial !== undefined) {
              timeline('task-partial', { worker: this.workers.indexOf(worker), key: all[msg.id].key, ms: msg.ms, cpu: msg.cpu });
              try {
                options.onPartial?.(all[msg.id].key, msg.partial, more);
              } catch (error) {
                failed ??= error as Error;
              }
              return;
            }
            if (msg.progress !== undefined) {
              running.set(msg.id, msg.progress);
              report();
              return;
            }
            running.delete(msg.id);
            current.delete(worker);
            ended++;
            const task = all[msg.id];
            const loads = modulesOf(task);
            if (loads !== undefined && !msg.error) this.loaded.get(worker)?.add(loads);
            if (task.kind === 'replications' && !msg.error) this.lend(worker, msg);
            timeline('task-end', { worker: this.workers.indexOf(worker), key: task.key, ms: msg.ms, cpu: msg.cpu, shared: msg.shared });
            // with a task waiting, the worker takes it before this thread folds the result in (joining replications,
            // pooling their quantiles, storing the cell), so it does not wait for that; else after (the result may
            // add tasks, e.g. a model's simulations, which an idle worker would otherwise preload past)
            const next = !msg.error && !failed && waiting.length > 0;
            if (next) dispatch(worker);
            if (msg.error) failed ??= rebuildError(msg.error);
            else {
              try {
                const split = splitOf[msg.id];
                if (split === undefined) onResult(task.key, msg.result as PoolValue, task, more);
                else {
                  const whole = split.take(msg.result, msg.ms ?? 0);
                  if (whole !== undefined) onResult(split.task.key, whole, split.task, more);
                }
                finished++;
                finishedCost += cost[msg.id];
                report();
              } catch (error) {
                failed ??= error as Error;
              }
            }
            this.giveBack();
            if (!next) dispatch(worker);
          },
          lost: (worker, error) => {
            // the task this worker ran is lost with it; the running others finish (and are stored), then the batch rejects
            failed ??= error;
            const id = current.get(worker);
            if (id !== undefined) running.delete(id);
            current.delete(worker);
            idle.delete(worker);
            settle();
          },
        };
        for (const worker of this.workers) worker.ref();
        // a worker that has loaded the modules the first tasks need (the renderer for figures, the solvers for solves)
        // takes the first, largest task: another would load them first
        const need = waiting.length > 0 ? modulesOf(all[waiting[0]]) : undefined;
        const ready = (w: Worker) =>
          need === undefined ? 0 : this.loaded.get(w)?.has(need) ? 0 : this.preloaded.get(w)?.has(need) ? 1 : 2;
        const alive = [...this.workers].sort((a, b) => ready(a) - ready(b));
        this.warm(waiting.length); // new workers take their first task as they start (a simulation's replications count each)
        for (const worker of alive) dispatch(worker);
      });
    } finally {
      this.batch = undefined;
      for (const worker of this.workers) worker.unref();
      timeline('pool-end', { tasks: all.length });
    }
  }

  /**
   * Whether `worker`, which does not hold `modules`, leaves the waiting tasks that need them to the workers that do
   * (`minCostToLoad`): when another worker holds them and the cost of the waiting tasks that need them is below the limit.
   */
  private leaveToHolders<K>(
    worker: Worker,
    modules: Preload,
    waiting: readonly number[],
    cost: readonly number[],
    all: readonly PoolTask<K>[],
    options: Pick<PoolOptions, 'minCostToLoad'>,
  ): boolean {
    const limit = typeof options.minCostToLoad === 'number' ? options.minCostToLoad : options.minCostToLoad?.[modules];
    if (limit === undefined || !this.heldByAnother(worker, modules)) return false;
    return waiting.reduce((sum, id) => sum + (modulesOf(all[id]) === modules ? cost[id] : 0), 0) < limit;
  }

  /** Whether a worker other than `worker` holds `modules` (loaded, loading or asked to). */
  private heldByAnother(worker: Worker, modules: Preload): boolean {
    return this.workers.some((w) => w !== worker && this.preloaded.get(w)?.has(modules));
  }

  /**
   * Gives `worker` this thread's code identity ahead of its first task (messages arrive in order), so the results it
   * computes name the same code and it runs no git of its own (each worker did, ~50 ms of its start); no answer.
   */
  private identify(worker: Worker): void {
    if (this.identified.has(worker)) return;
    this.identified.add(worker);
    worker.postMessage({ id: -2, kind: 'identity', code: codeIdentity() });
  }

  /**
   * Lends the shared buffers of a 'replications' answer from `worker` to this thread (sim/buffers.ts `lendShared`):
   * once whoever folds the parts (`SimulationCollector`) gives one back with `recycle`, having read it for the last
   * time, it waits here for `giveBack`. Counts the buffers the worker took.
   */
  private lend(worker: Worker, msg: WorkerMessage): void {
    if (msg.shared) {
      this.sharedBuffers.fresh += msg.shared.fresh;
      this.sharedBuffers.reused += msg.shared.reused;
    }
    const back = (buffer: SharedArrayBuffer) => {
      if (this.closed) return;
      const list = this.givenBack.get(worker);
      if (list) list.push(buffer);
      else this.givenBack.set(worker, [buffer]);
    };
    for (const part of msg.result as ReplicationPart[]) {
      lendShared(part.sample, back);
      lendShared(part.batch5, back);
    }
  }

  /**
   * Posts the shared buffers given back to the worker that lent them, for its next replications' copies (or, if it
   * has stopped, to another worker: they are shared memory); no answer. Without it each copy took a fresh buffer,
   * freed only when this thread's rare full GC let go of its handle: the default report's peak memory doubled.
   */
  private giveBack(): void {
    for (const [owner, buffers] of this.givenBack) {
      const to = this.workers.includes(owner) ? owner : this.workers[0];
      to?.postMessage({ id: -3, kind: 'buffers', buffers });
    }
    this.givenBack.clear();
  }

  /** Has `worker` load `modules` (once per worker); its answer (id −1) belongs to no batch. */
  private preload(worker: Worker, modules: NonNullable<PoolOptions['preloadWhenIdle']>): void {
    const loaded = this.preloaded.get(worker) ?? new Set();
    if (loaded.has(modules)) return;
    loaded.add(modules);
    this.preloaded.set(worker, loaded);
    timeline('preload', { worker: this.workers.indexOf(worker), modules });
    worker.postMessage({ id: -1, kind: 'preload', modules });
  }

  /** Ends every worker (idempotent); the pool takes no batch after. */
  async close(): Promise<void> {
    this.closed = true;
    this.givenBack.clear();
    const workers = this.workers.splice(0);
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/**
 * Opens a pool of `threads` workers (default: the machine's cores), runs `fn` with it and closes the pool when `fn`
 * returns or throws, or on Ctrl-C: then it prints `interrupted` and what was kept (`kept()`, asked at that moment, e.g.
 * how many finished cells are where and how to resume) on stderr and the process ends with 130, as a shell expects (unless a command's own
 * SIGINT handler, registered before, ended it already). `signal` (to `fn`) is aborted at the Ctrl-C, before the message:
 * work that goes on until the process ends (a report being written, `WriteReportOptions.signal`) stops short of
 * claiming it finished.
 */
export async function withPool<T>(
  threads: number | undefined,
  fn: (pool: WorkerPool, signal: AbortSignal) => Promise<T>,
  kept?: () => string,
): Promise<T> {
  const pool = new WorkerPool(threads);
  const interrupt = new AbortController();
  const onInterrupt = () => {
    interrupt.abort();
    process.stderr.write(kept ? `\ninterrupted: ${kept()}\n` : '\ninterrupted\n');
    void pool.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', onInterrupt);
  try {
    return await fn(pool, interrupt.signal);
  } finally {
    process.removeListener('SIGINT', onInterrupt);
    await pool.close();
  }
}

/**
 * Runs every task on a pool: `options.pool` when given (left open), else a pool of its own of `options.threads`
 * workers (at most the number of pool tasks, a simulation's replications counted each), closed at the end. See `WorkerPool.run`.
 * @throws the first task error (typed as in the library), or an error thrown by `onResult`.
 */
export async function runPool<K>(
  tasks: readonly PoolTask<K>[],
  onResult: (key: K, result: PoolValue, task: PoolTask<K>) => void,
  options: PoolOptions = {},
): Promise<void> {
  if (tasks.length === 0) return;
  if (options.pool) return options.pool.run(tasks, onResult, options);
  // a simulation of R independent replications is R tasks of the pool
  const units = tasks.reduce((sum, t) => sum + (splitTask(t)?.count ?? 1), 0);
  const threads = Math.min(options.threads ?? defaultThreads(), units);
  await withPool(threads, (pool) => pool.run(tasks, onResult, options));
}

/**
 * Runs simulations (`simulate`) on the pool; the form `run` and `conjecture` used before `runPool`.
 * @param concurrency worker threads (default: number of cores, at most the number of tasks).
 */
export async function runSimulations<K>(
  tasks: readonly SimulationTask<K>[],
  onResult: (key: K, result: SimulationResult) => void,
  concurrency?: number,
  onProgress?: PoolOptions['onProgress'],
): Promise<void> {
  await runPool(tasks, (key, result) => onResult(key, result as SimulationResult), { threads: concurrency, onProgress });
}

/**
 * `simulate(model, options)` with its replications on the pool, one task per replication, combined in replication
 * order by `SimulationCollector`: the same numbers as `simulate` (timing fields aside) for any thread count. A
 * precision-driven run goes in rounds of `threads` replications past the first ones; the collector takes the same
 * stopping decisions as `simulate`, and replications run beyond the stop are dropped. Batch means (one long run)
 * run in this thread.
 * @param onProgress events done over the whole run and the current estimate of its total.
 * @throws as `simulate` (typed as in the library).
 */
export async function simulateOnPool(
  model: SupermarketModel,
  options: SimulateOptions,
  pool: { threads?: number; onProgress?: (doneEvents: number, totalEventsEstimate: number) => void } = {},
): Promise<SimulationResult> {
  const { onProgress: _unused, ...rest } = options;
  const report = pool.onProgress;
  const plan = planSimulation(model, rest);
  if (plan.batchMode) return simulate(model, { ...rest, ...(report ? { onProgress: report } : {}) });
  const threads = Math.max(1, pool.threads ?? defaultThreads());
  const collector = new SimulationCollector(plan);
  const unitCost = expectedEvents({
    lambda: plan.config.lambda,
    n: plan.config.n,
    jobs: plan.jobs,
    replications: 1,
    warmupTime: plan.warmupTime,
  });
  // one pool for every round: its workers start (and load the simulator) once
  await withPool(threads, async (workers) => {
    while (collector.wantsMore()) {
      const first = collector.count;
      const count = Math.max(plan.minUnits - first, Math.min(threads, collector.budgetLeft()));
      const parts: ReplicationPart[] = new Array(count);
      const before = collector.events;
      await runPool(
        Array.from({ length: count }, (_, k) => ({
          key: k,
          kind: 'replications' as const,
          model,
          options: rest,
          first: first + k,
          count: 1,
          cost: unitCost,
        })),
        (k, value) => (parts[k] = (value as ReplicationPart[])[0]),
        {
          pool: workers,
          ...(report
            ? { onProgress: (done: number, total: number) => report(before + done, Math.max(plan.totalEstimate, before + total)) }
            : {}),
        },
      );
      for (const part of parts) {
        if (!collector.wantsMore()) break;
        collector.add(part);
      }
    }
  });
  return collector.result();
}
