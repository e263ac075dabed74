/**
 * The race loop of src/sim/race.ts (`RaceEngine.loop`; issue 9), in AssemblyScript: every
 * selection rule it runs (the JSQ(2) pair rule for n ≤ 2^16, d i.i.d. draws, d distinct by Fisher–Yates), FIFO,
 * per-level occupancy areas, response and slowdown sums, stored responses (float32 or float64). The random stream is src/stats/rng.ts's, draw for draw: the same 256-output
 * xoshiro128** buffer (handed over from the JS Rng and back), the ziggurat tables passed in from JS (computed there
 * with V8's Math.exp/log), Lemire bounded integers; the rare paths call back to JS's Math.exp and Math.log.
 *
 * Not part of the TypeScript project (assembly/ is outside tsconfig's include: AssemblyScript types and builtins):
 * `npm run build:wasm` (scripts/build-wasm.ts) compiles it with asc into src/sim/wasm/raceKernel.ts, which
 * src/sim/race.ts runs as `RaceEngine.loop`; test/sim/raceKernel.test.ts checks the committed bytes are current.
 * Memory is imported and laid out by the JS side; every pointer and scalar comes in through `race`'s arguments
 * and the f64 parameter block `P` (slots below), and goes back the same way.
 */

// Imports from JS (module "race"): the host's Math.exp/Math.log (bit-identical to V8's).
declare function hostExp(x: f64): f64;
declare function hostLog(x: f64): f64;

// Parameter block slots (f64 each).
const P_T = 0;
const P_LIMIT = 1;
// slots 2 and 3: unused (the rates come in the per-busy-count table)
const P_WARM = 4;
const P_LAST_MEASURED = 5;
const P_JOBS_TARGET = 6;
const P_EVENTS = 7;
const P_ARRIVALS = 8;
const P_TICK = 9;
const P_MEASURED_ARRIVALS = 10;
const P_MEASURED_IN_SYSTEM = 11;
const P_SUM_RESPONSE = 12;
const P_COMPLETED = 13;
const P_SUM_SLOWDOWN = 14;
const P_SLOWDOWN_JOBS = 15;
const P_BUSY_COUNT = 16;
const P_RNG_NEXT = 17;
const P_ZIG_R = 18;
const P_PENDING = 19;
const P_S0 = 20;
/** 1 when TICK_EVENTS more events have been counted and JS owes `onTick` a call. */
const P_TICK_DUE = 24;

/** Selection rules: the JSQ(2) pair rule (d = 2, n ≤ 2^16), d distinct by Fisher–Yates; any other mode (1): d i.i.d. draws. */
const SELECT_PAIR = 0;
const SELECT_FISHER_YATES = 2;

const LOOP_LIMIT = 0;
const LOOP_GOAL = 1;
/** The arrival at server P_PENDING found its queue full: JS doubles the spill area and calls again (the event resumes). */
const LOOP_GROW = 3;
/**
 * A tick is due: the kernel returns between events so JS calls `onTick` (also letting V8 switch to the optimised
 * code of `race`, which it compiles while the first call runs in its baseline tier: wasm has no on-stack replacement).
 */
const LOOP_TICK = 4;

/** Jobs a server record holds (its 8 f64: the last departure and 7 jobs); later jobs go to the spill area. */
const RECORD_JOBS = 7;

const RNG_BUFFER = 256;
/** Largest d whose draws the loop reads from the buffer in place (larger d: through `jsqFisherYates` / `jsqIid`). */
const FAST_D = 8;
const TICK_EVENTS: i64 = 1 << 20;
const TWO_POW_MINUS_53: f64 = 1.0 / 9007199254740992.0;
const TWO_POW_MINUS_32: f64 = 1.0 / 4294967296.0;

let s0: i32 = 0;
let s1: i32 = 0;
let s2: i32 = 0;
let s3: i32 = 0;
let next: i32 = 0;
let buf: usize = 0;
let zigX: usize = 0;
let zigF: usize = 0;

