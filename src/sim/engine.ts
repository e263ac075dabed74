/**
 * The FIFO event engine: the next arrival time plus a binary heap of departure clocks in typed arrays (one per busy
 * server, id j), jobs stored per server in ring buffers with their size S, prediction Y and
 * arrival number. Any selection rule (random, JSQ(d), LWL(d), LPW(d)), any size law, Poisson or replayed
 * arrivals; the rule and the job source are chosen once per run (small integer codes, monomorphic calls).
 * Size-based and predicted disciplines run in `PriorityEngine` (priorityEngine.ts).
 * The arrival clock is kept out of the heap and compared with its root (departures first at equal times, the order
 * the heap gave when it held the arrival clock as id n): arrivals then never sift, and results are unchanged.
 * Hot loop: locals only, typed arrays, no allocation or closure per event. Source: theory.md §1, §8;
 * ../shared/bench/reference-sim.c (variant heap).
 */
import type { RunConfig, RunState } from './core.ts';
import {
  LOOP_CHUNK,
  LOOP_GOAL,
  LOOP_LIMIT,
  LOOP_WARM_END,
  PRED_EXACT,
  SEL_JSQ,
  SEL_LPW,
  SIZE_EXP,
  ARR_POISSON,
  R_T,
  R_NEXT,
  R_SUM_T,
  R_SUM_SLOWDOWN,
} from './core.ts';
import { fifoNext } from './discipline/fifo.ts';
import { EngineFrame } from './frame.ts';
import { createHeap, heapPush, type HeapArrays } from './heap.ts';
import { DRAINING, MEASURING, WARMUP } from './measurement.ts';
import { Workload, workloadArea } from './workload.ts';
import { PAIR_MAX_N, jsqPair } from './selection/jsqd.ts';
import { RNG_OUTPUTS, topUpStream } from './race.ts';
import { ZIG_X } from '../stats/rng.ts';
import { lpwJobValue } from './selection/leastWork.ts';
import { selectServer } from './selection/select.ts';
import { MEM_ISM } from './memory.ts';

/** `EventEngine.reg`'s own slot after the shared ones (core.ts): the workload integral. */
const R_WORK = 4;

/** The FIFO event engine (module doc); setup, phases and the chunk's bookkeeping are the frame's (frame.ts). */
export class EventEngine extends EngineFrame {
  readonly kind = 'event' as const;
  private readonly heap: HeapArrays;
  private heapSize = 0;

  /**
   * Schedules the first arrival and one departure per busy server of the given state (which must store sizes);
   * sets the workload and LPW state of the initial jobs.
   */
  constructor(config: RunConfig, state: RunState) {
    super(config, state, 5);
    const { n, lpwMode } = config;
    const { store, t, workload } = state;
    this.heap = createHeap(n);
    const { keys, ids } = this.heap;
    let size = 0;
    for (let j = 0; j < n; j++) {
      const l = store.len[j];
      if (l === 0) continue;
      const head = fifoNext(store, j);
      size = heapPush(keys, ids, size, t + store.size[head], j);
      let work = 0;
      for (let k = 0; k < l; k++) {
        const slot = (j << store.shift) + ((store.head[j] + k) & store.mask);
        work += store.size[slot];
        if (k > 0 && this.lpw.waitPred.length > 0) this.lpw.waitPred[j] += lpwJobValue(store.pred[slot], 0, lpwMode);
      }
      workload.finish[j] = t + work;
      if (this.lpw.curY.length > 0) {
        this.lpw.curY[j] = store.pred[head];
        this.lpw.segStart[j] = t;
      }
    }
    this.heapSize = size;
  }

  /** A EventEngine over another state (loop priming, frame.ts). */
  protected override twin(state: RunState): EventEngine {
    return new EventEngine(this.config, state);
  }

