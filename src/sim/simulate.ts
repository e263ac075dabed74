/**
 * Finite-n simulation of the supermarket model (every selection rule, discipline, size law and prediction model
 * of theory.md §1) with independent replications and Student-t intervals.
 * Source: theory.md §1 (model), §8 (estimands, warm-up, replications).
 */
import { InvalidModelError } from '../errors.ts';
import type { SupermarketModel } from '../model/model.ts';
import { VERSION } from '../version.ts';
import type { Engine, EngineKind, RunConfig } from './core.ts';
import { EventEngine } from './engine.ts';
import { quantiles } from '../stats/quantile.ts';
import { tInterval, type Estimate } from '../stats/tInterval.ts';
import { initialState } from './initialState.ts';
import { Measurement } from './measurement.ts';
import { checkEventBudget } from './budget.ts';
import { integerOption, resolveEngine, resolveRunConfig, seedOption } from './options.ts';
import { PriorityEngine } from './priorityEngine.ts';
import { RaceEngine } from './race.ts';
import { Rng, streamSeed } from '../stats/rng.ts';

export interface SimulateOptions {
  /** Servers, integer in [1, 2^21], d ≤ n. */
  n: number;
  /** Arrivals measured per replication after the warm-up (default 1e6). */
  jobs?: number;
  /** Independent replications, ≥ 2 (default 5). */
  replications?: number;
  /** Master seed, a safe integer (default 1); replication r uses stream `streamSeed(seed, r)`. */
  seed?: number;
  /**
   * Time units discarded before measuring, finite ≥ 0 (0 only when a run from empty is wanted). Required: the one
   * warm-up rule is the caller's (`simulationWarmup` in meanfield/warmup.ts); the simulator does not guess one.
   */
  warmupTime: number;
  /** Largest run accepted, in expected events over all replications (default MAX_EVENTS = 2e10). */
  maxEvents?: number;
  /** Highest level i whose tail fraction s_i is reported (default 30). */
  maxLevel?: number;
  /**
   * 'auto' (default): the race fast path when exact, else the event engine of the discipline ('event' for FIFO,
   * 'priority' otherwise); 'event' picks the discipline's event engine; 'priority' forces the priority engine.
   */
  engine?: 'auto' | 'event' | 'priority' | 'race';
  /**
   * Workload levels w (increasing, ≥ 0) for the time-average ccdf P(U > w); event engines only. Default:
   * 0, 0.25, …, 10 (× E[S]) for LWL and LPW, none otherwise.
   */
  workloadGrid?: number[];
  /** Called every 2^20 events with the events done and an estimate of the total (all replications). */
  onProgress?: (doneEvents: number, totalEventsEstimate: number) => void;
}

export interface ReplicationResult {
  /** Mean sojourn time of the measured jobs (time units). */
  meanResponseTime: number;
  /** Time-average jobs per server over the window. */
  meanQueueLength: number;
  /** Simulated time at the end of the replication (after the drain). */
  simulatedTime: number;
  /** Events processed (arrivals + departures), warm-up and drain included. */
  events: number;
  /** Length of the time-average window [warmupTime, last measured arrival]. */
  window: number;
  /** Measured jobs that completed (always equals `jobs`: the run drains them all). */
  completedJobs: number;
  /** Mean of T/S over the measured jobs with S > 0. */
  meanSlowdown: number;
  /** Measured jobs of size 0, left out of `meanSlowdown` (T/S undefined); 0 for laws with no atom at 0. */
  zeroSizeJobs: number;
  /** Empirical response-time quantiles of the measured jobs (type 7). */
  responseTimePercentiles: { p50: number; p95: number; p99: number };
  /** Time-average workload per server E[U] (event engines; NaN for the race engine, which draws no sizes). */
  meanWorkload: number;
  /** Time-average P(U > grid[k]) (empty without a grid). */
  workloadCcdf: number[];
}

/** Response-time percentiles, each over replications. */
export interface Percentiles<T> {
  p50: T;
  p95: T;
  p99: T;
}

