/**
 * What every engine shares: its run configuration, the state it advances (job store, occupancy counts,
 * measurement window, random stream) and the interface the drivers (`simulate`, `simulateTrajectory`,
 * `simulateReplay`) use, plus the phase machine (warm-up → measuring → draining → done) all engines run.
 */
import type { PredictionModel } from '../model/prediction/index.ts';
import type { ServiceDistribution } from '../model/service/index.ts';
import type { JobStore } from './jobStore.ts';
import { DONE, DRAINING, MEASURING, WARMUP, type Measurement } from './measurement.ts';
import type { Occupancy } from './occupancy.ts';
import type { Rng } from '../stats/rng.ts';
import type { Workload } from './workload.ts';

/** Engine names: the FIFO event engine, the priority (size-/prediction-based) event engine, the exponential race. */
export type EngineKind = 'event' | 'priority' | 'race';

/** Selection rule codes (theory.md §1), chosen once per run. */
export const SEL_RANDOM = 0;
export const SEL_JSQ = 1;
export const SEL_LWL = 2;
export const SEL_LPW = 3;

/** Discipline codes, in the order of `DISCIPLINES` (theory.md §1 table). */
export const D_FIFO = 0;
export const D_SJF = 1;
export const D_PSJF = 2;
export const D_SRPT = 3;
export const D_SPJF = 4;
export const D_PSPJF = 5;
export const D_SPRPT = 6;

/** LPW work codes: 'clip' Σ(Y − a)^+, 'signed' Σ(Y − a), 'static' ΣY. */
export const LPW_CLIP = 0;
export const LPW_SIGNED = 1;
export const LPW_STATIC = 2;

/** Size source codes: inline exponential, a `ServiceDistribution`, an empirical index shared with trace predictions, a replayed trace. */
export const SIZE_EXP = 0;
export const SIZE_DIST = 1;
export const SIZE_INDEXED = 2;
export const SIZE_TRACE = 3;

/** Prediction source codes: exact (Y = S), a `PredictionModel`, the trace column at the sampled index, a replayed column. */
export const PRED_EXACT = 0;
export const PRED_MODEL = 1;
export const PRED_INDEXED = 2;
export const PRED_TRACE = 3;

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
  /** Grid w_0 < w_1 < … for the time-average workload ccdf P(U > w) (may be empty). */
  readonly workloadGrid: Float64Array;
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
}

/** Events between `onTick` calls. */
export const TICK_EVENTS = 1 << 20;

/** Outcomes of one engine loop: time reached the limit; the phase goal was met; the warm-up's last job arrived. */
export const LOOP_LIMIT = 0;
export const LOOP_GOAL = 1;
export const LOOP_WARM_END = 2;

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
  const { occupancy, workload, measurement: m } = state;
  for (;;) {
    if (m.phase === DONE) return;
    if (m.phase === WARMUP) {
      const toWarm = m.warmupTime < stopTime;
      const code = engine.loop(toWarm ? m.warmupTime : stopTime, onTick);
      if (code === LOOP_LIMIT && !toWarm) return;
      const t0 = state.t;
      occupancy.begin(t0);
      workload.begin(t0);
      m.windowStart = t0;
      m.firstSeq = engine.arrivals;
      m.phase = MEASURING;
      continue;
    }
    if (engine.loop(stopTime, onTick) === LOOP_LIMIT) return;
    if (m.phase === MEASURING) {
      occupancy.end(state.t);
      workload.end(state.t);
      m.windowEnd = state.t;
      m.lastMeasured = state.t;
      m.phase = DRAINING;
    } else {
      m.phase = DONE;
    }
  }
}