  /** The hot loop: at most `chunkLeft` events of the current phase; returns a LOOP_* code or LOOP_CHUNK. */
  advance(limit: number): number {
    // Every value the loop reads is brought to a fixed representation here, once per call, as in the race loop
    // (race.ts, `advance`): ints with `| 0`, doubles with `+`, flags as 0/1, imported constants into locals. TurboFan
    // hoists nothing out of the loop: a tagged parameter, an imported binding (a module cell with a hole check) or a
    // boolean read inside it is re-checked on every event.
    const config = this.config;
    const n = config.n | 0;
    const d = config.d | 0;
    const { withoutReplacement, selection, lpwMode } = config;
    const serviceMean = +config.serviceMean;
    // The common case (Poisson arrivals, exponential sizes, exact predictions) inline; the rest via JobSource.
    const inlineExp =
      config.sizeKind === SIZE_EXP && config.predKind === PRED_EXACT && config.arrivalKind === ARR_POISSON && config.batchSize === 1
        ? 1
        : 0;
    const invRate = 1 / (+config.lambda * n);
    // JSQ(2) (n ≤ PAIR_MAX_N): the pair rule called directly, as `selectServer` would (same draws). The general
    // entry is larger than V8's inlining budget leaves room for, so the common rule skips it.
    const pair = selection === SEL_JSQ && d === 2 && n <= PAIR_MAX_N ? 1 : 0;
    const pairM = (withoutReplacement ? n - 1 : n) | 0;
    // the pair's rejection bound 2^32 mod (n·pairM) (jsqPairSlow's threshold): a low part below it is drawn again
    const pairReject = pair === 1 ? (4294967296 - n * pairM) % (n * pairM) : 0;
    const state = this.state;
    const { rng, store, occupancy, measurement, workload } = state;
    const len = store.len;
    const ringHead = store.head;
    // Ring arrays (reloaded after a growth): FIFO push at the tail, pop at the head, written out inline.
    let rArrival = store.arrival;
    let rSize = store.size;
    let rPred = store.pred;
    let rSeq = store.seq;
    let shift = store.shift | 0;
    let mask = store.mask | 0;
    let cap = store.cap | 0;
    const perm = this.perm;
    const source = this.source;
    const lpw = this.lpw;
    const lpwOn = selection === SEL_LPW ? 1 : 0;
    const waitPred = lpw.waitPred;
    const finish = workload.finish;
    const wLast = workload.last;
    const gridOn = workload.grid.length > 0 ? 1 : 0;
    const plainWork = workload.accumulate === Workload.prototype.accumulate ? 1 : 0;
    const { keys, ids } = this.heap;
    let heapSize = this.heapSize | 0;
    const reg = this.reg;
    // reg's slots and the loop's return codes as locals (imported bindings)
    const [iT, iNext, iSumT, iSumSlowdown, iWork] = [R_T | 0, R_NEXT | 0, R_SUM_T | 0, R_SUM_SLOWDOWN | 0, R_WORK | 0];
    const [goal, warmEnd, chunked] = [LOOP_GOAL | 0, LOOP_WARM_END | 0, LOOP_CHUNK | 0];
    const stop = +limit;
    this.openChunk();
    reg[iWork] = workload.area;
    let count = occupancy.count;
    let area = occupancy.area;
    let last = occupancy.last;
    let levels = count.length | 0;
    const measuring = measurement.phase === MEASURING ? 1 : 0;
    // The drain's goal (its last measured job left) as one test made at every measured departure: measuredInSystem
    // is ≥ 0, so −1 is never met before the drain. (`… === 0 && draining === 1` ran its second test only at the
    // drain's last departure, with no type feedback: optimised code met it there and was thrown away.)
    const drainGoal = measurement.phase === DRAINING ? 0 : -1;
    const memory = this.memory;
    const ism = memory !== undefined && memory.kind === MEM_ISM ? 1 : 0;
    const batch = this.batch;
    // how an arrival picks its server: batch dispatcher, dispatcher memory, the JSQ(2) pair rule, the general entry
    const picker = batch !== undefined ? 3 : memory !== undefined ? 2 : pair === 1 ? 1 : 0;
    // the arrival's fast path (JSQ(2), exponential sizes and gaps) and what it reads: the Rng's buffer in place, the
    // ziggurat table and rng.ts's constants as local literals; an arrival reads ≤ 1 + 2 + 2 outputs in three groups
    const fast = picker === 1 && inlineExp === 1 ? 1 : 0;
    const rb = rng.buffer;
    const zigX = ZIG_X;
    const TWO32 = 4294967296;
    const INV_TWO32 = 2.3283064365386963e-10; // 2^−32
    const INV_TWO53 = 1.1102230246251565e-16; // 2^−53
    const lastOne = (RNG_OUTPUTS - 1) | 0; // a group of 1 output starts at nx ≤ lastOne
    const lastTwo = (RNG_OUTPUTS - 2) | 0;
    const stopSeq = measurement.phase === WARMUP ? +measurement.stopSeq : -1;
    const jobsTarget = +measurement.jobs;
    const firstSeq = +measurement.firstSeq;
    const responses = measurement.responses;
    const stride = measurement.stride | 0;
    let measuredArrivals = +measurement.measuredArrivals;
    let measuredInSystem = +measurement.measuredInSystem;
    let slowdownJobs = +measurement.slowdownJobs;
    let completed = +measurement.completed;
    let arrivals = +this.arrivals;
    let events = +this.events;
    let chunkLeft = this.chunkLeft | 0;
    let code = LOOP_LIMIT | 0;

    for (;;) {
      if (chunkLeft === 0) {
        code = chunked;
        break;
      }
      const nextArrival = reg[iNext];
      const departure = heapSize > 0 ? keys[0] : Infinity;
      const isArrival = nextArrival < departure; // equal times: the departure first
      const t = isArrival ? nextArrival : departure;
      if (t > stop || t === Infinity) {
        if (stop < Infinity) reg[iT] = stop;
        break;
      }
      if (isArrival && arrivals === stopSeq) {
        reg[iT] = t;
        code = warmEnd;
        break;
      }
      reg[iT] = t;
      events++;
      chunkLeft--;
      if (isArrival) {
        // Arrival: select, store the job with its size and prediction, schedule the next arrival (and a departure if idle).
        const seq = arrivals;
        let j: number;
        let s = 0;
        let y: number;
        let gap = 0;
        if (fast === 1) {
          // JSQ(2) and exponential sizes and gaps: jsqPair and two nextExp (size, then the next arrival's gap) written
          // out over the Rng's buffer, read in place at a local position as the race loop does (race.ts, `advance`):
          // the same outputs in the same order, the same arithmetic; each group of reads first makes sure its outputs
          // are there (`topUpStream`), the rare steps run through the Rng's methods with rng.next = nx.
          // the pair by Lemire's multiply-and-reject as jsqPair draws it, its two tests (low < n·m, then low < 2^32 mod n·m
          // in jsqPairSlow) as one against the exact bound: the same draws and the same pair, and no rare call in the loop
          // (a call first made after V8 optimised the loop had no type feedback and threw the optimised code away)
          let nx = rng.next | 0;
          let pa: number;
          let pb: number;
          for (;;) {
            if (nx > lastOne) {
              rng.next = nx;
              topUpStream(rng);
              nx = 0;
            }
            const px = (rb[nx++] >>> 0) * n;
            pa = (px * INV_TWO32) | 0;
            const py = (px - pa * TWO32) * pairM;
            pb = (py * INV_TWO32) | 0;
            if (py - pb * TWO32 >= pairReject) break;
          }
          if (pairM < n) pb += +(pb >= pa);
          j = pa ^ ((pa ^ pb) & ((len[pb] - len[pa]) >> 31)); // pb if len[pb] < len[pa], else pa
          for (let q = 0; q < 2; q++) {
            if (nx > lastTwo) {
              rng.next = nx;
              topUpStream(rng);
              nx = 0;
            }
            // Rng.nextExp's ziggurat step: layer and 24 bits of u from one output, 29 more bits from the next.
            const za = rb[nx];
            const zi = za & 255;
            let e = ((za >>> 8) * 536870912 + (rb[nx + 1] >>> 3)) * INV_TWO53 * zigX[zi];
            nx += 2;
            if (e >= zigX[zi + 1]) {
              rng.next = nx;
              e = rng.expOutsideCore(zi, e);
              nx = rng.next | 0;
            }
            if (q === 0) s = e * serviceMean;
            else gap = e;
          }
          rng.next = nx;
          y = s;
        } else {
          j =
            picker === 1
              ? jsqPair(rng, len, n, pairM)
              : picker === 0
                ? selectServer(selection, rng, len, finish, lpw, t, lpwMode, n, d, withoutReplacement, perm)
                : picker === 3
                  ? batch!.select(rng, len, finish, t, n)
                  : memory!.select(rng, len, finish, t, withoutReplacement, perm);
          if (inlineExp === 1) {
            s = rng.nextExp() * serviceMean;
            gap = rng.nextExp();
            y = s;
          } else {
            source.draw(seq, rng);
            s = source.size;
            y = source.pred;
          }
        }
        if (measuring === 1 && plainWork === 0) workload.accumulate(j, t);
        else if (measuring === 1) {
          // workload.accumulate(j, t) written out (V8's inlining budget is spent before this call; a call would also
          // box t): the same terms added in the same order. Not for a subclass (per-job records override accumulate).
          const from = wLast[j];
          wLast[j] = t;
          const u0 = finish[j] - from;
          if (u0 > 0) {
            const dt = t - from;
            reg[iWork] += workloadArea(u0, dt);
            if (gridOn === 1) workload.accumulateAbove(u0, dt);
          }
        }
        const f = finish[j];
        finish[j] = (f > t ? f : t) + s;
        // Read through this.state rather than the local `len`: see `loop` (this load ties the OSR code to the state
        // object's field types, so it is discarded together with the regular code when they change).
        const l = this.state.store.len[j];
        if (l === cap) {
          store.grow();
          rArrival = store.arrival;
          rSize = store.size;
          rPred = store.pred;
          rSeq = store.seq;
          shift = store.shift | 0;
          mask = store.mask | 0;
          cap = store.cap | 0;
        }
        const slot = (j << shift) + ((ringHead[j] + l) & mask);
        rArrival[slot] = t;
        rSize[slot] = s;
        rPred[slot] = y;
        rSeq[slot] = seq;
        len[j] = l + 1;
        arrivals = seq + 1;
        reg[iNext] = inlineExp === 1 ? t + gap * invRate : source.nextArrival(seq, t, rng);
        if (l === 0) {
          // heapPush(keys, ids, heapSize, t + s, j) written out: V8 does not inline it here (its budget is spent on
          // nextExp, jsqPair and the departure's sift), and as a call it boxed its double argument, a heap number per
          // push. The same sift-up, same comparisons.
          const key = t + s;
          let i = heapSize;
          while (i > 0) {
            const p = (i - 1) >> 1;
            const pk = keys[p];
            if (pk < key || (pk === key && ids[p] < j)) break; // equal times: lower id first
            keys[i] = pk;
            ids[i] = ids[p];
            i = p;
          }
          keys[i] = key;
          ids[i] = j;
          heapSize++;
          if (lpwOn === 1) {
            lpw.curY[j] = y;
            lpw.segStart[j] = t;
          }
        } else if (lpwOn === 1) {
          waitPred[j] += lpwJobValue(y, 0, lpwMode);
        }
        const level = l + 1;
        if (level >= levels) {
          occupancy.ensureLevels(level + 1);
          count = occupancy.count;
          area = occupancy.area;
          last = occupancy.last;
          levels = count.length | 0;
        }
        if (measuring === 1) {
          area[level] += count[level] * (t - last[level]);
          last[level] = t;
          count[level]++;
          measuredInSystem++;
          if (++measuredArrivals === jobsTarget) {
            code = goal;
            break;
          }
        } else {
          count[level]++;
        }
      } else {
        // Departure of server id's job in service; start the next one if any.
        const id = ids[0];
        const l = len[id];
        if (measuring === 1) {
          area[l] += count[l] * (t - last[l]);
          last[l] = t;
        }
        count[l]--;
        const h = ringHead[id];
        const head = (id << shift) + h;
        const s = rSize[head];
        const k = rSeq[head] - firstSeq;
        const a = rArrival[head];
        const h2 = (h + 1) & mask;
        ringHead[id] = h2;
        len[id] = l - 1;
        // The root's next clock: the server's next departure, or (server idle) the heap's last clock, moved up
        // as heapPopTop would; one copy of the sift in the loop.
        let key: number;
        let owner: number;
        if (l > 1) {
          const nx = (id << shift) + h2;
          key = t + rSize[nx];
          owner = id;
          if (lpwOn === 1) {
            const y = rPred[nx];
            waitPred[id] = l === 2 ? 0 : waitPred[id] - lpwJobValue(y, 0, lpwMode);
            lpw.curY[id] = y;
            lpw.segStart[id] = t;
          }
        } else {
          heapSize--;
          key = keys[heapSize];
          owner = ids[heapSize];
          if (ism === 1) memory!.offer(id); // ISM: the server that became idle tells the dispatcher
        }
        // heapReplaceTop(keys, ids, heapSize, key, owner) written out (heap.ts says how it takes two levels at a time):
        // at its size V8 no longer inlines it, and as a call it boxed its double argument, a heap number per departure.
        // The same sift, the same heap.
        let i = 0;
        for (;;) {
          let c = (2 * i + 1) | 0; // | 0: int32 arithmetic without overflow checks (indices < 2^31)
          if (c >= heapSize) break;
          const c2 = (c + 1) | 0;
          const g = (2 * c + 1) | 0;
          const g1i = (g + 1) | 0;
          const g2i = (g + 2) | 0;
          const g3i = (g + 3) | 0;
          if (g3i < heapSize) {
            const k1 = keys[c];
            const k2 = keys[c2];
            const g0 = keys[g];
            const g1 = keys[g1i];
            const g2 = keys[g2i];
            const g3 = keys[g3i];
            const b = k2 === k1 ? +(ids[c2] < ids[c]) : +(k2 < k1);
            const ba = g1 === g0 ? +(ids[g1i] < ids[g]) : +(g1 < g0);
            const bb = g3 === g2 ? +(ids[g3i] < ids[g2i]) : +(g3 < g2);
            const m = (c + b) | 0;
            const gm = (g + 2 * b + (ba ^ ((ba ^ bb) & -b))) | 0;
            const mk = keys[m];
            if (mk > key || (mk === key && ids[m] > owner)) break;
            keys[i] = mk;
            ids[i] = ids[m];
            i = m;
            const gk = keys[gm];
            if (gk > key || (gk === key && ids[gm] > owner)) break;
            keys[i] = gk;
            ids[i] = ids[gm];
            i = gm;
            continue;
          }
          if (c2 < heapSize) {
            const k1 = keys[c];
            const k2 = keys[c2];
            c = (c + (k2 === k1 ? +(ids[c2] < ids[c]) : +(k2 < k1))) | 0;
          }
          const ck = keys[c];
          if (ck > key || (ck === key && ids[c] > owner)) break;
          keys[i] = ck;
          ids[i] = ids[c];
          i = c;
        }
        if (heapSize > 0) {
          keys[i] = key;
          ids[i] = owner;
        }
        if (k >= 0 && k < jobsTarget) {
          const r = t - a;
          reg[iSumT] += r;
          // k is a float64 (the stored sequence number), so k % stride is a floating-point remainder (a call to
          // fmod in V8's optimised code): skip it when every job is kept (stride 1, up to PERCENTILE_SAMPLE_CAP jobs).
          if (stride === 1)
            responses[k | 0] = r; // stride 1: k < responses.length, an int32 (an integer index, no float64 key check)
          else if (k % stride === 0) responses[(k / stride) | 0] = r;
          completed++;
          if (s > 0) {
            reg[iSumSlowdown] += r / s;
            slowdownJobs++;
          }
          if (--measuredInSystem === drainGoal) {
            code = goal;
            break;
          }
        }
      }
    }

    this.heapSize = heapSize;
    if (plainWork === 1) workload.area = reg[iWork];
    this.closeChunk(events, arrivals, chunkLeft, measuredArrivals, measuredInSystem, slowdownJobs, completed);
    return code;
  }
}
