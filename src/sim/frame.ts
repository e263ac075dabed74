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
import {
  CHUNK_EVENTS,
  LOOP_CHUNK,
  R_NEXT,
  R_SUM_SLOWDOWN,
  R_SUM_T,
  R_T,
  SEL_LPW,
  SEL_LWL,
  TICK_EVENTS,
  closeWindow,
  openWindow,
  runChunks,
  runPhases,
} from './core.ts';
import { BatchDispatcher } from './batch.ts';
import { recycle } from './buffers.ts';
import { initialState } from './initialState.ts';
import { JobSource } from './jobSource.ts';
import { MEASURING, Measurement } from './measurement.ts';
import { DispatcherMemory, MEM_NONE } from './memory.ts';
import { PAIR_MAX_N, identityPermutation } from './selection/jsqd.ts';
import { LpwState } from './selection/leastWork.ts';
import { ClassTally } from './serverClasses.ts';
import { Rng, ZIG_X } from '../stats/rng.ts';

/**
 * Loop priming (issue 23). V8 optimises an engine's `advance` once it is hot, on the type feedback gathered so far; a
 * site that has never run has none, and optimised code that reaches it is thrown away ("insufficient type feedback")
 * and compiled again. In a run the warm-up makes `advance` hot before any measured arrival or departure has run, so
 * the measuring and draining sites used to cost two or three extra compiles of the loop (and the slow code between
 * them) in every fresh process or worker: `simulate --engine event` (n 1000, 4 × 200 k jobs) compiled it 5 times.
 * So before its first run of a loop shape (engine kind and the settings that pick its branches, `loopShape`), a
 * thread runs that engine's `advance` through every phase on a tiny private state: a few hundred warm-up events ended
 * by the time limit, measured arrivals up to the goal, a drain until some measured jobs left. That state has its own
 * random stream from the constant PRIME_SEED (not a `streamSeed`: nothing it draws is reported) and is discarded; the
 * real run's state, stream and every number it reports are untouched (test/sim/loopPriming.test.ts runs models with
 * priming off and on and compares the results bit for bit). Once per shape and thread, n ≤ PRIME_MAX_N (above, a run
 * is long enough that the recompiles do not matter and the state would be large): 15–80 ms of CPU in a fresh process
 * (n = 10³ … 2^16, load ~10), part of it first-use work the run would do anyway; a whole `simulate --n 1000 --jobs
 * 200000 --replications 4` took 18–23 % less process CPU (event, SRPT, PS; 6 runs A/B, load ~9). The sites reached only
 * when a queue first grows past the rings' capacity are primed too, up to PRIME_GROWTH_MAX_N servers (`primeGrowth`).
 * The race engine's TypeScript loop (race.ts) is primed the same way (`primeLoop`, `PrimedLoop`): it compiled 4–5
 * times in a fresh process (JSQ(2), d = 3, d = 1, n 10 … 1000, 4 × 200 k jobs), once (and once OSR) since, with no
 * code thrown away; the random stream's rare steps, which every loop inlines, are run once per thread on a private
 * stream (`primeRngSteps`).
 */
export const PRIME_SEED = 0x7072696d65n; // "prime"
/** Largest n primed: the priming state has n servers (the shape depends on n, e.g. the JSQ(2) pair rule's n ≤ 2^16). */
export const PRIME_MAX_N = PAIR_MAX_N;
/** Largest n whose growth sites are primed too (`primeGrowth`: every server holds a full ring). */
const PRIME_GROWTH_MAX_N = 4096;
/** Warm-up events of a priming run, and its drain's event budget and the measured departures it waits for. */
const [PRIME_WARM_EVENTS, PRIME_DRAIN_EVENTS, PRIME_DEPARTURES] = [512, 1 << 14, 4];
/** Loop shapes primed in this thread (`loopShape`). */
const primedShapes = new Set<string>();
let primingOn = true;

/**
 * Turns loop priming on or off in this thread (on by default) and forgets the shapes primed so far; returns the
 * previous setting. For tests and measurements: results are the same either way.
 */
export function setLoopPriming(on: boolean): boolean {
  const before = primingOn;
  primingOn = on;
  primedShapes.clear();
  return before;
}

