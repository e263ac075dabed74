/**
 * Per-job and per-server records of one run, for export (`simulate --per-job`, `--per-server`, `replay --per-job`).
 *
 * No engine changes and no cost per event when off: both event engines already call `workload.accumulate(j, t)`
 * once per measured arrival (server j, arrival time t, in arrival order, just before F_j ← max(F_j, t) + S) and
 * `workload.end` when the window closes. `RecordingWorkload` is a `Workload` that also writes, per measured job k
 * (its arrival rank in the window), the server, the arrival time and the FIFO start max(F_j, t); the size follows
 * from the next F_j; the response comes from the measurement (`Measurement` with exact responses). Per server it
 * integrates the busy time ∫1(U_j > 0) dt over the window (U_j = (F_j − t)^+, closed form between arrivals).
 * Predictions: every engine draws a job's S and Y (`JobSource.draw`) just before that call, so the recorder reads the
 * drawn Y from the engine's job source (`watch`); the inline exponential path draws none, but it runs only with exact
 * predictions (Y = S). A policy that reads no prediction has no prediction column.
 * The race engine keeps no workload, so recording runs an event engine.
 */
import { InvalidModelError } from '../errors.ts';
import type { SupermarketModel } from '../model/model.ts';
import { usesPrediction } from '../model/policy/index.ts';
import { Rng, streamSeed } from '../stats/rng.ts';
import { PRED_EXACT, type Engine, type EngineKind } from './core.ts';
import { initialState } from './initialState.ts';
import { Measurement } from './measurement.ts';
import { integerOption, resolveEngine, resolveRunConfig, seedOption, type EngineChoice } from './options.ts';
import { withEngine } from './simulate.ts';
import { Workload } from './workload.ts';

/** Most measured jobs a recorded run keeps (≈ 50 bytes each). */
export const MAX_RECORDED_JOBS = 10_000_000;

/** Column arrays of the measured jobs, index k = arrival rank in the window (length = measured jobs). */
export interface JobRecords {
  /** Arrival time (time units). */
  arrival: Float64Array;
  /** True size S (time units); with server speeds the time it takes at its server, S/v. */
  size: Float64Array;
  /**
   * Prediction Y seen by the dispatcher and the scheduler (time units; Y = S for exact predictions); absent where the
   * policy reads no prediction (`usesPrediction`). With server speeds, like `size`, at the server's speed: Y/v.
   */
  prediction?: Float64Array;
  /** Server index 0..n−1 the job joined. */
  server: Int32Array;
  /** Start of service: under FIFO the time the server reached the job, max(F_j, arrival); NaN for other disciplines. */
  start: Float64Array;
  /** Departure time = arrival + response. */
  departure: Float64Array;
  /** Response (sojourn) time T. */
  response: Float64Array;
}

/** Per-server summary of the window; index j = server. */
export interface ServerRecords {
  /** Time-average fraction of the window the server was busy (U_j > 0): exact, from the workload path. */
  busyFraction: number[];
  /**
   * Mean number of jobs at the server by Little's law on the measured jobs: Σ_{k at j} T_k / window length (the
   * time average up to edge effects of order 1/window: warm-up jobs present at the start, measured jobs still
   * present at the end).
   */
  meanQueueLength: number[];
  /** Measured jobs the server received (all are served: the run drains them). */
  jobsServed: number[];
  /** Window length (time units). */
  window: number;
}

/** A `Workload` that records the measured arrivals (see the file comment). */
export class RecordingWorkload extends Workload {
  /** Measured arrivals recorded so far. */
  count = 0;
  readonly server: Int32Array;
  readonly arrival: Float64Array;
  readonly start: Float64Array;
  readonly size: Float64Array;
  /** Drawn prediction Y (at the server's speed) of each recorded job; NaN until `watch`. */
  readonly prediction: Float64Array;
  /** ∫1(U_j > 0) dt over the window so far, per server. */
  readonly busy: Float64Array;
  private pending = -1;
  /** The engine's job source (S and Y of the job drawn last) and the servers' 1/speed, once `watch`ed. */
  private source: { readonly pred: number } | undefined;
  private invSpeed: Float64Array | undefined;

