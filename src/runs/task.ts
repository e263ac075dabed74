/**
 * The one shape of "a simulation to run", shared by `compare`, `run`, `conjecture`, the claims and the worker pool:
 * a key (what its stored cell and its seed are named by), the model, `simulate`'s options (seed included:
 * `cellSeed(master, key)`, stats/rng.ts) and its estimated cost in simulated events (`taskCost`, the one cost formula).
 * Plain data, so a worker thread or another machine can run it and hand the result back by key.
 */
import type { SupermarketModel } from '../model/index.ts';
import {
  expectedEvents,
  type SimulateOptions,
  type SimulationResult,
  type TrajectoryOptions,
  type TrajectoryResult,
} from '../sim/index.ts';
import { cellSeed } from '../stats/index.ts';

/** Options of a simulation task: `simulate`'s without the progress callback (a task crosses threads). */
export type TaskOptions = Omit<SimulateOptions, 'onProgress'>;

/** A simulation (`simulate(model, options)`) to run; `options.seed` is its seed (`cellSeed(master, key)`). */
export interface SimulationTask<K = string> {
  readonly key: K;
  readonly kind?: 'simulate';
  readonly model: SupermarketModel;
  readonly options: TaskOptions;
  /** Expected simulated events (`taskCost`), for progress, scheduling (largest first) and sharding. */
  readonly cost: number;
}

/** A transient simulation from empty (`simulateTrajectory(model, options)`) to run; `options.seed` is its seed. */
export interface TrajectoryTask<K = string> {
  readonly key: K;
  readonly kind: 'trajectory';
  readonly model: SupermarketModel;
  readonly options: TrajectoryOptions;
  readonly cost: number;
}

/**
 * Expected simulated events of a run (sim/budget.ts `expectedEvents`): replications × (2·jobs + 2·λ·n·warm-up), the
 * arrivals and departures of the measured jobs and of the warm-up. A trajectory has no measured jobs: its horizon is
 * the warm-up argument. The one cost formula of every task.
 */
export function taskCost(
  lambda: number,
  o: { readonly n: number; readonly jobs: number; readonly replications: number; readonly warmupTime: number },
): number {
  return expectedEvents({ lambda, n: o.n, jobs: o.jobs, replications: o.replications, warmupTime: o.warmupTime });
}

/**
 * The task of simulating `model` with `options` under `key`, seeded `cellSeed(master, key)` and costed by `taskCost`.
 * @param options `simulate`'s options but the seed (jobs and replications required: the cost counts them).
 */
export function simulationTask(
  master: number,
  key: string,
  model: SupermarketModel,
  options: Omit<TaskOptions, 'seed' | 'replications' | 'jobs'> & { readonly replications: number; readonly jobs: number },
): SimulationTask {
  return { key, model, options: { ...options, seed: cellSeed(master, key) }, cost: taskCost(model.lambda, options) };
}

/** The task of a transient from empty of `model` under `key` to time `tEnd`, seeded `cellSeed(master, key)`. */
export function trajectoryTask(
  master: number,
  key: string,
  model: SupermarketModel,
  options: Omit<TrajectoryOptions, 'seed'>,
  tEnd: number,
): TrajectoryTask {
  const cost = taskCost(model.lambda, { n: options.n, jobs: 0, replications: options.replications ?? 1, warmupTime: tEnd });
  return { kind: 'trajectory', key, model, options: { ...options, seed: cellSeed(master, key) }, cost };
}

/**
 * The part of a `simulate` result every stored cell keeps (comparison cells, experiment cells of `supermarket run`,
 * conjecture simulations): E[T] and E[Q] with their CIs, the event count and rate, the wall time (s), the warm-up
 * time and the seeds.
 */
export function storedSimulation(sim: SimulationResult) {
  return {
    meanResponseTime: sim.meanResponseTime,
    meanQueueLength: sim.meanQueueLength,
    events: sim.events,
    eventsPerSecond: sim.eventsPerSecond,
    wallSeconds: sim.wallSeconds,
    warmupTime: sim.warmupTime,
    seeds: sim.seeds,
  };
}

/** What a trajectory task's stored cell keeps. */
export type StoredTrajectory = Pick<TrajectoryResult, 'tail' | 'events'>;
