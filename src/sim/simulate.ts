/**
 * Finite-n simulation of the supermarket model (every selection rule, discipline, size law and prediction model
 * of theory.md §1) with independent replications (or one long run cut into batches) and Student-t intervals;
 * optionally run until a precision target is met (as JMT does); the warm-up checked by MSER-5; response-time
 * quantiles pooled over all measured jobs with sectioning intervals; intervals kept inside the parameter space;
 * means that are infinite in theory flagged (model/moments.ts).
 * Source: theory.md §1 (model), §8 (estimands, warm-up, replications or batch means, heavy tails).
 */
import { InvalidModelError } from '../errors.ts';
import { randomRoutingTwin, refuseUnknownOptions, type SupermarketModel } from '../model/model.ts';
import { VERSION, codeId } from '../version.ts';
import type { Engine, EngineKind, RunConfig } from './core.ts';
import { EventEngine } from './engine.ts';
import type { ClassSummary } from './serverClasses.ts';
import {
  estimandFiniteness,
  precisionRefusal,
  responseTimeLowerBound,
  type EstimandFiniteness,
  type Finiteness,
} from '../model/moments.ts';
import { serviceDistribution, timeUnit } from '../model/service/index.ts';
import { unsettledObject, type InfiniteEstimateJson } from '../io/jsonText.ts';
import { batchLag1, fewBatchesNote } from '../stats/batchMeans.ts';
import { batchMeansOf, headTailMeans, mser } from '../stats/mser.ts';
import { studentTwoSidedPValue } from '../stats/hypothesis.ts';
import {
  addBucketSpan,
  bucketSpan,
  groupByHighBits,
  locateQuantiles,
  percentileName,
  pooledQuantiles,
  pooledQuantilesAndFractions,
  quantiles,
  RADIX,
  type BucketSpan,
  type QuantileLocation,
} from '../stats/quantile.ts';
import {
  feasible,
  monotoneFractions,
  unresolvedFraction,
  infiniteEstimate,
  unsettledEstimate,
  oneInterval,
  precisionReached,
  unmetTargets,
  cdfSectioningInterval,
  cdfSectioningLevels,
  openEndNotes,
  tInterval,
  type Estimate,
  type PrecisionTarget,
} from '../stats/tInterval.ts';
import { initialCounts, initialState } from './initialState.ts';
import { Measurement, batchMeansAndHistogram } from './measurement.ts';
import { recycle, takeFloat32, takeFloat64, takeInt32, takeUint16 } from './buffers.ts';
import { checkEventBudget, expectedEvents, heavyTailBudgetWarnings } from './budget.ts';
import { integerOption, resolveEngine, resolveRunConfig, seedOption, type EngineChoice } from './options.ts';
import { PriorityEngine } from './priorityEngine.ts';
import { RedundancyEngine } from './redundancyEngine.ts';
import { RaceEngine } from './race.ts';
import { SharingEngine, isSharing } from './sharingEngine.ts';
import { observeMemory, type MemoryObservation } from './memory.ts';
import { Rng, streamSeed } from '../stats/rng.ts';

/**
 * Fewest units (replications or batches) before a precision target may stop a run. A sequential rule that stops the
 * first time h ≤ target favours draws whose sample variance came out small: with 5 replications the README's
 * example stopped on an interval that excluded the refined value. From 10 units on, s² has ≥ 9 degrees of freedom
 * (t_{0.975,9} = 2.26 against 2.78 at 4) and the early-stopping bias of the interval is small (Chow and Robbins 1965:
 * the fixed-width rule is asymptotically consistent as the target shrinks; Law, Simulation Modeling and Analysis,
 * §9.4.1, advises n₀ ≥ 10). theory.md §8 "Sequential stopping".
 */
export const MIN_SEQUENTIAL_UNITS = 10;

/**
 * Fewest jobs beyond a percentile in each section (replication or batch) of its sectioning interval. With fewer, the
 * sections' quantiles are few-order-statistic estimates, skewed and biased, and the t interval over them undercovers:
 * M/M/1 λ = 0.8, p99 (T ~ Exp(0.2), truth ln(100)/0.2), scripts/quantile-coverage.ts: 81.5 % at 5 × 2000 jobs (20
 * beyond p99 per section, 400 seeds), 74.5 % at 30 batches × 2000 (200 seeds), 89.5 % at 5 × 10 000 (100 beyond, 400
 * seeds: the 100 used before was too few); 94.3 % at 5 × 20 000 (200 beyond, 1000 seeds), 94.5 % at 30 batches ×
 * 20 000 (200 seeds), 95.0 % at 5 × 50 000 — with the sections' own quantiles; with the cdf inversion now used
 * (`cdfSectioningInterval`, 200 seeds) 92.0 % at 5 × 2000 and at 30 batches × 2000, 95.5 % at 5 × 10 000. Kept at 200
 * until more seeds confirm the short budgets. theory.md §8 "Quantiles".
 */
export const MIN_TAIL_JOBS_PER_SECTION = 200;

/**
 * The reported percentile (p50, p95, p99) whose sections are shortest against `MIN_TAIL_JOBS_PER_SECTION`, and the
 * jobs per section it needs, or null when every section is long enough. @param jobs jobs per replication (or batch).
 */
export function percentileSectionShortfall(jobs: number): { readonly p: number; readonly jobs: number } | null {
  for (const p of [0.99, 0.95, 0.5]) {
    if (jobs * (1 - p) < MIN_TAIL_JOBS_PER_SECTION) return { p, jobs: Math.ceil(MIN_TAIL_JOBS_PER_SECTION / (1 - p) - 1e-9) };
  }
  return null;
}

/**
 * What simulate warns of the sectioning interval of percentile `p` when each section (replication or batch) holds
 * fewer than `MIN_TAIL_JOBS_PER_SECTION` jobs beyond it: the coverage measured and the jobs it needs; undefined when
 * the sections are long enough. Said by simulate for the shortest of p50, p95, p99 (`percentileSectionShortfall`), and
 * by conjecture beside each simulated percentile it rests a verdict on.
 * @param jobs jobs per section. @param unit what a section is. @param p the percentile, in (0, 1).
 */
export function percentileSectionWarning(jobs: number, unit: 'replication' | 'batch', p: number): string | undefined {
  if (!(jobs * (1 - p) < MIN_TAIL_JOBS_PER_SECTION)) return undefined;
  const need = Math.ceil(MIN_TAIL_JOBS_PER_SECTION / (1 - p) - 1e-9);
  const name = percentileName(p);
  return (
    `percentile intervals: each ${unit} (a section of the ${name} interval) holds ${jobs} jobs, ` +
    `${Math.round(jobs * (1 - p))} beyond ${name}, fewer than ${MIN_TAIL_JOBS_PER_SECTION}: the sectioning interval covers ` +
    `well below 95 % there (M/M/1 λ = 0.8: 82 % at 5 × 2000 jobs, 75 % at 30 batches × 2000, 90 % at 5 × 10 000; 94 % at 5 × 20 000); ` +
    `use --jobs ≥ ${need} for the ${name} interval (scripts/quantile-coverage.ts)`
  );
}

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
  /**
   * Start of every replication (and of a batch-means run): absent, empty; else `from`, a tail s_0..s_K (s_0 = 1,
   * non-increasing, in [0, 1]): round(n·s_i) servers hold ≥ i jobs, never measured, sizes drawn from the service law
   * on the unit's own stream (`initialState`). `name` says what the tail is ('fixed-point': `simulationWarmup` with
   * that start gives both); recorded in the result.
   */
  start?: SimulationStartState;
  /** Largest run accepted, in expected events over all replications (default MAX_EVENTS = 2e10). */
  maxEvents?: number;
  /** Highest level i whose tail fraction s_i is reported (default 30). */
  maxLevel?: number;
  /**
   * 'auto' (default): the race fast path when exact, else the event engine of the discipline ('event' for FIFO,
   * 'priority' otherwise); 'event' picks the discipline's event engine; 'priority' forces the priority engine.
   */
  engine?: EngineChoice;
  /**
   * Workload levels w (increasing, ≥ 0) for the time-average ccdf P(U > w); event engines only (refused where the run takes the race engine). Default:
   * 0, 0.25, …, 10 (× E[S]) for LWL and LPW, none otherwise.
   */
  workloadGrid?: number[];
  /** Called every 2^20 events with the events done and an estimate of the total (all replications). */
  onProgress?: (doneEvents: number, totalEventsEstimate: number) => void;
  /**
   * 'replications' (default): independent runs, each with its own warm-up and stream `streamSeed(seed, r)`.
   * 'batch-means': one long run (stream `streamSeed(seed, 0)`, one warm-up) cut into `batches` consecutive batches of
   * `jobs` measured jobs; each batch's jobs are followed to their departure before the next batch opens, so batches
   * are separated by that drain (spaced batch means). Intervals are Student t over the batch values; the lag-1
   * autocorrelation of the batch means of E[T] and E[Q] is reported and should be < 0.2 (theory.md §8).
   */
  method?: 'replications' | 'batch-means';
  /** Batches of a batch-means run, integer ≥ 2 (default 30). */
  batches?: number;
  /**
   * Precision target for E[T] (relative h/x̄ and/or absolute h): after the first `replications` (or `batches`) units,
   * units are added one at a time (replication r always uses `streamSeed(seed, r)`; a batch-means run goes on)
   * until the 95 % interval of E[T] meets it or the budget ends (`maxReplications` units, or `maxEvents`). The rule
   * is applied only from `MIN_SEQUENTIAL_UNITS` units on (a lucky early draw cannot stop the run).
   */
  precision?: PrecisionTarget;
  /** Most units (replications or batches) of a precision-driven run (default 200). */
  maxReplications?: number;
  /** Relaxation time τ of the model (time units), for the heavy-tail rule of ≥ 100τ per replication; optional. */
  relaxationTime?: number;
}

