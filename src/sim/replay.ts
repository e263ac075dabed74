/**
 * Replay mode: a trace's jobs (absolute arrival times, true sizes, optional per-job predictions) dispatched over n
 * servers by the model's selection rule and served under its discipline, in one run. Sizes and times are taken as
 * given (the caller rescales them to a target load). Confidence intervals by batch means (theory.md §8): customer
 * averages over B consecutive batches of measured jobs (in arrival order), time averages over B equal slices of
 * the window [first measured arrival, last arrival]; each estimate reports the lag-1 autocorrelation of its batch
 * values (independence check: < 0.2).
 */
import { InvalidModelError } from '../errors.ts';
import { randomRoutingTwin, refuseUnknownOptions, type SupermarketModel } from '../model/model.ts';
import { VERSION, codeId } from '../version.ts';
import type { EngineKind } from './core.ts';
import { batchEstimate, batchLag1, fewBatchesNote, type BatchEstimate } from '../stats/batchMeans.ts';
import { cdfSectioningInterval, feasible, monotoneFractions, openEndNotes, withoutInterval } from '../stats/tInterval.ts';
import { percentileName, quantiles } from '../stats/quantile.ts';
import { initialState } from './initialState.ts';
import { collectRecords, predictionColumn, RecordingWorkload, type JobRecords, type ServerRecords } from './jobRecord.ts';
import { Measurement } from './measurement.ts';
import { integerOption, resolveEngine, resolveRunConfig, seedOption } from './options.ts';
import { Rng, streamSeed } from '../stats/rng.ts';
import { withEngine, type Percentiles } from './simulate.ts';

/** A trace to replay: one entry per job, in arrival order. */
export interface ReplayWorkload {
  /** Absolute arrival times (time units), finite, ≥ 0, non-decreasing. */
  arrivals: Float64Array;
  /** True sizes (time units), finite, ≥ 0. */
  sizes: Float64Array;
  /** Per-job predictions Y (finite); default: drawn from `model.prediction` given each size (exact: Y = S). */
  predictions?: Float64Array;
}

export interface ReplayOptions {
  /** Servers, integer in [1, 2^21], d ≤ n. */
  n: number;
  /** Jobs discarded as warm-up (default ⌊N/10⌋); the others are measured. */
  warmupJobs?: number;
  /** Seed of the random stream (selection draws, sampled predictions); default 1. */
  seed?: number;
  /**
   * Number of batches B, 2..1000, each of ≥ MIN_BATCH_JOBS measured jobs (default `replayBatchCount`: as many as fit, at
   * most DEFAULT_BATCHES); 'none': too few jobs for an interval, the estimates are the pooled means alone (no interval:
   * ci95 and halfWidth NaN, `noInterval` says why).
   */
  batches?: number | 'none';
  /** Highest level i whose tail fraction s_i is reported (default 30). */
  maxLevel?: number;
  /** Workload levels for the ccdf P(U > w) (default for LWL/LPW: 0, 0.25, …, 10 × E[S] of model.service). */
  workloadGrid?: number[];
  /** Keep per-job and per-server records of the measured jobs (`records`; jobRecord.ts). Default false. */
  record?: boolean;
}

