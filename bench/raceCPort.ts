/**
 * BENCHMARK ONLY, not the simulator (nothing in src/ imports it): a like-for-like TypeScript port of the C reference's
 * `race` variant (../shared/bench/reference-sim.c), to measure how close plain TypeScript gets to C when it does the
 * C's work and no more (issue 23). Per event, as the C: total rate R = λn + B (B busy servers), t += −log(U)/R, one
 * area integral (jobs in system, after the warm-up), then U·R against λn: an arrival picks d distinct servers by a
 * partial Fisher–Yates shuffle of a permutation (ties to the first sampled) and appends its arrival time to that
 * server's ring (CAP = 256 slots); a departure takes busy[⌊U·R − λn⌋] (clamped), pops its oldest arrival time and adds
 * T to ΣT if it arrived after the warm-up; the busy list is kept by swap-remove with a position array. No job sizes, no
 * per-level integrals, no response-time sample, no slowdowns, no phases: what the C does.
 *
 * The one deliberate difference is the generator: xoshiro128** (32-bit outputs: Math.imul and int32 ops, which V8
 * compiles to single instructions; a 64-bit xoshiro256** would need BigInt or 32-bit halves in JS), its state in four
 * locals of the loop, two outputs per 53-bit uniform (27 + 26 bits, as V8's own Math.random builds a double), so the
 * stream has the C's resolution: U = (k + 0.5)·2^−53, never 0. Same model, another stream: the mean response time
 * agrees with the C's within noise, not digit for digit.
 *
 * Timing as the C's: the loop alone (the arrays are allocated and zeroed before the clock starts; the C's calloc'd
 * pages are touched inside its loop, ~2 MB, negligible). A fresh process per run, after an untimed warm-up run of its
 * own (fresh arrays) so that the measured run enters TurboFan's code at once; the C has no JIT to warm.
 *
 * Run: bench/simulator.ts compiles this file to plain JavaScript (typescript's transpileModule) and forks it once per
 * round (a row of `npm run bench`). Standalone, for instruction counts, after the same transpile:
 *   node raceCPort.mjs EVENTS SEED N LAMBDA D [REPEATS = 1] [WARMUP = 0]
 * runs the loop REPEATS times (fresh arrays each, the stream continued) and prints the last run as one JSON line, the
 * C's fields (cachegrind: REPEATS 2 minus REPEATS 1, over EVENTS, gives the steady state's instructions per event).
 */
import { pathToFileURL } from 'node:url';
import { performance } from 'node:perf_hooks';

/** Ring slots per server, as the C's CAP (a queue longer than this stops the run, as the C's does). */
const CAP = 256;

/**
 * Servers the port's arrays hold. The arrays are constants of this module, allocated once at this size (as in
 * race.ts's streamBuffer): TurboFan embeds them as constants. The Float64Array ring is then read at a fixed address
 * with a constant length; the Int32Arrays still get a map check and length and base loads per access, as when passed
 * in (cachegrind, steady state: 382 → 379 instructions per event for the lot).
 */
const MAX_SERVERS = 4096;
/** The C's qlen, qhead, pick, arr (a ring of CAP arrival times per server), busy and pos. */
const qlen = new Int32Array(MAX_SERVERS);
const qhead = new Int32Array(MAX_SERVERS);
const pick = new Int32Array(MAX_SERVERS);
const arr = new Float64Array(MAX_SERVERS * CAP);
const busy = new Int32Array(MAX_SERVERS);
const pos = new Int32Array(MAX_SERVERS);

/** An empty system of n servers (the C's calloc'd arrays; its pick starts as the identity). */
function resetState(n: number): void {
  if (n > MAX_SERVERS) throw new Error(`the port holds at most ${MAX_SERVERS} servers`);
  qlen.fill(0);
  qhead.fill(0);
  busy.fill(0);
  pos.fill(0);
  for (let i = 0; i < MAX_SERVERS; i++) pick[i] = i;
}

/** 1: the exponential as −log(U) by Math.log (as the C calls libm's log); 0: by the same formula inline (fdlibm's). */
const USE_MATH_LOG: number = Number(process.env.PORT_MATH_LOG ?? 0) | 0;