/** A start state of `SimulateOptions.start`: its name and tail s_0..s_K. */
export interface SimulationStartState {
  readonly name: string;
  readonly from: readonly number[];
}

/** MSER-5 truncation of one unit's response times (in arrival order; completion order for the race engine). */
export interface MserCheck {
  /** Measured jobs MSER-5 would discard after the warm-up (d*·5, in jobs; d* over the first half, stats/mser.ts). */
  truncatedJobs: number;
  /** truncatedJobs/jobs (≤ 0.5). */
  fraction: number;
  /** truncatedJobs/(λn): the same in time units after the warm-up. */
  truncatedTime: number;
  /** MSER-5's minimum sits on the half (`mser` tooShort): the run is too short to confirm the warm-up. */
  tooShort: boolean;
}

/**
 * Head–tail (Geweke-style) test of the warm-up across units (theory.md §8 "Warm-up"): per unit, the mean response time
 * over the first 10 % of its measured jobs against that over the last 50 %; the differences' Student t across the
 * replications (batch means: the first batch's head against the later half of the batches, the batch means' spread
 * scaled to the head's length). A warm-up that is too short leaves the head apart from the tail in every unit alike.
 */
export interface InitialBiasCheck {
  /** Mean over the units of their head means (first 10 % of the kept jobs), time units. */
  head: number;
  /** Mean over the units of their tail means (last 50 % of the kept jobs), time units. */
  tail: number;
  /** head − tail, time units (negative: the head is low, as after an empty start). */
  difference: number;
  /** Student t of the difference. */
  t: number;
  degreesOfFreedom: number;
  /** Two-sided p-value of t. */
  p: number;
  /** The test's level (`INITIAL_BIAS_LEVEL`). */
  level: number;
  /** p < level: the head differs from the tail. */
  significant: boolean;
  /**
   * Jobs left out at each end of each unit's series before the windows: ≈ 5·E[T]·λn departures for the race engine,
   * whose series is in completion order (its first departures are the short jobs, its last the long ones); 0 otherwise.
   */
  trimmedJobs: number;
}

/** Level of the head–tail test of the warm-up (`InitialBiasCheck`, theory.md §8). */
export const INITIAL_BIAS_LEVEL = 0.05;

/** Response times E[T] of departures the race engine's head–tail windows leave out at each end (×λn, theory.md §8). */
const RACE_TRIM_RESPONSE_TIMES = 5;

/** Outcome of a precision-driven run. */
export interface PrecisionOutcome {
  target: PrecisionTarget;
  /** 'precision' when the interval of E[T] met the target, 'budget' when maxReplications or maxEvents ended the run. */
  stoppedBy: 'precision' | 'budget';
  /** Half-width and relative half-width of E[T] reached. */
  achieved: { halfWidth: number; relative: number };
  /** Units run (replications or batches). */
  units: number;
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
  /** With a dispatcher memory (theory.md §12): fraction of measured arrivals that found it empty (observed π₀), and probes per arrival. */
  memory?: MemoryObservation;
  /** Heterogeneous servers (theory.md §13): per class, its busy fraction, E[T] of the jobs it served and their number. */
  classes?: ClassSummary[];
  /** Redundancy-d (theory.md §16): mean service the measured jobs' replicas received, cancelled ones' part included. */
  workPerJob?: number;
}

/**
 * The probabilities at which a run reports its pooled response-time quantiles as an empirical ccdf
 * (`SimulationResult.responseTimeCcdf`): 0.02 … 0.98 by 0.02, then 0.99, 0.995, 0.999.
 */
export const CCDF_PROBABILITIES: readonly number[] = [
  ...Array.from({ length: 49 }, (_, k) => +(0.02 * (k + 1)).toFixed(2)),
  0.99,
  0.995,
  0.999,
];

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
  /**
   * p50, p95, p99 of the response time: the type-7 quantile of all measured jobs pooled (a systematic sample when a
   * run has more than the pool holds), with a sectioning interval that inverts the cdf's: the R units' fractions of
   * jobs ≤ the pooled percentile give p ± t_{R−1}·s/√R, mapped back through the pooled quantile function
   * (`cdfSectioningInterval`, Woodruff 1952; not symmetric, halfWidth is half its length). Pooling removes the
   * O(1/jobs) bias that averaging per-unit quantiles carries; the units' own quantiles (Asmussen & Glynn 2007,
   * §III.5a) understated the spread of clustered tails (M/M/1 λ = 0.9, 5 × 20 000 jobs: p99 covered 86 %).
   */
  responseTimePercentiles: Percentiles<Estimate>;
  /**
   * The empirical response-time ccdf of the pooled jobs, as quantiles: P(T > t[k]) = 1 − p[k] at the type-7 pooled
   * quantile t[k] of each p of `CCDF_PROBABILITIES` (point values, no intervals; the judged p50/p95/p99 have theirs).
   */
  responseTimeCcdf: { p: number[]; t: number[] };
  /** Time-average workload per server E[U] (absent for the race engine). */
  meanWorkload?: Estimate;
  /** Time-average workload ccdf: ccdf[k] = P(U > grid[k]) (when a grid was given, or by default for LWL/LPW). */
  workloadCcdf?: { grid: number[]; ccdf: Estimate[] };
  /** With a dispatcher memory (theory.md §12): the observed π₀ (arrivals finding it empty) and probes per arrival, over units. */
  memory?: { emptyFraction: Estimate; probesPerArrival: Estimate };
  /**
   * Heterogeneous servers (theory.md §13), per class in model order: speed, fraction, the time-average busy fraction
   * and the mean response time of the jobs it served (each over units), and the measured jobs it served (all units).
   */
  classes?: ClassEstimate[];
  /**
   * Heterogeneous servers: the work served per server per time unit, Σ_c f_c·speed_c·busy_c, over units (each unit's
   * own sum); in steady state it equals λ·E[S] (work conservation, theory.md §13).
   */
  workRate?: Estimate;
  /**
   * Redundancy-d (theory.md §16): the work per job E[W] (service its replicas received) and the busy fraction s₁;
   * replicas make s₁ = λ·E[W] exceed λE[S] (identical replicas) or differ from it (independent ones).
   */
  redundancy?: { workPerJob: Estimate; busyFraction: Estimate };
  events: number;
  eventsPerSecond: number;
  wallSeconds: number;
  warmupTime: number;
  /** Where every unit started: `{ name: 'empty' }`, or the name and tail of `SimulateOptions.start`. */
  start: { readonly name: string; readonly from?: readonly number[] };
  jobs: number;
  n: number;
  maxLevel: number;
  /** Master seed and the derived 64-bit stream seeds (hex strings), one per replication. */
  seeds: { master: number; replications: string[] };
  engine: EngineKind;
  /**
   * One entry per unit: replication, or batch of a batch-means run. Each unit's own sample averages (finite by
   * construction even where the mean is infinite in theory, like `sampleMean`): data, not estimates of the mean.
   */
  perReplication: ReplicationResult[];
  /** What produced the result: the model, the package version, the code identity (runs/codeIdentity.ts), the method and the random streams. */
  provenance: { model: SupermarketModel; version: string; code: string; method: string; rng: string };
  /** How the intervals were made; `replications` = units behind them. */
  method: 'replications' | 'batch-means';
  replications: number;
  /** Batch-means run: batches and the lag-1 autocorrelation of the batch means (should be < 0.2). */
  batchMeans?: { batches: number; lag1: { meanResponseTime: number; meanQueueLength: number } };
  /** Present when a precision target was given. */
  precision?: PrecisionOutcome;
  /**
   * MSER-5 check of the warm-up: `ensemble` on the unit-averaged batch-5 means of the response time (replications),
   * or on the first batch (batch means); `perUnit` for each replication (the first batch only for batch means).
   */
  warmupCheck: {
    method: 'MSER-5';
    ensemble: MserCheck | null;
    perUnit: (MserCheck | null)[];
    /** The head–tail test across units (null: fewer than 2 units, or under 20 batch-5 means per unit after the trim). */
    initialBias: InitialBiasCheck | null;
  };
  /** Which means are finite in theory (model/moments.ts); an infinite one's estimate is not an estimate of anything. */
  finiteness: EstimandFiniteness;
  /** Heavy-tail, warm-up, batch-correlation and budget warnings, in words (empty when none). */
  warnings: string[];
  /**
   * Output that is right but looks wrong, explained in words (a percentile interval open at an end:
   * stats/tInterval.ts `openEndNote`; few batch means: stats/batchMeans.ts `fewBatchesNote`); empty or absent when none. Unlike `warnings`, nothing to act on.
   */
  notes?: string[];
}