/** Rng.nextInt32 as an unsigned 32-bit value. */
function nextU32(): u32 {
  if (next == RNG_BUFFER) topUp();
  const v = load<u32>(buf + ((<usize>next) << 2));
  next++;
  return v;
}

function zx(i: u32): f64 {
  return load<f64>(zigX + ((<usize>i) << 3));
}

function zf(i: u32): f64 {
  return load<f64>(zigF + ((<usize>i) << 3));
}

function nextDouble(): f64 {
  const hi = <f64>(nextU32() >>> 5);
  const lo = <f64>(nextU32() >>> 6);
  return (hi * 67108864.0 + lo) * TWO_POW_MINUS_53;
}

function nextOpen(): f64 {
  const hi = <f64>(nextU32() >>> 5);
  const lo = <f64>(nextU32() >>> 6);
  return (hi * 67108864.0 + lo + 0.5) * TWO_POW_MINUS_53;
}

let zigR: f64 = 0;

/** Rng.expOutsideCore (the ziggurat's fast step is inline in `race`): base-strip tail, wedge test, retries. */
function expOutsideCore(i: u32, x: f64): f64 {
  for (;;) {
    if (i == 0) return zigR + -hostLog(nextOpen());
    if (zf(i + 1) + (zf(i) - zf(i + 1)) * nextDouble() < hostExp(-x)) return x;
    const a = nextU32();
    i = a & 255;
    x = (<f64>(a >>> 8) * 536870912.0 + <f64>(nextU32() >>> 3)) * TWO_POW_MINUS_53 * zx(i);
    if (x < zx(i + 1)) return x;
  }
  return unreachable();
}

/**
 * Rng.belowRejection: Lemire's rejection step for below(n) once the first product m = x·n had a low part < n
 * (64-bit integers; the JS doubles are exact, so the same values). Draws through the global buffer position.
 */
function belowRejection(n: u32, m: u64): i32 {
  const threshold: u32 = (<u32>0 - n) % n;
  while (<u32>m < threshold) m = <u64>nextU32() * <u64>n;
  return <i32>(m >>> 32);
}

/**
 * jsqPairSlow's rejection loop for the pair (a, b) from one draw when the low part of y = (x·n mod 2^32)·m is < n·m:
 * redraws while it is below 2^32 mod n·m. Returns a·2^16 + b (both < 2^16).
 */
function pairRejection(n: u32, m: u32, y: u64, a: u32): u32 {
  const nm = <u64>n * <u64>m;
  const threshold = (((<u64>1) << 32) - nm) % nm;
  while ((y & 0xffffffff) < threshold) {
    const x = <u64>nextU32() * <u64>n;
    a = <u32>(x >>> 32);
    y = (x & 0xffffffff) * <u64>m;
  }
  return (a << 16) | (<u32>(y >>> 32));
}

/** The buffered output at position i (a call, so that `nx++` can stand in its argument). */
function lowBits(bp: usize, i: i32): u32 {
  return load<u32>(bp + ((<usize>i) << 2));
}

/** Rng.below(n) through the global buffer position. */
function belowG(n: u32): i32 {
  const m = <u64>nextU32() * <u64>n;
  return <u32>m >= n ? <i32>(m >>> 32) : belowRejection(n, m);
}

/** jsqWithReplacement's general case: d i.i.d. uniform servers, the first with the fewest jobs. */
function jsqIid(len: usize, n: u32, d: i32): i32 {
  let best = belowG(n);
  let bestLen = load<i32>(len + ((<usize>best) << 2));
  for (let k = 1; k < d; k++) {
    const j = belowG(n);
    const l = load<i32>(len + ((<usize>j) << 2));
    if (l < bestLen) {
      best = j;
      bestLen = l;
    }
  }
  return best;
}