/** xoshiro128** state (four int32 words), carried from run to run. */
const rngState = new Int32Array(4);

/** Seeds rngState from one integer by splitmix64 (two 64-bit outputs, four 32-bit halves), as the C seeds its four words. */
function seedRng(seed: number): void {
  let x = BigInt(seed);
  const mask = (1n << 64n) - 1n;
  for (let i = 0; i < 2; i++) {
    x = (x + 0x9e3779b97f4a7c15n) & mask;
    let z = x;
    z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & mask;
    z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & mask;
    z = z ^ (z >> 31n);
    rngState[2 * i] = Number(BigInt.asIntN(32, z));
    rngState[2 * i + 1] = Number(BigInt.asIntN(32, z >> 32n));
  }
  if ((rngState[0] | rngState[1] | rngState[2] | rngState[3]) === 0) rngState[0] = 1;
}

/** What one run measured: the C's JSON fields. */
export interface PortResult {
  variant: 'race (TS port)';
  n: number;
  lambda: number;
  d: number;
  events: number;
  seconds: number;
  cpuSeconds: number;
  eventsPerSecond: number;
  meanResponseTime: number;
  littleResponseTime: number;
  completed: number;
  simTime: number;
}

/**
 * The C's race loop, event for event: `events` events from an empty system. Every value the loop reads is a local in
 * a fixed representation (ints `| 0`, doubles, arrays in consts): TurboFan hoists nothing out of a loop.
 */