/** Most response times pooled over all units for the percentiles (float32: 64 MB). */
export const POOLED_SAMPLE_CAP = 1 << 24;
/** MSER-5 warns when the truncation is beyond this fraction of the measured window (theory.md §8). */
export const MSER_MARGIN = 0.05;
/** Largest acceptable lag-1 autocorrelation of batch means (theory.md §8). */
export const MAX_BATCH_LAG1 = 0.2;

/**
 * Builds the engine of the given kind over `state`, hands it to `use` and releases it when `use` returns or throws
 * (`Engine.release`: the race engine's kernel memory goes back to this thread for the next run; the state stays
 * readable). The engine must not be kept past `use`.
 */
export function withEngine<T>(kind: EngineKind, config: RunConfig, state: ReturnType<typeof initialState>, use: (engine: Engine) => T): T {
  const engine = createEngine(kind, config, state);
  try {
    return use(engine);
  } finally {
    engine.release?.();
  }
}

/** Builds the engine of the given kind over a fresh state (the caller releases it; see `withEngine`). */
export function createEngine(kind: EngineKind, config: RunConfig, state: ReturnType<typeof initialState>): Engine {
  switch (kind) {
    case 'race':
      return new RaceEngine(config, state);
    case 'priority':
      if (isSharing(config.discipline))
        throw new InvalidModelError('the priority engine runs no sharing discipline (ps, las); use engine "event"');
      return new PriorityEngine(config, state);
    case 'sharing':
      return new SharingEngine(config, state);
    case 'redundancy':
      return new RedundancyEngine(config, state, config.identicalReplicas);
    case 'event':
      if (config.discipline !== 0) throw new InvalidModelError('the FIFO event engine runs only discipline "fifo"; use engine "priority"');
      // server speeds: FIFO runs on the priority engine (a job stored as S/speed; resolveEngine picks it)
      if (config.layout !== undefined)
        throw new InvalidModelError('the FIFO event engine runs identical servers; server speeds run on the priority engine');
      return new EventEngine(config, state);
    default: {
      const never: never = kind;
      throw new InvalidModelError(`unknown engine ${String(never)}`);
    }
  }
}

/** The engine's method in words (provenance). */
export function engineMethod(kind: EngineKind): string {
  switch (kind) {
    case 'event':
      return 'discrete-event, FIFO (binary heap of clocks)';
    case 'priority':
      return 'discrete-event, priority queues per server (indexed heap of clocks, preemptive-resume)';
    case 'sharing':
      return 'discrete-event, sharing servers (PS: virtual time and a heap per server; LAS: attained-service groups)';
    case 'race':
      return 'exponential race';
    case 'redundancy':
      return 'discrete-event, redundancy-d cancel-on-complete (FIFO rings, replicas removed at the first completion)';
    default: {
      const never: never = kind;
      return never;
    }
  }
}

/** The response-time percentiles each unit reports (`ReplicationResult.responseTimePercentiles`). */
const UNIT_PERCENTILES: readonly number[] = [0.5, 0.95, 0.99];

/**
 * Summary of one finished run's measurement (customer and time averages).
 * @param percentiles the run's p50, p95, p99 when the caller has them (or fills them in later); absent, the type-7
 *   quantiles of its response times.
 */
export function summariseRun(
  state: ReturnType<typeof initialState>,
  engine: Engine,
  lambda: number,
  percentiles?: { p50: number; p95: number; p99: number },
) {
  const m = state.measurement;
  const window = m.windowEnd - m.windowStart;
  const [p50, p95, p99] =
    percentiles === undefined ? quantiles(m.responses, m.sampled, UNIT_PERCENTILES) : [percentiles.p50, percentiles.p95, percentiles.p99];
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
    // the race draws no sizes; under redundancy the work a server holds is not its drain time (replicas are removed)
    meanWorkload: engine.kind === 'race' || engine.kind === 'redundancy' ? NaN : w.area / (w.n * window),
    workloadCcdf: engine.kind === 'race' || engine.kind === 'redundancy' ? [] : Array.from(w.areaAbove, (x) => x / (w.n * window)),
    // Little per server: jobs λ (replicas λd under redundancy: every replica of a job leaves at its response time)
    littleResponseTime: state.occupancy.meanQueueLength(window) / (lambda * (engine.replicaWork?.replicas ?? 1)),
    ...(engine.memory === undefined ? {} : { memory: observeMemory(engine.memory) }),
    ...(engine.classes === undefined ? {} : { classes: engine.classes.summary(window) }),
    ...(engine.replicaWork === undefined ? {} : { workPerJob: engine.replicaWork.sumWork / engine.replicaWork.jobs }),
  };
}

/** One server class's results over the units of a run (theory.md §13). */
export interface ClassEstimate {
  speed: number;
  fraction: number;
  busyFraction: Estimate;
  meanResponseTime: Estimate;
  jobs: number;
}

/** What one unit (replication or batch) leaves behind. */
interface UnitOutcome {
  summary: ReplicationResult;
  tail: number[];
  /**
   * Systematic sample of its response times, for the pooled percentiles: float32 values, or with `histogram` the
   * whole sample grouped by bucket (`groupByHighBits`: the low 16 bits of each value's key).
   */
  sample: Float32Array | Uint16Array;
  /** Its batch-5 means of the response time, in run order (for MSER-5). */
  batch5: Float64Array;
  /**
   * When the sample is all of the unit's response times: its `radixHistogram` (counted once for its own percentiles
   * and the pooled ones) as a `bucketSpan`, the sample then grouped by bucket (`groupByHighBits`).
   */
  histogram?: BucketSpan;
  /** With `histogram`: where its own p50, p95, p99 lie in it (`ReplicationPart.percentileRanks`). */
  percentileRanks?: QuantileLocation;
}

/**
 * Systematic sample of at most `cap` of values[0..count), as float32. A float32 prefix that fits is returned as a
 * view, not copied: the unit's measurement is not reused, and float32 quantiles do not reorder it.
 */
function systematicSample(values: Float32Array | Float64Array, count: number, cap: number): Float32Array {
  if (count <= cap && values instanceof Float32Array) return values.subarray(0, count);
  const stride = Math.max(1, Math.ceil(count / cap));
  const out = takeFloat32(Math.ceil(count / stride));
  for (let i = 0, k = 0; i < count; i += stride, k++) out[k] = values[i];
  return out;
}

/** Reads one finished unit: MSER series and pooled sample first (float64 quantiles reorder `responses`), then the summary. */
function readUnit(
  state: ReturnType<typeof initialState>,
  engine: Engine,
  lambda: number,
  maxLevel: number,
  sampleCap: number,
): UnitOutcome {
  const m = state.measurement;
  const values = systematicSample(m.responses, m.sampled, sampleCap);
  let sample: Float32Array | Uint16Array = values;
  // A float32 sample that is the whole prefix responses[0..sampled): one counting pass serves its percentiles and the
  // pooled ones; it is read together with the batch-5 means (`batchMeansAndHistogram`: the same numbers).
  const whole = values.buffer === m.responses.buffer && values.length === m.sampled && m.sampled > 0;
  let batch5: Float64Array;
  let histogram: BucketSpan | undefined;
  let percentileRanks: QuantileLocation | undefined;
  if (whole) {
    batch5 = takeFloat64(Math.floor(m.sampled / 5));
    const high = takeInt32(RADIX);
    batchMeansAndHistogram(values, m.sampled, 5, batch5, high);
    // its own percentiles are picked out in the collector's one pass over the pooled samples (NaN until then)
    percentileRanks = locateQuantiles(m.sampled, UNIT_PERCENTILES, high);
    // grouped by bucket here, the collector copies the few buckets its selections need where it read every value
    // (two passes over the pooled sample in the thread that pools it, often the pool's main thread); as 16-bit lows,
    // half the bytes: what a pool's main thread receives is external memory that V8 answers with full GCs
    sample = groupByHighBits(values, high, takeUint16(m.sampled));
    histogram = bucketSpan(high);
    recycle(high);
  } else {
    batch5 = batchMeansOf(m.responses, m.sampled, 5, takeFloat64);
  }
  const pending = percentileRanks === undefined ? undefined : { p50: NaN, p95: NaN, p99: NaN };
  const { littleResponseTime: _little, ...summary } = summariseRun(state, engine, lambda, pending);
  // the responses are read (summary, sample); a sample that is a copy leaves the buffer free now
  if (sample.buffer !== m.responses.buffer) recycle(m.responses);
  return {
    summary,
    tail: state.occupancy.tail(maxLevel, summary.window),
    sample,
    batch5,
    histogram,
    ...(percentileRanks === undefined ? {} : { percentileRanks }),
  };
}

/*
 * The collector's loops over whole arrays are functions of their own: in the bodies of `add` and `result`, V8 (Node 20)
 * compiled them on stack replacement in the first unit and deoptimised right after them (the code that follows had no
 * type feedback yet), re-entering that code on later calls (node --trace-deopt on a simulate run).
 */