export interface ReplayResult {
  /** Customer averages over the measured jobs (pooled value; CI and lag-1 from the job batches). */
  meanResponseTime: BatchEstimate;
  meanSlowdown: BatchEstimate;
  /**
   * Set when the measured jobs are too few for an interval (`replayBatchCount` null, or `batches: 'none'`): why, in
   * words. The estimates' `mean` is then the pooled value as always, and they have no interval (stats
   * `withoutInterval`: ci95 and halfWidth NaN, lag1 NaN, replications 1), `batches` is null, `notes` holds this reason.
   */
  noInterval?: string;
  /** Measured jobs of size 0 (traces have them), left out of `meanSlowdown` (T/S undefined). */
  zeroSizeJobs: number;
  /** Pooled empirical quantiles (type 7); interval inverting the batches' cdfs (`cdfSectioningInterval`: not symmetric). */
  responseTimePercentiles: Percentiles<BatchEstimate>;
  /**
   * Output that is right but looks wrong, explained in words, as `SimulationResult.notes`: a percentile interval open
   * at an end (stats/tInterval.ts `openEndNote`, from the batches' fractions), few batches (stats/batchMeans.ts
   * `fewBatchesNote`: no independence check, the t's degrees of freedom), or why there is no interval
   * (`noInterval`); empty when none.
   */
  notes: string[];
  /**
   * Time averages over the window (pooled; CI and lag-1 from B equal time slices): ∫ Q dt / (n · window length), not
   * Little's Σ T / (n · window), which also counts the measured jobs' time after the window end.
   */
  meanQueueLength: BatchEstimate;
  tail: BatchEstimate[];
  meanWorkload: BatchEstimate;
  workloadCcdf?: { grid: number[]; ccdf: BatchEstimate[] };
  /**
   * Σ S of the measured jobs / (n · window length): the load arriving in the window. Not the trace's offered load λE[S]
   * (λ from the inter-arrival times): the window holds one more arrival than gaps, so on a short window the two differ.
   */
  windowLoad: number;
  jobs: number;
  warmupJobs: number;
  /** Batches B behind the intervals, or null when there is none (`noInterval`). */
  batches: number | null;
  /** Window [first measured arrival, last arrival] (time units). */
  window: [number, number];
  events: number;
  eventsPerSecond: number;
  wallSeconds: number;
  n: number;
  maxLevel: number;
  seed: { master: number; stream: string };
  engine: EngineKind;
  /**
   * The model as replayed: its selection, d, discipline, conventions; `service` and `arrivals` are "trace" (the trace
   * gives every size and arrival time; the model's stand-in laws are not used), as is `prediction` when the workload
   * carries predictions. `lambda` is the model's (the caller's arrival rate per server). `method` names the engine and
   * the batch means.
   */
  provenance: { model: ReplayedModel; version: string; code: string; method: string };
  /** With `record`: the measured jobs (arrival order) and the per-server summary of the window. */
  records?: { jobs: JobRecords; servers: ServerRecords };
}

/** The model as a replay used it (`ReplayResult.provenance`): the trace stands for the laws it gives. */
export type ReplayedModel = Omit<SupermarketModel, 'service' | 'arrivals' | 'prediction'> & {
  readonly service: 'trace';
  readonly arrivals: 'trace';
  readonly prediction: SupermarketModel['prediction'] | 'trace';
};

/**
 * Fewest measured jobs in one batch of replay's batch means (theory.md §8): a batch of a few jobs is neither near
 * normal nor independent of the next (the response times of jobs close in the trace are correlated), so its
 * t interval undercovers (25 batches of ~1 job over 30 jobs of an M/M/1 trace at λ = 0.8 covered 1/(1 − λ) in ≈ 10 % of
 * traces; scripts/replay-batch-coverage.ts).
 */
export const MIN_BATCH_JOBS = 50;
/**
 * Batches of the default rule, at most (Schmeiser 1982, Oper. Res. 30:556: 10 to 30). 10 rather than 25: longer
 * batches for the same jobs, less correlated; on M/M/1 traces at λ = 0.8 the interval covered 0.78 / 0.86 / 0.945 of
 * 1/(1 − λ) at 1000 / 3000 / 10 000 jobs against 0.73 / 0.815 / 0.91 with 25 (scripts/replay-batch-coverage.ts).
 */
export const DEFAULT_BATCHES = 10;

/**
 * Replay's one rule for its batch means: how many batches `jobs` measured jobs make. Default: as many as fit with
 * ≥ MIN_BATCH_JOBS jobs each, at most DEFAULT_BATCHES; null when fewer than 2 fit (too few jobs for an interval).
 * A requested count must leave ≥ MIN_BATCH_JOBS jobs in each batch.
 * @param jobs measured jobs (integer ≥ 0). @param requested batches asked for (`--batches`), integer ≥ 2, or undefined.
 * @returns the batch count B ≥ 2, or null: no interval (the caller reports the means alone and says why,
 *   `tooFewJobsReason`).
 * @throws {InvalidModelError} a requested count that leaves fewer than MIN_BATCH_JOBS jobs per batch.
 * @example replayBatchCount(30) // null; replayBatchCount(250) // 5; replayBatchCount(1e5) // 10
 */
export function replayBatchCount(jobs: number, requested?: number): number | null {
  const fit = Math.floor(jobs / MIN_BATCH_JOBS);
  if (requested === undefined) return fit >= 2 ? Math.min(DEFAULT_BATCHES, fit) : null;
  if (requested > fit)
    throw new InvalidModelError(
      `--batches ${requested} over ${jobs} measured jobs makes batches of ${Math.floor(jobs / requested)} jobs; batch means need ` +
        `≥ ${MIN_BATCH_JOBS} jobs per batch: ${fit >= 2 ? `give --batches ≤ ${fit}` : `${tooFewJobsReason(jobs)}; leave --batches out for the means alone`}`,
    );
  return requested;
}

