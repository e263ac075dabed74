/**
 * Finite-n table engine: many independent small-n supermarket chains whose state is an occupancy vector, advanced
 * together in typed arrays by uniformisation, for the time-average E[Q] of each run (theory.md §1–§2, §8).
 *
 * Model: exponential sizes of mean m, FIFO (the order inside a server does not change the queue-length process),
 * JSQ(d) (or random selection, d = 1), sampling with or without replacement. Uniformised at the total rate
 * n(λ + 1/m) per chain: each event is an arrival with probability ρ/(1 + ρ), ρ = λm, which samples d servers and
 * joins one with the fewest jobs, or else a potential departure from a uniformly chosen server (a real one if that
 * server is busy). The chain keeps each server's level (Int32Array, structure of arrays over runs): servers are
 * exchangeable, so its projection on the occupancy vector (counts per level) is the occupancy chain itself, and
 * sampling a server's level is one uniform index instead of a search over the counts. Heterogeneous servers (rates
 * per server) need this per-server layout anyway; the memory/JIQ variants add per-run dispatcher state beside it.
 *
 * Estimator: the uniformised jump epochs are a Poisson process independent of the state, so the embedded chain has
 * the same stationary law and the time average of the total jobs is estimated by its average over events (the
 * conditional expectation of the time-weighted average given the jump chain: unbiased, smaller variance). After
 * `warmupEvents` discarded events, run r's value is E[Q]_r = (1/(n·E)) Σ_{k ≤ E} X_k, X_k the total jobs after event
 * k. Runs are independent (one RNG stream each, from `chainRunSeed`), so a t interval over runs is a valid CI.
 *
 * One 32-bit uniform u per event decides arrival (u < θ = ⌊2^32·ρ/(1 + ρ)⌋) or departure and also names the first
 * server: ⌊u·n/θ⌋ for an arrival, ⌊(u − θ)·n/(2^32 − θ)⌋ for a departure (the other d − 1 samples are exact bounded
 * draws, Lemire). This saves one draw of ~2.5 per event; the cost is quantisation: the arrival probability is exact to
 * 2^−32, and each server's probability to be that first server is off by at most n/m relatively, m = θ or 2^32 − θ
 * (≥ 2^32·ρ/(1 + ρ)): ≤ 6·10^−8 at n = 100, ρ ≥ 0.7 — orders of magnitude below any CI a table reaches.
 */
import { InvalidModelError } from '../errors.ts';
import { checkServers, requirePoissonArrivals, type SupermarketModel } from '../model/model.ts';
import { MAX_UNIFORM_BOUND, Rng, cellSeed, streamSeed } from '../stats/rng.ts';

/** The chain's parameters, read from a supported model by `occupancyChainSpec`. */
export interface OccupancyChainSpec {
  /** Servers per chain, integer in [1, 2^21]. */
  readonly n: number;
  /** Servers sampled per arrival (1 for random selection). */
  readonly d: number;
  /** Load ρ = λ·E[S] < 1. */
  readonly rho: number;
  /** Arrival rate per server λ (model time units), for E[T] = E[Q]/λ. */
  readonly lambda: number;
  /** Total uniformisation rate per chain, n(λ + 1/E[S]): events per model time unit. */
  readonly eventRate: number;
  readonly withoutReplacement: boolean;
}

/**
 * Checks that `model` has an occupancy-vector state this engine simulates (JSQ(d) or random, FIFO, exponential
 * sizes) and returns its chain parameters at n servers.
 * @throws {InvalidModelError} naming the unsupported field, or n invalid for the model (d > n, n not an integer ≥ 1).
 */