/** into[i] += from[i] for i < len (float64: the batch-5 series; one element type a function, so the loads stay monomorphic). */
function addAll(into: Float64Array, from: Float64Array, len: number): void {
  for (let i = 0; i < len; i++) into[i] += from[i];
}

/** a[i] /= by for every i. */
function divideAll(a: Float64Array, by: number): void {
  for (let i = 0; i < a.length; i++) a[i] /= by;
}

/** MSER-5 on a batch-5 series, in jobs and time units after the warm-up (null when the series is too short). */
function mserCheck(batch5: ArrayLike<number>, stride: number, jobs: number, systemRate: number): MserCheck | null {
  if (batch5.length < 3) return null;
  const r = mser(batch5, 5);
  const truncatedJobs = r.truncation * stride;
  return { truncatedJobs, fraction: r.fraction, truncatedTime: truncatedJobs / systemRate, tooShort: r.tooShort };
}

/** A unit's head and tail means for the head–tail test (`InitialBiasCheck`), with the jobs trimmed at each end. */
interface UnitHeadTail {
  head: number;
  tail: number;
  /** Jobs in the head window. */
  headJobs: number;
  trimmedJobs: number;
}

/**
 * A unit's head–tail means from its batch-5 series: the race engine's series is in completion order, so ≈ 5·E[T]·λn
 * departures (E[T] the unit's own mean) are left out at each end first. Null when the series is too short.
 */
function unitHeadTail(batch5: ArrayLike<number>, stride: number, kind: EngineKind, meanT: number, systemRate: number): UnitHeadTail | null {
  const trimJobs = kind === 'race' && Number.isFinite(meanT) ? RACE_TRIM_RESPONSE_TIMES * meanT * systemRate : 0;
  const trim = Math.ceil(trimJobs / (5 * stride));
  const r = headTailMeans(batch5, trim);
  return r === null ? null : { head: r.head, tail: r.tail, headJobs: r.headCount * 5 * stride, trimmedJobs: trim * 5 * stride };
}

/**
 * The head–tail test across units. Replications: t of the units' differences head − tail (R − 1 degrees of freedom).
 * Batch means (`first` the first batch's head–tail, `batchMeans` every batch's mean response time): the first batch's
 * head against the mean of the later half of the batches, with variance s²·(jobs/headJobs + 1/k) from the spread s² of
 * the batches after the first (R − 2 degrees of freedom; a mean over fewer jobs varies at most that much more when
 * the response times are positively correlated).
 */
function initialBiasTest(
  units: (UnitHeadTail | null)[],
  batch: { means: number[]; jobs: number } | null,
  level = INITIAL_BIAS_LEVEL,
): InitialBiasCheck | null {
  const ok = units.filter((u): u is UnitHeadTail => u !== null);
  let head: number;
  let tail: number;
  let se: number;
  let dof: number;
  if (batch === null) {
    if (ok.length < 2 || ok.length < units.length) return null;
    const diffs = ok.map((u) => u.head - u.tail);
    const R = diffs.length;
    const mean = diffs.reduce((a, b) => a + b, 0) / R;
    const s2 = diffs.reduce((a, b) => a + (b - mean) ** 2, 0) / (R - 1);
    head = ok.reduce((a, u) => a + u.head, 0) / R;
    tail = ok.reduce((a, u) => a + u.tail, 0) / R;
    se = Math.sqrt(s2 / R);
    dof = R - 1;
  } else {
    const later = batch.means.slice(1);
    if (ok.length !== 1 || later.length < 2) return null;
    const k = Math.max(1, Math.floor(batch.means.length / 2));
    const tailMeans = batch.means.slice(batch.means.length - k);
    head = ok[0].head;
    tail = tailMeans.reduce((a, b) => a + b, 0) / k;
    const m = later.reduce((a, b) => a + b, 0) / later.length;
    const s2 = later.reduce((a, b) => a + (b - m) ** 2, 0) / (later.length - 1);
    se = Math.sqrt(s2 * (batch.jobs / ok[0].headJobs + 1 / k));
    dof = later.length - 1;
  }
  const difference = head - tail;
  const t = se > 0 ? difference / se : difference === 0 ? 0 : Math.sign(difference) * Infinity;
  const p = studentTwoSidedPValue(t, dof);
  return {
    head,
    tail,
    difference,
    t,
    degreesOfFreedom: dof,
    p,
    level,
    significant: p < level,
    trimmedJobs: Math.max(...ok.map((u) => u.trimmedJobs)),
  };
}

/**
 * Validated settings of a `simulate` run (`planSimulation`). `totalEstimate` grows as a precision-driven run goes on
 * (`SimulationCollector.wantsMore`); the rest is fixed.
 */
export interface SimulationPlan {
  model: SupermarketModel;
  options: SimulateOptions;
  config: RunConfig;
  kind: EngineKind;
  jobs: number;
  method: 'replications' | 'batch-means';
  batchMode: boolean;
  /** First units, always run. */
  minUnits: number;
  /** Most units (minUnits without a precision target). */
  maxUnits: number;
  target: PrecisionTarget | undefined;
  maxLevel: number;
  master: number;
  warmupTime: number;
  /** Jobs per level the units start with (`initialCounts` of `options.start`; empty: none). */
  counts: number[];
  /** Expected events of the first minUnits units (`checkEventBudget`). */
  totalEstimate: number;
  eventCap: number;
  /** Most response times kept per unit for the pooled percentiles. */
  sampleCap: number;
  /** performance.now() at planning, for wallSeconds. */
  started: number;
}

/**
 * What one replication (or batch) leaves behind, as plain structured-clonable data: all that `SimulationCollector`
 * needs to build the result (per-unit summary, tail fractions, pooled-percentile sample, MSER-5 series).
 */
export interface ReplicationPart {
  /** Unit index r (stream `streamSeed(master, r)` for replications). */
  index: number;
  /** Stream seed as a 16-digit hex string ('' for the later batches of a batch-means run). */
  seed: string;
  summary: ReplicationResult;
  /** tail[i] = time-average fraction of servers with ≥ i jobs, i = 0..maxLevel. */
  tail: number[];
  /**
   * Systematic sample (≤ plan.sampleCap) of its response times, for the pooled percentiles: float32 values, or with
   * `histogram` the whole sample grouped by bucket, as the low 16 bits of each value's key (`groupByHighBits`; half the
   * bytes to send to the thread that pools it).
   */
  sample: Float32Array | Uint16Array;
  /** Its batch-5 means of the response time, in run order (for the ensemble MSER-5). */
  batch5: Float64Array;
  /** MSER-5 on its own series (null when too short). */
  mser: MserCheck | null;
  /** Its head and tail means for the head–tail test (null when too short; only the first batch of batch means). */
  headTail: UnitHeadTail | null;
  /** Sampling stride of its measurement (jobs per kept response time). */
  stride: number;
  /**
   * `radixHistogram` of `sample` as a `bucketSpan`, when it was counted for the unit's own percentiles (reused for the
   * pooled ones); `sample` is then grouped by bucket (`groupByHighBits`, a Uint16Array of the keys' low 16 bits),
   * which the pooled selection reads run by run.
   */
  histogram?: BucketSpan;
  /**
   * With `histogram`: where the unit's own p50, p95, p99 lie in it (`locateQuantiles`). Its `summary`'s percentiles
   * are then NaN: `SimulationCollector.result` picks them out in its one pass over the pooled samples, where a pass of
   * their own over the unit's response times went before.
   */
  percentileRanks?: QuantileLocation;
}

/** Every field of `SimulateOptions` (the compiler checks the list against the type): another key is refused. */
const SIMULATE_OPTION_KEYS = {
  n: true,
  jobs: true,
  replications: true,
  seed: true,
  warmupTime: true,
  start: true,
  maxEvents: true,
  maxLevel: true,
  engine: true,
  workloadGrid: true,
  onProgress: true,
  method: true,
  batches: true,
  precision: true,
  maxReplications: true,
  relaxationTime: true,
} as const satisfies Record<keyof SimulateOptions, true>;

/**
 * Refuses an option the run would not read, so none is dropped silently (as the CLI refuses such flags): a key that is
 * not a `SimulateOptions` field (`{ replication: 20 }` ran 5), `batches` without `method: 'batch-means'`,
 * `replications` with it (a batch-means run is one long run cut into `batches`), `maxReplications` without a
 * `precision` target. An option given as undefined counts as absent.
 * @throws {InvalidModelError} one line naming the option and why it has no effect.
 */
function refuseIdleSimulateOptions(options: SimulateOptions): void {
  refuseUnknownOptions('simulate', options, SIMULATE_OPTION_KEYS);
  const batchMode = options.method === 'batch-means';
  if (!batchMode && options.batches !== undefined)
    throw new InvalidModelError(`batches acts only with method "batch-means"; drop it or set method: 'batch-means'`);
  if (batchMode && options.replications !== undefined)
    throw new InvalidModelError(
      'replications acts only with method "replications": a batch-means run is one long run cut into batches; drop it or set batches',
    );
  if (options.precision === undefined && options.maxReplications !== undefined)
    throw new InvalidModelError('maxReplications acts only with a precision target; drop it or set precision');
}