function raceLoop(
  events: number,
  n: number,
  lambda: number,
  d: number,
): Omit<PortResult, 'variant' | 'seconds' | 'cpuSeconds' | 'eventsPerSecond'> {
  const nn = n | 0;
  const dd = d | 0;
  const total = events | 0;
  const arrRate = +lambda * +n;
  const warm = (0.1 * total) / (2 * arrRate); // the first ~10 % of the run, as the C
  // U = (k + ½)·2^−53 for the 53-bit k = h·2^26 + l, as h·2^−27 + (l + ½)·2^−53: both parts exact, one rounding
  // in the sum, as the C's (k + ½) (the same doubles; through k as an integer TurboFan went via int64 and back)
  const INV_TWO53 = 1.1102230246251565e-16; // 2^−53
  const TWO_M27 = 7.450580596923828e-9; // 2^−27
  let s0 = rngState[0] | 0;
  let s1 = rngState[1] | 0;
  let s2 = rngState[2] | 0;
  let s3 = rngState[3] | 0;
  // doubles start as doubles (a literal 0 is a small integer: a phi of it and a double stayed tagged, a heap number
  // allocated per event), ints as int32
  const zeros = new Float64Array(3);
  let t = +zeros[0];
  let sumResp = +zeros[1];
  let area = +zeros[2];
  let completed = 0;
  let inSystem = 0;
  let nb = 0;
  let overflow = 0;
  for (let e = 0; e < total; e = (e + 1) | 0) {
    const R = arrRate + nb;
    // U (53 bits from two outputs: the high 27 bits of the first, the high 26 of the second)
    let m = Math.imul(s1, 5);
    let hi = Math.imul((m << 7) | (m >>> 25), 9);
    let x = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= x;
    s3 = (s3 << 11) | (s3 >>> 21);
    m = Math.imul(s1, 5);
    let lo = Math.imul((m << 7) | (m >>> 25), 9);
    x = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= x;
    s3 = (s3 << 11) | (s3 >>> 21);
    const h = hi >>> 5;
    let ex: number;
    if (USE_MATH_LOG === 1 || h === 0) ex = -Math.log((h * 67108864 + ((lo >>> 6) + 0.5)) * INV_TWO53);
    else {
      // −log(U) without Math.log (a call out of the loop: with the spills around it, more instructions than the log
      // itself): fdlibm's log, U's binary exponent and mantissa read off the integers (h ≥ 1; h = 0, probability
      // 2^−27, takes Math.log above). U = v·2^−53, v = h·2^26 + l + ½ (l = lo >>> 6); z = clz32(h): v·2^−(57−z) ∈
      // [1, 2), halved (c = 1) when its mantissa's top 20 bits (from h, then lo) pass fdlibm's ~√2 test, so
      // m ∈ [√2/2, √2) and −log(U) = K·ln2 − log(m), K = z − 4 − c. Within 1 ulp of Math.log (2.2·10^6 draws).
      const z = Math.clz32(h);
      const c = (((((h << z) | (lo >>> (32 - z))) >>> 11) & 0xfffff) + 0x95f64) >>> 20;
      const e5 = (z - 4 - c) | 0;
      const f = (h * 67108864 + ((lo >>> 6) + 0.5)) * 1.3877787807814457e-17 * (1 << ((z - 1 - c) | 0)) - 1; // ·2^−56·2^(z−1−c)
      const sf = f / (2 + f);
      const z2 = sf * sf;
      const w = z2 * z2;
      const R2 =
        w * (3.999999999940941908e-1 + w * (2.222219843214978396e-1 + w * 1.531383769920937332e-1)) +
        z2 * (6.66666666666673513e-1 + w * (2.857142874366239149e-1 + w * (1.818357216161805012e-1 + w * 1.479819860511658591e-1)));
      const hfsq = 0.5 * f * f;
      ex = e5 * 6.9314718036912381649e-1 - f + (hfsq - sf * (hfsq + R2) + e5 * 1.90821492927058770002e-10);
    }
    const tn = t + ex / R;
    if (tn > warm) area += inSystem * (tn - (t > warm ? t : warm));
    t = tn;
    m = Math.imul(s1, 5);
    hi = Math.imul((m << 7) | (m >>> 25), 9);
    x = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= x;
    s3 = (s3 << 11) | (s3 >>> 21);
    m = Math.imul(s1, 5);
    lo = Math.imul((m << 7) | (m >>> 25), 9);
    x = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= x;
    s3 = (s3 << 11) | (s3 >>> 21);
    const u = ((hi >>> 5) * TWO_M27 + ((lo >>> 6) + 0.5) * INV_TWO53) * R;
    if (u < arrRate) {
      // choose: d distinct servers by partial Fisher–Yates on pick; the first sampled of the fewest jobs
      let best = -1;
      let bestLen = 0;
      for (let k = 0; k < dd; k = (k + 1) | 0) {
        m = Math.imul(s1, 5);
        hi = Math.imul((m << 7) | (m >>> 25), 9);
        x = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= x;
        s3 = (s3 << 11) | (s3 >>> 21);
        m = Math.imul(s1, 5);
        lo = Math.imul((m << 7) | (m >>> 25), 9);
        x = s1 << 9;
        s2 ^= s0;
        s3 ^= s1;
        s1 ^= s2;
        s0 ^= s3;
        s2 ^= x;
        s3 = (s3 << 11) | (s3 >>> 21);
        const r = (k + ((((hi >>> 5) * TWO_M27 + ((lo >>> 6) + 0.5) * INV_TWO53) * (nn - k)) | 0)) | 0;
        const j = pick[r];
        pick[r] = pick[k];
        pick[k] = j;
        const L = qlen[j];
        if (best < 0 || L < bestLen) {
          best = j;
          bestLen = L;
        }
      }
      // enqueue
      const j = best;
      const L = qlen[j];
      if (L >= CAP) {
        overflow = 1;
        break;
      }
      arr[(j << 8) | ((qhead[j] + L) & 255)] = t;
      qlen[j] = (L + 1) | 0;
      inSystem = (inSystem + 1) | 0;
      if (L === 0) {
        pos[j] = nb;
        busy[nb] = j;
        nb = (nb + 1) | 0;
      }
    } else {
      const k = (u - arrRate) | 0;
      const j = busy[k < nb ? k : (nb - 1) | 0];
      // dequeue
      const h = qhead[j];
      const a = arr[(j << 8) | h];
      qhead[j] = (h + 1) & 255;
      const L = (qlen[j] - 1) | 0;
      qlen[j] = L;
      inSystem = (inSystem - 1) | 0;
      if (a > warm) {
        sumResp += t - a;
        completed = (completed + 1) | 0;
      }
      if (L === 0) {
        nb = (nb - 1) | 0;
        const last = busy[nb];
        const p = pos[j];
        busy[p] = last;
        pos[last] = p;
        pos[j] = -1;
      }
    }
  }
  rngState[0] = s0;
  rngState[1] = s1;
  rngState[2] = s2;
  rngState[3] = s3;
  if (overflow === 1) throw new Error('queue overflow: raise CAP');
  return {
    n,
    lambda,
    d,
    events,
    meanResponseTime: sumResp / completed,
    littleResponseTime: area / (t - warm) / arrRate,
    completed,
    simTime: t,
  };
}

