/**
 * Builds a replication's starting state: empty, or from a tail s_0..s_K (fraction of servers with ≥ i jobs),
 * assigned deterministically so that exactly round(n·s_i) servers hold ≥ i jobs.
 */
import { InvalidModelError } from '../errors.ts';
import { PRED_MODEL, type EngineKind, type RunConfig, type RunState } from './core.ts';
import { fifoPush } from './discipline/fifo.ts';
import { JobStore } from './jobStore.ts';
import { Measurement } from './measurement.ts';
import { Occupancy } from './occupancy.ts';
import type { Rng } from '../stats/rng.ts';
import { Workload } from './workload.ts';

/**
 * Server counts c_i = round(n·s_i), i ≥ 1, from an initial tail.
 * @param from s_0..s_K, s_0 = 1, values in [0, 1], non-increasing.
 * @throws {InvalidModelError} on any violation.
 */
export function initialCounts(from: readonly number[], n: number): number[] {
  if (!Array.isArray(from)) throw new InvalidModelError('from must be an array s_0..s_K');
  if (from.length === 0) return [];
  if (from[0] !== 1) throw new InvalidModelError(`from[0] = s_0 must be 1, got ${from[0]}`);
  const counts: number[] = [];
  for (let i = 1; i < from.length; i++) {
    const s = from[i];
    if (typeof s !== 'number' || !(s >= 0 && s <= 1)) throw new InvalidModelError(`from[${i}] must be in [0, 1], got ${s}`);
    if (s > from[i - 1]) throw new InvalidModelError(`from must be non-increasing: from[${i}] = ${s} > from[${i - 1}] = ${from[i - 1]}`);
    counts.push(Math.round(n * s));
  }
  return counts;
}

/**
 * A fresh RunState at time 0 holding `counts` (server j gets #{i : counts[i−1] > j} jobs, arrival time 0,
 * sequence number −1 so they are never measured; for the event engines sizes are drawn from the service law and
 * predictions from the prediction model, or Y = S for exact and trace predictions).
 */
export function initialState(
  config: RunConfig,
  engine: EngineKind,
  rng: Rng,
  measurement: Measurement,
  counts: readonly number[] = [],
): RunState {
  const { n } = config;
  const withSizes = engine !== 'race';
  const store = new JobStore(n, withSizes);
  const occupancy = new Occupancy(n, store.cap + 2);
  for (let i = 0; i < counts.length; i++) {
    for (let j = 0; j < counts[i]; j++) {
      const s = withSizes ? config.service.sample(rng) : 0;
      const y = withSizes && config.predKind === PRED_MODEL ? config.prediction.sample(s, rng) : s;
      fifoPush(store, j, 0, s, y, -1);
    }
  }
  occupancy.recount(store.len);
  return { store, occupancy, measurement, workload: new Workload(n, config.workloadGrid), rng, t: 0 };
}
