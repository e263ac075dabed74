/**
 * The race fast path: with exponential sizes every clock is memoryless, so no event list is needed. The time
 * to the next event is Exp(λn + μ·B) with B busy servers, and the event is an arrival with probability
 * λn/(λn + μB), else a departure from a uniformly chosen busy server. Exact in law for JSQ(d) (any rule that
 * reads queue lengths only) with exponential sizes and a size-blind, non-idling discipline (FIFO here); job
 * sizes are never drawn: a job's size is read off as the time from its service start (its arrival or the previous
 * departure at its server, whichever is later) to its departure, which gives slowdowns T/S exactly.
 * `simulate` picks it automatically only for such models.
 *
 * The event loop is a WebAssembly kernel (assembly/race.ts, compiled into ./wasm/raceKernel.ts by `npm run
 * build:wasm`; issue 9): the same events, the same random stream draw for draw (src/stats/rng.ts's xoshiro128**
 * buffer, ziggurat, Lemire and pair rule; the ziggurat tables and the rare paths' Math.exp/Math.log come from JS),
 * the same float operations in the same order, so every seeded number is what the TypeScript loop gave.
 * One compiled module per thread (on first use, synchronous); one instance and memory per live engine, reused by the
 * thread's next engine once `release` ends this one's life (`withEngine` in simulate.ts). The job store's
 * queue lengths and the engine's server records, busy list, per-busy-count table (`byBusy`) and permutation live in that memory (the
 * objects hold views on it), so a `run` costs no copy of O(n) state: a trajectory calls `run` once per sample time.
 * Per call only the occupancy counts/areas (O(levels)), the Rng's 256-output buffer and the new response times are
 * copied. A full queue returns LOOP_GROW: the arrays are copied out, the spill area doubles, and they go back into a
 * re-laid-out memory (views re-made). Every 2^20 events the kernel returns so JS calls `onTick`
 * (with the same counts as before, after that event instead of before it) and V8 switches to the kernel's optimised code.
 * The same loop also exists in plain TypeScript (`RaceEngine.advance`, issue 23), run instead of the kernel after
 * `setRaceLoop('typescript')`: same events, same draws, same float operations, same results bit for bit
 * (test/sim/raceIdentity.test.ts holds both to the same pins). npm run bench times both beside the C race.
 *
 * Memory layout (issue 23): a server's queue is one record of 8 doubles (64 bytes, one cache line), its last departure
 * time and then its first 7 jobs' arrival times oldest first, later jobs in a spill area that grows on demand, so an
 * event touches one cache line of its server besides its queue length and the busy list. A ring per server (head
 * index, ring slot and last departure in three arrays, the ring's live slot wandering over 512 bytes) made the kernel
 * at n = 10⁴ run at half the rate of n ≤ 10³ once those arrays outgrew the 512 KB L2 cache: JSQ(2), λ = 0.95, loop
 * alone, 7.2–8.4 → 13.8–16.9 M events per CPU second (n = 10³: 18–19 both; cachegrind per event at n = 10⁴:
 * instructions 362 → 339, D1 misses 5.0 → 3.0, misses of a 512 KB LL 1.7 → 0.6).
 * Source: ../shared/bench/reference-sim.c (variant race); competing exponential clocks.
 */
import type { Engine, RunConfig, RunState } from './core.ts';
import { CHUNK_EVENTS, LOOP_CHUNK, LOOP_GOAL, LOOP_LIMIT, TICK_EVENTS, runPhases } from './core.ts';
import { DRAINING, MEASURING, WARMUP } from './measurement.ts';
import { PAIR_MAX_N, identityPermutation } from './selection/jsqd.ts';
import { PRIME_SEED, type PrimedLoop, primeLoop } from './frame.ts';
import { RACE_WASM } from './wasm/raceKernel.ts';
import { Rng, ZIG_F, ZIG_R, ZIG_X } from '../stats/rng.ts';
import { SolverError } from '../errors.ts';

/** Kernel return codes beyond core's LOOP_LIMIT / LOOP_GOAL (as in assembly/race.ts). */
const [LOOP_GROW, LOOP_TICK] = [3, 4];
/** Selection modes of the kernel: the JSQ(2) pair rule (n ≤ PAIR_MAX_N), d i.i.d. draws, d distinct by Fisher–Yates. */
const [SELECT_PAIR, SELECT_IID, SELECT_FISHER_YATES] = [0, 1, 2];
/** Parameter block slots (f64 each), as in assembly/race.ts. */
const [P_T, P_LIMIT, P_WARM, P_LAST_MEASURED, P_JOBS_TARGET, P_EVENTS] = [0, 1, 4, 5, 6, 7]; // 2, 3: unused
const P_MEASURED_ARRIVALS = 10;
const [P_BUSY_COUNT, P_RNG_NEXT, P_ZIG_R, P_PENDING, P_S0, P_TICK_DUE] = [16, 17, 18, 19, 20, 24];
/** Running totals in consecutive slots: the engine's from P_EVENTS, the measurement's from P_MEASURED_ARRIVALS, the Rng's words from P_S0. */
const ENGINE_TOTALS = ['events', 'arrivals', 'tick'] as const;
const MEASURED_TOTALS = ['measuredArrivals', 'measuredInSystem', 'sumResponse', 'completed', 'sumSlowdown', 'slowdownJobs'] as const;

/** Fixed memory layout (bytes): page 0 is the AssemblyScript module's; then the parameter block, the Rng buffer, the ziggurat tables. */
const PAGE = 65536;
const P = PAGE;
const RNG = P + 256;
const ZX = RNG + 1024;
const ZF = ZX + 8 * 257;
const DYNAMIC = ZF + 8 * 257;
/** A wasm32 memory holds at most 65 536 pages (4 GiB). */
const MAX_MEMORY = 65536 * PAGE;

type RaceExport = (...args: number[]) => number;

let compiled: WebAssembly.Module | undefined;

/** The compiled kernel, once per thread (synchronous: 3 KB of wasm, a few ms). atob, not Node's Buffer: it runs in browsers too (the explorer). */
function raceModule(): WebAssembly.Module {
  return (compiled ??= new WebAssembly.Module(Uint8Array.from(atob(RACE_WASM), (c) => c.charCodeAt(0))));
}

/** One kernel instance with its memory: what an engine holds while it runs. */
interface KernelSlot {
  memory: WebAssembly.Memory;
  race: RaceExport;
}