/** jsqFisherYates: d distinct servers by a partial Fisher–Yates shuffle of the permutation at `perm`. */
function jsqFisherYates(len: usize, n: u32, d: i32, perm: usize): i32 {
  let best = -1;
  let bestLen = 0;
  for (let k = 0; k < d; k++) {
    const r = k + belowG(n - <u32>k);
    const j = load<i32>(perm + ((<usize>r) << 2));
    store<i32>(perm + ((<usize>r) << 2), load<i32>(perm + ((<usize>k) << 2)));
    store<i32>(perm + ((<usize>k) << 2), j);
    const l = load<i32>(len + ((<usize>j) << 2));
    if (best < 0 || l < bestLen) {
      best = j;
      bestLen = l;
    }
  }
  return best;
}

/** Buffer holds RNG_BUFFER − next unread outputs; moves them to the front and fills the rest (same stream). */
function topUp(): void {
  const left = RNG_BUFFER - next;
  const bp = buf;
  // a few words (≤ 5 on the fast path): a loop, not memory.copy (a call out of wasm into the host)
  for (let k = 0; k < left; k++) store<i32>(bp + ((<usize>k) << 2), load<i32>(bp + ((<usize>(next + k)) << 2)));
  let a = s0;
  let b = s1;
  let c = s2;
  let d = s3;
  let k = left;
  // four outputs a round (no register shuffles between steps, one loop check per four), then the rest one by one
  for (; k <= RNG_BUFFER - 4; k += 4) {
    const at = bp + ((<usize>k) << 2);
    store<i32>(at, rotl<i32>(b * 5, 7) * 9);
    let t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl<i32>(d, 11);
    store<i32>(at, rotl<i32>(b * 5, 7) * 9, 4);
    t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl<i32>(d, 11);
    store<i32>(at, rotl<i32>(b * 5, 7) * 9, 8);
    t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl<i32>(d, 11);
    store<i32>(at, rotl<i32>(b * 5, 7) * 9, 12);
    t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl<i32>(d, 11);
  }
  for (; k < RNG_BUFFER; k++) {
    store<i32>(bp + ((<usize>k) << 2), rotl<i32>(b * 5, 7) * 9);
    const t = b << 9;
    c ^= a;
    d ^= b;
    b ^= c;
    a ^= d;
    c ^= t;
    d = rotl<i32>(d, 11);
  }
  s0 = a;
  s1 = b;
  s2 = c;
  s3 = d;
  next = 0;
}

/**
 * RaceEngine.loop over the arrays at the given addresses; scalars in and out through the block at `p`.
 * Server j's record is the 8 f64 (one 64-byte line) at records + 64·j: its last departure time, then the arrival
 * times of its first RECORD_JOBS jobs oldest first; its later jobs (len[j] > RECORD_JOBS) are the spill area's
 * 2^spillShift f64 at spill + j·2^(spillShift+3), spillCap of them (0: no spill area yet). FIFO: a departure takes the
 * first job and moves the others down one. With B busy servers, the 16 bytes at byBusy + 16·B hold 2^32·λn/(λn + μB)
 * (the arrival probability scaled to a 32-bit draw) and λn + μB (the total rate).
 * Returns LOOP_LIMIT, LOOP_GOAL or LOOP_GROW (then P_PENDING holds the server whose arrival waits).
 */