export function occupancyChainSpec(model: SupermarketModel, n: number): OccupancyChainSpec {
  if (model.selection !== 'jsq' && model.selection !== 'random')
    throw new InvalidModelError(
      `the occupancy-chain engine needs a queue-length state: selection ${JSON.stringify(model.selection)} is not supported (jsq, random)`,
    );
  if (model.discipline !== 'fifo')
    throw new InvalidModelError(`the occupancy-chain engine supports discipline "fifo" only, got ${JSON.stringify(model.discipline)}`);
  if (model.service.kind !== 'exponential')
    throw new InvalidModelError(
      `the occupancy-chain engine needs exponential sizes (a Markov queue-length state), got service ${JSON.stringify(model.service.kind)}`,
    );
  requirePoissonArrivals(model, 'the occupancy-chain engine');
  if ((model.batch ?? 1) > 1) throw new InvalidModelError('the occupancy-chain engine serves single arrivals, not batches');
  if (model.redundancy !== undefined) throw new InvalidModelError('the occupancy-chain engine serves one copy per job, not redundancy-d');
  const servers = checkServers(model, n);
  if (servers > MAX_UNIFORM_BOUND) throw new InvalidModelError(`n must be ≤ ${MAX_UNIFORM_BOUND} for the occupancy-chain engine, got ${n}`);
  const mean = model.service.mean;
  const d = model.selection === 'random' ? 1 : model.d;
  return {
    n: servers,
    d,
    rho: model.lambda * mean,
    lambda: model.lambda,
    eventRate: servers * (model.lambda + 1 / mean),
    withoutReplacement: model.sampling === 'without-replacement' && d > 1,
  };
}

/**
 * The 64-bit RNG seed of run `run` of the cell named `key` under the master `seed`: the project's per-cell seed
 * (`cellSeed`) and per-replication stream (`streamSeed`). The one place the table engine derives seeds, so a run's
 * stream depends on (seed, key, run) only: results do not depend on batching, chunking or threads.
 */
export function chainRunSeed(seed: number, key: string, run: number): bigint {
  return streamSeed(cellSeed(seed, key), run);
}