/**
 * Kernels returned by released engines, for the next engine of this thread (a module's state is per thread). A wasm
 * memory never shrinks and each one is a large reservation that V8 counts as external memory (one per run made a
 * pool worker run ~10 major GCs a minute; issue 9), so a worker keeps a few and reuses them.
 */
const freeSlots: KernelSlot[] = [];
/** Most kernels kept free per thread, and the largest memory kept (bytes; a larger one is left to the GC). */
const [MAX_FREE_SLOTS, MAX_KEPT_MEMORY] = [2, 256 * 2 ** 20];

/**
 * A kernel for a new engine: a free one (the largest, so the fewest `grow`s), else a new instance over a new memory.
 * Nothing a run reads is left from an earlier run: `bind` writes every resident array, `loop` the parameter block,
 * the occupancy arrays and the Rng buffer before each call; the ziggurat tables are written here (constants); the
 * kernel only writes the response area and page 0 (the module's own) holds no state between calls.
 */
function takeSlot(): KernelSlot {
  let slot = freeSlots.pop();
  if (slot === undefined) {
    const memory = new WebAssembly.Memory({ initial: 2 });
    const instance = new WebAssembly.Instance(raceModule(), { env: { memory }, race: { hostExp: Math.exp, hostLog: Math.log } });
    slot = { memory, race: instance.exports.race as RaceExport };
  }
  new Float64Array(slot.memory.buffer, ZX, 257).set(ZIG_X);
  new Float64Array(slot.memory.buffer, ZF, 257).set(ZIG_F);
  return slot;
}

/** Puts a released engine's kernel back on this thread's free list (largest last), unless the list is full or it is too big. */
function giveSlot(slot: KernelSlot): void {
  if (slot.memory.buffer.byteLength > MAX_KEPT_MEMORY) return;
  freeSlots.push(slot);
  freeSlots.sort((a, b) => a.memory.buffer.byteLength - b.memory.buffer.byteLength);
  if (freeSlots.length > MAX_FREE_SLOTS) freeSlots.shift();
}

/** The memories of this thread's free kernels, smallest first (tests fill them with garbage to show no run reads it). */
export function freeKernelMemories(): WebAssembly.Memory[] {
  return freeSlots.map((slot) => slot.memory);
}

/** Empties this thread's free list, so the next engine gets a fresh kernel (tests compare fresh and reused runs). */
export function dropFreeKernels(): void {
  freeSlots.length = 0;
}

/**
 * Which loop a new race engine runs: the WebAssembly kernel (assembly/race.ts) or the same loop in TypeScript
 * (`RaceEngine.advance`): the same events, the same random stream draw for draw, the same float operations in the same
 * order, so every seeded number is the same bit for bit (test/sim/raceIdentity.test.ts pins both).
 */
export type RaceLoop = 'wasm' | 'typescript';
let raceLoopKind: RaceLoop = 'wasm';

/** The loop that race engines built now (in this thread) run. */
export function currentRaceLoop(): RaceLoop {
  return raceLoopKind;
}

/** Sets the loop that race engines built from now on (in this thread) run; returns the previous setting. */
export function setRaceLoop(kind: RaceLoop): RaceLoop {
  const before = raceLoopKind;
  raceLoopKind = kind;
  return before;
}

/** Outputs of the Rng's buffer (stats/rng.ts), and the most one event's fast path reads of it. */
export const [RNG_OUTPUTS, EVENT_DRAWS] = [256, 5];

/** Scratch for `topUpStream`: a copy of the Rng's buffer and its read position and four words (`Rng.handOver`'s layout). */
const streamBuffer = new Int32Array(RNG_OUTPUTS);
const streamSlots = new Float64Array(5);

/**
 * `rng.topUp()` for the TypeScript race loop and the FIFO event engine's arrivals (engine.ts): moves the unread outputs buffer[next..256) to the front and computes the
 * stream's next xoshiro128** outputs after them (next = 0), the same outputs as `Rng.fill` computes (×5 and ×9 of its
 * `(x·c) | 0` are `Math.imul`, the same low 32 bits). Through `handOver`/`resume` (two 1 KB copies per ~60 events): the
 * generator step here, as a small function of its own, costs ~55 fewer instructions per event than the Rng's own step
 * inlined in the loop (cachegrind, bench model).
 */
export function topUpStream(rng: Rng): void {
  rng.handOver(streamBuffer, streamSlots, 0, 1);
  fillStream();
  rng.resume(streamBuffer, streamSlots, 0, 1);
}

/**
 * `topUpStream`'s step on the stream as `handOver` left it in streamBuffer and streamSlots (read position, four
 * words): moves the unread outputs to the front and computes the next ones after them; read position 0. The
 * TypeScript race loop reads the stream there between its rare steps (module constants: TurboFan reads them at
 * fixed addresses with a constant length).
 */
function fillStream(): void {
  const buffer = streamBuffer;
  const slots = streamSlots;
  const next = slots[0] | 0;
  // bounds as literals (RNG_OUTPUTS = 256): a local `end` was spilled and re-checked for overflow every round
  let k = 0;
  for (let q = next; q < 256; q++) buffer[k++] = buffer[q];
  let s0 = slots[1] | 0;
  let s1 = slots[2] | 0;
  let s2 = slots[3] | 0;
  let s3 = slots[4] | 0;
  // eight outputs a round, then the rest one by one
  for (; k <= 248; k += 8) {
    let m: number;
    let t: number;
    m = Math.imul(s1, 5);
    buffer[k] = Math.imul((m << 7) | (m >>> 25), 9);
    t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    m = Math.imul(s1, 5);
    buffer[k + 1] = Math.imul((m << 7) | (m >>> 25), 9);
    t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    m = Math.imul(s1, 5);
    buffer[k + 2] = Math.imul((m << 7) | (m >>> 25), 9);
    t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    m = Math.imul(s1, 5);
    buffer[k + 3] = Math.imul((m << 7) | (m >>> 25), 9);
    t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    m = Math.imul(s1, 5);
    buffer[k + 4] = Math.imul((m << 7) | (m >>> 25), 9);
    t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    m = Math.imul(s1, 5);
    buffer[k + 5] = Math.imul((m << 7) | (m >>> 25), 9);
    t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    m = Math.imul(s1, 5);
    buffer[k + 6] = Math.imul((m << 7) | (m >>> 25), 9);
    t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    m = Math.imul(s1, 5);
    buffer[k + 7] = Math.imul((m << 7) | (m >>> 25), 9);
    t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
  }
  for (; k < 256; k++) {
    const m = Math.imul(s1, 5);
    buffer[k] = Math.imul((m << 7) | (m >>> 25), 9);
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
  }
  slots[0] = 0;
  slots[1] = s0;
  slots[2] = s1;
  slots[3] = s2;
  slots[4] = s3;
}