/**
 * Validates `simulate`'s options (see `simulate` for the errors) and resolves the run's settings.
 * @throws {InvalidModelError} as `simulate`.
 */
export function planSimulation(given: SupermarketModel, options: SimulateOptions): SimulationPlan {
  // random routing however spelt runs as JSQ(1) (`randomRoutingTwin`): one policy, one engine, the same numbers per seed
  const model = randomRoutingTwin(given) ?? given;
  if (options === null || typeof options !== 'object') throw new InvalidModelError('simulate needs an options object with n');
  refuseIdleSimulateOptions(options);
  const config = resolveRunConfig(model, options.n, { workloadGrid: options.workloadGrid });
  const jobs = integerOption('jobs', options.jobs, 1_000_000, 1);
  const method = options.method ?? 'replications';
  if (method !== 'replications' && method !== 'batch-means')
    throw new InvalidModelError(`method must be "replications" or "batch-means", got ${JSON.stringify(method)}`);
  const batchMode = method === 'batch-means';
  const minUnits = batchMode ? integerOption('batches', options.batches, 30, 2) : integerOption('replications', options.replications, 5, 2);
  const target = options.precision;
  if (target !== undefined) {
    const ok = (x: number | undefined) => x === undefined || (typeof x === 'number' && Number.isFinite(x) && x > 0);
    if (
      target === null ||
      typeof target !== 'object' ||
      !ok(target.relative) ||
      !ok(target.halfWidth) ||
      (target.relative === undefined && target.halfWidth === undefined)
    ) {
      throw new InvalidModelError('precision needs a relative and/or halfWidth target, each a finite number > 0');
    }
    const refusal = precisionRefusal(model);
    if (refusal !== null) throw new InvalidModelError(refusal);
  }
  const maxUnits = target === undefined ? minUnits : integerOption('maxReplications', options.maxReplications, 200, minUnits);
  if (target !== undefined && maxUnits < MIN_SEQUENTIAL_UNITS) {
    throw new InvalidModelError(
      `a precision target is checked from ${MIN_SEQUENTIAL_UNITS} replications (or batches) on; maxReplications must be ≥ ${MIN_SEQUENTIAL_UNITS}, got ${maxUnits}`,
    );
  }
  const maxLevel = integerOption('maxLevel', options.maxLevel, 30, 1);
  const master = seedOption(options.seed);
  const kind = resolveEngine(model, options.engine);
  // the race engine draws no sizes, so it has no workload to read at the grid (its meanWorkload is NaN, its ccdf empty)
  if (kind === 'race' && options.workloadGrid !== undefined)
    throw new InvalidModelError(
      'workloadGrid acts only on the event engines: this run takes the race engine (JSQ + FIFO, exponential sizes), ' +
        "which draws no sizes; drop it or set engine: 'event'",
    );
  const warmupTime = options.warmupTime;
  if (typeof warmupTime !== 'number' || !Number.isFinite(warmupTime) || warmupTime < 0) {
    throw new InvalidModelError(`warmupTime must be a finite number ≥ 0, got ${String(warmupTime)} (simulationWarmup proposes one)`);
  }
  const plan: SimulationPlan = {
    model,
    options,
    config,
    kind,
    jobs,
    method,
    batchMode,
    minUnits,
    maxUnits,
    target,
    maxLevel,
    master,
    warmupTime,
    counts: startCounts(options.start, config.n, kind, model),
    totalEstimate: 0,
    eventCap: options.maxEvents ?? Infinity,
    sampleCap: Math.max(1, Math.floor(POOLED_SAMPLE_CAP / maxUnits)),
    started: performance.now(),
  };
  // Batch means: one warm-up, then batches; the budget of the first minUnits units must fit.
  plan.totalEstimate = checkEventBudget(unitRun(plan, minUnits), options.maxEvents);
  return plan;
}

/**
 * Server counts of a start (`initialCounts`), checked; none for the empty start. The start's jobs are queued FIFO
 * (`initialState`), so only the FIFO event engine and the race engine take one, and no dispatcher memory (it would
 * start out of step with the servers).
 */
function startCounts(start: SimulateOptions['start'], n: number, kind: EngineKind, model: SupermarketModel): number[] {
  if (start === undefined) return [];
  if (start === null || typeof start !== 'object' || typeof start.name !== 'string' || start.name === 'empty' || start.name === '')
    throw new InvalidModelError('start must be { name, from } with a name other than "empty" (leave it out for the empty start)');
  if ((kind !== 'event' && kind !== 'race') || model.memory.kind !== 'none')
    throw new InvalidModelError(
      `a start other than empty needs the FIFO event engine or the race engine and no dispatcher memory, got engine ${kind}${model.memory.kind === 'none' ? '' : ' with memory'}`,
    );
  return initialCounts([...start.from], n);
}

/** The run of the first `units` units, for the event budget. */
function unitRun(plan: SimulationPlan, units: number) {
  const { config, jobs, warmupTime } = plan;
  return plan.batchMode
    ? { lambda: config.lambda, n: config.n, jobs: jobs * units, replications: 1, warmupTime, d: config.d }
    : { lambda: config.lambda, n: config.n, jobs, replications: units, warmupTime, d: config.d };
}

const hexSeed = (seed: bigint | number) => '0x' + seed.toString(16).padStart(16, '0');

/**
 * Runs replications first, …, first + count − 1 of a replications plan (each from empty on its own stream
 * `streamSeed(master, r)`), one after another; the parts do not depend on which call or thread ran them.
 * @param onProgress events done in these replications (every 2^20 events).
 * @throws {InvalidModelError} for a batch-means plan or a range outside [0, maxUnits).
 */
export function runReplications(
  plan: SimulationPlan,
  first: number,
  count: number,
  onProgress?: (doneEvents: number) => void,
): ReplicationPart[] {
  if (plan.batchMode) throw new InvalidModelError('runReplications runs independent replications, not batch means');
  if (!Number.isInteger(first) || !Number.isInteger(count) || first < 0 || count < 0 || first + count > plan.maxUnits)
    throw new InvalidModelError(`replications ${first}..${first + count - 1} are outside 0..${plan.maxUnits - 1}`);
  const { config, kind, jobs, warmupTime, maxLevel, sampleCap } = plan;
  const systemRate = config.lambda * config.n;
  const parts: ReplicationPart[] = [];
  let done = 0;
  for (let u = first; u < first + count; u++) {
    const seed = streamSeed(plan.master, u);
    const measurement = new Measurement(warmupTime, jobs);
    const state = initialState(config, kind, new Rng(seed), measurement, plan.counts);
    const before = done;
    const outcome = withEngine(kind, config, state, (engine) => {
      engine.run(Infinity, onProgress === undefined ? undefined : (d: number) => onProgress(before + d));
      done += engine.events;
      return readUnit(state, engine, config.lambda, maxLevel, sampleCap);
    });
    state.store.recycle(); // read (and, for the race engine, copied back on release): nothing reads it again
    const stride = measurement.stride;
    const headTail = unitHeadTail(outcome.batch5, stride, kind, outcome.summary.meanResponseTime, systemRate);
    parts.push({ index: u, seed: hexSeed(seed), ...outcome, mser: mserCheck(outcome.batch5, stride, jobs, systemRate), headTail, stride });
  }
  return parts;
}

/**
 * Folds the units of a run, in unit order, into `simulate`'s result, and takes the stopping decisions of a
 * precision-driven run: `wantsMore()` before each unit, then `add(part)`; `result()` at the end. Feeding it the parts
 * of the same units gives the same numbers whoever ran them (a pool may run units ahead; the ones after the stop
 * are dropped).
 */
export class SimulationCollector {
  private readonly units: {
    summary: ReplicationResult;
    tail: number[];
    sample: Float32Array | Uint16Array;
    ranks?: QuantileLocation;
    /** The sample's bucket counts when it is grouped by bucket (`ReplicationPart.histogram`). */
    span?: BucketSpan;
  }[] = [];
  private readonly seeds: string[] = [];
  private readonly perUnitMser: (MserCheck | null)[] = [];
  private readonly perUnitHeadTail: (UnitHeadTail | null)[] = [];
  private ensemble: Float64Array | null = null;
  /** Sum of the units' sample histograms (`radixHistogram`), null once a unit came without one. */
  private pooledHistogram: Int32Array | null | undefined = undefined;
  private stride = 1;
  private stoppedBy: 'precision' | 'budget' = 'budget';
  private done = false;
  /** Events of the units added. */
  events = 0;

  constructor(readonly plan: SimulationPlan) {}

  /** Units added so far (the index of the next one). */
  get count(): number {
    return this.units.length;
  }

  /** Expected events of the whole run as known now (grows as a precision-driven run goes on). */
  get totalEstimate(): number {
    return this.plan.totalEstimate;
  }

