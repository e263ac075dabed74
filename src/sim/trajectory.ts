/**
 * Transient simulation: the tail s_i(t) at given times, averaged over replications, from empty or from a given
 * initial tail. The finite-n counterpart of the mean-field ODE (theory.md §2).
 */
import { checkTimeGrid } from '../model/timeGrid.ts';
import { InvalidModelError } from '../errors.ts';
import { randomRoutingTwin, refuseUnknownOptions, type SupermarketModel } from '../model/model.ts';
import { VERSION, codeId } from '../version.ts';
import type { EngineKind } from './core.ts';
import { feasible, monotoneFractions, tiedFraction, tInterval, type Estimate } from '../stats/tInterval.ts';
import { initialCounts, initialState } from './initialState.ts';
import { Measurement } from './measurement.ts';
import { integerOption, resolveEngine, resolveRunConfig, seedOption } from './options.ts';
import { Rng, streamSeed } from '../stats/rng.ts';
import { withEngine } from './simulate.ts';

export interface TrajectoryOptions {
  /** Servers, integer in [1, 2^21], d ≤ n. */
  n: number;
  /** Observation times (time units), finite, ≥ 0, strictly increasing; times[0] = 0 gives the initial state. */
  times: number[];
  /** Initial tail s_0..s_K (s_0 = 1, non-increasing); round(n·s_i) servers start with ≥ i jobs. Default empty. */
  from?: number[];
  /** Independent replications ≥ 2 (default 5). */
  replications?: number;
  /** Master seed (default 1). */
  seed?: number;
  /** Highest level reported (default 30). */
  maxLevel?: number;
  /** 'auto' (default): the race fast path when exact. */
  engine?: 'auto' | 'event' | 'race';
}

export interface TrajectoryResult {
  times: number[];
  /** tail[j][i] = fraction of servers with ≥ i jobs at times[j], over replications (i = 0..maxLevel). */
  tail: Estimate[][];
  /** Jobs per server at times[j]. */
  meanQueueLength: Estimate[];
  events: number;
  seeds: { master: number; replications: string[] };
  n: number;
  maxLevel: number;
  engine: EngineKind;
  provenance: { model: SupermarketModel; version: string; code: string };
}

/**
 * A transient simulation checked and resolved (`planTrajectory`): what every replication of it needs, plain data so a
 * worker thread can rebuild it from the same model and options.
 */
export interface TrajectoryPlan {
  readonly model: SupermarketModel;
  readonly config: ReturnType<typeof resolveRunConfig>;
  readonly replications: number;
  readonly maxLevel: number;
  readonly master: number;
  readonly kind: EngineKind;
  readonly times: number[];
  readonly counts: ReturnType<typeof initialCounts>;
}

/**
 * Replication `index` of a transient simulation (`runTrajectoryReplications`), on its own stream
 * `streamSeed(master, index)`: samples[j·(maxLevel + 1) + i] = s_i at times[j], queue[j] = jobs per server at times[j].
 */
export interface TrajectoryPart {
  index: number;
  seed: string;
  samples: Float64Array;
  queue: Float64Array;
  events: number;
}

/** Every field of `TrajectoryOptions` (the compiler checks the list against the type): another key is refused. */
const TRAJECTORY_OPTION_KEYS = {
  n: true,
  times: true,
  from: true,
  replications: true,
  seed: true,
  maxLevel: true,
  engine: true,
} as const satisfies Record<keyof TrajectoryOptions, true>;

/**
 * Checks the options of a transient simulation and resolves its defaults (see `simulateTrajectory`).
 * @throws as `simulateTrajectory`.
 */
export function planTrajectory(given: SupermarketModel, options: TrajectoryOptions): TrajectoryPlan {
  const model = randomRoutingTwin(given) ?? given; // random routing however spelt runs as JSQ(1), as in `planSimulation`
  if (options === null || typeof options !== 'object') throw new InvalidModelError('simulateTrajectory needs an options object');
  refuseUnknownOptions('simulateTrajectory', options, TRAJECTORY_OPTION_KEYS);
  const config = resolveRunConfig(model, options.n);
  const replications = integerOption('replications', options.replications, 5, 2);
  const maxLevel = integerOption('maxLevel', options.maxLevel, 30, 1);
  const master = seedOption(options.seed);
  const kind = resolveEngine(model, options.engine);
  const times = checkTimeGrid(options.times);
  const counts = initialCounts(options.from ?? [], config.n);
  return { model, config, replications, maxLevel, master, kind, times, counts };
}

/**
 * Replications first, …, first + count − 1 of a transient simulation, each from the initial state on its own stream
 * `streamSeed(master, r)`: independent of which others run, where or in which order, so a pool can run them apart
 * and `collectTrajectory` gives `simulateTrajectory`'s numbers.
 * @throws {InvalidModelError} if the range is not within 0 … replications − 1.
 */