/** Loop shapes primed in this thread since the last `setLoopPriming`. */
export function primedLoopShapes(): number {
  return primedShapes.size;
}

/**
 * What picks the branches an engine's `advance` takes (and the types its sites see): its kind, the configuration's
 * codes, which optional parts the model has, the service and prediction laws' classes, and how the run records its
 * jobs. Runs of one shape reach the same sites; a site this misses costs at worst one recompile, as before priming.
 */
function loopShape(engine: PrimedLoop): string {
  const c = engine.config;
  const m = engine.state.measurement;
  return [
    engine.kind,
    c.d,
    c.n <= PAIR_MAX_N,
    c.withoutReplacement,
    c.selection,
    c.discipline,
    c.lpwMode,
    c.psjfRemaining,
    c.sprptZero,
    c.sizeKind,
    c.service.constructor.name,
    c.predKind,
    c.prediction.constructor.name,
    c.arrivalKind,
    c.batchSize > 1,
    c.batchLaw !== undefined,
    c.batchWhole,
    c.identicalReplicas,
    c.workloadGrid.length > 0,
    c.memoryKind,
    c.layout !== undefined,
    m.stopSeq >= 0,
    m.responses.constructor.name,
    engine.state.workload.constructor.name,
  ].join();
}

/**
 * What loop priming needs of an engine: its kind, configuration and state (which give its loop shape), its phase loop,
 * and `primeStep`, which runs its hot loop for at most `events` events within the current phase up to `limit` and
 * returns the loop's LOOP_* code (LOOP_CHUNK when the events are done). The event-driven engines (EngineFrame) and
 * the race engine's TypeScript loop are primed.
 */
export interface PrimedLoop extends PhaseLoop {
  readonly kind: EngineKind;
  readonly config: RunConfig;
  primeStep(limit: number, events: number): number;
}

/**
 * Runs a fresh engine's loop through every phase (see the priming note above): warm-up events, an exit at the
 * time limit (and, in replay, at the stop arrival), measured arrivals up to the goal, a drain until PRIME_DEPARTURES
 * measured jobs have left or its budget is spent.
 */
function primePhases(engine: PrimedLoop): void {
  const state = engine.state;
  const m = state.measurement;
  // short calls, so that the small functions `advance` inlines (openChunk, closeChunk, Measurement.save) run often
  // enough for V8 to give them type feedback too (it allocates a function's feedback only after some use)
  const chunk = 16;
  const step = (limit: number) => engine.primeStep(limit, chunk);
  for (let left = PRIME_WARM_EVENTS; left > 0 && step(Infinity) === LOOP_CHUNK; left -= chunk);
  step(state.t);
  openWindow(engine);
  while (step(Infinity) === LOOP_CHUNK);
  closeWindow(state);
  for (let left = PRIME_DRAIN_EVENTS; left > 0 && step(Infinity) === LOOP_CHUNK && m.completed < PRIME_DEPARTURES; left -= chunk);
}

/**
 * Primes `engine`'s loop once per loop shape and thread (the priming note above): a twin over a private state runs
 * every phase, then its state is dropped; then `growth`, if given (with the job store's ring capacity and whether
 * responses are stored exactly), primes the growth sites, up to PRIME_GROWTH_MAX_N servers. Changes nothing of `engine` or its
 * state. Also primes the random stream's rare steps once per thread (`primeRngSteps`).
 */