  /**
   * Whether unit `count` is to be run: always for the first minUnits; then not once the interval of E[T] meets the
   * precision target, or maxUnits or maxEvents would be passed. Idempotent until the next `add`.
   */
  wantsMore(): boolean {
    const plan = this.plan;
    const u = this.units.length;
    if (this.done || u >= plan.maxUnits) return false;
    if (u >= plan.minUnits) {
      if (
        plan.target !== undefined &&
        u >= MIN_SEQUENTIAL_UNITS &&
        precisionReached(tInterval(this.units.map((x) => x.summary.meanResponseTime)), plan.target)
      ) {
        this.stoppedBy = 'precision';
        this.done = true;
        return false;
      }
      const next = expectedEvents(unitRun(plan, u + 1));
      if (next > plan.eventCap) {
        this.done = true;
        return false;
      }
      plan.totalEstimate = Math.max(plan.totalEstimate, next);
    }
    return true;
  }

  /**
   * Most units that may still run if none meets the precision target (budget: maxUnits and maxEvents), for running
   * ahead; needs no results.
   */
  budgetLeft(): number {
    const plan = this.plan;
    let u = this.units.length;
    while (u < plan.maxUnits && (u < plan.minUnits || expectedEvents(unitRun(plan, u + 1)) <= plan.eventCap)) u++;
    return u - this.units.length;
  }

  /**
   * Adds the next unit (index `count`); its batch-5 series is folded into the ensemble and dropped. Takes the part's
   * arrays over: its batch-5 series is recycled here, its sample by `result` (sim/buffers.ts), so the caller reads
   * none of them afterwards.
   */
  add(part: ReplicationPart): void {
    const u = this.units.length;
    if (part.index !== u) throw new InvalidModelError(`unit ${part.index} added where unit ${u} was expected`);
    const batchMode = this.plan.batchMode;
    if (part.seed !== '') this.seeds.push(part.seed);
    this.events += part.summary.events;
    this.stride = part.stride;
    if (!batchMode || u === 0) {
      this.perUnitMser.push(part.mser);
      this.perUnitHeadTail.push(part.headTail);
      if (this.ensemble === null) this.ensemble = takeFloat64(part.batch5.length);
      const ensemble = this.ensemble;
      addAll(ensemble, part.batch5, Math.min(ensemble.length, part.batch5.length));
    }
    recycle(part.batch5);
    const span = part.histogram;
    this.units.push({ summary: part.summary, tail: part.tail, sample: part.sample, ranks: part.percentileRanks, span });
    if (span === undefined) this.pooledHistogram = null;
    else if (this.pooledHistogram !== null) addBucketSpan((this.pooledHistogram ??= takeInt32(RADIX)), span);
  }

  /** The result of the units added (`simulate`'s); called once, at the end (it gives the units' arrays back). */
  result(): SimulationResult {
    const plan = this.plan;
    const { model, options, config, kind, jobs, method, batchMode, maxLevel, master, warmupTime, target } = plan;
    const units = this.units;
    const seeds = this.seeds;
    const perUnitMser = this.perUnitMser;
    const perUnitHeadTail = this.perUnitHeadTail;
    const ensemble = this.ensemble;
    const stride = this.stride;
    const events = this.events;
    const started = plan.started;
    const systemRate = config.lambda * config.n;
    let stoppedBy = this.stoppedBy;
    if (
      target !== undefined &&
      stoppedBy === 'budget' &&
      units.length >= plan.maxUnits &&
      precisionReached(tInterval(units.map((x) => x.summary.meanResponseTime)), target)
    )
      stoppedBy = 'precision';

    const R = units.length;
    const perReplication = units.map((x) => x.summary);
    const wallSeconds = (performance.now() - started) / 1000;
    const spec = model.service;
    const meanS = serviceDistribution(spec).mean;
    const column = (f: (x: ReplicationResult) => number, lower = 0, upper = Infinity) =>
      feasible(tInterval(perReplication.map(f)), lower, upper);
    const observed: Estimate[] = [];
    for (let i = 0; i <= maxLevel; i++) observed.push(feasible(tInterval(units.map((s) => s.tail[i])), 0, 1));
    // a level no unit reached is [0, upper end of the level below], not the point [0, 0] (stats `monotoneFractions`)
    const tail = monotoneFractions(observed, 1, 1);
    const grid = Array.from(config.workloadGrid);

    // pooled percentiles with sectioning intervals (the units' samples read in place, not copied into one array).
    // Each interval inverts the cdf's: the units' fractions ≤ the pooled percentile, mapped back through the pooled
    // quantile function (stats/tInterval.ts cdfSectioningInterval, Woodruff 1952). One pass over each unit's sample
    // gives the pooled percentiles and ccdf, the units' fractions at the three percentiles and the units' own
    // percentiles (`pooledQuantilesAndFractions`); a second, the six levels of the three intervals in one selection:
    // the same numbers as one quantity at a time.
    const parts = units.map((x) => x.sample);
    const histogram = this.pooledHistogram ?? undefined;
    const levelsOf = [0.5, 0.95, 0.99];
    const pass = pooledQuantilesAndFractions(
      parts,
      [...levelsOf, ...CCDF_PROBABILITIES],
      3,
      histogram,
      units.map((x) => x.ranks),
      units.map((x) => x.span),
    );
    const [q50, q95, q99, ...ccdfTimes] = pass.quantiles;
    const fractions = pass.fractions;
    pass.own.forEach((q, u) => {
      if (q !== undefined) units[u].summary.responseTimePercentiles = { p50: q[0], p95: q[1], p99: q[2] };
    });
    const centres = [q50, q95, q99];
    const sectionJobs = parts.map((x) => x.length);
    const levels = centres.map((_, j) => cdfSectioningLevels(fractions[j], sectionJobs, levelsOf[j]));
    const ends = pooledQuantiles(
      parts,
      levels.flat(),
      histogram,
      units.map((x) => x.span),
    );
    const percentile = (j: number) =>
      feasible(
        cdfSectioningInterval(fractions[j], sectionJobs, centres[j], levelsOf[j], () => [ends[2 * j], ends[2 * j + 1]]),
        0,
      );
    const responseTimePercentiles = { p50: percentile(0), p95: percentile(1), p99: percentile(2) };
    // an interval open at an end says why (p95 open while p99 is finite looks like a bug and is chance at R = 2)
    const openEnds = openEndNotes(levelsOf.map((p, j) => ({ name: percentileName(p), fractions: fractions[j], jobs: sectionJobs, p })));
    for (const x of units) {
      recycle(x.sample);
      x.sample = new Float32Array(0);
    }
    recycle(this.pooledHistogram ?? undefined);

    // warm-up check, finiteness, warnings
    const warnings: string[] = [];
    let ensembleCheck: MserCheck | null = null;
    if (ensemble !== null) {
      const count = batchMode ? 1 : R;
      divideAll(ensemble, count);
      ensembleCheck = mserCheck(ensemble, stride, jobs, systemRate);
      recycle(ensemble);
    }
    const initialBias = initialBiasTest(
      perUnitHeadTail,
      batchMode ? { means: perReplication.map((x) => x.meanResponseTime), jobs: jobs } : null,
    );
    if (ensembleCheck !== null) {
      const where = batchMode ? 'the first batch' : `the average of the ${R} replications`;
      if (ensembleCheck.tooShort) {
        warnings.push(
          `MSER-5 on ${where} is still falling at the middle of the measured jobs (its minimum over the first half sits on ` +
            `the half, ${ensembleCheck.truncatedJobs} of ${jobs}): the run is too short to confirm the warm-up; raise --jobs`,
        );
      } else if (ensembleCheck.truncatedJobs > MSER_MARGIN * jobs && (initialBias === null || initialBias.significant)) {
        // both: MSER's cut alone fired on 13 % of stationary runs (scripts/mser-warmup-warning.ts); the head–tail test
        // is calibrated at its level. Where that test cannot be made (too few units or jobs), MSER alone decides.
        const evidence =
          initialBias === null
            ? ' (too few units or jobs for the head–tail test)'
            : `, and the first 10 % of each ${batchMode ? 'batch' : 'replication'}'s jobs differ from its last 50 % by ` +
              `${initialBias.difference.toPrecision(3)} ${timeUnit(model.service)} (t = ${initialBias.t.toFixed(2)}, ${initialBias.degreesOfFreedom} df, p = ${initialBias.p.toPrecision(2)})`;
        warnings.push(
          `MSER-5 on ${where} would discard ${ensembleCheck.truncatedJobs} more jobs (${((100 * ensembleCheck.truncatedJobs) / jobs).toFixed(1)} % ` +
            `of the measured jobs, ≈ ${ensembleCheck.truncatedTime.toPrecision(3)} ${timeUnit(model.service)}) after the warm-up of ${warmupTime.toPrecision(4)}${evidence}: the warm-up may be too short`,
        );
      }
    }
    // T ≥ S/μ_max (independent replicas: ≥ 0), E[Q] ≥ λ times that: the one bound (model/moments.ts)
    const lowerT = responseTimeLowerBound(model);
    const fastest = config.layout === undefined ? 1 : Math.max(...config.layout.spec.speeds); // T/S ≥ 1/μ_max
    const meanQ = column((x) => x.meanQueueLength, config.lambda * lowerT);
    const meanT = column((x) => x.meanResponseTime, lowerT);
    let batchMeans: SimulationResult['batchMeans'];
    if (batchMode) {
      // NaN below MIN_LAG1_BATCHES batches: too few to check independence (`fewBatchesNote` in the notes says so)
      const lag1 = {
        meanResponseTime: batchLag1(perReplication.map((x) => x.meanResponseTime)),
        meanQueueLength: batchLag1(perReplication.map((x) => x.meanQueueLength)),
      };
      batchMeans = { batches: R, lag1 };
      const worst = Math.max(lag1.meanResponseTime, lag1.meanQueueLength);
      if (worst >= MAX_BATCH_LAG1) {
        warnings.push(
          `lag-1 autocorrelation of the batch means is ${worst.toFixed(2)} ≥ ${MAX_BATCH_LAG1}: batches are not independent enough; raise --jobs (jobs per batch)`,
        );
      }
    }
    const finiteness = estimandFiniteness(model);
    warnings.push(...finiteness.warnings, ...finiteness.slowdownWarnings);
    warnings.push(
      ...heavyTailBudgetWarnings(spec, {
        jobs: batchMode ? jobs * R : jobs,
        unit: batchMode ? 'run' : 'replication',
        systemRate,
        relaxationTime: options.relaxationTime,
      }),
    );
    const short = percentileSectionShortfall(jobs);
    if (short !== null) warnings.push(percentileSectionWarning(jobs, batchMode ? 'batch' : 'replication', short.p)!);
    let precision: PrecisionOutcome | undefined;
    if (target !== undefined) {
      precision = {
        target,
        stoppedBy,
        achieved: { halfWidth: meanT.halfWidth, relative: meanT.halfWidth / Math.abs(meanT.mean) },
        units: R,
      };
      if (stoppedBy === 'budget') {
        warnings.push(
          `precision target not reached within the budget (${R} ${batchMode ? 'batches' : 'replications'}): E[T] ± ${meanT.halfWidth.toPrecision(3)} ` +
            `(${((100 * meanT.halfWidth) / Math.abs(meanT.mean)).toFixed(2)} %)` +
            // both targets given: every one must hold, so name the one that kept the run going
            (target.relative !== undefined && target.halfWidth !== undefined
              ? `; not met: ${unmetTargets(meanT, target).join(' and ')}`
              : ''),
        );
      }
    }

    // a mean infinite in theory is +∞ (its finite sample average kept as sampleMean): model/moments.ts is the rule; a
    // mean resting on E[T] (E[Q] = λE[T], Little's E[Q]/λ, E[T/S] with T ≥ S) that may be ∞ with no rule settling it
    // is no estimate (`unsettledEstimate`: no mean, no interval, the run's average as sampleMean), here at the source
    const unsettled = finiteness.meanResponseTimeUnsettled;
    const honest = (e: Estimate, verdict: Finiteness, onT = false): Estimate =>
      !verdict.finite ? infiniteEstimate(e, verdict.reason) : onT && unsettled !== undefined ? unsettledEstimate(e, unsettled) : e;
    return {
      meanResponseTime: honest(meanT, finiteness.meanResponseTime, true),
      meanQueueLength: honest(meanQ, finiteness.meanQueueLength, true),
      tail,
      littleResponseTime: honest(
        column((x) => x.meanQueueLength / (config.lambda * (model.redundancy === undefined ? 1 : config.d)), lowerT),
        finiteness.meanQueueLength,
        true,
      ),
      meanSlowdown: honest(
        column((x) => x.meanSlowdown, 1 / fastest),
        finiteness.meanSlowdown,
        true,
      ),
      zeroSizeJobs: perReplication.reduce((sum, x) => sum + x.zeroSizeJobs, 0),
      responseTimePercentiles,
      responseTimeCcdf: { p: [...CCDF_PROBABILITIES], t: ccdfTimes },
      ...(perReplication.length > 0 && perReplication.every((x) => x.workPerJob !== undefined)
        ? { redundancy: { workPerJob: column((x) => x.workPerJob!), busyFraction: tail[1] } }
        : {}),
      ...(kind === 'race' || kind === 'redundancy'
        ? {}
        : {
            meanWorkload: honest(
              column((x) => x.meanWorkload),
              finiteness.meanWorkload,
            ),
          }),
      ...(perReplication.every((x) => x.memory !== undefined)
        ? {
            memory: {
              emptyFraction: unresolvedFraction(column((x) => x.memory!.emptyFraction, 0, 1)),
              probesPerArrival: column((x) => x.memory!.probesPerArrival),
            },
          }
        : {}),
      ...(perReplication.every((x) => x.classes !== undefined) && perReplication.length > 0
        ? {
            classes: perReplication[0].classes!.map((c, k) => ({
              speed: c.speed,
              fraction: c.fraction,
              busyFraction: unresolvedFraction(column((x) => x.classes![k].busyFraction, 0, 1)),
              meanResponseTime: column((x) => x.classes![k].meanResponseTime, meanS / c.speed),
              jobs: perReplication.reduce((sum, x) => sum + x.classes![k].jobs, 0),
            })),
            workRate: column((x) => x.classes!.reduce((a, c) => a + c.fraction * c.speed * c.busyFraction, 0)),
          }
        : {}),
      ...(kind === 'race' || kind === 'redundancy' || grid.length === 0
        ? {}
        : { workloadCcdf: { grid, ccdf: monotoneFractions(grid.map((_, k) => column((x) => x.workloadCcdf[k], 0, 1))) } }),
      events,
      eventsPerSecond: wallSeconds > 0 ? events / wallSeconds : Infinity,
      wallSeconds,
      warmupTime,
      start: plan.options.start === undefined ? { name: 'empty' } : { name: plan.options.start.name, from: [...plan.options.start.from] },
      jobs,
      n: config.n,
      maxLevel,
      seeds: { master, replications: seeds },
      engine: kind,
      perReplication,
      provenance: {
        model,
        version: VERSION,
        code: codeId(),
        method: engineMethod(kind) + (batchMode ? `; one long run, ${R} batch means of ${jobs} jobs` : `; ${R} independent replications`),
        rng: 'xoshiro128** seeded by splitmix64(master, replication)',
      },
      method,
      replications: R,
      ...(batchMeans ? { batchMeans } : {}),
      ...(precision ? { precision } : {}),
      warmupCheck: { method: 'MSER-5', ensemble: ensembleCheck, perUnit: perUnitMser, initialBias },
      finiteness,
      warnings,
      notes: [...openEnds, ...[(batchMode ? fewBatchesNote(R) : null) ?? []].flat()],
    };
  }
}