export function runTrajectoryReplications(plan: TrajectoryPlan, first: number, count: number): TrajectoryPart[] {
  const { config, kind, times, maxLevel, master, counts } = plan;
  if (!Number.isInteger(first) || !Number.isInteger(count) || first < 0 || count < 0 || first + count > plan.replications) {
    throw new InvalidModelError(`replications ${first} … ${first + count - 1} are not within 0 … ${plan.replications - 1}`);
  }
  const levels = maxLevel + 1;
  const parts: TrajectoryPart[] = [];
  for (let r = first; r < first + count; r++) {
    const seed = streamSeed(master, r);
    const samples = new Float64Array(times.length * levels);
    const queue = new Float64Array(times.length);
    const state = initialState(config, kind, new Rng(seed), new Measurement(Infinity, Infinity), counts);
    const events = withEngine(kind, config, state, (engine) => {
      for (let j = 0; j < times.length; j++) {
        engine.run(times[j]);
        const snap = state.occupancy.snapshot(state.occupancy.count.length - 1);
        let q = 0;
        for (let i = 1; i < snap.length; i++) q += snap[i];
        for (let i = 0; i <= maxLevel; i++) samples[j * levels + i] = i < snap.length ? snap[i] : 0;
        queue[j] = q;
      }
      return engine.events;
    });
    parts.push({ index: r, seed: '0x' + seed.toString(16).padStart(16, '0'), samples, queue, events });
  }
  return parts;
}

/**
 * The result of a transient simulation from every replication's part (any order; each index once): per time and
 * level the Student-t interval over the replications in replication order, so the numbers are the same however the
 * replications were run.
 * @throws {InvalidModelError} if a replication is missing or repeated.
 */
export function collectTrajectory(plan: TrajectoryPlan, parts: readonly TrajectoryPart[]): TrajectoryResult {
  const { replications, maxLevel, times } = plan;
  const byIndex = new Array<TrajectoryPart | undefined>(replications);
  for (const p of parts) {
    if (byIndex[p.index] !== undefined || p.index < 0 || p.index >= replications) {
      throw new InvalidModelError(`trajectory replication ${p.index} is repeated or out of range`);
    }
    byIndex[p.index] = p;
  }
  const ordered = Array.from(byIndex, (p, r) => {
    if (p === undefined) throw new InvalidModelError(`trajectory replication ${r} is missing`);
    return p;
  });
  const levels = maxLevel + 1;
  let events = 0;
  for (const p of ordered) events += p.events;
  return {
    times: times.slice(),
    // intervals intersected with what the true value can be (tail fractions in [0, 1], E[Q] ≥ 0): coverage unchanged.
    // After t = 0 (the initial state, given: exact) a level no replication held at times[j] is [0, upper end of the
    // level below], not the point [0, 0] (stats `monotoneFractions`); replications tied at one multiple of 1/n inside
    // (0, 1) get the interval such a tie allows (`tiedFraction`)
    tail: times.map((t, j) => {
      const row = Array.from({ length: levels }, (_, i) => feasible(tInterval(ordered.map((p) => p.samples[j * levels + i])), 0, 1));
      return t === 0
        ? row
        : monotoneFractions(
            row.map((e) => tiedFraction(e)),
            1,
            1,
          );
    }),
    meanQueueLength: times.map((_, j) => feasible(tInterval(ordered.map((p) => p.queue[j])), 0)),
    events,
    seeds: { master: plan.master, replications: ordered.map((p) => p.seed) },
    n: plan.config.n,
    maxLevel,
    engine: plan.kind,
    provenance: { model: plan.model, version: VERSION, code: codeId() },
  };
}

/**
 * Simulates R replications of the n-server system from the same initial state and records the occupancy at
 * each requested time (`planTrajectory` → `runTrajectoryReplications` → `collectTrajectory`).
 * @param model validated JSQ(d)/FIFO/exponential model.
 * @returns per-time Student-t estimates of every s_i and of the mean queue length.
 * @throws {InvalidModelError} bad n/d, times not increasing, non-finite or negative, bad `from`, replications < 2.
 * @throws {UnstableModelError} if λ ≤ 0 or ρ ≥ 1 (the simulator needs a stable model even for transients).
 * @example simulateTrajectory(model, { n: 1000, times: [0, 1, 2] }).tail[2][1].mean // s_1(2) from empty
 */
export function simulateTrajectory(model: SupermarketModel, options: TrajectoryOptions): TrajectoryResult {
  const plan = planTrajectory(model, options);
  return collectTrajectory(plan, runTrajectoryReplications(plan, 0, plan.replications));
}