export function primeLoop(
  engine: PrimedLoop,
  twin: (state: RunState) => PrimedLoop | undefined,
  growth?: (cap: number, exactResponses: boolean) => void,
): void {
  const config = engine.config;
  if (!primingOn || config.n > PRIME_MAX_N) return;
  const shape = loopShape(engine);
  if (primedShapes.has(shape)) return;
  primedShapes.add(shape);
  primeRngSteps();
  const real = engine.state.measurement;
  const n = config.n;
  // jobs: enough that measured jobs leave while the window is open at any n (the first after ~√(2λn) arrivals)
  const jobs = 64 + 2 * Math.ceil(Math.sqrt(n));
  // the window opens at a time reached after ~PRIME_WARM_EVENTS / 4 events at the latest (the event rate is ≥ λn):
  // the race loop tells measured jobs by arrival time (the event engines by sequence number)
  const warm = PRIME_WARM_EVENTS / (4 * (config.lambda + 1 / config.serviceMean) * n);
  const measurement = new Measurement(
    warm > 0 && Number.isFinite(warm) ? warm : Infinity,
    jobs,
    real.stopSeq >= 0 ? PRIME_WARM_EVENTS >> 2 : -1,
    real.responses instanceof Float64Array,
  );
  // a loaded start (half the servers busy, some with 2 and 3 jobs), so that every kind of arrival and departure runs at once
  // (at most 512 busy servers: the setup's work stays small at large n)
  const counts = [Math.min(Math.ceil(n / 2), 512), Math.min(Math.ceil(n / 4), 256), Math.min(Math.ceil(n / 8), 128)];
  const state = initialState(config, engine.kind, new Rng(PRIME_SEED), measurement, counts);
  const cap = state.store.cap;
  const primed = twin(state);
  if (primed !== undefined) primePhases(primed);
  state.store.recycle();
  if (measurement.responses instanceof Float32Array) recycle(measurement.responses);
  if (primed !== undefined && growth !== undefined && n <= PRIME_GROWTH_MAX_N) growth(cap, real.responses instanceof Float64Array);
}

/** Whether this thread's Rng steps are primed (`primeRngSteps`). */
let rngStepsPrimed = false;

/**
 * The random stream's rare steps, run once per thread on a private stream (PRIME_SEED), so that every site in them has
 * type feedback before an engine's loop, which inlines them, is optimised: the ziggurat's tail and wedge steps with
 * refills of the buffer inside them (`expOutsideCore`, reached by ~1 % of exponential draws; its tail by ~0.04 %).
 * The hot loops' own call sites are primed by running them.
 */
function primeRngSteps(): void {
  if (rngStepsPrimed) return;
  rngStepsPrimed = true;
  const rng = new Rng(PRIME_SEED);
  for (let k = 0; k < 1024; k++) {
    rng.next = rng.buffer.length - (k & 3); // refills inside the step too
    rng.expOutsideCore(k & 255, ZIG_X[(k & 255) + 1]);
  }
}

export abstract class EngineFrame implements Engine, PrimedLoop, ChunkedLoop {
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

  /** See `Engine.run` and `runPhases`; the first run of its loop shape in this thread primes the loop first (`primeLoop`). */
  run(stopTime: number, onTick?: (events: number) => void): void {
    primeLoop(
      this,
      (state) => this.twin(state),
      (cap, exactResponses) => this.primeGrowth(cap, exactResponses),
    );
    runPhases(this, stopTime, onTick);
  }

  /**
   * A new engine of this one's kind and configuration over `state`, for loop priming; undefined (the default): the
   * engine is not primed.
   */
  protected twin(_state: RunState): EngineFrame | undefined {
    return undefined;
  }

  /** See `PrimedLoop`: at most `events` events of the current phase (`advance` with chunkLeft = events). */
  primeStep(limit: number, events: number): number {
    this.chunkLeft = events;
    return this.advance(limit);
  }

  /**
   * The loop's growth sites (a queue past the rings' capacity `cap`, a new occupancy level), which a run meets only when
   * a queue first grows that long: every server starts full of jobs too long to leave and the occupancy arrays one
   * level short, so that the first arrival grows both.
   */
  private primeGrowth(cap: number, exactResponses: boolean): void {
    const n = this.config.n;
    const full = new Array<number>(cap).fill(n);
    const state = initialState(this.config, this.kind, new Rng(PRIME_SEED), new Measurement(Infinity, 0, -1, exactResponses), full);
    // jobs that never leave in the priming (departures are primed already): the first arrival meets full servers only
    state.store.size.fill(1e9);
    state.store.pred.fill(1e9);
    const o = state.occupancy;
    o.count = o.count.slice(0, cap + 1);
    o.area = o.area.slice(0, cap + 1);
    o.last = o.last.slice(0, cap + 1);
    const twin = this.twin(state)!;
    for (let k = 0; k < 4 && state.store.cap === cap; k++) twin.primeStep(Infinity, 16);
    state.store.recycle();
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
