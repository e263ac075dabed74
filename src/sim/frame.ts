/**
 * The engine frame: what the event-driven engines (FIFO event, priority, sharing, redundancy) share around their hot
 * loops. Setup: the job source and its first arrival, the sampling permutation, the LPW state, the dispatcher memory
 * of idle servers, the batch dispatcher and the per-class tallies of heterogeneous servers, made once per run in one
 * order (the first arrival's draws, then the memory's), so that every engine consumes its random stream alike. The
 * phase loop: `run` → `runPhases` (warm-up → measuring → draining) → `runChunks` → the engine's `advance`. The chunk's
 * opening and closing: the running doubles loaded into `reg`, the window's side tallies following the phase, the
 * counters and measured totals saved when `advance` returns. Only `advance`, the hot loop, is the engine's own (its
 * locals, typed arrays, no closure or polymorphic call per event); the frame's methods run once per chunk of
 * CHUNK_EVENTS events. Source: theory.md §8 (phases and window), §12 (memory), §13 (speeds), §15 (batches).
 */
import type { Engine, EngineKind, PhaseLoop, ChunkedLoop, RunConfig, RunState } from './core.ts';
import { CHUNK_EVENTS, R_NEXT, R_SUM_SLOWDOWN, R_SUM_T, R_T, SEL_LPW, SEL_LWL, TICK_EVENTS, runChunks, runPhases } from './core.ts';
import { BatchDispatcher } from './batch.ts';
import { JobSource } from './jobSource.ts';
import { MEASURING } from './measurement.ts';
import { DispatcherMemory, MEM_NONE } from './memory.ts';
import { identityPermutation } from './selection/jsqd.ts';
import { LpwState } from './selection/leastWork.ts';
import { ClassTally } from './serverClasses.ts';

export abstract class EngineFrame implements Engine, PhaseLoop, ChunkedLoop {
  abstract readonly kind: EngineKind;
  /** Events processed so far (arrivals + departures) and arrivals (= sequence number of the next arriving job). */
  events = 0;
  arrivals = 0;
  /** Events left in the current chunk, and chunks left until the next `onTick` (`runChunks`). */
  chunkLeft = CHUNK_EVENTS;
  chunksToTick = TICK_EVENTS / CHUNK_EVENTS;
  /**
   * The loop's running doubles, kept in memory rather than in locals: t, the next arrival time (+∞ once a replayed
   * trace is exhausted), Σ T, Σ T/S of measured jobs (core.ts R_*), and the engine's own slots after them. V8 runs a
   * phase's long loop in on-stack-replacement code, where a double carried from one iteration to the next is a tagged
   * value and each update allocates a HeapNumber; Float64Array slots are never boxed.
   */
  protected readonly reg: Float64Array;
  /** The sampling permutation of d distinct servers (selection/jsqd.ts). */
  protected readonly perm: Int32Array;
  /** Sizes, predictions and arrival times (jobSource.ts). */
  protected readonly source: JobSource;
  /** LPW's predicted-work bookkeeping (empty arrays unless the rule is LPW). */
  protected readonly lpw: LpwState;
  /** The dispatcher's memory of idle servers (theory.md §12), when the model has one. */
  readonly memory: DispatcherMemory | undefined;
  /** Batch dispatch (theory.md §15), when batches have K > 1 jobs. */
  protected readonly batch: BatchDispatcher | undefined;
  /** Heterogeneous servers: the per-class tallies of the current window (serverClasses.ts). */
  readonly classes: ClassTally | undefined;

  /**
   * Makes the shared pieces over `state` (whose jobs the engine takes over after this) and draws the first arrival.
   * @param slots length of `reg`: 4 shared slots (core.ts R_*) and the engine's own after them.
   */
  constructor(
    readonly config: RunConfig,
    readonly state: RunState,
    slots: number,
  ) {
    const { n } = config;
    const { rng, store } = state;
    this.reg = new Float64Array(slots);
    this.perm = identityPermutation(n);
    this.source = new JobSource(config);
    this.lpw = new LpwState(config.selection === SEL_LPW ? n : 0);
    this.reg[R_NEXT] = this.source.firstArrival(state.t, rng);
    const byWork = config.selection === SEL_LWL;
    this.memory =
      config.memoryKind === MEM_NONE ? undefined : new DispatcherMemory(config.memoryKind, config.memoryCapacity, n, config.d, byWork);
    this.memory?.fillIdle(store.len, rng);
    this.batch =
      config.batchSize > 1
        ? new BatchDispatcher(config.batchSize, config.d, config.batchWhole, byWork, config.batchLaw && this.source)
        : undefined;
    this.classes = config.layout === undefined ? undefined : new ClassTally(config.layout);
    this.classes?.recount(store.len);
  }

  /** See `Engine.jobSource`. */
  get jobSource(): JobSource {
    return this.source;
  }

  /** See `Engine.run` and `runPhases`. */
  run(stopTime: number, onTick?: (events: number) => void): void {
    runPhases(this, stopTime, onTick);
  }

  /**
   * The hot loop within one phase; returns a LOOP_* code: LIMIT when the next clock is later than `limit` (t is then
   * `limit`; the clocks are absolute, so nothing else changes), GOAL when the phase's goal was met (the last measured
   * arrival while MEASURING, the last measured departure while DRAINING), WARM_END when the warm-up's stop arrival is
   * next (replay; t is its time, it is not processed). The events run in chunks (`runChunks` in core.ts says why).
   */
  loop(limit: number, onTick: ((events: number) => void) | undefined): number {
    return runChunks(this, onTick, limit);
  }

  /** At most `chunkLeft` events of the current phase; returns a LOOP_* code or LOOP_CHUNK. The engine's hot loop. */
  abstract advance(limit: number): number;

  /**
   * Opens a chunk of `advance`: t, Σ T and Σ T/S into `reg`; the memory's counters run while the window is open, and
   * the per-class window opens with the measurement's (a new measurement object: the next batch of a batch-means run).
   */
  protected openChunk(): void {
    const state = this.state;
    const m = state.measurement;
    const reg = this.reg;
    reg[R_T] = state.t;
    reg[R_SUM_T] = m.sumResponse;
    reg[R_SUM_SLOWDOWN] = m.sumSlowdown;
    const measuring = m.phase === MEASURING;
    const memory = this.memory;
    if (memory !== undefined && measuring !== memory.counting) {
      if (measuring) memory.startCounting();
      else memory.counting = false;
    }
    const tally = this.classes;
    if (tally !== undefined && measuring && tally.owner !== m) tally.begin(m, m.windowStart);
  }

  /** Closes a chunk of `advance`: its counters and the measured totals it kept in locals and `reg` are saved. */
  protected closeChunk(
    events: number,
    arrivals: number,
    chunkLeft: number,
    measuredArrivals: number,
    measuredInSystem: number,
    slowdownJobs: number,
    completed: number,
  ): void {
    this.events = events;
    this.arrivals = arrivals;
    this.chunkLeft = chunkLeft;
    const reg = this.reg;
    this.state.t = reg[R_T];
    this.state.measurement.save({
      measuredArrivals,
      measuredInSystem,
      sumResponse: reg[R_SUM_T],
      sumSlowdown: reg[R_SUM_SLOWDOWN],
      slowdownJobs,
      completed,
    });
  }
}