/** One timed run of `events` events on fresh arrays (the loop alone is timed, as the C times it). */
export function timedRun(events: number, n: number, lambda: number, d: number): PortResult {
  resetState(n);
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const r = raceLoop(events | 0, n | 0, +lambda, d | 0); // small ints as small ints, whatever parsed them
  const used = process.cpuUsage(cpu);
  const seconds = (performance.now() - wall) / 1000;
  return {
    variant: 'race (TS port)',
    ...r,
    seconds,
    cpuSeconds: (used.user + used.system) / 1e6,
    eventsPerSecond: events / seconds,
  };
}

/** Resolves after `ms` milliseconds (a macrotask: V8 installs finished background compiles meanwhile). */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seeds the stream, runs an untimed warm-up of `warmup` events (fresh arrays), then `repeats` timed runs; the last one's result. */
export async function measure(
  events: number,
  seed: number,
  n: number,
  lambda: number,
  d: number,
  repeats = 1,
  warmup = 0,
): Promise<PortResult> {
  if (!(n >= 1 && d >= 1 && d <= n && lambda > 0 && lambda < 1)) throw new Error('need n ≥ 1, 1 ≤ d ≤ n, 0 < λ < 1');
  seedRng(seed);
  // The warm-up: three short calls (every line of the function gets type feedback in the interpreter, the code after
  // the loop too), then 10 calls that share the rest, each after a pause. V8 first compiles the hot loop on stack
  // replacement (OSR); OSR code has its loop phis tagged (boxed doubles, tagged ints: ~475 instructions per event),
  // and a call that met code without feedback after the loop left by a deopt and came back to the same OSR code, call
  // after call, never reaching the regular optimised code that the measured call should run. TurboFan compiles on a
  // background thread: without the pauses the measured call ran ~1.5× the CPU time of a run with
  // --no-concurrent-recompilation (0.47 against 0.32 s for 10^7 events), so the pauses let each compile finish and be
  // installed before the next call.
  // First 20 calls of 50 events: V8 allocates a function's feedback vector only after a few calls, so without them the
  // first call's code before the loop recorded no feedback, the first optimised code (compiled during that call's loop)
  // left at once by a deopt ("insufficient type feedback", bytecode offset 2), and the loop stayed in OSR code.
  for (let i = 0; i < 20 && warmup > 0; i++) timedRun(50, n, lambda, d);
  for (let i = 0; i < 3 && warmup > 0; i++) timedRun(1000, n, lambda, d);
  for (let i = 0; i < 10 && warmup > 0; i++) {
    await pause(20);
    timedRun(Math.ceil(warmup / 10), n, lambda, d);
  }
  if (warmup > 0) await pause(20);
  let r = timedRun(events, n, lambda, d);
  for (let i = 1; i < repeats; i++) r = timedRun(events, n, lambda, d);
  return r;
}

if (process.send !== undefined) {
  // forked by bench/simulator.ts: one message, one answer
  process.once('message', (msg) => {
    const { events, seed, n, lambda, d, warmup } = msg as {
      events: number;
      seed: number;
      n: number;
      lambda: number;
      d: number;
      warmup: number;
    };
    void measure(events, seed, n, lambda, d, 1, warmup).then((r) => process.send!(r, () => process.disconnect()));
  });
} else if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [events, seed, n, lambda, d, repeats, warmup] = process.argv.slice(2).map(Number);
  void measure(events, seed, n, lambda, d, repeats || 1, warmup || 0).then((r) => console.log(JSON.stringify(r)));
}