export function race(
  p: usize,
  n: i32,
  pairM: i32,
  len: usize,
  records: usize,
  spill: usize,
  spillShift: i32,
  spillCap: i32,
  busy: usize,
  byBusy: usize,
  count: usize,
  area: usize,
  last: usize,
  responses: usize,
  responsesF64: i32,
  stride: i32,
  measuring: i32,
  draining: i32,
  rngBuffer: usize,
  zigXPtr: usize,
  zigFPtr: usize,
  mode: i32,
  d: i32,
  perm: usize,
): i32 {
  enterRng(p, rngBuffer, zigXPtr, zigFPtr);
  let t = load<f64>(p + (P_T << 3));
  const limit = load<f64>(p + (P_LIMIT << 3));
  const warm = load<f64>(p + (P_WARM << 3));
  const lastMeasured = load<f64>(p + (P_LAST_MEASURED << 3));
  const jobsTargetF = load<f64>(p + (P_JOBS_TARGET << 3));
  const jobsTarget: i64 = isFinite(jobsTargetF) ? <i64>jobsTargetF : -1;
  let events = <i64>load<f64>(p + (P_EVENTS << 3));
  let arrivals = <i64>load<f64>(p + (P_ARRIVALS << 3));
  let tick = <i64>load<f64>(p + (P_TICK << 3));
  // events are counted by tick alone: events += tickFrom − tick at a wrap and at the end (one counter per event)
  let tickFrom = tick;
  let tickDue = <i32>load<f64>(p + (P_TICK_DUE << 3));
  let measuredArrivals = <i64>load<f64>(p + (P_MEASURED_ARRIVALS << 3));
  let measuredInSystem = <i64>load<f64>(p + (P_MEASURED_IN_SYSTEM << 3));
  let sumResponse = load<f64>(p + (P_SUM_RESPONSE << 3));
  let completed = <i64>load<f64>(p + (P_COMPLETED << 3));
  let sumSlowdown = load<f64>(p + (P_SUM_SLOWDOWN << 3));
  let slowdownJobs = <i64>load<f64>(p + (P_SLOWDOWN_JOBS << 3));
  let busyCount = <i32>load<f64>(p + (P_BUSY_COUNT << 3));
  // phase = completed % stride (the completed-th response is stored when it is 0), stored = the slot it goes to
  let phase = <i32>(completed % <i64>stride);
  let stored = <i32>(completed / <i64>stride) + (phase > 0 ? 1 : 0);
  let j = <i32>load<f64>(p + (P_PENDING << 3));
  const capacity = RECORD_JOBS + spillCap;
  const spillBytes = <usize>(spillShift + 3);
  const un = <u32>n;
  const um = <u32>pairM;
  const nm = <u64>un * <u64>um;
  let code = LOOP_LIMIT;

  // Draws on the fast path read the buffer at the local position nx; each event starts with ≥ 5 unread outputs
  // (its fast path uses at most 5). Rare paths draw through the globals (next = nx before, nx = next after).
  let nx = next;
  const bp = buf;
  const xTable = zigX;
  // d draws for d ≤ FAST_D read the buffer in place too (else through calls), after a top-up if fewer than d are left
  const inline = mode != SELECT_PAIR && d <= FAST_D;
  const fisherYates = mode == SELECT_FISHER_YATES;
  for (;;) {
    if (j < 0) {
      if (tickDue) {
        code = LOOP_TICK;
        break;
      }
      if (nx > RNG_BUFFER - 5) {
        next = nx;
        topUp();
        nx = 0;
      }
      // Rng.nextExp: layer and 24 bits of u from one draw, 29 more bits from the next.
      const za = load<u32>(bp + ((<usize>nx) << 2));
      const zb = load<u32>(bp + ((<usize>(nx + 1)) << 2));
      nx += 2;
      const zi = za & 255;
      const zp = xTable + ((<usize>zi) << 3);
      let e = (<f64>(za >>> 8) * 536870912.0 + <f64>(zb >>> 3)) * TWO_POW_MINUS_53 * load<f64>(zp);
      if (e >= load<f64>(zp, 8)) {
        next = nx;
        e = expOutsideCore(zi, e);
        nx = next;
        if (nx > RNG_BUFFER - 3) {
          topUp();
          nx = 0;
        }
      }
      const slot = byBusy + ((<usize>busyCount) << 4); // p·2^32 and the total rate λn + μB (as the loop computed it)
      const time = t + e / load<f64>(slot, 8);
      if (time > limit) {
        t = limit;
        break;
      }
      t = time;
      if (--tick == 0) {
        events += tickFrom;
        tick = TICK_EVENTS;
        tickFrom = TICK_EVENTS;
        tickDue = 1;
      }
      const x = load<u32>(bp + ((<usize>nx) << 2));
      nx++;
      const threshold = load<f64>(slot); // p·2^32 (exact: a power of two)
      const xf = <f64>x;
      const isArrival =
        xf + 1 <= threshold ||
        (xf < threshold && (xf * 2097152.0 + <f64>(lowBits(bp, nx++) >>> 11)) * TWO_POW_MINUS_53 < threshold * TWO_POW_MINUS_32);
      if (!isArrival) {
        // Rng.below(busyCount), Lemire.
        const bm = <u64>load<u32>(bp + ((<usize>nx) << 2)) * <u64>busyCount;
        nx++;
        let k = <i32>(bm >>> 32);
        if (<u32>bm < <u32>busyCount) {
          next = nx;
          k = belowRejection(<u32>busyCount, bm);
          nx = next;
        }
        const jd = load<i32>(busy + ((<usize>k) << 2));
        const l = load<i32>(len + ((<usize>jd) << 2));
        const la = (<usize>l) << 3;
        if (measuring) {
          store<f64>(area + la, load<f64>(area + la) + <f64>load<i32>(count + ((<usize>l) << 2)) * (t - load<f64>(last + la)));
          store<f64>(last + la, t);
        }
        store<i32>(count + ((<usize>l) << 2), load<i32>(count + ((<usize>l) << 2)) - 1);
        const rec = records + ((<usize>jd) << 6);
        const a = load<f64>(rec, 8); // FIFO: the oldest job leaves, the others move down one
        // jobs 2..7 move to slots 1..6 whatever len is (slots beyond the queue hold nothing read): no loop whose
        // exit depends on the queue length (a branch miss per departure)
        v128.store(rec, v128.load(rec, 16), 8);
        v128.store(rec, v128.load(rec, 32), 24);
        v128.store(rec, v128.load(rec, 48), 40);
        if (l > RECORD_JOBS) {
          const sp = spill + ((<usize>jd) << spillBytes);
          store<f64>(rec, load<f64>(sp), RECORD_JOBS << 3);
          for (let q = sp, end = sp + ((<usize>(l - RECORD_JOBS - 1)) << 3); q < end; q += 8) store<f64>(q, load<f64>(q, 8));
        }
        store<i32>(len + ((<usize>jd) << 2), l - 1);
        if (l == 1) {
          busyCount--;
          store<i32>(busy + ((<usize>k) << 2), load<i32>(busy + ((<usize>busyCount) << 2)));
        }
        const ld = load<f64>(rec);
        const start = a > ld ? a : ld;
        store<f64>(rec, t);
        if (a > warm && a <= lastMeasured) {
          const r = t - a;
          sumResponse += r;
          // the completed-th response is stored (at completed / stride) when completed % stride == 0: a phase
          // counter, not an i64 division per completion (V8 emitted idiv for the index even at stride 1)
          if (phase == 0) {
            if (responsesF64) store<f64>(responses + ((<usize>stored) << 3), r);
            else store<f32>(responses + ((<usize>stored) << 2), <f32>r);
            stored++;
          }
          if (++phase == stride) phase = 0;
          completed++;
          const s = t - start;
          if (s > 0) {
            sumSlowdown += r / s;
            slowdownJobs++;
          }
          if (--measuredInSystem == 0 && draining) {
            code = LOOP_GOAL;
            break;
          }
        }
        continue;
      }
      if (mode == SELECT_PAIR) {
        // jsqPair: a uniform on [0, n), b on [0, m) from one draw (batched Lemire); b skips a without replacement.
        const px = <u64>load<u32>(bp + ((<usize>nx) << 2)) * <u64>un;
        nx++;
        let pa2 = <u32>(px >>> 32);
        const py = (px & 0xffffffff) * <u64>um;
        let pb = <u32>(py >>> 32);
        if ((py & 0xffffffff) < nm) {
          next = nx;
          const ab = pairRejection(un, um, py, pa2);
          nx = next;
          pa2 = ab >>> 16;
          pb = ab & 0xffff;
        }
        if (um < un && pb >= pa2) pb++;
        j = load<i32>(len + ((<usize>pb) << 2)) < load<i32>(len + ((<usize>pa2) << 2)) ? <i32>pb : <i32>pa2;
      } else if (inline) {
        // jsqFisherYates / jsqIid over the buffer: draw k is below(n − k) (distinct, a partial Fisher–Yates shuffle
        // of perm) or below(n) (i.i.d.); the first sampled of the fewest jobs wins
        if (nx > RNG_BUFFER - d) {
          next = nx;
          topUp();
          nx = 0;
        }
        let best = -1;
        let bestLen = 0;
        for (let k = 0; k < d; k++) {
          const bound = fisherYates ? un - <u32>k : un;
          const m = <u64>load<u32>(bp + ((<usize>nx) << 2)) * <u64>bound;
          nx++;
          let r = <i32>(m >>> 32);
          if (<u32>m < bound) {
            next = nx;
            r = belowRejection(bound, m);
            nx = next;
            if (nx > RNG_BUFFER - (d - 1 - k)) {
              topUp();
              nx = 0;
            }
          }
          let s = r;
          if (fisherYates) {
            const pr = perm + ((<usize>(r + k)) << 2);
            const pk = perm + ((<usize>k) << 2);
            s = load<i32>(pr);
            store<i32>(pr, load<i32>(pk));
            store<i32>(pk, s);
          }
          const l = load<i32>(len + ((<usize>s) << 2));
          if (best < 0 || l < bestLen) {
            best = s;
            bestLen = l;
          }
        }
        j = best;
      } else {
        next = nx;
        j = fisherYates ? jsqFisherYates(len, un, d, perm) : jsqIid(len, un, d);
        nx = next;
      }
    }
    // The arrival at server j (possibly resumed after a LOOP_GROW).
    const l = load<i32>(len + ((<usize>j) << 2));
    if (l == capacity) {
      code = LOOP_GROW;
      break;
    }
    // FIFO: append at the tail
    if (l < RECORD_JOBS) store<f64>(records + ((<usize>j) << 6) + ((<usize>(l + 1)) << 3), t);
    else store<f64>(spill + ((<usize>j) << spillBytes) + ((<usize>(l - RECORD_JOBS)) << 3), t);
    store<i32>(len + ((<usize>j) << 2), l + 1);
    arrivals++;
    if (l == 0) {
      store<i32>(busy + ((<usize>busyCount) << 2), j);
      busyCount++;
    }
    const level = l + 1;
    const lc = count + ((<usize>level) << 2);
    if (measuring) {
      const la = (<usize>level) << 3;
      store<f64>(area + la, load<f64>(area + la) + <f64>load<i32>(lc) * (t - load<f64>(last + la)));
      store<f64>(last + la, t);
      store<i32>(lc, load<i32>(lc) + 1);
      measuredInSystem++;
      j = -1;
      if (++measuredArrivals == jobsTarget) {
        code = LOOP_GOAL;
        break;
      }
    } else {
      store<i32>(lc, load<i32>(lc) + 1);
      j = -1;
    }
  }

  store<f64>(p + (P_T << 3), t);
  events += tickFrom - tick;
  store<f64>(p + (P_EVENTS << 3), <f64>events);
  store<f64>(p + (P_ARRIVALS << 3), <f64>arrivals);
  store<f64>(p + (P_TICK << 3), <f64>tick);
  store<f64>(p + (P_TICK_DUE << 3), <f64>tickDue);
  store<f64>(p + (P_MEASURED_ARRIVALS << 3), <f64>measuredArrivals);
  store<f64>(p + (P_MEASURED_IN_SYSTEM << 3), <f64>measuredInSystem);
  store<f64>(p + (P_SUM_RESPONSE << 3), sumResponse);
  store<f64>(p + (P_COMPLETED << 3), <f64>completed);
  store<f64>(p + (P_SUM_SLOWDOWN << 3), sumSlowdown);
  store<f64>(p + (P_SLOWDOWN_JOBS << 3), <f64>slowdownJobs);
  store<f64>(p + (P_BUSY_COUNT << 3), <f64>busyCount);
  store<f64>(p + (P_PENDING << 3), <f64>j);
  leaveRng(p, nx);
  return code;
}