/** Why `replayBatchCount` gives no interval for `jobs` measured jobs, in words. */
export function tooFewJobsReason(jobs: number): string {
  return `too few jobs for an interval: ${jobs} measured jobs make fewer than 2 batches of ≥ ${MIN_BATCH_JOBS} jobs (batch means need ≥ ${2 * MIN_BATCH_JOBS})`;
}

function checkColumn(name: string, xs: unknown, length: number, min: number): Float64Array {
  if (!(xs instanceof Float64Array)) throw new InvalidModelError(`workload.${name} must be a Float64Array`);
  if (xs.length !== length) throw new InvalidModelError(`workload.${name} has ${xs.length} entries, expected ${length} (one per job)`);
  for (let i = 0; i < length; i++) {
    const x = xs[i];
    if (!Number.isFinite(x) || x < min)
      throw new InvalidModelError(`workload.${name}[${i}] must be a finite number${min > -Infinity ? ` ≥ ${min}` : ''}, got ${x}`);
  }
  return xs;
}

/** Every field of `ReplayOptions` (the compiler checks the list against the type): another key is refused. */
const REPLAY_OPTION_KEYS = {
  n: true,
  warmupJobs: true,
  seed: true,
  batches: true,
  maxLevel: true,
  workloadGrid: true,
  record: true,
} as const satisfies Record<keyof ReplayOptions, true>;

/**
 * Replays a trace over n servers (one run, batch-means CIs).
 * @param model selection, d, discipline, conventions, sampling; `prediction` is used only when the workload has no
 *   predictions; `lambda` and `service` are not used for arrivals or sizes (service.mean scales the default grid).
 * @param workload arrays of equal length N ≥ warmupJobs + batches.
 * @returns pooled estimates with batch-means 95% CIs and lag-1 autocorrelations, the offered load, events, speed.
 *   Same inputs and seed ⇒ identical numbers (except wall-clock fields).
 * @throws {InvalidModelError} malformed arrays (length, NaN, negative, decreasing times), bad n/d/options, a model the
 *   simulator does not cover, or measured arrivals spanning zero time.
 * @example simulateReplay(model, { arrivals, sizes }, { n: 100, seed: 1 }).meanResponseTime.mean
 */
