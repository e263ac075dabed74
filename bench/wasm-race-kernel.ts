/**
 * Issue 9 spike: the WebAssembly race kernel (assembly/race.ts, compiled here with AssemblyScript's asc) behind
 * `RaceEngine.loop`. `useWasmRaceLoop(true)` swaps the prototype's loop for `wasmLoop`, so `simulate(..., { engine:
 * 'race' })` runs unchanged around it (phases, ticks, measurement, summaries); `false` restores the TypeScript loop.
 *
 * Hand-over per call of `loop` (one per phase, ~3 per replication): the job store, occupancy counts/areas, the
 * engine's busy list and last departures and the Rng's state (its 256-output buffer, position and xoshiro128** words)
 * are copied into the wasm memory, the kernel runs, and everything is copied back; response times are write-only,
 * so only the ones written in the call come back. A ring that fills returns LOOP_GROW: JobStore.grow runs in JS
 * and the kernel resumes the waiting arrival. Every TICK_EVENTS events it returns LOOP_TICK (JS calls onTick, then
 * resumes): onTick sees the same counts, after that event instead of before it. Every selection rule RaceEngine runs: the JSQ(2) pair rule, d i.i.d. draws, d distinct (Fisher–Yates).
 */
import asc from 'assemblyscript/asc';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { RaceEngine } from '../src/sim/race.ts';
import { PAIR_MAX_N } from '../src/sim/selection/jsqd.ts';
import { DRAINING, MEASURING } from '../src/sim/measurement.ts';
import { ZIG_F, ZIG_R, ZIG_X } from '../src/stats/rng.ts';

const [LOOP_GROW, LOOP_TICK] = [3, 4];
const [SELECT_PAIR, SELECT_IID, SELECT_FISHER_YATES] = [0, 1, 2];
/** Parameter block slots, as in assembly/race.ts. */
const [P_T, P_LIMIT, P_ARRIVAL_RATE, P_MU, P_WARM, P_LAST_MEASURED, P_JOBS_TARGET, P_EVENTS] = [0, 1, 2, 3, 4, 5, 6, 7];
const P_MEASURED_ARRIVALS = 10;
const [P_BUSY_COUNT, P_RNG_NEXT, P_ZIG_R, P_PENDING, P_S0, P_TICK_DUE] = [16, 17, 18, 19, 20, 24];

/** Running totals in consecutive parameter slots: the engine's from P_EVENTS, the measurement's from P_MEASURED_ARRIVALS, the Rng's words from P_S0. */
const ENGINE_TOTALS = ['events', 'arrivals', 'tick'] as const;
const MEASURED_TOTALS = ['measuredArrivals', 'measuredInSystem', 'sumResponse', 'completed', 'sumSlowdown', 'slowdownJobs'] as const;
const RNG_WORDS = ['s0', 's1', 's2', 's3'] as const;

/** What the kernel reads of a RaceEngine and its Rng beyond their public fields. */
interface RaceInternals {
  perm: Int32Array;
  events: number;
  arrivals: number;
  busy: Int32Array;
  busyCount: number;
  lastDeparture: Float64Array;
  arrivalShare: Float64Array;
  tick: number;
}
interface RngInternals {
  s0: number;
  s1: number;
  s2: number;
  s3: number;
  buffer: Int32Array;
  next: number;
}

type RaceExport = (...args: number[]) => number;

const here = path.dirname(fileURLToPath(import.meta.url));
const source = path.join(here, '..', 'assembly', 'race.ts');

/** Compiles assembly/race.ts (asc -O3, stub runtime, imported memory) to wasm bytes. */
export async function compileRaceKernel(): Promise<Uint8Array> {
  let binary: Uint8Array | undefined;
  const { error, stderr } = await asc.main(
    [source, '-O3', '--runtime', 'stub', '--importMemory', '--noAssert', '--use', 'abort=', '-o', 'race.wasm'],
    {
      readFile: (name, base) => {
        try {
          return readFileSync(path.resolve(base, name), 'utf8');
        } catch {
          return null;
        }
      },
      writeFile: (name, contents) => {
        if (name.endsWith('.wasm')) binary = contents as Uint8Array;
      },
    },
  );
  if (error || !binary) throw new Error(`asc failed: ${error?.message ?? ''}\n${stderr.toString()}`);
  return binary;
}

const memory = new WebAssembly.Memory({ initial: 2 });
let race: RaceExport | undefined;
const BASE = 65536; // page 0 left to the AssemblyScript module
const P = BASE;
const RNG = P + 256;
const ZX = RNG + 1024;
const ZF = ZX + 8 * 257;
const DYNAMIC = ZF + 8 * 257;

/** Instantiates the kernel from `binary` (once per thread). */
export async function loadRaceKernel(binary: Uint8Array): Promise<void> {
  const module = await WebAssembly.compile(binary as Uint8Array<ArrayBuffer>);
  const instance = await WebAssembly.instantiate(module, {
    env: { memory },
    race: { hostExp: Math.exp, hostLog: Math.log },
  });
  race = instance.exports.race as RaceExport;
}

const originalLoop = RaceEngine.prototype.loop;

/** Routes every RaceEngine's loop through the wasm kernel (true) or back to the TypeScript loop (false). */
export function useWasmRaceLoop(on: boolean): void {
  RaceEngine.prototype.loop = on ? wasmLoop : originalLoop;
}

/** Bytes b rounded up to a multiple of 8. */
const align8 = (b: number) => (b + 7) & ~7;