export interface ChainRunOptions {
  /** Events discarded from the start before averaging (integer ≥ 0). */
  readonly warmupEvents: number;
  /**
   * The start of every run: counts c_i = round(n·s_i) of servers holding ≥ i jobs, i = 1, 2, … (`initialCounts` of
   * a tail, e.g. the mean-field fixed point; server j starts with #{i : c_i > j} jobs, as the event engines start).
   * Default [] (empty). Non-increasing integers in [0, n].
   */
  readonly startCounts?: readonly number[];
  /** Events averaged per run after the warm-up (integer ≥ 1). */
  readonly events: number;
  /** Master seed and cell key of `chainRunSeed`; runs first .. first + count − 1 are simulated. */
  readonly seed: number;
  readonly key: string;
  readonly first: number;
  readonly count: number;
  /** Called between blocks with the events done so far and the total (warm-up included), for progress. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** Events one run advances before the engine moves on to the next run (runs advance together, block by block). */
const BLOCK_EVENTS = 1 << 18;

/**
 * Simulates runs first .. first + count − 1 of one cell.
 * @returns per-run time averages E[Q]_r (jobs per server), index r − first; E[T]_r = E[Q]_r/λ by Little's law.
 * @throws {InvalidModelError} on non-integer or negative event counts, run indices or counts.
 * @example runOccupancyChains(occupancyChainSpec(parseModel({ lambda: 0.9, d: 2 }), 10), { warmupEvents: 1e4, events: 1e6, seed: 1, key: 'a', first: 0, count: 4 })
 */
export function runOccupancyChains(spec: OccupancyChainSpec, options: ChainRunOptions): Float64Array {
  const { warmupEvents, events, first, count } = options;
  if (!Number.isSafeInteger(warmupEvents) || warmupEvents < 0)
    throw new InvalidModelError(`warm-up events must be an integer ≥ 0, got ${warmupEvents}`);
  if (!Number.isSafeInteger(events) || events < 1) throw new InvalidModelError(`events per run must be an integer ≥ 1, got ${events}`);
  if (!Number.isSafeInteger(first) || first < 0) throw new InvalidModelError(`first run must be an integer ≥ 0, got ${first}`);
  if (!Number.isSafeInteger(count) || count < 0) throw new InvalidModelError(`run count must be an integer ≥ 0, got ${count}`);
  const { n, d } = spec;
  const threshold = Math.floor((spec.rho / (1 + spec.rho)) * 4294967296);
  if (!(threshold > 0 && threshold < 4294967296))
    throw new InvalidModelError(`the occupancy-chain engine needs 0 < ρ < 1 with ρ/(1 + ρ) ≥ 2^−32, got ρ = ${spec.rho}`);
  const levels = new Int32Array(count * n);
  const totals = new Int32Array(count);
  const startCounts = options.startCounts ?? [];
  startCounts.forEach((c, i) => {
    if (!(Number.isInteger(c) && c >= 0 && c <= n && (i === 0 || c <= startCounts[i - 1])))
      throw new InvalidModelError(`start counts must be non-increasing integers in [0, ${n}], got ${c} at level ${i + 1}`);
  });
  let startTotal = 0;
  for (const c of startCounts) for (let j = 0; j < c; j++) levels[j]++;
  for (let j = 0; j < n; j++) startTotal += levels[j];
  for (let r = 1; r < count; r++) levels.copyWithin(r * n, 0, n);
  totals.fill(startTotal);
  const sums = new Float64Array(count);
  const rngs: Rng[] = [];
  for (let r = 0; r < count; r++) rngs.push(new Rng(chainRunSeed(options.seed, options.key, first + r)));
  const picks = new Int32Array(Math.max(1, d));
  const perRun = warmupEvents + events;
  let done = 0;
  for (let start = 0; start < perRun; start += BLOCK_EVENTS) {
    const end = Math.min(perRun, start + BLOCK_EVENTS);
    for (let r = 0; r < count; r++) {
      // warm-up part of this block (not averaged), then the averaged part
      const split = Math.min(end, Math.max(start, warmupEvents));
      const base = r * n;
      let total = totals[r];
      if (split > start)
        total = advance(levels, base, n, d, threshold, rngs[r], split - start, total, picks, spec.withoutReplacement, null);
      if (end > split) {
        scratch[0] = 0;
        total = advance(levels, base, n, d, threshold, rngs[r], end - split, total, picks, spec.withoutReplacement, scratch);
        sums[r] += scratch[0];
      }
      totals[r] = total;
      done += end - start;
      options.onProgress?.(done, perRun * count);
    }
  }
  const out = new Float64Array(count);
  for (let r = 0; r < count; r++) out[r] = sums[r] / (events * n);
  return out;
}

/** Sum of the totals over the events of one `advance` call (a block's sum is < 2^53: ≤ 2^18 events × 2^31 jobs). */
const scratch = new Float64Array(1);

/**
 * Advances one chain (levels[base .. base + n)) by `steps` uniformised events; adds Σ_k X_k to sum[0] when `sum`
 * is given. @returns the total jobs after the last event.
 */
function advance(
  levels: Int32Array,
  base: number,
  n: number,
  d: number,
  threshold: number,
  rng: Rng,
  steps: number,
  total: number,
  picks: Int32Array,
  withoutReplacement: boolean,
  sum: Float64Array | null,
): number {
  let acc = 0;
  const arrivalScale = n / threshold;
  const departureScale = n / (4294967296 - threshold);
  if (withoutReplacement) {
    for (let k = 0; k < steps; k++) {
      const u = rng.nextInt32() >>> 0;
      if (u < threshold) {
        // d distinct servers by rejection of repeats (d ≤ n; few repeats at the n of a table)
        let best = base + ((u * arrivalScale) | 0);
        let level = levels[best];
        picks[0] = best;
        for (let j = 1; j < d; j++) {
          let c = base + rng.below(n);
          for (let i = 0; i < j; i++) {
            if (picks[i] === c) {
              c = base + rng.below(n);
              i = -1;
            }
          }
          picks[j] = c;
          const l = levels[c];
          if (l < level) {
            level = l;
            best = c;
          }
        }
        levels[best] = level + 1;
        total++;
      } else {
        const c = base + (((u - threshold) * departureScale) | 0);
        const l = levels[c];
        if (l > 0) {
          levels[c] = l - 1;
          total--;
        }
      }
      acc += total;
    }
  } else {
    for (let k = 0; k < steps; k++) {
      const u = rng.nextInt32() >>> 0;
      if (u < threshold) {
        let best = base + ((u * arrivalScale) | 0);
        let level = levels[best];
        for (let j = 1; j < d; j++) {
          const c = base + rng.below(n);
          const l = levels[c];
          if (l < level) {
            level = l;
            best = c;
          }
        }
        levels[best] = level + 1;
        total++;
      } else {
        const c = base + (((u - threshold) * departureScale) | 0);
        const l = levels[c];
        if (l > 0) {
          levels[c] = l - 1;
          total--;
        }
      }
      acc += total;
    }
  }
  if (sum !== null) sum[0] += acc;
  return total;
}