/**
 * The TypeScript race loop's rare exponential steps (~1 % of draws): `rng.expOutsideCore` from layer i with the
 * candidate x, then a top-up when fewer than 3 outputs are left for the event's arrival test and pair (rng.next is
 * the read position before and after). A function of its own so that priming can run its top-up (rare within a rare
 * step: ~2·10⁻⁴ per event) directly (`primeExpRare`): V8 inlines it into the loop with the type feedback it gathered
 * wherever it ran, where a rare site of the loop's own has feedback only if the loop itself reached it.
 */
function expRare(rng: Rng, i: number, x: number): number {
  const e = rng.expOutsideCore(i, x);
  if (rng.next > RNG_OUTPUTS - 3) topUpStream(rng);
  return e;
}

/** Runs `expRare` through both of its branches on a private stream (loop priming; the draws are discarded). */
function primeExpRare(rng: Rng): void {
  for (let k = 0; k < 64; k++) {
    rng.next = RNG_OUTPUTS - 2 - (k & 7);
    expRare(rng, k & 255, ZIG_X[(k & 255) + 1]);
  }
}

/**
 * The ziggurat's x table (stats/rng.ts's ZIG_X, the same doubles) as a constant of this module: TurboFan reads it in
 * `advance` at a fixed address with a constant length (an imported binding is a cell it loads and checks every event).
 */
const ZIG_X_TABLE = Float64Array.from(ZIG_X);

/** This thread's table of 2^32 mod B, B = 0 … length − 1 (0 at B = 0), for `lemireBounds`. */
let lemireTable = new Float64Array(1);

/**
 * 2^32 mod B for B = 0 … n at least (Lemire's rejection bound of a draw on [0, B), as `Rng.belowRejection` computes
 * it), from a table shared by this thread's race engines and grown on demand, so that an engine costs no O(n) divisions.
 */
function lemireBounds(n: number): Float64Array {
  if (lemireTable.length <= n) {
    const table = new Float64Array(Math.max(n + 1, 2 * lemireTable.length));
    for (let b = 1; b < table.length; b++) table[b] = (4294967296 - b) % b;
    lemireTable = table;
  }
  return lemireTable;
}

/**
 * The TypeScript loop's copy of the occupancy arrays' first OCC_LEVELS levels (`occupancyIn`): level i's area, last
 * time and count at [4i], [4i + 1], [4i + 2]. A constant of this module, like streamBuffer: TurboFan reads it at a
 * fixed address with a constant length, where the engine's own array (main: `occupancyScratch` for every level) cost
 * a map check and length and base loads per access after every merge with a call (cachegrind, bench model, loop
 * alone, see `advance`: JSQ(2) 437–441 → 419–422 instructions per event, JSQ(3) 555–560 → 544–545). Levels from
 * OCC_LEVELS up (queues that long are rare: λ near 1 and d = 1, or a long start state) live in `occupancyScratch`,
 * updated by `occupancyHigh`.
 */
const OCC_LEVELS = 1024;
const OCC_SLOTS = 4 * OCC_LEVELS;
const occupancyBuffer = new Float64Array(OCC_SLOTS);

/** Jobs a server record holds: its 8 doubles (one 64-byte cache line) are the last departure and 7 jobs. */
const RECORD_JOBS = 7;

/** Bytes b rounded up to a multiple of 8. */
const align8 = (b: number) => (b + 7) & ~7;

export class RaceEngine implements Engine, PrimedLoop {
  readonly kind = 'race' as const;
  events = 0;
  arrivals = 0;
  // Kernel state read and written through the glue below by name (not private: TypeScript cannot see those uses).
  /**
   * Server j's record: records[8j] is the time of its last departure (service of its next job starts then, or at that
   * job's arrival), records[8j + 1 + k], k < min(len[j], RECORD_JOBS), the arrival time of its k-th job from the
   * oldest (time units); n·8 entries.
   */
  records: Float64Array;
  /**
   * The jobs beyond a record's: spill[j·2^spillShift + k − RECORD_JOBS] is the arrival time of server j's k-th job,
   * RECORD_JOBS ≤ k < len[j]; spillCap = 2^spillShift of them per server (0 and empty until a queue first needs one);
   * `widen` doubles it when a queue is full.
   */
  spill: Float64Array;
  spillShift = 0;
  spillCap = 0;
  /** Busy servers, in busy[0..busyCount) (order arbitrary). */
  private busy: Int32Array;
  private busyCount = 0;
  /** The permutation the Fisher–Yates selection shuffles in place (d distinct servers). */
  perm: Int32Array;
  /**
   * With B busy servers: byBusy[2B] = 2^32·λn/(λn + μB), the arrival probability scaled to a 32-bit draw (one division
   * per run, not per event), and byBusy[2B + 1] = λn + μB, the total rate (the event's two numbers in one 16-byte
   * slot, as the loop computed them: the same doubles).
   */
  private byBusy: Float64Array;
  /** Events left until the next `onTick`. */
  tick = TICK_EVENTS;
  /** The TypeScript loop's copy of the occupancy levels from OCC_LEVELS up (`occupancyIn`), reused between calls. */
  private occupancyScratch = new Float64Array(0);
  /**
   * The TypeScript loop's draws on [0, B) (a departure's B busy servers, a selection draw's n or n − q) are accepted at
   * once when their low part ≥ lemireScale·B, else after Lemire's exact test against 2^32 mod B (`lemireBounds`): the
   * same draws for any lemireScale ≥ 1 (2^32 mod B < B). 1 in a run, so that the exact test is rare (< B/2^32); 2^20
   * in loop priming's twin, so that its loop runs that test and V8 optimises the loop with it (else the first run to
   * reach it threw the optimised code away: at n = 1000 about one bench run in three, at n ~ 2^16 every run).
   */
  lemireScale = 1;
  /** The loop this engine runs (`setRaceLoop` when it was built). */
  readonly raceLoop: RaceLoop = raceLoopKind;
  /** Set by `release`: the engine cannot run any more. */
  private released = false;
  /** This engine's kernel and memory (the WebAssembly loop), until `release` gives them back. */
  private slot: KernelSlot | undefined = this.raceLoop === 'wasm' ? takeSlot() : undefined;
  /**
   * The plain arrays each resident array was copied from by the last `bind`: `release` copies the final state back
   * into them, so the state stays readable after the memory goes to another engine, and nothing is allocated.
   */
  private plain = new Map<string, Int32Array | Float64Array>();
  /** Byte addresses of the resident arrays, the occupancy arrays and the response buffer (set by `bind`). */
  private at = {
    len: 0,
    busy: 0,
    byBusy: 0,
    perm: 0,
    records: 0,
    spill: 0,
    count: 0,
    area: 0,
    last: 0,
    responses: 0,
  };

