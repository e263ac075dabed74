/**
 * What every engine shares: its run configuration, the state it advances (job store, occupancy counts,
 * measurement window, random stream) and the interface the drivers (`simulate`, `simulateTrajectory`,
 * `simulateReplay`) use, plus the phase machine (warm-up → measuring → draining → done) all engines run.
 */
import type { BatchSizeLaw } from '../model/batchLaw.ts';
import type { PredictionModel } from '../model/prediction/index.ts';
import type { ServiceDistribution } from '../model/service/index.ts';
import type { JobStore } from './jobStore.ts';
import { DONE, DRAINING, MEASURING, WARMUP, type Measurement } from './measurement.ts';
import type { Occupancy } from './occupancy.ts';
import type { Rng } from '../stats/rng.ts';
import type { Workload } from './workload.ts';
import type { DispatcherMemory } from './memory.ts';
import type { ClassTally, ServerLayout } from './serverClasses.ts';

/**
 * Engine names: the FIFO event engine, the priority (size-/prediction-based) event engine, the sharing event engine
 * (PS, LAS: several jobs served at once), the exponential race, the redundancy-d engine (replicas on d servers,
 * cancel-on-complete).
 */
export type EngineKind = 'event' | 'priority' | 'sharing' | 'race' | 'redundancy';

/** Selection rule codes (theory.md §1), chosen once per run. Each group of codes is one line: small integers, named in order. */
export const [SEL_RANDOM, SEL_JSQ, SEL_LWL, SEL_LPW, SEL_SED] = [0, 1, 2, 3, 4];

/** Discipline codes, in the order of `DISCIPLINES` (theory.md §1 table). */
export const [D_FIFO, D_SJF, D_PSJF, D_SRPT, D_SPJF, D_PSPJF, D_SPRPT] = [0, 1, 2, 3, 4, 5, 6];
/** Sharing discipline codes (sharingEngine.ts): processor sharing, least attained service. */
export const [D_PS, D_LAS] = [7, 8];

/** LPW work codes: 'clip' Σ(Y − a)^+, 'signed' Σ(Y − a), 'static' ΣY. */
export const [LPW_CLIP, LPW_SIGNED, LPW_STATIC] = [0, 1, 2];

/** Size source codes: inline exponential, a `ServiceDistribution`, an empirical index shared with trace predictions, a replayed trace. */
export const [SIZE_EXP, SIZE_DIST, SIZE_INDEXED, SIZE_TRACE] = [0, 1, 2, 3];

/** Prediction source codes: exact (Y = S), a `PredictionModel`, the trace column at the sampled index, a replayed column. */
export const [PRED_EXACT, PRED_MODEL, PRED_INDEXED, PRED_TRACE] = [0, 1, 2, 3];

/**
 * Arrival source codes: the inline Poisson clock, a renewal law (`arrivalLaw`, mean 1/(λn)), a two-state MMPP
 * (`mmppRates`, `mmppSwitching`), the times of a replayed trace.
 */
export const [ARR_POISSON, ARR_RENEWAL, ARR_MMPP, ARR_TRACE] = [0, 1, 2, 3];

/** The work the measured jobs' replicas received, for the work per job (theory.md §16). */
export interface ReplicaWork {
  /** Σ over measured jobs of the service their replicas received (time units), and the number of those jobs. */
  readonly sumWork: number;
  readonly jobs: number;
  /** Replicas per job d (Little per server: replicas arrive at rate λd). */
  readonly replicas: number;
}

/** A replayed workload (absolute arrival times, true sizes, optional predictions), one entry per job. */
export interface ReplayTrace {
  readonly arrivals: Float64Array;
  readonly sizes: Float64Array;
  readonly predictions?: Float64Array;
}