export function simulateReplay(given: SupermarketModel, workload: ReplayWorkload, options: ReplayOptions): ReplayResult {
  const model = randomRoutingTwin(given) ?? given; // random routing however spelt runs as JSQ(1), as in `planSimulation`
  if (workload === null || typeof workload !== 'object')
    throw new InvalidModelError('simulateReplay needs a workload { arrivals, sizes, predictions? }');
  if (options === null || typeof options !== 'object') throw new InvalidModelError('simulateReplay needs an options object with n');
  refuseUnknownOptions('simulateReplay', options, REPLAY_OPTION_KEYS);
  const total = workload.arrivals instanceof Float64Array ? workload.arrivals.length : -1;
  const arrivals = checkColumn('arrivals', workload.arrivals, total, 0);
  for (let i = 1; i < total; i++) {
    if (arrivals[i] < arrivals[i - 1])
      throw new InvalidModelError(
        `workload.arrivals must be non-decreasing: arrivals[${i}] = ${arrivals[i]} < arrivals[${i - 1}] = ${arrivals[i - 1]}`,
      );
  }
  const sizes = checkColumn('sizes', workload.sizes, total, 0);
  const predictions = workload.predictions === undefined ? undefined : checkColumn('predictions', workload.predictions, total, -Infinity);
  const warmupJobs = integerOption('warmupJobs', options.warmupJobs, Math.floor(total / 10), 0);
  const jobs = total - warmupJobs;
  // replay's one rule (`replayBatchCount`): batches of ≥ MIN_BATCH_JOBS jobs; `batches: 'none'` (too few jobs for an
  // interval, the CLI's means alone) computes with 2 batches, whose intervals the caller drops
  const ruled = options.batches === undefined ? replayBatchCount(jobs) : options.batches === 'none' ? null : undefined;
  const noInterval = ruled === null ? tooFewJobsReason(jobs) : undefined;
  const batches = ruled === null ? 2 : (ruled ?? replayBatchCount(jobs, integerOption('batches', options.batches, DEFAULT_BATCHES, 2))!);
  if (batches > 1000) throw new InvalidModelError(`batches must be ≤ 1000, got ${batches}`);
  if (jobs < batches)
    throw new InvalidModelError(`the trace has ${total} jobs; with warmupJobs = ${warmupJobs} it measures ${jobs}, fewer than 2`);
  const maxLevel = integerOption('maxLevel', options.maxLevel, 30, 1);
  const master = seedOption(options.seed);
  const trace = { arrivals, sizes, predictions };
  const config = resolveRunConfig(model, options.n, { trace, workloadGrid: options.workloadGrid });
  const t0 = arrivals[warmupJobs];
  const tEnd = arrivals[total - 1];
  if (!(tEnd > t0)) throw new InvalidModelError(`the measured arrivals span zero time (all at ${t0}); lower warmupJobs or check the trace`);
  // the discipline's event engine (FIFO, priority or sharing): replay draws sizes from the trace, never the race
  const kind: EngineKind = resolveEngine(model, 'event');

  const started = performance.now();
  const seed = streamSeed(master, 0);
  const record = options.record === true;
  const measurement = new Measurement(Infinity, jobs, warmupJobs, record);
  const base = initialState(config, kind, new Rng(seed), measurement);
  const recorder = record ? new RecordingWorkload(config.n, config.workloadGrid, jobs) : undefined;
  const state = recorder ? { ...base, workload: recorder } : base;
  const { occupancy, workload: work } = state;
  const grid = Array.from(config.workloadGrid);
  // Cumulative integrals at the slice ends τ_b = t0 + b·Δ, b = 1..B−1, then at the window end.
  const slice = (tEnd - t0) / batches;
  const cumQueue: number[] = [0];
  const cumLevels: number[][] = [new Array<number>(maxLevel + 1).fill(0)];
  const cumWork: number[] = [0];
  const cumAbove: number[][] = [grid.map(() => 0)];
  const levelAreas = () => Array.from({ length: maxLevel + 1 }, (_, i) => (i < occupancy.area.length ? occupancy.area[i] : 0));
  const queueArea = () => {
    let q = 0;
    for (let i = 1; i < occupancy.area.length; i++) q += occupancy.area[i];
    return q;
  };
  const events = withEngine(kind, config, state, (engine) => {
    recorder?.watch(engine, config.layout?.invSpeed);
    for (let b = 1; b < batches; b++) {
      const tau = t0 + b * slice;
      engine.run(tau);
      occupancy.end(tau);
      work.end(tau);
      cumQueue.push(queueArea());
      cumLevels.push(levelAreas());
      cumWork.push(work.area);
      cumAbove.push(Array.from(work.areaAbove));
    }
    engine.run(Infinity);
    return engine.events;
  });
  if (measurement.completed !== jobs)
    throw new InvalidModelError(`replay ended with ${measurement.completed} of ${jobs} measured jobs completed`);
  cumQueue.push(queueArea());
  cumLevels.push(levelAreas());
  cumWork.push(work.area);
  cumAbove.push(Array.from(work.areaAbove));
  const windowLength = measurement.windowEnd - measurement.windowStart;
  const norm = (x: number) => x / (config.n * slice);
  // every interval intersected with what the true value can be (as in simulate): coverage is unchanged
  const timeEstimate = (cum: number[], upper = Infinity) =>
    feasible(
      batchEstimate(
        cum.slice(1).map((c, b) => norm(c - cum[b])),
        cum[batches] / (config.n * windowLength),
      ),
      0,
      upper,
    );

  // Customer averages by job batches (arrival order), then quantiles (which reorder the responses in place).
  const responses = measurement.responses;
  let records: ReplayResult['records'];
  if (recorder) {
    records = collectRecords(
      recorder,
      Float64Array.from(responses),
      windowLength,
      config.discipline === 0,
      predictionColumn(model, config.predKind),
      sizes.slice(warmupJobs),
    );
  }
  const bounds = Array.from({ length: batches + 1 }, (_, b) => Math.floor((b * jobs) / batches));
  const batchT: number[] = [];
  const batchS: number[] = [];
  let offered = 0;
  let zeroSizeJobs = 0;
  for (let b = 0; b < batches; b++) {
    let sumT = 0;
    let sumS = 0;
    let countS = 0;
    for (let k = bounds[b]; k < bounds[b + 1]; k++) {
      const r = responses[k];
      const s = sizes[warmupJobs + k];
      sumT += r;
      offered += s;
      if (s > 0) {
        sumS += r / s;
        countS++;
      } else zeroSizeJobs++;
    }
    batchT.push(sumT / (bounds[b + 1] - bounds[b]));
    batchS.push(countS > 0 ? sumS / countS : 0);
  }
  const ps = [0.5, 0.95, 0.99];
  // pooled percentiles (on a copy: quantiles reorders) with the batches' cdf interval inverted through the pooled
  // quantile function (stats/tInterval.ts cdfSectioningInterval, Woodruff 1952); lag1 of the batches' fractions
  const pooled = responses.slice(0, jobs);
  const pooledQ = quantiles(pooled, jobs, ps);
  const batchJobs = bounds.slice(0, batches).map((lo, b) => bounds[b + 1] - lo);
  const fractionsAt = ps.map((_, i) =>
    bounds.slice(0, batches).map((lo, b) => {
      let below = 0;
      for (let k = lo; k < bounds[b + 1]; k++) if (responses[k] <= pooledQ[i]) below++;
      return below / (bounds[b + 1] - lo);
    }),
  );
  const percentile = (i: number): BatchEstimate => {
    const fractions = fractionsAt[i];
    const e = cdfSectioningInterval(fractions, batchJobs, pooledQ[i], ps[i], (levels) => quantiles(pooled, jobs, levels));
    return feasible({ ...e, lag1: batchLag1(fractions) }, 0);
  };
  // an interval open at an end says why, in simulate's words, naming replay's units: batches (of batch means); few
  // batches say what they cannot check; no interval (too few jobs): the reason alone, the 2 batches were not a choice
  const notes =
    noInterval !== undefined
      ? [noInterval]
      : [
          ...openEndNotes(
            ps.map((p, i) => ({ name: percentileName(p), fractions: fractionsAt[i], jobs: batchJobs, p })),
            0.95,
            'batches',
          ),
          ...[fewBatchesNote(batches) ?? []].flat(),
        ];
  // too few jobs for an interval: the pooled means alone, dropped here so that no caller can print a stand-in interval
  const bare = <E extends BatchEstimate>(e: E): E => (noInterval === undefined ? e : { ...withoutInterval(e), lag1: Number.NaN });
  const wallSeconds = (performance.now() - started) / 1000;
  return {
    meanResponseTime: bare(feasible(batchEstimate(batchT, measurement.sumResponse / measurement.completed), 0)),
    meanSlowdown: bare(
      feasible(batchEstimate(batchS, measurement.sumSlowdown / measurement.slowdownJobs), measurement.slowdownJobs > 0 ? 1 : 0),
    ), // T ≥ S
    ...(noInterval === undefined ? {} : { noInterval }),
    zeroSizeJobs,
    responseTimePercentiles: { p50: bare(percentile(0)), p95: bare(percentile(1)), p99: bare(percentile(2)) },
    notes,
    meanQueueLength: bare(timeEstimate(cumQueue)),
    // a level no batch reached (a point no batch's workload exceeded) is [0, upper end of the one before], not [0, 0]
    tail: monotoneFractions(
      Array.from({ length: maxLevel + 1 }, (_, i) =>
        bare(
          timeEstimate(
            cumLevels.map((a) => a[i]),
            1,
          ),
        ),
      ),
      1,
      1,
    ),
    meanWorkload: bare(timeEstimate(cumWork)),
    ...(grid.length === 0
      ? {}
      : {
          workloadCcdf: {
            grid,
            ccdf: monotoneFractions(
              grid.map((_, k) =>
                bare(
                  timeEstimate(
                    cumAbove.map((a) => a[k]),
                    1,
                  ),
                ),
              ),
            ),
          },
        }),
    windowLoad: offered / (config.n * windowLength),
    jobs,
    warmupJobs,
    batches: noInterval === undefined ? batches : null,
    window: [measurement.windowStart, measurement.windowEnd],
    events,
    eventsPerSecond: wallSeconds > 0 ? events / wallSeconds : Infinity,
    wallSeconds,
    n: config.n,
    maxLevel,
    seed: { master, stream: '0x' + seed.toString(16).padStart(16, '0') },
    engine: kind,
    provenance: {
      // the trace gives the sizes and the arrival times (and the predictions when it carries them): not the model's laws
      model: { ...given, service: 'trace', arrivals: 'trace', prediction: predictions === undefined ? given.prediction : 'trace' },
      version: VERSION,
      code: codeId(),
      method: `trace replay, ${kind === 'event' ? 'FIFO event' : kind} engine, ${noInterval === undefined ? `batch means (${batches} batches)` : 'no interval (too few jobs)'}`,
    },
    ...(records ? { records } : {}),
  };
}