  constructor(
    readonly config: RunConfig,
    readonly state: RunState,
  ) {
    const { n } = config;
    const arrivalRate = config.lambda * n;
    const mu = 1 / config.serviceMean;
    this.byBusy = new Float64Array(2 * (n + 1));
    for (let b = 0; b <= n; b++) {
      this.byBusy[2 * b] = (arrivalRate / (arrivalRate + mu * b)) * 4294967296;
      this.byBusy[2 * b + 1] = arrivalRate + mu * b;
    }
    this.busy = new Int32Array(n);
    this.perm = identityPermutation(n);
    const { len, head, arrival, shift, mask } = state.store;
    let longest = 0;
    for (let j = 0; j < n; j++) {
      if (len[j] > 0) this.busy[this.busyCount++] = j;
      longest = Math.max(longest, len[j]);
    }
    this.records = new Float64Array(8 * n);
    this.spill = new Float64Array(0);
    while (RECORD_JOBS + this.spillCap < longest) this.widen();
    // the start state's queues (initialState writes them into the job store), last departures 0
    for (let j = 0; j < n; j++) {
      for (let k = 0; k < len[j]; k++) this.setJob(j, k, arrival[(j << shift) + ((head[j] + k) & mask)]);
    }
    state.occupancy.ensureLevels(RECORD_JOBS + this.spillCap + 2);
    if (this.slot !== undefined) this.bind(false);
  }

  /** Server j's k-th job from the oldest (plain arrays; k < len[j]). */
  private job(j: number, k: number): number {
    return k < RECORD_JOBS ? this.records[8 * j + 1 + k] : this.spill[(j << this.spillShift) + k - RECORD_JOBS];
  }

  private setJob(j: number, k: number, arrival: number): void {
    if (k < RECORD_JOBS) this.records[8 * j + 1 + k] = arrival;
    else this.spill[(j << this.spillShift) + k - RECORD_JOBS] = arrival;
  }

  /**
   * Makes room for twice the jobs beyond the records (the plain arrays; the glue lays them out again), 8 per server
   * the first time, for an arrival at a full queue; makes room in the occupancy arrays for the levels the queues can
   * now reach.
   */
  private widen(): void {
    const { spill, spillShift, spillCap } = this;
    const len = this.state.store.len;
    const shift = spillCap === 0 ? 3 : spillShift + 1;
    const wider = new Float64Array(len.length << shift);
    for (let j = 0; j < len.length; j++) {
      for (let k = 0; k < len[j] - RECORD_JOBS; k++) wider[(j << shift) + k] = spill[(j << spillShift) + k];
    }
    this.spill = wider;
    this.spillShift = shift;
    this.spillCap = 1 << shift;
    this.state.occupancy.ensureLevels(RECORD_JOBS + this.spillCap + 2);
  }

  /** The kernel, or a clear error once released. */
  private kernel(): KernelSlot {
    if (this.released || this.slot === undefined) throw new SolverError('race engine: run after release');
    return this.slot;
  }

  /**
   * Ends the engine's life: copies its final state (queue lengths, server records, busy list, …) back into
   * plain arrays owned by the state and the engine, so both stay readable, and gives the kernel and its memory to this
   * thread's next race engine. `run` after this throws. Idempotent. Callers: `withEngine` (simulate.ts) for every
   * engine it builds.
   */
  release(): void {
    this.released = true;
    const slot = this.slot;
    if (slot === undefined) return;
    for (const [owner, key] of this.residents()) {
      const kept = this.plain.get(key)!;
      kept.set(owner[key]);
      owner[key] = kept;
    }
    this.plain.clear();
    this.slot = undefined;
    giveSlot(slot);
  }

  /**
   * The servers' queues whatever the memory layout (tests pin them): `lastDeparture[j]` (time units, n entries) and
   * `arrivals`, the arrival times of server 1's jobs oldest first, then server 2's, … (Σ_j len[j] entries). Readable
   * while the engine runs and after `release`.
   */
  queues(): { lastDeparture: Float64Array; arrivals: Float64Array } {
    const len = this.state.store.len;
    const arrivals: number[] = [];
    const lastDeparture = new Float64Array(len.length);
    for (let j = 0; j < len.length; j++) {
      lastDeparture[j] = this.records[8 * j];
      for (let k = 0; k < len[j]; k++) arrivals.push(this.job(j, k));
    }
    return { lastDeparture, arrivals: Float64Array.from(arrivals) };
  }

  /**
   * See `Engine.run` and `runPhases`. When the next event falls after `stopTime` (or after the end of the
   * warm-up) it is discarded and t is set to that time: exact, since every clock is memoryless.
   */
  run(stopTime: number, onTick?: (events: number) => void): void {
    // The TypeScript loop is primed (frame.ts), its growth site (a queue past its record, `widen`) not: primed, V8
    // compiles its call into the loop, and every event paid ~21 instructions for it (cachegrind, JSQ(2) n = 1000: 512.9
    // → 491.8 per event without it); a run whose queues outgrow a record compiles the loop again once, as before.
    if (this.raceLoop === 'typescript') {
      primeLoop(this, (state) => {
        primeExpRare(new Rng(PRIME_SEED));
        return RaceEngine.typescriptTwin(this.config, state);
      });
    }
    runPhases(this, stopTime, onTick);
  }

