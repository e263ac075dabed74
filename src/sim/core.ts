/**
 * What every engine shares: its run configuration, the state it advances (job store, occupancy counts,
 * measurement window, random stream) and the interface the drivers (`simulate`, `simulateTrajectory`) use.
 */
import type { JobStore } from './jobStore.ts';
import type { Measurement } from './measurement.ts';
import type { Occupancy } from './occupancy.ts';
import type { Rng } from './rng.ts';

/** Engine names: the general discrete-event engine, or the exponential race fast path. */
export type EngineKind = 'event' | 'race';

/** Resolved, validated parameters of one run (time in the model's time units). */
export interface RunConfig {
  /** Servers. */
  readonly n: number;
  /** Choices per arrival. */
  readonly d: number;
  /** Arrival rate per server; the system rate is λn. */
  readonly lambda: number;
  /** Mean service time E[S] (exponential sizes). */
  readonly serviceMean: number;
  /** Sample the d servers without replacement (distinct servers). */
  readonly withoutReplacement: boolean;
}

/** The mutable state one engine advances. */
export interface RunState {
  readonly store: JobStore;
  readonly occupancy: Occupancy;
  readonly measurement: Measurement;
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
  /**
   * Processes events in time order until the next one would be later than `stopTime` (then t = stopTime) or
   * the measurement is DONE (then t = time of the last measured departure).
   * @param onTick called every 2^20 events with the running event count.
   */
  run(stopTime: number, onTick?: (events: number) => void): void;
}

/** Events between `onTick` calls. */
export const TICK_EVENTS = 1 << 20;