/**
 * Simulates the model on n servers (Poisson arrivals at rate λn, sizes and predictions drawn per job at arrival),
 * R independent replications from empty, each with its own warm-up and random stream — or one long run cut into
 * batches (`method: 'batch-means'`) — optionally until the interval of E[T] meets a precision target.
 * @param model validated model (`parseModel`); time in mean service times.
 * @param options see `SimulateOptions`.
 * @returns estimates over units (Student-t 95 % CIs inside the parameter space: E[T], E[Q]/λ ≥ E[S]; E[Q] ≥ ρ;
 *   E[T/S] ≥ 1; tails and ccdf in [0, 1]; E[U], quantiles ≥ 0), pooled percentiles with sectioning intervals,
 *   per-unit values, the MSER-5 warm-up check, finiteness in theory, warnings, events, speed, seeds, provenance.
 *   Same model, options and seed ⇒ bit-identical numbers (except the wall-clock fields); the means of a
 *   replications run equal those of the same replications in a longer or precision-driven run.
 *   A replications run is `planSimulation`, then `runReplications` per unit folded by a `SimulationCollector`;
 *   the CLI runs the same units on worker threads (src/cli/pool.ts, `simulateOnPool`) for the same numbers.
 * @throws {InvalidModelError} for an unsupported model, n < 1 or > 2^21, d > n, jobs < 1, replications < 2,
 *   batches < 2, maxLevel < 1, a non-integer seed, a missing, negative or non-finite warmupTime, an unknown engine
 *   or method, a bad precision target or one on an E[T] that is infinite or unsettled (`precisionRefusal`), a first R units beyond maxEvents expected events (`checkEventBudget`),
 *   an option the run would not read (an unknown key, batches without batch-means, replications with it, maxReplications
 *   without precision: `refuseIdleSimulateOptions`).
 * @example simulate(parseModel({ lambda: 0.9, d: 2 }), { n: 1000, jobs: 1e6, warmupTime: 80 }).meanResponseTime.mean // ≈ 2.62
 */