  /** A race engine over `state` that runs the TypeScript loop (loop priming, frame.ts), whatever `setRaceLoop` says. */
  private static typescriptTwin(config: RunConfig, state: RunState): RaceEngine {
    const before = setRaceLoop('typescript');
    try {
      const twin = new RaceEngine(config, state);
      twin.lemireScale = 1048576;
      return twin;
    } finally {
      setRaceLoop(before);
    }
  }

  /** See `PrimedLoop`: at most `events` (≤ CHUNK_EVENTS) events of the current phase (`advance`, `tick` = events). */
  primeStep(limit: number, events: number): number {
    const m = this.state.measurement;
    this.tick = events;
    // the warm-up ends at its time, as in `runPhases` (`advance` tells measured jobs by arrival time)
    return this.advance(m.phase === WARMUP ? Math.min(limit, m.warmupTime) : limit);
  }

  /** The resident arrays, each with its owner and name, the spill area last (the array that grows). */
  private residents(): [Record<string, Int32Array | Float64Array>, 'len' | 'busy' | 'byBusy' | 'perm' | 'records' | 'spill'][] {
    const store = this.state.store as unknown as Record<string, Int32Array | Float64Array>;
    const self = this as unknown as Record<string, Int32Array | Float64Array>;
    return [
      [store, 'len'],
      [self, 'busy'],
      [self, 'byBusy'],
      [self, 'perm'],
      [self, 'records'],
      [self, 'spill'],
    ];
  }

  /**
   * Lays the resident arrays out in the kernel's memory and points their owners at views on it. With `grow`, first
   * copies them out to plain arrays, doubles the spill area (`widen`) and the occupancy levels, then lays out again
   * (growing the memory detaches every old view, so nothing is read through one after that).
   */
  private bind(grow: boolean): void {
    const { occupancy, measurement } = this.state;
    const memory = this.kernel().memory;
    const residents = this.residents();
    for (const [owner, key] of residents) {
      if (owner[key].buffer !== memory.buffer) continue;
      const kept = this.plain.get(key)!;
      kept.set(owner[key]);
      owner[key] = kept;
    }
    if (grow) this.widen();
    const at = this.at;
    let end = DYNAMIC;
    for (const key of ['count', 'area', 'last'] as const) {
      at[key] = end;
      end += align8(occupancy[key].byteLength);
    }
    at.responses = end;
    end += align8(measurement.responses.byteLength);
    for (const [owner, key] of residents) {
      at[key] = end;
      end += align8(owner[key].byteLength);
    }
    if (end > MAX_MEMORY) {
      throw new SolverError(
        `race engine: ${this.config.n} servers with queues of ${RECORD_JOBS + this.spillCap} jobs need ${(end / 2 ** 30).toFixed(1)} GiB, ` +
          `more than WebAssembly's 4 GiB; use engine 'event'`,
      );
    }
    if (end > memory.buffer.byteLength) memory.grow(Math.ceil((end - memory.buffer.byteLength) / PAGE));
    const buffer = memory.buffer;
    for (const [owner, key] of residents) {
      const a = owner[key];
      const view = a instanceof Int32Array ? new Int32Array(buffer, at[key], a.length) : new Float64Array(buffer, at[key], a.length);
      view.set(a);
      this.plain.set(key, a);
      owner[key] = view;
    }
  }

  /**
   * One phase (see `runPhases`): the kernel runs until time reaches `limit` (LOOP_LIMIT) or the phase's goal is met
   * (LOOP_GOAL: the last measured arrival while MEASURING, the last measured departure while DRAINING); returns that code.
   */
  loop(limit: number, onTick: ((events: number) => void) | undefined): number {
    if (this.raceLoop === 'typescript') {
      if (this.released) throw new SolverError('race engine: run after release');
      for (;;) {
        const code = this.advance(limit);
        if (this.tick === 0) {
          this.tick = TICK_EVENTS;
          onTick?.(this.events);
        }
        if (code !== LOOP_CHUNK) return code;
      }
    }
    const { n, d, withoutReplacement } = this.config;
    const mode = d === 2 && n <= PAIR_MAX_N ? SELECT_PAIR : withoutReplacement ? SELECT_FISHER_YATES : SELECT_IID;
    const { rng, occupancy, measurement: m } = this.state;
    const self = this as unknown as Record<(typeof ENGINE_TOTALS)[number] | 'busyCount', number>;
    const { memory, race } = this.kernel();
    const p = new Float64Array(memory.buffer, P, 32); // the scalars stay in the block between calls (views re-made per call)
    p[P_T] = this.state.t;
    p[P_LIMIT] = limit;
    p[P_WARM] = m.warmupTime;
    p[P_LAST_MEASURED] = m.lastMeasured;
    p[P_JOBS_TARGET] = m.jobs;
    ENGINE_TOTALS.forEach((k, i) => (p[P_EVENTS + i] = self[k]));
    MEASURED_TOTALS.forEach((k, i) => (p[P_MEASURED_ARRIVALS + i] = m[k]));
    p[P_BUSY_COUNT] = this.busyCount;
    p[P_ZIG_R] = ZIG_R;
    p[P_PENDING] = -1;
    p[P_TICK_DUE] = 0;
    const responses = m.responses;
    const respF64 = responses instanceof Float64Array;
    for (;;) {
      const at = this.at;
      const buffer = memory.buffer;
      const pv = new Float64Array(buffer, P, 32);
      const rngBuffer = new Int32Array(buffer, RNG, 256);
      rng.handOver(rngBuffer, pv, P_RNG_NEXT, P_S0);
      // copied in and back per call: the Rng's buffer and the occupancy arrays (runPhases opens and closes their window)
      const copied: [Int32Array | Float64Array, number][] = [
        [occupancy.count, at.count],
        [occupancy.area, at.area],
        [occupancy.last, at.last],
      ];
      const view = (a: Int32Array | Float64Array, address: number) =>
        a instanceof Int32Array ? new Int32Array(buffer, address, a.length) : new Float64Array(buffer, address, a.length);
      for (const [a, address] of copied) view(a, address).set(a);
      const sampledBefore = m.sampled;
      const code = race(
        P,
        n,
        withoutReplacement ? n - 1 : n,
        at.len,
        at.records,
        at.spill,
        this.spillShift,
        this.spillCap,
        at.busy,
        at.byBusy,
        at.count,
        at.area,
        at.last,
        at.responses,
        respF64 ? 1 : 0,
        m.stride,
        m.phase === MEASURING ? 1 : 0,
        m.phase === DRAINING ? 1 : 0,
        RNG,
        ZX,
        ZF,
        mode,
        d,
        at.perm,
      );
      for (const [a, address] of copied) a.set(view(a, address));
      rng.resume(rngBuffer, pv, P_RNG_NEXT, P_S0);
      ENGINE_TOTALS.forEach((k, i) => (self[k] = pv[P_EVENTS + i]));
      this.busyCount = pv[P_BUSY_COUNT];
      this.state.t = pv[P_T];
      m.save(
        Object.fromEntries(MEASURED_TOTALS.map((k, i) => [k, pv[P_MEASURED_ARRIVALS + i]])) as Record<
          (typeof MEASURED_TOTALS)[number],
          number
        >,
      );
      const sampledAfter = m.sampled;
      if (sampledAfter > sampledBefore) {
        const written = respF64
          ? new Float64Array(buffer, at.responses, responses.length)
          : new Float32Array(buffer, at.responses, responses.length);
        responses.set(written.subarray(sampledBefore, sampledAfter), sampledBefore);
      }
      if (pv[P_TICK_DUE] === 1) {
        pv[P_TICK_DUE] = 0;
        onTick?.(this.events);
      }
      if (code === LOOP_GROW) this.bind(true);
      else if (code !== LOOP_TICK) return code;
    }
  }