  /** @param jobs measured arrivals the run will make (array length). */
  constructor(
    n: number,
    grid: Float64Array,
    readonly jobs: number,
  ) {
    super(n, grid);
    this.server = new Int32Array(jobs);
    this.arrival = new Float64Array(jobs);
    this.start = new Float64Array(jobs);
    this.size = new Float64Array(jobs);
    this.prediction = new Float64Array(jobs).fill(NaN);
    this.busy = new Float64Array(n);
  }

  /**
   * Records the predictions the engine draws (call once the engine is built, before it runs). @param invSpeed 1/speed
   * per server, when the servers have speeds (the engine stores Y/v, as it stores S/v).
   */
  watch(engine: Engine, invSpeed?: Float64Array): void {
    this.source = engine.jobSource;
    this.invSpeed = invSpeed;
  }

  /** Size of the last recorded job, now that the engine has moved F_j past it. */
  private settle(): void {
    const j = this.pending;
    if (j < 0) return;
    const k = this.count - 1;
    this.size[k] = this.finish[j] - this.start[k];
    this.pending = -1;
  }

  /** Busy time of server j over [last_j, t] (before `Workload.accumulate` moves last_j). */
  private integrateBusy(j: number, t: number): void {
    const u0 = this.finish[j] - this.last[j];
    if (u0 > 0) this.busy[j] += Math.min(u0, t - this.last[j]);
  }

  /** A measured arrival at server j, time t (the engines call this only while measuring). */
  override accumulate(j: number, t: number): void {
    this.settle();
    const k = this.count;
    if (k < this.jobs) {
      const f = this.finish[j];
      this.server[k] = j;
      this.arrival[k] = t;
      this.start[k] = f > t ? f : t;
      const source = this.source;
      if (source !== undefined) this.prediction[k] = this.invSpeed === undefined ? source.pred : source.pred * this.invSpeed[j];
      this.count = k + 1;
      this.pending = j;
    }
    this.integrateBusy(j, t);
    super.accumulate(j, t);
  }

  override begin(t: number): void {
    super.begin(t);
    this.busy.fill(0);
  }

  override end(t: number): void {
    this.settle();
    for (let j = 0; j < this.n; j++) {
      this.integrateBusy(j, t);
      super.accumulate(j, t);
    }
  }
}

/** What a record's prediction column holds: none (the policy reads no prediction), the sizes (Y = S), or the drawn Y. */
export type PredictionColumn = 'none' | 'sizes' | 'drawn';

/**
 * The prediction column of a run's records: none where neither the selection nor the discipline reads a prediction
 * (`usesPrediction`), the sizes where the run's predictions are exact (its `predKind`: the inline exponential path
 * draws no Y), else the Y the engine drew (a prediction model, or a replayed trace's column).
 */
export function predictionColumn(model: SupermarketModel, predKind: number): PredictionColumn {
  if (!usesPrediction(model.selection, model.discipline)) return 'none';
  return predKind === PRED_EXACT ? 'sizes' : 'drawn';
}

/**
 * The records of a finished run.
 * @param rec the run's workload (`watch`ed when `predictions` is 'drawn'). @param responses exact response times by
 *   arrival rank (`Measurement` with exact responses), copied before any quantile reorders them. @param fifo whether
 *   start times are FIFO starts. @param predictions the prediction column (`predictionColumn`).
 * @param sizes true sizes by rank when known exactly (replay), else those recovered from F_j.
 */