export interface SimulationResult {
  /** Per-job mean response time over jobs arriving after the warm-up, each followed to its departure. */
  meanResponseTime: Estimate;
  /** Time-average jobs per server over the window. */
  meanQueueLength: Estimate;
  /** tail[i] = time-average fraction of servers with ≥ i jobs, i = 0..maxLevel (tail[0] = 1, halfWidth 0). */
  tail: Estimate[];
  /** meanQueueLength/λ per replication (Little's law; compare with meanResponseTime). */
  littleResponseTime: Estimate;
  /** Mean slowdown E[T/S] (jobs with S > 0). Infinite in theory for FIFO with exponential sizes (E[1/S] = ∞). */
  meanSlowdown: Estimate;
  /** Measured jobs of size 0 over all replications, left out of `meanSlowdown` (T/S undefined). */
  zeroSizeJobs: number;
  /** p50, p95, p99 of the response time: each replication's empirical quantile, averaged with a Student-t CI. */
  responseTimePercentiles: Percentiles<Estimate>;
  /** Time-average workload per server E[U] (absent for the race engine). */
  meanWorkload?: Estimate;
  /** Time-average workload ccdf: ccdf[k] = P(U > grid[k]) (when a grid was given, or by default for LWL/LPW). */
  workloadCcdf?: { grid: number[]; ccdf: Estimate[] };
  events: number;
  eventsPerSecond: number;
  wallSeconds: number;
  warmupTime: number;
  jobs: number;
  n: number;
  maxLevel: number;
  /** Master seed and the derived 64-bit stream seeds (hex strings), one per replication. */
  seeds: { master: number; replications: string[] };
  engine: EngineKind;
  perReplication: ReplicationResult[];
  provenance: { model: SupermarketModel; version: string; method: string; rng: string };
}

/** Builds the engine of the given kind over a fresh state. */
export function createEngine(kind: EngineKind, config: RunConfig, state: ReturnType<typeof initialState>): Engine {
  if (kind === 'race') return new RaceEngine(config, state);
  if (kind === 'priority') return new PriorityEngine(config, state);
  if (config.discipline !== 0) throw new InvalidModelError('the FIFO event engine runs only discipline "fifo"; use engine "priority"');
  return new EventEngine(config, state);
}

/** Summary of one finished run's measurement (customer and time averages). */
export function summariseRun(state: ReturnType<typeof initialState>, engine: Engine, lambda: number) {
  const m = state.measurement;
  const window = m.windowEnd - m.windowStart;
  const [p50, p95, p99] = quantiles(m.responses, m.sampled, [0.5, 0.95, 0.99]);
  const w = state.workload;
  return {
    meanResponseTime: m.sumResponse / m.completed,
    meanQueueLength: state.occupancy.meanQueueLength(window),
    simulatedTime: state.t,
    events: engine.events,
    window,
    completedJobs: m.completed,
    meanSlowdown: m.sumSlowdown / m.slowdownJobs,
    zeroSizeJobs: m.completed - m.slowdownJobs,
    responseTimePercentiles: { p50, p95, p99 },
    meanWorkload: engine.kind === 'race' ? NaN : w.area / (w.n * window),
    workloadCcdf: engine.kind === 'race' ? [] : Array.from(w.areaAbove, (x) => x / (w.n * window)),
    littleResponseTime: state.occupancy.meanQueueLength(window) / lambda,
  };
}

/**
 * Simulates the model on n servers (Poisson arrivals at rate λn, sizes and predictions drawn per job at arrival),
 * R independent replications from empty, each with its own warm-up and random stream.
 * @param model validated model (`parseModel`); time in mean service times.
 * @param options see `SimulateOptions`.
 * @returns estimates over replications (Student-t 95% CIs), per-replication values, events, speed, seeds,
 *   provenance. Same model, options and seed ⇒ bit-identical numbers (except the wall-clock fields).
 * @throws {InvalidModelError} for an unsupported model, n < 1 or > 2^21, d > n, jobs < 1, replications < 2,
 *   maxLevel < 1, a non-integer seed, a missing, negative or non-finite warmupTime, an unknown engine, a run beyond
 *   maxEvents expected events (`checkEventBudget`).
 * @example simulate(parseModel({ lambda: 0.9, d: 2 }), { n: 1000, jobs: 1e6, warmupTime: 80 }).meanResponseTime.mean // ≈ 2.62
 */