function wasmLoop(this: RaceEngine, limit: number, onTick: ((events: number) => void) | undefined): number {
  const { n, d, lambda, serviceMean, withoutReplacement } = this.config;
  if (race === undefined) throw new Error('loadRaceKernel first');
  // The selection rule as RaceEngine.loop picks it: pair rule, else Fisher–Yates (without replacement) or i.i.d. draws.
  const mode = d === 2 && n <= PAIR_MAX_N ? SELECT_PAIR : withoutReplacement ? SELECT_FISHER_YATES : SELECT_IID;
  const engine = this as unknown as RaceInternals;
  const { rng, store, occupancy, measurement: m } = this.state;
  const r = rng as unknown as RngInternals;
  const p = new Float64Array(memory.buffer, P, 32);
  p[P_T] = this.state.t;
  p[P_LIMIT] = limit;
  p[P_ARRIVAL_RATE] = lambda * n;
  p[P_MU] = 1 / serviceMean;
  p[P_WARM] = m.warmupTime;
  p[P_LAST_MEASURED] = m.lastMeasured;
  p[P_JOBS_TARGET] = m.jobs;
  ENGINE_TOTALS.forEach((k, i) => (p[P_EVENTS + i] = engine[k]));
  MEASURED_TOTALS.forEach((k, i) => (p[P_MEASURED_ARRIVALS + i] = m[k]));
  p[P_BUSY_COUNT] = engine.busyCount;
  p[P_ZIG_R] = ZIG_R;
  p[P_PENDING] = -1;
  p[P_TICK_DUE] = 0;
  const responses = m.responses;
  const respF64 = responses instanceof Float64Array;
  for (;;) {
    // Layout (bytes from DYNAMIC): len, head, busy (i32 n), lastDeparture (f64 n), arrivalShare (f64 n+1), count (i32 L),
    // area, last (f64 L), arrival (f64 n·cap), perm (i32 n), responses.
    const levels = occupancy.count.length;
    const len = DYNAMIC;
    const head = len + align8(4 * n);
    const busy = head + align8(4 * n);
    const lastDep = busy + align8(4 * n);
    const share = lastDep + 8 * n;
    const count = share + 8 * (n + 1);
    const area = count + align8(4 * levels);
    const last = area + 8 * levels;
    const arrival = last + 8 * levels;
    const perm = arrival + 8 * store.arrival.length;
    const resp = perm + align8(4 * n);
    const end = resp + responses.byteLength;
    if (end > memory.buffer.byteLength) memory.grow(Math.ceil((end - memory.buffer.byteLength) / 65536));
    const buffer = memory.buffer;
    const pv = new Float64Array(buffer, P, 32);
    new Float64Array(buffer, ZX, 257).set(ZIG_X);
    new Float64Array(buffer, ZF, 257).set(ZIG_F);
    pv[P_RNG_NEXT] = r.next;
    RNG_WORDS.forEach((k, i) => (pv[P_S0 + i] = r[k]));
    // The arrays the kernel reads and writes, each with its address: copied in now, back after the call.
    const shared: [Int32Array | Float64Array, number][] = [
      [r.buffer, RNG],
      [store.len, len],
      [store.head, head],
      [engine.busy, busy],
      [engine.lastDeparture, lastDep],
      [engine.arrivalShare, share],
      [occupancy.count, count],
      [occupancy.area, area],
      [occupancy.last, last],
      [store.arrival, arrival],
      [engine.perm, perm],
    ];
    const view = (a: Int32Array | Float64Array, at: number) =>
      a instanceof Int32Array ? new Int32Array(buffer, at, a.length) : new Float64Array(buffer, at, a.length);
    for (const [a, at] of shared) view(a, at).set(a);
    const sampledBefore = m.sampled;
    const code = race(
      P,
      n,
      withoutReplacement ? n - 1 : n,
      len,
      head,
      arrival,
      store.cap,
      store.shift,
      busy,
      lastDep,
      share,
      count,
      area,
      last,
      resp,
      respF64 ? 1 : 0,
      m.stride,
      m.phase === MEASURING ? 1 : 0,
      m.phase === DRAINING ? 1 : 0,
      RNG,
      ZX,
      ZF,
      mode,
      d,
      perm,
    );
    for (const [a, at] of shared) a.set(view(a, at));
    r.next = pv[P_RNG_NEXT];
    RNG_WORDS.forEach((k, i) => (r[k] = pv[P_S0 + i]));
    ENGINE_TOTALS.forEach((k, i) => (engine[k] = pv[P_EVENTS + i]));
    engine.busyCount = pv[P_BUSY_COUNT];
    this.state.t = pv[P_T];
    m.save(
      Object.fromEntries(MEASURED_TOTALS.map((k, i) => [k, pv[P_MEASURED_ARRIVALS + i]])) as Record<
        (typeof MEASURED_TOTALS)[number],
        number
      >,
    );
    const sampledAfter = m.sampled;
    if (sampledAfter > sampledBefore) {
      const written = respF64 ? new Float64Array(buffer, resp, responses.length) : new Float32Array(buffer, resp, responses.length);
      responses.set(written.subarray(sampledBefore, sampledAfter), sampledBefore);
    }
    if (pv[P_TICK_DUE] === 1) {
      pv[P_TICK_DUE] = 0;
      onTick?.(engine.events);
    }
    if (code === LOOP_GROW) {
      store.grow();
      occupancy.ensureLevels(store.cap + 2);
    } else if (code !== LOOP_TICK) return code;
  }
}