/**
 * Test hook (test/sim/raceKernel.test.ts): `count` draws of one random primitive through the kernel's out-of-line
 * paths, as f64 at `out`: kind 0 Rng.nextExp (ziggurat step, tail and wedge), 1 Rng.below(bound) (Lemire and its
 * rejection), 2 jsqPair over the queue lengths at `len` (bound servers, m others; batched Lemire and the pair
 * rejection). The Rng's state comes in and goes back through the block at p and the buffer, as for `race`.
 */
export function draws(
  p: usize,
  rngBuffer: usize,
  zigXPtr: usize,
  zigFPtr: usize,
  kind: i32,
  bound: u32,
  m: u32,
  len: usize,
  count: i32,
  out: usize,
): void {
  enterRng(p, rngBuffer, zigXPtr, zigFPtr);
  for (let k = 0; k < count; k++) {
    let v: f64;
    if (kind == 0) {
      const a = nextU32();
      const i = a & 255;
      const x = (<f64>(a >>> 8) * 536870912.0 + <f64>(nextU32() >>> 3)) * TWO_POW_MINUS_53 * zx(i);
      v = x < zx(i + 1) ? x : expOutsideCore(i, x);
    } else if (kind == 1) {
      v = <f64>belowG(bound);
    } else {
      const px = <u64>nextU32() * <u64>bound;
      let a = <u32>(px >>> 32);
      const py = (px & 0xffffffff) * <u64>m;
      let b = <u32>(py >>> 32);
      if ((py & 0xffffffff) < <u64>bound * <u64>m) {
        const ab = pairRejection(bound, m, py, a);
        a = ab >>> 16;
        b = ab & 0xffff;
      }
      if (m < bound && b >= a) b++;
      v = load<i32>(len + ((<usize>b) << 2)) < load<i32>(len + ((<usize>a) << 2)) ? <f64>b : <f64>a;
    }
    store<f64>(out + ((<usize>k) << 3), v);
  }
  leaveRng(p, next);
}