  /**
   * The occupancy counts, areas and last times copied into one array for the TypeScript loop (`advance`): level i's
   * area, last time and count at [4i], [4i + 1], [4i + 2] (the count as a double: the same value, and the same
   * products) of occupancyBuffer, levels from OCC_LEVELS up at [4(i − OCC_LEVELS) + ...] of `occupancyScratch`. One
   * array is one map and length check per event where three were three (cachegrind); the copies in and out cost
   * O(levels) per `advance` call (≤ CHUNK_EVENTS events).
   */
  private occupancyIn(): void {
    const { count, area, last } = this.state.occupancy;
    const levels = count.length;
    const occ = occupancyBuffer;
    const low = Math.min(levels, OCC_LEVELS);
    for (let i = 0; i < low; i++) {
      occ[4 * i] = area[i];
      occ[4 * i + 1] = last[i];
      occ[4 * i + 2] = count[i];
    }
    if (levels <= OCC_LEVELS) return;
    let high = this.occupancyScratch;
    if (high.length < 4 * (levels - OCC_LEVELS)) high = this.occupancyScratch = new Float64Array(4 * (levels - OCC_LEVELS));
    for (let i = OCC_LEVELS; i < levels; i++) {
      high[4 * (i - OCC_LEVELS)] = area[i];
      high[4 * (i - OCC_LEVELS) + 1] = last[i];
      high[4 * (i - OCC_LEVELS) + 2] = count[i];
    }
  }

  /** Copies `occupancyIn`'s arrays back into the occupancy arrays. */
  private occupancyOut(): void {
    const { count, area, last } = this.state.occupancy;
    const occ = occupancyBuffer;
    const levels = count.length;
    for (let i = 0; i < Math.min(levels, OCC_LEVELS); i++) {
      area[i] = occ[4 * i];
      last[i] = occ[4 * i + 1];
      count[i] = occ[4 * i + 2];
    }
    const high = this.occupancyScratch;
    for (let i = OCC_LEVELS; i < levels; i++) {
      area[i] = high[4 * (i - OCC_LEVELS)];
      last[i] = high[4 * (i - OCC_LEVELS) + 1];
      count[i] = high[4 * (i - OCC_LEVELS) + 2];
    }
  }

  /**
   * The loop's occupancy step at slot o ≥ OCC_SLOTS (a level from OCC_LEVELS up, in `occupancyScratch`): the area and
   * last time when measuring, then the count by delta; the same float operations as the loop's own step.
   */
  private occupancyHigh(o: number, t: number, delta: number, measuring: number): void {
    const high = this.occupancyScratch;
    const h = o - OCC_SLOTS;
    if (measuring === 1) {
      const c = high[h + 2];
      high[h] += c * (t - high[h + 1]);
      high[h + 1] = t;
    }
    high[h + 2] += delta;
  }