export function simulate(model: SupermarketModel, options: SimulateOptions): SimulationResult {
  if (options === null || typeof options !== 'object') throw new InvalidModelError('simulate needs an options object with n');
  const config = resolveRunConfig(model, options.n, { workloadGrid: options.workloadGrid });
  const jobs = integerOption('jobs', options.jobs, 1_000_000, 1);
  const replications = integerOption('replications', options.replications, 5, 2);
  const maxLevel = integerOption('maxLevel', options.maxLevel, 30, 1);
  const master = seedOption(options.seed);
  const kind = resolveEngine(model, options.engine);
  const warmupTime = options.warmupTime;
  if (typeof warmupTime !== 'number' || !Number.isFinite(warmupTime) || warmupTime < 0) {
    throw new InvalidModelError(`warmupTime must be a finite number ≥ 0, got ${String(warmupTime)} (simulationWarmup proposes one)`);
  }
  const totalEstimate = checkEventBudget({ lambda: config.lambda, n: config.n, jobs, replications, warmupTime }, options.maxEvents);

  const onProgress = options.onProgress;
  const seeds: string[] = [];
  const perReplication: ReplicationResult[] = [];
  const tails: number[][] = [];
  let events = 0;
  const started = performance.now();

  for (let r = 0; r < replications; r++) {
    const seed = streamSeed(master, r);
    seeds.push('0x' + seed.toString(16).padStart(16, '0'));
    const measurement = new Measurement(warmupTime, jobs);
    const state = initialState(config, kind, new Rng(seed), measurement);
    const engine = createEngine(kind, config, state);
    const before = events;
    engine.run(Infinity, onProgress === undefined ? undefined : (done) => onProgress(before + done, totalEstimate));
    events += engine.events;
    const { littleResponseTime: _little, ...summary } = summariseRun(state, engine, config.lambda);
    perReplication.push(summary);
    tails.push(state.occupancy.tail(maxLevel, summary.window));
  }

  const wallSeconds = (performance.now() - started) / 1000;
  const column = (f: (x: ReplicationResult) => number) => tInterval(perReplication.map(f));
  const tail: Estimate[] = [];
  for (let i = 0; i <= maxLevel; i++) tail.push(tInterval(tails.map((s) => s[i])));
  const grid = Array.from(config.workloadGrid);
  return {
    meanResponseTime: column((x) => x.meanResponseTime),
    meanQueueLength: column((x) => x.meanQueueLength),
    tail,
    littleResponseTime: column((x) => x.meanQueueLength / config.lambda),
    meanSlowdown: column((x) => x.meanSlowdown),
    zeroSizeJobs: perReplication.reduce((sum, x) => sum + x.zeroSizeJobs, 0),
    responseTimePercentiles: {
      p50: column((x) => x.responseTimePercentiles.p50),
      p95: column((x) => x.responseTimePercentiles.p95),
      p99: column((x) => x.responseTimePercentiles.p99),
    },
    ...(kind === 'race' ? {} : { meanWorkload: column((x) => x.meanWorkload) }),
    ...(kind === 'race' || grid.length === 0 ? {} : { workloadCcdf: { grid, ccdf: grid.map((_, k) => column((x) => x.workloadCcdf[k])) } }),
    events,
    eventsPerSecond: wallSeconds > 0 ? events / wallSeconds : Infinity,
    wallSeconds,
    warmupTime,
    jobs,
    n: config.n,
    maxLevel,
    seeds: { master, replications: seeds },
    engine: kind,
    perReplication,
    provenance: {
      model,
      version: VERSION,
      method: kind === 'event' ? 'discrete-event, FIFO (binary heap of clocks)'
        : kind === 'priority' ? 'discrete-event, priority queues per server (indexed heap of clocks, preemptive-resume)' : 'exponential race',
      rng: 'xoshiro128** seeded by splitmix64(master, replication)',
    },
  };
}
