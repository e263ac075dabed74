/**
 * Finite-n simulation of the supermarket model with independent replications and Student-t intervals.
 * Source: theory.md §1 (model), §8 (estimands, warm-up, replications).
 */
import { InvalidModelError } from '../errors.ts';
import type { SupermarketModel } from '../model/model.ts';
import { VERSION } from '../version.ts';
import type { Engine, EngineKind, RunConfig } from './core.ts';
import { EventEngine } from './engine.ts';
import { tInterval, type Estimate } from './estimate/tInterval.ts';
import { initialState } from './initialState.ts';
import { Measurement } from './measurement.ts';
import { fallbackWarmup, integerOption, resolveEngine, resolveRunConfig, seedOption } from './options.ts';
import { RaceEngine } from './race.ts';
import { Rng, streamSeed } from './rng.ts';

export interface SimulateOptions {
  /** Servers, integer in [1, 2^21], d ≤ n. */
  n: number;
  /** Arrivals measured per replication after the warm-up (default 1e6). */
  jobs?: number;
  /** Independent replications, ≥ 2 (default 5). */
  replications?: number;
  /** Master seed, a safe integer (default 1); replication r uses stream `streamSeed(seed, r)`. */
  seed?: number;
  /** Time units discarded before measuring; default `fallbackWarmup` (recorded in the result). */
  warmupTime?: number;
  /** Highest level i whose tail fraction s_i is reported (default 30). */
  maxLevel?: number;
  /** 'auto' (default): the race fast path when exact, else the event engine. */
  engine?: 'auto' | 'event' | 'race';
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
  events: number;
  eventsPerSecond: number;
  wallSeconds: number;
  warmupTime: number;
  /** 'option' if the caller gave warmupTime, else 'fallback' (see `fallbackWarmup`). */
  warmupSource: 'option' | 'fallback';
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
  return kind === 'event' ? new EventEngine(config, state) : new RaceEngine(config, state);
}

/**
 * Simulates JSQ(d) with FIFO and exponential sizes on n servers (Poisson arrivals at rate λn), R independent
 * replications from empty, each with its own warm-up and random stream.
 * @param model validated model (`parseModel`); time in mean service times.
 * @param options see `SimulateOptions`.
 * @returns estimates over replications (Student-t 95% CIs), per-replication values, events, speed, seeds,
 *   provenance. Same model, options and seed ⇒ bit-identical numbers (except the wall-clock fields).
 * @throws {InvalidModelError} for an unsupported model, n < 1 or > 2^21, d > n, jobs < 1, replications < 2,
 *   maxLevel < 1, a non-integer seed, a negative or non-finite warmupTime, an unknown engine.
 * @throws {UnstableModelError} if λ ≤ 0 or ρ ≥ 1.
 * @example simulate(parseModel({ lambda: 0.9, d: 2 }), { n: 1000, jobs: 1e6 }).meanResponseTime.mean // ≈ 2.62
 */
export function simulate(model: SupermarketModel, options: SimulateOptions): SimulationResult {
  if (options === null || typeof options !== 'object') throw new InvalidModelError('simulate needs an options object with n');
  const config = resolveRunConfig(model, options.n);
  const jobs = integerOption('jobs', options.jobs, 1_000_000, 1);
  const replications = integerOption('replications', options.replications, 5, 2);
  const maxLevel = integerOption('maxLevel', options.maxLevel, 30, 1);
  const master = seedOption(options.seed);
  const kind = resolveEngine(model, options.engine);
  let warmupTime: number;
  let warmupSource: 'option' | 'fallback';
  if (options.warmupTime === undefined) {
    warmupTime = fallbackWarmup(config);
    warmupSource = 'fallback';
  } else {
    warmupTime = options.warmupTime;
    warmupSource = 'option';
    if (typeof warmupTime !== 'number' || !Number.isFinite(warmupTime) || warmupTime < 0) {
      throw new InvalidModelError(`warmupTime must be a finite number ≥ 0, got ${String(warmupTime)}`);
    }
  }

  const onProgress = options.onProgress;
  const perRun = 2 * (config.lambda * config.n * warmupTime + jobs);
  const totalEstimate = replications * perRun;
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
    const window = measurement.windowEnd - warmupTime;
    const meanQueueLength = state.occupancy.meanQueueLength(window);
    perReplication.push({
      meanResponseTime: measurement.sumResponse / measurement.completed,
      meanQueueLength,
      simulatedTime: state.t,
      events: engine.events,
      window,
      completedJobs: measurement.completed,
    });
    tails.push(state.occupancy.tail(maxLevel, window));
  }

  const wallSeconds = (performance.now() - started) / 1000;
  const column = (f: (x: ReplicationResult) => number) => tInterval(perReplication.map(f));
  const tail: Estimate[] = [];
  for (let i = 0; i <= maxLevel; i++) tail.push(tInterval(tails.map((s) => s[i])));
  return {
    meanResponseTime: column((x) => x.meanResponseTime),
    meanQueueLength: column((x) => x.meanQueueLength),
    tail,
    littleResponseTime: column((x) => x.meanQueueLength / config.lambda),
    events,
    eventsPerSecond: wallSeconds > 0 ? events / wallSeconds : Infinity,
    wallSeconds,
    warmupTime,
    warmupSource,
    jobs,
    n: config.n,
    maxLevel,
    seeds: { master, replications: seeds },
    engine: kind,
    perReplication,
    provenance: {
      model,
      version: VERSION,
      method: kind === 'event' ? 'discrete-event (binary heap of clocks)' : 'exponential race',
      rng: 'xoshiro128** seeded by splitmix64(master, replication)',
    },
  };
}
