/**
 * Transient simulation: the tail s_i(t) at given times, averaged over replications, from empty or from a given
 * initial tail. The finite-n counterpart of the mean-field ODE (theory.md §2).
 */
import { checkTimeGrid } from '../model/timeGrid.ts';
import { InvalidModelError } from '../errors.ts';
import type { SupermarketModel } from '../model/model.ts';
import { VERSION, codeId } from '../version.ts';
import type { EngineKind } from './core.ts';
import { feasible, tInterval, type Estimate } from '../stats/tInterval.ts';
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
 * Simulates R replications of the n-server system from the same initial state and records the occupancy at
 * each requested time.
 * @param model validated JSQ(d)/FIFO/exponential model.
 * @returns per-time Student-t estimates of every s_i and of the mean queue length.
 * @throws {InvalidModelError} bad n/d, times not increasing, non-finite or negative, bad `from`, replications < 2.
 * @throws {UnstableModelError} if λ ≤ 0 or ρ ≥ 1 (the simulator needs a stable model even for transients).
 * @example simulateTrajectory(model, { n: 1000, times: [0, 1, 2] }).tail[2][1].mean // s_1(2) from empty
 */
export function simulateTrajectory(model: SupermarketModel, options: TrajectoryOptions): TrajectoryResult {
  if (options === null || typeof options !== 'object') throw new InvalidModelError('simulateTrajectory needs an options object');
  const config = resolveRunConfig(model, options.n);
  const replications = integerOption('replications', options.replications, 5, 2);
  const maxLevel = integerOption('maxLevel', options.maxLevel, 30, 1);
  const master = seedOption(options.seed);
  const kind = resolveEngine(model, options.engine);
  const times = checkTimeGrid(options.times);
  const counts = initialCounts(options.from ?? [], config.n);

  // samples[j][i][r] and queue[j][r]
  const samples = times.map(() => Array.from({ length: maxLevel + 1 }, () => new Array<number>(replications)));
  const queue = times.map(() => new Array<number>(replications));
  const seeds: string[] = [];
  let events = 0;
  for (let r = 0; r < replications; r++) {
    const seed = streamSeed(master, r);
    seeds.push('0x' + seed.toString(16).padStart(16, '0'));
    const state = initialState(config, kind, new Rng(seed), new Measurement(Infinity, Infinity), counts);
    events += withEngine(kind, config, state, (engine) => {
      for (let j = 0; j < times.length; j++) {
        engine.run(times[j]);
        const snap = state.occupancy.snapshot(state.occupancy.count.length - 1);
        let q = 0;
        for (let i = 1; i < snap.length; i++) q += snap[i];
        for (let i = 0; i <= maxLevel; i++) samples[j][i][r] = i < snap.length ? snap[i] : 0;
        queue[j][r] = q;
      }
      return engine.events;
    });
  }
  return {
    times: times.slice(),
    // intervals intersected with what the true value can be (tail fractions in [0, 1], E[Q] ≥ 0): coverage unchanged
    tail: samples.map((level) => level.map((xs) => feasible(tInterval(xs), 0, 1))),
    meanQueueLength: queue.map((xs) => feasible(tInterval(xs), 0)),
    events,
    seeds: { master, replications: seeds },
    n: config.n,
    maxLevel,
    engine: kind,
    provenance: { model, version: VERSION, code: codeId() },
  };
}