export function collectRecords(
  rec: RecordingWorkload,
  responses: Float64Array,
  window: number,
  fifo: boolean,
  predictions: PredictionColumn,
  sizes?: Float64Array,
): { jobs: JobRecords; servers: ServerRecords } {
  const m = rec.count;
  const size = sizes ?? rec.size.slice(0, m);
  const departure = new Float64Array(m);
  for (let k = 0; k < m; k++) departure[k] = rec.arrival[k] + responses[k];
  const jobsServed = new Array<number>(rec.n).fill(0);
  const sumT = new Array<number>(rec.n).fill(0);
  for (let k = 0; k < m; k++) {
    jobsServed[rec.server[k]]++;
    sumT[rec.server[k]] += responses[k];
  }
  const prediction = predictions === 'none' ? undefined : predictions === 'sizes' ? size : rec.prediction.slice(0, m);
  return {
    jobs: {
      arrival: rec.arrival.slice(0, m),
      size,
      ...(prediction === undefined ? {} : { prediction }),
      server: rec.server.slice(0, m),
      start: fifo ? rec.start.slice(0, m) : new Float64Array(m).fill(NaN),
      departure,
      response: responses.slice(0, m),
    },
    servers: {
      busyFraction: Array.from(rec.busy, (b) => b / window),
      meanQueueLength: sumT.map((s) => s / window),
      jobsServed,
      window,
    },
  };
}

export interface RecordReplicationOptions {
  n: number;
  /** Measured arrivals, 1..MAX_RECORDED_JOBS. */
  jobs: number;
  /** Master seed; the run uses the stream of replication `replication` (default 0), as `simulate` does. */
  seed?: number;
  replication?: number;
  /** Warm-up time (time units, ≥ 0). */
  warmupTime: number;
  /** As in `simulate`; 'auto' and 'race' run the discipline's event engine (the race engine keeps no workload). */
  engine?: EngineChoice;
}

/**
 * One replication of `simulate` with per-job and per-server records: same stream (`streamSeed(seed, replication)`),
 * same warm-up and window, so with an event engine its measured jobs are exactly those of `simulate`'s replication.
 * @returns `jobs` (sizes recovered as F_j after − start, exact up to rounding; the predictions the run drew where
 *   the policy reads them, `predictionColumn`) and `servers`, plus the run's mean response time and engine.
 * @throws {InvalidModelError} as `simulate`, or jobs > MAX_RECORDED_JOBS.
 */
export function recordReplication(
  model: SupermarketModel,
  options: RecordReplicationOptions,
): { jobs: JobRecords; servers: ServerRecords; meanResponseTime: number; engine: Exclude<EngineKind, 'race'> } {
  if (model.redundancy !== undefined)
    throw new InvalidModelError('per-job and per-server records are not kept under redundancy-d (a job has d replicas); drop them');
  const config = resolveRunConfig(model, options.n, {});
  const jobs = integerOption('jobs', options.jobs, 1, 1);
  if (jobs > MAX_RECORDED_JOBS)
    throw new InvalidModelError(`per-job records keep at most ${MAX_RECORDED_JOBS} jobs, got ${jobs}; lower jobs`);
  const warmupTime = options.warmupTime;
  if (!(Number.isFinite(warmupTime) && warmupTime >= 0))
    throw new InvalidModelError(`warmupTime must be a finite number ≥ 0, got ${String(warmupTime)}`);
  const kind = resolveEngine(model, options.engine === 'race' || options.engine === 'auto' ? 'event' : (options.engine ?? 'event'));
  // never the race here ('auto' and 'race' were mapped to the discipline's event engine above)
  const engineKind = kind === 'race' ? 'event' : kind;
  const seed = streamSeed(seedOption(options.seed), integerOption('replication', options.replication, 0, 0));
  const measurement = new Measurement(warmupTime, jobs, -1, true);
  const base = initialState(config, engineKind, new Rng(seed), measurement);
  const recorder = new RecordingWorkload(config.n, config.workloadGrid, jobs);
  const state = { ...base, workload: recorder };
  withEngine(engineKind, config, state, (engine) => {
    recorder.watch(engine, config.layout?.invSpeed);
    engine.run(Infinity);
  });
  const window = measurement.windowEnd - measurement.windowStart;
  const predictions = predictionColumn(model, config.predKind);
  const out = collectRecords(recorder, Float64Array.from(measurement.responses), window, config.discipline === 0, predictions);
  return { ...out, meanResponseTime: measurement.sumResponse / measurement.completed, engine: engineKind };
}