/** Resolved, validated parameters of one run (time in the model's time units). */
export interface RunConfig {
  /** Servers. */
  readonly n: number;
  /** Choices per arrival (1 for random selection). */
  readonly d: number;
  /** Arrival rate per server; the system rate is λn (unused in replay). */
  readonly lambda: number;
  /** Mean service time E[S]. */
  readonly serviceMean: number;
  /** Sample the d servers without replacement (distinct servers). */
  readonly withoutReplacement: boolean;
  /** SEL_* code. */
  readonly selection: number;
  /** D_* code. */
  readonly discipline: number;
  /** LPW_* code (conventions.lpwWork). */
  readonly lpwMode: number;
  /** PSJF/PSPJF preemption test on the remaining S − a (Y − a) instead of the original S (Y). */
  readonly psjfRemaining: boolean;
  /** SPRPT key clipped at 0 once a job outlives its prediction. */
  readonly sprptZero: boolean;
  /** SIZE_* code and the law behind it. */
  readonly sizeKind: number;
  readonly service: ServiceDistribution;
  /** PRED_* code and the model behind it. */
  readonly predKind: number;
  readonly prediction: PredictionModel;
  /** Empirical sizes for SIZE_INDEXED (aligned with the trace predictions). */
  readonly indexedSizes?: Float64Array;
  /** Replayed workload (SIZE_TRACE); arrivals then come from it instead of the Poisson clock. */
  readonly trace?: ReplayTrace;
  /** ARR_* code of the arrival process (model/arrivals.ts); ARR_TRACE with `trace`. */
  readonly arrivalKind: number;
  /** ARR_RENEWAL: the inter-arrival law of the dispatcher's stream, mean 1/(λn). */
  readonly arrivalLaw?: ServiceDistribution;
  /** ARR_MMPP: the system arrival rate in phase 1 and 2 (λn·rᵢ/r̄), the switching rates q₁₂, q₂₁ and P(phase 1) at the start. */
  readonly mmppRates?: Float64Array;
  readonly mmppSwitching?: Float64Array;
  readonly mmppFirstPhase?: number;
  /** Jobs per arrival epoch K (1: single arrivals) and whether a batch joins one server (BSQ) (theory.md §15). */
  readonly batchSize: number;
  /** A random batch size (model/batchLaw.ts; `batchWhole` only): `batchSize` is then its mean E[X]. */
  readonly batchLaw?: BatchSizeLaw;
  readonly batchWhole: boolean;
  /** Redundancy-d cancel-on-complete: whether a job's replicas share one size (else iid; redundancyEngine.ts). */
  readonly identicalReplicas: boolean;
  /** Grid w_0 < w_1 < … for the time-average workload ccdf P(U > w) (may be empty). */
  readonly workloadGrid: Float64Array;
  /** Dispatcher memory: MEM_* code (sim/memory.ts; MEM_NONE without) and the ids it holds at most (≤ n). */
  readonly memoryKind: number;
  readonly memoryCapacity: number;
  /** Heterogeneous servers (serverClasses.ts): the class layout and speeds; absent for the homogeneous model. */
  readonly layout?: ServerLayout;
}

/** The mutable state one engine advances. */
export interface RunState {
  readonly store: JobStore;
  readonly occupancy: Occupancy;
  readonly measurement: Measurement;
  readonly workload: Workload;
  readonly rng: Rng;
  /** Current time (time units). */
  t: number;
}

/** A simulation engine: advances its `RunState` event by event. */
export interface Engine {
  readonly kind: EngineKind;
  readonly state: RunState;
  /** Events processed so far (arrivals + departures). */
  readonly events: number;
  /** Arrivals processed so far (= sequence number of the next arriving job). */
  readonly arrivals: number;
  /**
   * Processes events in time order until the next one would be later than `stopTime` (then t = stopTime) or
   * the measurement is DONE (then t = time of the last measured departure).
   * @param onTick called every 2^20 events with the running event count.
   */
  run(stopTime: number, onTick?: (events: number) => void): void;
  /** Ends the engine's life (the state stays readable; `run` no longer may): the race engine's kernel memory is reused. */
  release?(): void;
  /** The dispatcher's memory of idle servers, when the model has one (sim/memory.ts). */
  readonly memory?: DispatcherMemory;
  /** Heterogeneous servers: the per-class tallies of the current window (serverClasses.ts). */
  readonly classes?: ClassTally;
  /** Redundancy-d: the service the measured jobs' replicas received (redundancyEngine.ts). */
  readonly replicaWork?: ReplicaWork;
  /**
   * The event engines' job source: S and Y of the job drawn last (jobSource.ts; not on the inline exponential path),
   * read by per-job records (jobRecord.ts). The race engine has none.
   */
  readonly jobSource?: { readonly size: number; readonly pred: number };
}

/** Events between `onTick` calls. */
export const TICK_EVENTS = 1 << 20;

/** Outcomes of one engine loop: time reached the limit; the phase goal was met; the warm-up's last job arrived. */
export const [LOOP_LIMIT, LOOP_GOAL, LOOP_WARM_END] = [0, 1, 2];