/** Takes the Rng's state (buffer position and xoshiro128** words from the block at p) and the table addresses. */
function enterRng(p: usize, rngBuffer: usize, zigXPtr: usize, zigFPtr: usize): void {
  buf = rngBuffer;
  zigX = zigXPtr;
  zigF = zigFPtr;
  zigR = load<f64>(p + (P_ZIG_R << 3));
  next = <i32>load<f64>(p + (P_RNG_NEXT << 3));
  s0 = <i32>load<f64>(p + (P_S0 << 3));
  s1 = <i32>load<f64>(p + ((P_S0 + 1) << 3));
  s2 = <i32>load<f64>(p + ((P_S0 + 2) << 3));
  s3 = <i32>load<f64>(p + ((P_S0 + 3) << 3));
}

/** Hands the Rng's state back through the block at p, buffer position `position`. */
function leaveRng(p: usize, position: i32): void {
  store<f64>(p + (P_RNG_NEXT << 3), <f64>position);
  store<f64>(p + (P_S0 << 3), <f64>s0);
  store<f64>(p + ((P_S0 + 1) << 3), <f64>s1);
  store<f64>(p + ((P_S0 + 2) << 3), <f64>s2);
  store<f64>(p + ((P_S0 + 3) << 3), <f64>s3);
}