  /**
   * The TypeScript race loop: assembly/race.ts's `race` event for event (the same draws in the same order, the same
   * float operations), over the engine's plain typed arrays. At most the events up to the next multiple of
   * CHUNK_EVENTS of `tick` (so that V8 runs the loop in `advance`'s regular optimised code, not in on-stack-replacement
   * code: see `runChunks` in core.ts); `tick` reaches 0 after the event that makes a tick due, as the kernel's
   * LOOP_TICK, and `loop` then calls `onTick`. Returns LOOP_LIMIT, LOOP_GOAL or LOOP_CHUNK.
   *
   * Measured (issue 23, cachegrind instructions per event of the loop alone in the steady state, bench/wasm-race-loop.mjs
   * 2·10⁶ events, repeats 2 minus 1, n = 1000, λ = 0.9, without replacement; runs of the same code differ by up to ±8):
   * JSQ(2) 437–441, JSQ(3) 555–560 before the occupancy copy moved into the module's occupancyBuffer, 419–422 and
   * 544–545 after (D1 misses 0.76 → 0.80 per event, unchanged). Tried, not kept: the stream read as rb[nx & 255] (no
   * bounds check on the constant-length buffer, one `and` instead) 426 / 542, no gain. For comparison,
   * bench/raceCPort.ts (the C race loop ported to plain TypeScript, doing the C's work only) runs 355 / 410 and the C
   * race 226 / 246. Left: ~45 spill and fill instructions per event (~25 values live across the loop), and a map
   * check, length and base loads per access to the per-engine arrays (len, records, byBusy, busy, perm, responses)
   * after each merge with a call; moving those into module constants (as occupancyBuffer) needs a fallback for every
   * n past the constants' size.
   */
  advance(limit: number): number {
    // Every value the loop reads is brought to a fixed representation here, once per call: ints with `| 0`, doubles
    // with `+`, flags as 0/1, arrays and imported constants into locals, constants as literals in the loop. TurboFan
    // hoists nothing out of a loop: a parameter, a module constant (a context slot with a hole check) or a mixed-type
    // value read inside it is re-checked (and a double re-boxed) on every event.
    const config = this.config;
    const n = config.n | 0;
    const d = config.d | 0;
    const withoutReplacement = config.withoutReplacement ? 1 : 0;
    const pair = d === 2 && n <= PAIR_MAX_N ? 1 : 0;
    const pairM = withoutReplacement === 1 ? n - 1 : n;
    // Lemire's rejection bounds: the pair's 2^32 mod n·pairM (jsqPairSlow's threshold), a draw on [0, B)'s 2^32 mod B
    // (Rng.belowRejection's): a low part below the bound is drawn again. The redraws are rare (< B/2^32 per draw) and
    // need no top-up until the second one: priming leaves them alone, and V8 compiles that top-up as a deopt exit
    // (a call there would cost every event a reload of the arrays after the inner loop's merge).
    const pairReject = pair === 1 ? (4294967296 - n * pairM) % (n * pairM) : 0;
    const lemire = lemireBounds(n);
    const lemireScale = +this.lemireScale;
    const state = this.state;
    const { rng, store, measurement: m } = state;
    const len = store.len;
    const records = this.records;
    let spill = this.spill;
    let spillShift = this.spillShift | 0;
    let capacity = (RECORD_JOBS + this.spillCap) | 0;
    const recordJobs = RECORD_JOBS | 0;
    const perm = this.perm;
    const byBusy = this.byBusy;
    const busy = this.busy;
    let busyCount = this.busyCount | 0;
    // the occupancy arrays as one: level i's area, last time and count (a double) at occ[4i], occ[4i + 1], occ[4i + 2]
    // (levels from OCC_LEVELS up: `occupancyHigh`)
    const occ = occupancyBuffer;
    this.occupancyIn();
    const measuring = m.phase === MEASURING ? 1 : 0;
    // The drain's goal (its last measured job left) as one test made at every measured departure: measuredInSystem is
    // ≥ 0, so −1 is never met before the drain (a second test made only at the drain's last departure had no type
    // feedback there: optimised code met it and was thrown away; the event engine's loop does the same).
    const drainGoal = m.phase === DRAINING ? 0 : -1;
    const warm = +m.warmupTime;
    const lastMeasured = +m.lastMeasured;
    const jobsTarget = +m.jobs;
    const responses = m.responses;
    const stride = m.stride | 0;
    let measuredArrivals = +m.measuredArrivals;
    let measuredInSystem = +m.measuredInSystem;
    let sumResponse = +m.sumResponse;
    let completed = +m.completed;
    let sumSlowdown = +m.sumSlowdown;
    let slowdownJobs = +m.slowdownJobs;
    let arrivals = +this.arrivals;
    let t = +state.t;
    const stop = +limit;
    const zigX = ZIG_X_TABLE;
    const goal = LOOP_GOAL | 0;
    const chunked = LOOP_CHUNK | 0;
    // rng.ts's constants as literals (TurboFan folds a local literal; a module constant it reads from the context)
    const TWO32 = 4294967296;
    const INV_TWO32 = 2.3283064365386963e-10; // 2^−32
    const INV_TWO53 = 1.1102230246251565e-16; // 2^−53
    const lastStart = (RNG_OUTPUTS - EVENT_DRAWS) | 0; // an event starts with nx ≤ lastStart
    const lastOne = (RNG_OUTPUTS - 1) | 0; // a draw of one output at nx > lastOne tops up first
    const lastD = (RNG_OUTPUTS - d - 1) | 0; // d draws (and one redraw) at nx > lastD top up first
    // events until `tick` reaches a multiple of CHUNK_EVENTS (TICK_EVENTS is one): 1..CHUNK_EVENTS
    const chunk = ((this.tick - 1) & (CHUNK_EVENTS - 1)) + 1;
    let chunkLeft = chunk;
    let code = LOOP_LIMIT | 0;
    // The stream read in place, as the kernel does: handed over into this module's streamBuffer (`fillStream` tops
    // it up), each event starts with ≥ EVENT_DRAWS unread outputs at the local position nx (its fast path reads at
    // most that many); the rare ziggurat steps run through the Rng's methods, the stream handed back before and over
    // again after. Same outputs in the same order as `nextExp`, `nextInt32`, `below` and `jsqPair` would read.
    const rb = streamBuffer;
    const slots = streamSlots;
    rng.handOver(rb, slots, 0, 1);
    let nx = slots[0] | 0;

    for (;;) {
      if (chunkLeft === 0) {
        code = chunked;
        break;
      }
      if (nx > lastStart) {
        slots[0] = nx;
        fillStream();
        nx = 0;
      }
      // Rng.nextExp's ziggurat step: layer and 24 bits of u from one output, 29 more bits from the next.
      const za = rb[nx];
      const zi = za & 255;
      let e = ((za >>> 8) * 536870912 + (rb[(nx + 1) | 0] >>> 3)) * INV_TWO53 * zigX[zi];
      nx = (nx + 2) | 0;
      if (e >= zigX[(zi + 1) | 0]) {
        slots[0] = nx;
        rng.resume(rb, slots, 0, 1);
        e = expRare(rng, zi, e);
        rng.handOver(rb, slots, 0, 1);
        nx = slots[0] | 0;
      }
      const b2 = busyCount << 1;
      const time = t + e / byBusy[(b2 + 1) | 0];
      if (time > stop) {
        t = stop;
        break;
      }
      t = time;
      chunkLeft = (chunkLeft - 1) | 0;
      // Arrival with probability p = λn/rate: a 53-bit uniform U against p, its low 21 bits drawn only when the high
      // 32 bits x leave the outcome open (x = ⌊p·2^32⌋, probability 2^−32). Same law as U < p.
      const x = rb[nx] >>> 0;
      nx = (nx + 1) | 0;
      const threshold = byBusy[b2]; // p·2^32 (exact: a power of two)
      if (x + 1 <= threshold || (x < threshold && (x * 2097152 + (rb[nx++] >>> 11)) * INV_TWO53 < threshold * INV_TWO32)) {
        let j: number;
        if (pair === 1) {
          // jsqPair written out over the buffer (same arithmetic): a on [0, n), b on [0, m) from one output, by
          // Lemire's multiply-and-reject with its two tests (low < n·m, then low < 2^32 mod n·m in jsqPairSlow) as one
          // against the exact bound: the same draws and the same pair, and no rare call in the loop (a call first made
          // after V8 optimised the loop had no type feedback and threw the optimised code away). The event's first
          // draw always has its output; a redraw may not.
          let a: number;
          let b: number;
          for (;;) {
            if (nx > lastOne) {
              slots[0] = nx;
              fillStream();
              nx = 0;
            }
            const px = (rb[nx] >>> 0) * n;
            nx = (nx + 1) | 0;
            a = (px * INV_TWO32) | 0;
            const py = (px - a * TWO32) * pairM;
            b = (py * INV_TWO32) | 0;
            if (py - b * TWO32 >= pairReject) break;
          }
          if (pairM < n) b += +(b >= a);
          j = a ^ ((a ^ b) & ((len[b] - len[a]) >> 31)); // b if len[b] < len[a], else a
        } else {
          // jsqWithReplacement / jsqFisherYates written out over the buffer, as the kernel does (no call per arrival):
          // draw q is Rng.below(n) (i.i.d.) or below(n − q) (distinct: a partial Fisher–Yates shuffle of perm), each
          // by Lemire's multiply-and-reject against its exact bound as the departure's; the first sampled of the
          // fewest jobs wins. The outputs of the d draws and one redraw are made sure of first (more redraws top up
          // for themselves: probability < (n/2^32)²).
          if (nx > lastD) {
            slots[0] = nx;
            fillStream();
            nx = 0;
          }
          let best = -1;
          let bestLen = 0;
          for (let q = 0; q < d; q = (q + 1) | 0) {
            const bound = n - q * withoutReplacement;
            let r: number;
            for (;;) {
              if (nx > lastOne) {
                slots[0] = nx;
                fillStream();
                nx = 0;
              }
              const bm = (rb[nx] >>> 0) * bound;
              nx = (nx + 1) | 0;
              r = (bm * INV_TWO32) | 0;
              const low = bm - r * TWO32;
              if (low >= bound * lemireScale || low >= lemire[bound]) break;
            }
            if (withoutReplacement === 1) {
              const pr = (r + q) | 0;
              const s = perm[pr];
              perm[pr] = perm[q];
              perm[q] = s;
              r = s;
            }
            const ls = len[r];
            if (best < 0 || ls < bestLen) {
              best = r;
              bestLen = ls;
            }
          }
          j = best;
        }
        const l = len[j];
        if (l === capacity) {
          this.occupancyOut();
          this.widen();
          spill = this.spill;
          spillShift = this.spillShift | 0;
          capacity = (recordJobs + this.spillCap) | 0;
          this.occupancyIn();
        }
        // FIFO: append at the tail
        if (l < recordJobs) records[((j << 3) + l + 1) | 0] = t;
        else spill[((j << spillShift) + l - recordJobs) | 0] = t;
        len[j] = (l + 1) | 0;
        arrivals++;
        if (l === 0) {
          busy[busyCount] = j;
          busyCount = (busyCount + 1) | 0;
        }
        const o = ((l + 1) << 2) | 0; // level l + 1
        if (measuring === 1) {
          if (o < OCC_SLOTS) {
            const c = occ[(o + 2) | 0];
            occ[o] += c * (t - occ[(o + 1) | 0]);
            occ[(o + 1) | 0] = t;
            occ[(o + 2) | 0] = c + 1;
          } else this.occupancyHigh(o, t, 1, 1);
          measuredInSystem++;
          if (++measuredArrivals === jobsTarget) {
            code = goal;
            break;
          }
        } else if (o < OCC_SLOTS) {
          occ[(o + 2) | 0] += 1;
        } else this.occupancyHigh(o, t, 1, 0);
      } else {
        // Rng.below(busyCount) (Lemire) over the buffer: every busy server has the same rate μ. Its two tests (low <
        // busyCount, then low < 2^32 mod busyCount in belowRejection) in the loop, with no rare call (`lemireScale`).
        let k: number;
        for (;;) {
          if (nx > lastOne) {
            slots[0] = nx;
            fillStream();
            nx = 0;
          }
          const bm = (rb[nx] >>> 0) * busyCount;
          nx = (nx + 1) | 0;
          k = (bm * INV_TWO32) | 0;
          const low = bm - k * TWO32;
          if (low >= busyCount * lemireScale || low >= lemire[busyCount]) break;
        }
        const j = busy[k];
        const l = len[j];
        const o = (l << 2) | 0; // level l
        if (o < OCC_SLOTS) {
          if (measuring === 1) {
            occ[o] += occ[(o + 2) | 0] * (t - occ[(o + 1) | 0]);
            occ[(o + 1) | 0] = t;
          }
          occ[(o + 2) | 0] -= 1;
        } else this.occupancyHigh(o, t, -1, measuring);
        const r0 = j << 3;
        const a = records[(r0 + 1) | 0]; // FIFO: the oldest job leaves, the others move down one
        for (let q = (r0 + 1) | 0, end = (r0 + (l < recordJobs ? l : recordJobs)) | 0; q < end;) {
          const q1 = (q + 1) | 0;
          records[q] = records[q1];
          q = q1;
        }
        if (l > recordJobs) {
          const s0 = j << spillShift;
          records[(r0 + recordJobs) | 0] = spill[s0];
          for (let q = s0, end = (s0 + l - recordJobs - 1) | 0; q < end;) {
            const q1 = (q + 1) | 0;
            spill[q] = spill[q1];
            q = q1;
          }
        }
        len[j] = (l - 1) | 0;
        if (l === 1) {
          busyCount = (busyCount - 1) | 0; // server j is idle: swap-remove it
          busy[k] = busy[busyCount];
        }
        const ld = records[r0];
        const start = a > ld ? a : ld;
        records[r0] = t;
        if (a > warm && a <= lastMeasured) {
          const r = t - a;
          sumResponse += r;
          if (stride === 1) responses[completed] = r;
          else if (completed % stride === 0) responses[(completed / stride) | 0] = r;
          completed++;
          const s = t - start;
          if (s > 0) {
            sumSlowdown += r / s;
            slowdownJobs++;
          }
          if (--measuredInSystem === drainGoal) {
            code = goal;
            break;
          }
        }
      }
    }

    slots[0] = nx;
    rng.resume(rb, slots, 0, 1);
    this.occupancyOut();
    const done = chunk - chunkLeft;
    this.events += done;
    this.tick -= done;
    this.arrivals = arrivals;
    this.busyCount = busyCount;
    state.t = t;
    m.save({ measuredArrivals, measuredInSystem, sumResponse, sumSlowdown, slowdownJobs, completed });
    return code;
  }
}