/** Events per `advance` call of a chunked engine loop (a power of two dividing TICK_EVENTS; see `runChunks`). */
export const CHUNK_EVENTS = 1 << 12;
/** What `advance` returns when its chunk of events is done (the phase is not). */
export const LOOP_CHUNK = -1;

/**
 * Slots of a chunked engine's `reg` Float64Array, the loop's running doubles kept in memory rather than in locals (see
 * `runChunks`): t, the next arrival time, Σ T and Σ T/S of measured jobs. An engine may add slots after these.
 */
export const [R_T, R_NEXT, R_SUM_T, R_SUM_SLOWDOWN] = [0, 1, 2, 3];

/** An engine whose phase loop runs in chunks (`runChunks`): its event count, chunk counters and one chunk's loop. */
export interface ChunkedLoop {
  readonly events: number;
  /** Events left in the current chunk (`advance` counts it down to 0) and chunks left until the next `onTick`. */
  chunkLeft: number;
  chunksToTick: number;
  /** At most `chunkLeft` events of the current phase; returns a LOOP_* code or LOOP_CHUNK. */
  advance(limit: number): number;
}

/**
 * The phase loop of the FIFO and priority engines: their events run in chunks of CHUNK_EVENTS, one `advance` call
 * each, so that V8 runs them in `advance`'s regular optimised code. One long loop per phase runs as
 * on-stack-replacement (OSR) code, where doubles carried between iterations are boxed (a HeapNumber per update:
 * ~55 B of garbage per event) and values taken over are checked at every use (~12 % slower). `advance`'s own OSR
 * code (compiled while the first calls still run in the interpreter) must depend on the state object's field types
 * (one load through `this.state` per arrival), so that it is discarded with the regular code when a later run's
 * objects settle the maps. `onTick` is called every TICK_EVENTS events. Returns `advance`'s LOOP_* code.
 */
export function runChunks(engine: ChunkedLoop, onTick: ((events: number) => void) | undefined, limit: number): number {
  for (;;) {
    const code = engine.advance(limit);
    if (engine.chunkLeft === 0) {
      engine.chunkLeft = CHUNK_EVENTS;
      if (--engine.chunksToTick === 0) {
        engine.chunksToTick = TICK_EVENTS / CHUNK_EVENTS;
        if (onTick !== undefined) onTick(engine.events);
      }
    }
    if (code !== LOOP_CHUNK) return code;
  }
}

/** What `runPhases` needs from an engine: its state, arrival count and phase loop. */
export interface PhaseLoop {
  readonly state: RunState;
  readonly arrivals: number;
  /** Runs within the current phase up to `limit`; returns a LOOP_* code. */
  loop(limit: number, onTick: ((events: number) => void) | undefined): number;
}

/**
 * The phase machine shared by the engines (theory.md §8): warm-up until `warmupTime` or until the arrival with
 * sequence number `stopSeq` (replay), then the window opens (occupancy and workload integrals restart, the next
 * arrival is the first measured job); after the last measured arrival the window closes and the run drains the
 * measured jobs. Phase changes happen here, outside the hot loops.
 */
export function runPhases(engine: PhaseLoop, stopTime: number, onTick?: (events: number) => void): void {
  const state = engine.state;
  const m = state.measurement;
  for (;;) {
    if (m.phase === DONE) return;
    if (m.phase === WARMUP) {
      const toWarm = m.warmupTime < stopTime;
      const code = engine.loop(toWarm ? m.warmupTime : stopTime, onTick);
      if (code === LOOP_LIMIT && !toWarm) return;
      openWindow(engine);
      continue;
    }
    if (engine.loop(stopTime, onTick) === LOOP_LIMIT) return;
    if (m.phase === MEASURING) closeWindow(state);
    else m.phase = DONE;
  }
}

/** The warm-up ends at the state's time t: the integrals restart, the next arrival is the first measured job. */
export function openWindow(engine: PhaseLoop): void {
  const { occupancy, workload, measurement: m, t } = engine.state;
  occupancy.begin(t);
  workload.begin(t);
  m.windowStart = t;
  m.firstSeq = engine.arrivals;
  m.phase = MEASURING;
}

/** The last measured job arrived at the state's time t: the integrals close there and the measured jobs drain. */
export function closeWindow(state: RunState): void {
  const { occupancy, workload, measurement: m, t } = state;
  occupancy.end(t);
  workload.end(t);
  m.windowEnd = t;
  m.lastMeasured = t;
  m.phase = DRAINING;
}