export function simulate(model: SupermarketModel, options: SimulateOptions): SimulationResult {
  const plan = planSimulation(model, options);
  const collector = new SimulationCollector(plan);
  const onProgress = options.onProgress;
  const tick = (before: number) => (onProgress === undefined ? undefined : (done: number) => onProgress(before + done, plan.totalEstimate));
  if (!plan.batchMode) {
    while (collector.wantsMore()) {
      const before = collector.events;
      collector.add(runReplications(plan, collector.count, 1, tick(before))[0]);
    }
    return collector.result();
  }
  // batch-means: one stream, one state, one engine for the whole run
  const { config, kind, jobs, warmupTime, maxLevel, sampleCap } = plan;
  const systemRate = config.lambda * config.n;
  let longState: ReturnType<typeof initialState> | undefined;
  let longEngine: Engine | undefined;
  try {
    while (collector.wantsMore()) {
      const u = collector.count;
      let seedHex = '';
      if (longState === undefined || longEngine === undefined) {
        const seed = streamSeed(plan.master, 0);
        seedHex = hexSeed(seed);
        longState = initialState(config, kind, new Rng(seed), new Measurement(warmupTime, jobs), plan.counts);
        longEngine = createEngine(kind, config, longState);
      } else {
        // the next batch opens now: a fresh measurement whose warm-up ends at the current time
        (longState as { measurement: Measurement }).measurement = new Measurement(longState.t, jobs);
      }
      const before = longEngine.events;
      longEngine.run(Infinity, tick(collector.events));
      const stride = longState.measurement.stride;
      const outcome = readUnit(longState, longEngine, config.lambda, maxLevel, sampleCap);
      outcome.summary.events = longEngine.events - before;
      const mserOf = u === 0 ? mserCheck(outcome.batch5, stride, jobs, systemRate) : null;
      const headTail = u === 0 ? unitHeadTail(outcome.batch5, stride, kind, outcome.summary.meanResponseTime, systemRate) : null;
      collector.add({ index: u, seed: seedHex, ...outcome, mser: mserOf, headTail, stride });
    }
  } finally {
    longEngine?.release?.();
  }
  return collector.result();
}

/**
 * JSON form of a simulated mean that is infinite in theory: the one ∞ object (io/jsonText.ts) with the run it came
 * from, `{ mean: null, infinite: true, reason, replications, sampleMean }`; no interval fields.
 */
export type InfiniteEstimate = InfiniteEstimateJson;

/**
 * A finite mean that lies outside its printed interval: the interval is the t interval intersected with the parameter
 * space (`feasible`), and the sample mean, an unbiased estimate, can fall beyond that space's bound by chance (E[T]
 * below E[S] in a short run at a low load). Listed in `simulate --json` as `meansOutsideInterval` and noted in the text.
 */
export interface MeanOutsideInterval {
  /** The estimate's key in the result (and in the JSON). */
  estimate: 'meanResponseTime' | 'meanQueueLength' | 'littleResponseTime' | 'meanSlowdown';
  /** Its name in the text output, e.g. "E[T]". */
  name: string;
  /** The bound its interval was cut at, e.g. "E[T] ≥ E[S]". */
  bound: string;
  /** True when the whole t interval lay beyond the bound, so the printed interval is one point. */
  onePoint: boolean;
}

/** The estimates whose interval is cut at a bound the sample mean can pass: key, name, bound (see `column` above). */
const BOUNDED_ESTIMATES: readonly [MeanOutsideInterval['estimate'], string, string][] = [
  ['meanResponseTime', 'E[T]', 'E[T] ≥ E[S]'],
  ['meanQueueLength', 'E[Q]', 'E[Q] ≥ ρ'],
  ['littleResponseTime', 'E[Q]/λ', 'E[Q]/λ ≥ E[S]'],
  ['meanSlowdown', 'E[T/S]', 'E[T/S] ≥ 1'],
];

/** The finite means of `result` outside their printed interval (means infinite in theory are left out: they print ∞). */
export function meansOutsideInterval(result: SimulationResult): MeanOutsideInterval[] {
  const f = result.finiteness;
  const finite = {
    meanResponseTime: f.meanResponseTime.finite,
    meanQueueLength: f.meanQueueLength.finite,
    littleResponseTime: f.meanQueueLength.finite,
    meanSlowdown: f.meanSlowdown.finite,
  };
  return BOUNDED_ESTIMATES.flatMap(([estimate, name, bound]) => {
    const e = result[estimate];
    if (!finite[estimate] || !Number.isFinite(e.mean) || (e.mean >= e.ci95[0] && e.mean <= e.ci95[1])) return [];
    return [{ estimate, name, bound, onePoint: e.ci95[0] === e.ci95[1] }];
  });
}

/**
 * Percentile estimates as the JSON outputs print them (`simulationJson`, `replay --json`): each without `halfWidth`,
 * so one interval per estimate. A percentile's `ci95` inverts the cdf (`cdfSectioningInterval`) and is not symmetric
 * about the percentile: its `halfWidth` (half the interval's length) would make mean ± halfWidth a second interval
 * that nothing computed. Other fields (e.g. replay's `lag1`) are kept.
 * @example percentilesJson(result.responseTimePercentiles).p95 // { mean: 7.93, ci95: [7.54, 8.38], replications: 5 }
 */
export function percentilesJson<E extends Estimate>(p: Percentiles<E>): Percentiles<Omit<E, 'halfWidth'>> {
  return { p50: oneInterval(p.p50), p95: oneInterval(p.p95), p99: oneInterval(p.p99) };
}

/**
 * The result as printed by `simulate --json`: each mean that is infinite in theory (`result.finiteness`) replaced by
 * the one ∞ object `{ mean: null, infinite: true, reason, replications, sampleMean }` (io/jsonText.ts), and each mean
 * not settled (`unsettledEstimate`) by the not-settled object `{ mean: null, unsettled: true, reason, replications,
 * sampleMean }` (`unsettledObject`), in each of `perReplication` as well, with `finiteness` naming it `{ finite: null,
 * unsettled: true, reason }`, neither finite nor infinite; everything else
 * as in `SimulationResult` (E[Q]/λ follows E[Q]) but the percentiles' `halfWidth` (`percentilesJson`); `meansOutsideInterval` lists the finite means outside their interval
 * (`meansOutsideInterval`, empty when none).
 */
export function simulationJson(result: SimulationResult): Record<string, unknown> {
  const out: Record<string, unknown> = { ...result, responseTimePercentiles: percentilesJson(result.responseTimePercentiles) };
  const f = result.finiteness;
  const replace = (
    key: 'meanResponseTime' | 'meanQueueLength' | 'littleResponseTime' | 'meanWorkload' | 'meanSlowdown',
    verdict: EstimandFiniteness['meanSlowdown'],
  ) => {
    const e = result[key];
    if (e === undefined || verdict.finite) return;
    const inf: InfiniteEstimate = {
      mean: null,
      infinite: true,
      reason: verdict.reason,
      replications: e.replications,
      sampleMean: e.sampleMean ?? e.mean,
    };
    out[key] = inf;
  };
  replace('meanResponseTime', f.meanResponseTime);
  replace('meanQueueLength', f.meanQueueLength);
  replace('littleResponseTime', f.meanQueueLength);
  replace('meanWorkload', f.meanWorkload);
  replace('meanSlowdown', f.meanSlowdown);
  // a mean not settled: the one not-settled object with its run, here too (not only when `jsonText` writes it)
  for (const key of ['meanResponseTime', 'meanQueueLength', 'littleResponseTime', 'meanSlowdown'] as const)
    if (result[key].unsettled) out[key] = unsettledObject({ ...result[key], unsettled: true });
  // each unit's sample average of a quantity whose mean is infinite in theory estimates nothing: the same encoding,
  // with the unit's sample average kept as `sampleMean` (replications 1)
  const perUnit: ['meanResponseTime' | 'meanQueueLength' | 'meanWorkload' | 'meanSlowdown', EstimandFiniteness['meanSlowdown']][] = [
    ['meanResponseTime', f.meanResponseTime],
    ['meanQueueLength', f.meanQueueLength],
    ['meanWorkload', f.meanWorkload],
    ['meanSlowdown', f.meanSlowdown],
  ];
  // a mean resting on E[T] that may be ∞ with no rule settling it (E[T], E[Q], E[T/S]: as `simulate` has them) is the
  // not-settled object everywhere: in each unit too, and `finiteness` calls it neither finite nor infinite
  const unsettled = f.meanResponseTimeUnsettled;
  const onT = new Set(['meanResponseTime', 'meanQueueLength', 'meanSlowdown']);
  const notSettled = (key: string, verdict: EstimandFiniteness['meanSlowdown']) =>
    unsettled !== undefined && verdict.finite && onT.has(key);
  if (perUnit.some(([key, verdict]) => !verdict.finite || notSettled(key, verdict)))
    out.perReplication = result.perReplication.map((unit) => {
      const copy: Record<string, unknown> = { ...unit };
      for (const [key, verdict] of perUnit)
        if (!verdict.finite) {
          const inf: InfiniteEstimate = { mean: null, infinite: true, reason: verdict.reason, replications: 1, sampleMean: unit[key] };
          copy[key] = inf;
        } else if (notSettled(key, verdict))
          copy[key] = { mean: null, unsettled: true, reason: unsettled, replications: 1, sampleMean: unit[key] };
      return copy;
    });
  if (unsettled !== undefined) {
    const open = { finite: null, unsettled: true, reason: unsettled };
    out.finiteness = {
      ...f,
      meanResponseTime: open,
      meanQueueLength: open,
      ...(f.meanSlowdown.finite ? { meanSlowdown: open } : {}),
    };
  }
  out.meansOutsideInterval = meansOutsideInterval(result);
  return out;
}
