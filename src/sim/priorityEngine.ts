/**
 * The priority event engine: SJF, PSJF, SRPT and the predicted SPJF, PSPJF, SPRPT (and FIFO, as a cross-check of
 * the FIFO engine) with any selection rule, size law and prediction model (theory.md §1). Per server: the job in
 * service (`cur`, its service segment start) and its waiting jobs in a sorted array, decreasing in (key, arrival
 * number), so the next job to serve is the last entry (discipline/waitQueues.ts, `sortedPush`). Preemptive-resume:
 * preemption is tested only at an arrival, which preempts iff its key is strictly below the in-service job's current
 * key; the preempted job's remaining work is frozen and it re-enters the queue under its frozen key; the server's departure clock is reset in the 4-ary tournament tree of
 * departure clocks (clockTree.ts, `ClockTree4`; the arrival clock is a separate number compared with the tree's winner).
 *
 * Keys (theory.md §1 table; a = attained service): FIFO arrival time; SJF, PSJF original S; SRPT S − a; SPJF,
 * PSPJF Y; SPRPT Y − a (clipped at 0 under conventions.sprptOverrun = 'zero'). Under conventions.psjfPreemption =
 * 'remaining', PSJF (PSPJF) compares the arrival's S (Y) with the in-service job's S − a (Y − a); queue keys stay
 * the original ones.
 *
 * The discipline is a small integer read once per run; each branch in the loop tests a loop constant, so the
 * calls stay monomorphic. No allocation per event (the job pool and queues grow by doubling).
 *
 * Server speeds (theory.md §13, `config.layout`): a job of size S (prediction Y) joining a server of speed v is stored
 * as S/v (Y/v), its service time there, at dispatch; every key of one server is then scaled by the same 1/v, so the
 * order of service is the discipline's, and the clocks, attained service and workload (time to drain) are in time
 * units. The slowdown divides by the original S. Selection over classes (`heteroSelect`) and per-class tallies.
 * Without a layout nothing changes (results bit for bit as before).
 */
import { DISCIPLINES, DISCIPLINE_TABLE } from '../model/policy/index.ts';
import type { RunConfig, RunState } from './core.ts';
import { EngineFrame } from './frame.ts';
import {
  PRED_EXACT,
  SEL_JSQ,
  SIZE_EXP,
  ARR_POISSON,
  D_FIFO,
  D_PSJF,
  D_PSPJF,
  D_SJF,
  D_SPRPT,
  D_SRPT,
  LOOP_GOAL,
  LOOP_LIMIT,
  LOOP_WARM_END,
  SEL_LPW,
  R_T,
  R_NEXT,
  R_SUM_T,
  R_SUM_SLOWDOWN,
  LOOP_CHUNK,
} from './core.ts';
import { WaitQueues, sortedPush } from './discipline/waitQueues.ts';
import { createClockTree4, ct4Fix, type ClockTree4 } from './clockTree.ts';
import { JobPool } from '../jobs/jobPool.ts';
import { DRAINING, MEASURING, WARMUP } from './measurement.ts';
import { jsqPair, PAIR_MAX_N } from './selection/jsqd.ts';
import { RNG_OUTPUTS, topUpStream } from './race.ts';
import { ZIG_X } from '../stats/rng.ts';
import { lpwJobValue } from './selection/leastWork.ts';
import { selectServer } from './selection/select.ts';
import { MEM_ISM } from './memory.ts';
import { heteroSelect } from './selection/hetero.ts';
import { Workload, workloadArea } from './workload.ts';

/** `PriorityEngine.reg`'s own slot after the shared ones (core.ts): the workload integral. */
const R_WORK = 4;

/** True for the preemptive disciplines (D_* code; the discipline table's `preemptive`). */
export function isPreemptive(discipline: number): boolean {
  return DISCIPLINE_TABLE[DISCIPLINES[discipline]].preemptive;
}

export class PriorityEngine extends EngineFrame {
  readonly kind = 'priority' as const;
  /**
   * Departure clocks only (ids 0..n−1, +∞ when idle). The arrival clock lives apart in `reg[R_NEXT]`, compared with
   * the tree's winner; at equal times the departure goes first, as in every engine.
   */
  private readonly clocks: ClockTree4;
  private readonly pool: JobPool;
  private readonly queues: WaitQueues;
  /** Job slot in service at each server, −1 if idle. */
  private readonly cur: Int32Array;
  /**
   * The current service segment of each server j: seg[2j] its start, seg[2j + 1] the remaining work of the job in
   * service then (one cache line for an arrival's preemption test, without reading the job's record).
   */
  private readonly seg: Float64Array;

  /** Takes over the jobs of the initial state (their ring order = arrival order; the head is in service). */
  constructor(config: RunConfig, state: RunState) {
    super(config, state, 5); // reg: the shared slots and the workload integral (R_WORK)
    const { n } = config;
    const { store, t, workload } = state;
    this.clocks = createClockTree4(n);
    // predictions are read only by the keys of PSPJF and SPRPT (serviceKey, frozenKey) and by LPW's bookkeeping
    const disc = config.discipline;
    this.pool = new JobPool(4 * n + 64, disc === D_PSPJF || disc === D_SPRPT || config.selection === SEL_LPW);
    this.queues = new WaitQueues(n);
    this.cur = new Int32Array(n).fill(-1);
    this.seg = new Float64Array(2 * n);
    const inv = config.layout?.invSpeed;
    for (let j = 0; j < n; j++) {
      const l = store.len[j];
      let work = 0;
      for (let k = 0; k < l; k++) {
        const from = (j << store.shift) + ((store.head[j] + k) & store.mask);
        // with speeds, service time at this server (class doc)
        const s = inv === undefined ? store.size[from] : store.size[from] * inv[j];
        const y = inv === undefined ? store.pred[from] : store.pred[from] * inv[j];
        const slot = this.pool.alloc(store.arrival[from], s, y, -1);
        work += s;
        if (k === 0) {
          this.cur[j] = slot;
          this.seg[2 * j] = t;
          this.seg[2 * j + 1] = s;
          this.clocks.times[j] = t + s;
          ct4Fix(this.clocks, j);
          if (this.lpw.curY.length > 0) {
            this.lpw.curY[j] = y;
            this.lpw.segStart[j] = t;
          }
        } else {
          this.queues.pushKey[0] = this.arrivalKey(store.arrival[from], s, y);
          sortedPush(this.queues, j, slot, this.pool.rec);
          if (this.lpw.waitPred.length > 0) this.lpw.waitPred[j] += lpwJobValue(y, 0, config.lpwMode);
        }
      }
      if (l > 0) workload.finish[j] = t + work;
    }
  }

  /** Key of a job that has received no service. */
  private arrivalKey(arrival: number, s: number, y: number): number {
    const disc = this.config.discipline;
    if (disc === D_FIFO) return arrival;
    if (disc === D_SJF || disc === D_PSJF || disc === D_SRPT) return s;
    if (disc === D_SPRPT && this.config.sprptZero && y < 0) return 0;
    return y;
  }

  /**
   * Current key of job c in service, r = its remaining true work S − a now (unclipped), for the preemption test
   * (preemptive disciplines; SRPT's key r is written inline in the loop).
   */
  private serviceKey(c: number, r: number): number {
    const { discipline: disc, psjfRemaining, sprptZero } = this.config;
    const pool = this.pool;
    if (disc === D_SRPT) return r;
    if (disc === D_PSJF) return psjfRemaining ? r : pool.size(c);
    if (disc === D_PSPJF) return psjfRemaining ? pool.pred[c] - pool.size(c) + r : pool.pred[c];
    // Y − a = (Y − S) + (S − a): with exact predictions Y − S = 0 and the key equals SRPT's bit for bit.
    const k = pool.pred[c] - pool.size(c) + r;
    return sprptZero && k < 0 ? 0 : k;
  }

  /** Queue key of job c preempted with remaining work r ≥ 0 (frozen while it waits). */
  private frozenKey(c: number, r: number): number {
    const { discipline: disc, sprptZero } = this.config;
    const pool = this.pool;
    if (disc === D_SRPT) return r;
    if (disc === D_PSJF) return pool.size(c);
    if (disc === D_PSPJF) return pool.pred[c];
    const k = pool.pred[c] - pool.size(c) + r;
    return sprptZero && k < 0 ? 0 : k;
  }

  /** LPW bookkeeping: job x (prediction y, attained a0) starts a service segment at server j at time t. */
  private lpwStart(j: number, y: number, a0: number, t: number): void {
    const lpw = this.lpw;
    lpw.curY[j] = y;
    lpw.curA0[j] = a0;
    lpw.segStart[j] = t;
  }

  /** LPW bookkeeping: job c (remaining r) is preempted at server j by a new job of prediction y at time t. */
  private lpwPreempt(j: number, c: number, r: number, y: number, t: number): void {
    const pool = this.pool;
    this.lpw.waitPred[j] += lpwJobValue(pool.pred[c], pool.size(c) - r, this.config.lpwMode);
    this.lpwStart(j, y, 0, t);
  }

  /** LPW bookkeeping: job x leaves server j's queue (remaining r) and enters service at time t. */
  private lpwResume(j: number, x: number, r: number, t: number): void {
    const pool = this.pool;
    const lpw = this.lpw;
    const y = pool.pred[x];
    const a0 = pool.size(x) - r;
    lpw.waitPred[j] = this.queues.len[j] === 0 ? 0 : lpw.waitPred[j] - lpwJobValue(y, a0, this.config.lpwMode);
    this.lpwStart(j, y, a0, t);
  }

  /** A PriorityEngine over another state (loop priming, frame.ts). */
  protected override twin(state: RunState): PriorityEngine {
    return new PriorityEngine(this.config, state);
  }

  /**
   * At most `chunkLeft` events of the current phase; returns a LOOP_* code or LOOP_CHUNK.
   *
   * Written for V8's inliner, which inlines at most ~920 bytes of callee bytecode into one function: the common
   * case (SRPT keys, JSQ(2) by one 32-bit draw, Poisson arrivals with exponential sizes and exact predictions)
   * is tested once per run and runs without detours, and every rare or configuration-specific step (other
   * disciplines' keys, LPW bookkeeping, growth) is a call out of the loop. Checked with
   * `node --trace-turbo-inlining` (SRPT, exponential, JSQ(2)): the loop inlines nextExp and jsqPair (with their
   * nextInt32) and the job pool's alloc and release; the budget is then spent, so the wait-queue push and pop,
   * Workload.accumulate and both walks of the clock tree (an arrival's and a departure's, rivalOf with them) are
   * written out in the loop, the walks level by level (see the departure's). A second call site of rivalOf took jsqPair
   * out of the budget; one walk for both kinds of event at the top of the loop cost more than two (cachegrind: 76 M
   * against 64 M branch mispredictions, 3·10⁶ events, when the walks were calls and loops; 15.06e9 against 14.57e9
   * instructions written out, bench SRPT row of 8·10⁶ events after a 10⁶-event warm-up).
   */
  advance(limit: number): number {
    // Every value the loop reads is brought to a fixed representation here, once per call, as in the FIFO engine and
    // the race loop (race.ts, `advance`): ints with `| 0`, doubles with `+`, flags as 0/1, imported constants into
    // locals (TurboFan hoists nothing out of the loop; a boolean, an imported binding or the tagged parameter read
    // inside it is re-checked on every event).
    const config = this.config;
    const n = config.n | 0;
    const d = config.d | 0;
    const { withoutReplacement, selection, lpwMode, discipline: disc } = config;
    const serviceMean = +config.serviceMean;
    const preemptive = isPreemptive(disc) ? 1 : 0;
    const srpt = disc === D_SRPT ? 1 : 0;
    // Sizes and arrival gaps drawn inline (same draws, same order as JobSource: size, then the next gap).
    const inlineExp =
      this.config.sizeKind === SIZE_EXP &&
      this.config.predKind === PRED_EXACT &&
      this.config.arrivalKind === ARR_POISSON &&
      this.config.batchSize === 1 // a batch's later jobs arrive with its first (JobSource.nextArrival)
        ? 1
        : 0;
    const invRate = 1 / (+this.config.lambda * n);
    // JSQ(2) calls jsqPair directly (what selectServer would do, without its dispatch): m = n or n − 1.
    const layout = this.config.layout;
    const pairM = selection === SEL_JSQ && d === 2 && n <= PAIR_MAX_N && layout === undefined ? (withoutReplacement ? n - 1 : n) | 0 : -1;
    // the pair's rejection bound 2^32 mod (n·pairM) (jsqPairSlow's threshold; engine.ts)
    const pairReject = pairM > 0 ? (4294967296 - n * pairM) % (n * pairM) : 0;
    const state = this.state;
    const { rng, store, occupancy, measurement, workload } = state;
    // server speeds (class doc): undefined for identical servers
    const inv = layout?.invSpeed;
    const tally = this.classes;
    const len = store.len;
    const perm = this.perm;
    const source = this.source;
    const lpw = this.lpw;
    const lpwOn = selection === SEL_LPW ? 1 : 0;
    const waitPred = lpw.waitPred;
    const finish = workload.finish;
    const clocks = this.clocks;
    const times = clocks.times;
    const ids = clocks.ids;
    const first = clocks.first | 0;
    const pool = this.pool;
    const queues = this.queues;
    const qlen = queues.len;
    // The wait queues' arrays (reloaded after a growth), for the push and pop written out in the loop.
    let qKey = queues.key;
    let qSlot = queues.slot;
    let qShift = queues.shift | 0;
    let qCap = queues.cap | 0;
    const cur = this.cur;
    const seg = this.seg;
    let count = occupancy.count;
    let area = occupancy.area;
    let last = occupancy.last;
    let levels = count.length | 0;
    const measuring = measurement.phase === MEASURING ? 1 : 0;
    const drainGoal = measurement.phase === DRAINING ? 0 : -1; // the drain's goal in one test (engine.ts, `advance`)
    const memory = this.memory;
    const batch = this.batch;
    const ism = memory !== undefined && memory.kind === MEM_ISM ? 1 : 0;
    // the arrival's fast path (JSQ(2) by the pair rule, exponential sizes and gaps; engine.ts says how): the Rng's
    // buffer read in place, the ziggurat table and rng.ts's constants as locals
    const fast = batch === undefined && memory === undefined && pairM >= 0 && inlineExp === 1 ? 1 : 0;
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
    const reg = this.reg;
    // reg's slots and the loop's return codes as locals (imported bindings), the parameter as a double
    const [iT, iNext, iSumT, iSumSlowdown, iWork] = [R_T | 0, R_NEXT | 0, R_SUM_T | 0, R_SUM_SLOWDOWN | 0, R_WORK | 0];
    const [goal, warmEnd, chunked] = [LOOP_GOAL | 0, LOOP_WARM_END | 0, LOOP_CHUNK | 0];
    const stop = +limit;
    this.openChunk();
    reg[iWork] = workload.area;
    const wLast = workload.last;
    const gridOn = workload.grid.length > 0 ? 1 : 0;
    const plainWork = workload.accumulate === Workload.prototype.accumulate ? 1 : 0;
    // The next departure (+∞ if every server is idle), times[ids[1]], kept here and updated by the walks that change
    // the tree (a departure's, the arrival's of a job that enters service): the load chain ids[1] → times[…] is
    // then off the path of every event's first comparison, on which the arrival-or-departure branch waits.
    let dep = times[ids[1]];

    for (;;) {
      if (chunkLeft === 0) {
        code = chunked;
        break;
      }
      const nextArrival = reg[iNext];
      // Equal times: departures first (as every engine does).
      const t = nextArrival < dep ? nextArrival : dep;
      if (t > stop || t === Infinity) {
        if (stop < Infinity) reg[iT] = stop;
        break;
      }
      reg[iT] = t;
      if (nextArrival < dep) {
        const seq = arrivals;
        if (seq === stopSeq) {
          code = warmEnd;
          break;
        }
        events++;
        chunkLeft--;
        let j: number;
        let s = 0;
        let y: number;
        let gap = 0;
        if (fast === 1) {
          // JSQ(2) and exponential sizes and gaps: jsqPair and the two nextExp (size, then the next arrival's gap)
          // written out over the Rng's buffer, read in place as the FIFO engine and the race loop do (engine.ts): the
          // same outputs in the same order, the same arithmetic, rare steps through the Rng's methods.
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
            batch !== undefined
              ? batch.select(rng, len, finish, t, n) // batches of K (theory.md §15): the batch's ranking, taken at its first job
              : memory !== undefined
                ? memory.select(rng, len, finish, t, withoutReplacement, perm)
                : pairM >= 0
                  ? jsqPair(rng, len, n, pairM)
                  : layout !== undefined
                    ? heteroSelect(layout, selection, rng, len, finish, t, n, d, withoutReplacement, perm)
                    : selectServer(selection, rng, len, finish, lpw, t, lpwMode, n, d, withoutReplacement, perm);
          if (inlineExp === 1) {
            // The size, then the next arrival gap: two consecutive Exp(1) draws (the stream's order), taken at one
            // call site so that V8 inlines nextExp (with its two nextInt32) once, ~350 bytecode bytes of the
            // ~920-byte inlining budget instead of ~700; the rest goes to the clock tree and queue operations.
            for (let q = 0; q < 2; q++) {
              const e = rng.nextExp();
              if (q === 0) s = e * serviceMean;
              else gap = e;
            }
            y = s;
          } else {
            source.draw(seq, rng);
            s = source.size;
            y = source.pred;
          }
        }
        if (inv !== undefined) {
          // server speeds: the service time at server j (class doc)
          s *= inv[j];
          y *= inv[j];
        }
        if (measuring === 1 && plainWork === 0) workload.accumulate(j, t);
        else if (measuring === 1) {
          // workload.accumulate(j, t) written out, as in the FIFO engine (V8 inlined it in some compilations and not
          // in others; as a call it boxed t): the same terms added in the same order.
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
        const x = pool.alloc(t, s, y, seq);
        // after the alloc (a growth replaces it); slot x's record is rec[x·4 ..]: arrival, S, rem, seq (jobPool.ts)
        const rec = pool.rec;
        arrivals = seq + 1;
        reg[iNext] = inlineExp === 1 ? t + gap * invRate : source.nextArrival(seq, t, rng);
        const c = cur[j];
        // Whether x enters service now: at an idle server, or preempting c.
        let serve = c < 0;
        if (!serve) {
          // Key of the new job (no service yet): SRPT's is its size.
          const key = srpt === 1 ? s : this.arrivalKey(t, s, y);
          // Preemptive disciplines: c's remaining work now, and its current key.
          const r = preemptive === 1 ? seg[(j << 1) | 1] - (t - seg[j << 1]) : 0;
          // The job that waits (x, or c when x preempts it) and its key.
          let w = x;
          let wKey = key;
          if (preemptive === 1 && key < (srpt === 1 ? r : this.serviceKey(c, r))) {
            // Preemptive-resume: freeze c's remaining work, requeue it under its current key, serve x now (below).
            const rc = r < 0 ? 0 : r;
            // SRPT reads a waiting job's remaining work from its queue key (the pop below), others from its record
            if (srpt === 0) rec[(c << 2) | 2] = rc;
            w = c;
            wKey = srpt === 1 ? rc : this.frozenKey(c, rc);
            serve = true;
            if (lpwOn === 1) this.lpwPreempt(j, c, rc, y, t);
          } else if (lpwOn === 1) {
            waitPred[j] += lpwJobValue(y, 0, lpwMode);
          }
          // sortedPush(queues, j, w, pool.rec) with key wKey, written out (see the note on the pop below).
          const ql = qlen[j];
          if (ql === qCap) {
            queues.grow();
            qKey = queues.key;
            qSlot = queues.slot;
            qShift = queues.shift | 0;
            qCap = queues.cap | 0;
          }
          // the entries to be served before w (less (key, seq)) move up one place; under SRPT a preempted job, whose
          // remaining work is at most every waiting job's key, goes last with no move
          const base = j << qShift;
          let i = (base + ql) | 0;
          while (i > base) {
            const im = (i - 1) | 0;
            const pk = qKey[im];
            if (pk > wKey || (pk === wKey && rec[(qSlot[im] << 2) | 3] > rec[(w << 2) | 3])) break;
            qKey[i] = pk;
            qSlot[i] = qSlot[im];
            i = im;
          }
          qKey[i] = wKey;
          qSlot[i] = w;
          qlen[j] = ql + 1;
        }
        if (serve) {
          cur[j] = x;
          seg[j << 1] = t;
          seg[(j << 1) | 1] = s;
          const due = t + s;
          times[j] = due;
          {
            // ct4Fix(clocks, j) written out, as the departure's walk below (see there), stopping at the first node
            // another clock already won
            let node = first + j;
            let k = due;
            let win = j;
            arrivalWalk: {
              if (node === 1) break arrivalWalk;
              {
                const q = (node - 2) | 0;
                const g = ((q & ~3) + 2) | 0;
                const p = q & 3;
                const ra = ids[(g + +(p === 0)) | 0];
                const rb = ids[(g + 1 + +(p <= 1)) | 0];
                const rc = ids[(g + 3 - +(p === 3)) | 0];
                const rab = ra ^ ((ra ^ rb) & -+(times[rb] < times[ra]));
                const sw = rab ^ ((rab ^ rc) & -+(times[rc] < times[rab]));
                const sk = times[sw];
                win ^= (win ^ sw) & -(+(sk < k) | (+(sk <= k) & +(sw < win)));
                k = times[win];
                node = ((q >> 2) + 1) | 0;
                if (ids[node] === win && win !== j) break arrivalWalk;
                ids[node] = win;
              }
              if (node === 1) break arrivalWalk;
              {
                const q = (node - 2) | 0;
                const g = ((q & ~3) + 2) | 0;
                const p = q & 3;
                const ra = ids[(g + +(p === 0)) | 0];
                const rb = ids[(g + 1 + +(p <= 1)) | 0];
                const rc = ids[(g + 3 - +(p === 3)) | 0];
                const rab = ra ^ ((ra ^ rb) & -+(times[rb] < times[ra]));
                const sw = rab ^ ((rab ^ rc) & -+(times[rc] < times[rab]));
                const sk = times[sw];
                win ^= (win ^ sw) & -(+(sk < k) | (+(sk <= k) & +(sw < win)));
                k = times[win];
                node = ((q >> 2) + 1) | 0;
                if (ids[node] === win && win !== j) break arrivalWalk;
                ids[node] = win;
              }
              if (node === 1) break arrivalWalk;
              {
                const q = (node - 2) | 0;
                const g = ((q & ~3) + 2) | 0;
                const p = q & 3;
                const ra = ids[(g + +(p === 0)) | 0];
                const rb = ids[(g + 1 + +(p <= 1)) | 0];
                const rc = ids[(g + 3 - +(p === 3)) | 0];
                const rab = ra ^ ((ra ^ rb) & -+(times[rb] < times[ra]));
                const sw = rab ^ ((rab ^ rc) & -+(times[rc] < times[rab]));
                const sk = times[sw];
                win ^= (win ^ sw) & -(+(sk < k) | (+(sk <= k) & +(sw < win)));
                k = times[win];
                node = ((q >> 2) + 1) | 0;
                if (ids[node] === win && win !== j) break arrivalWalk;
                ids[node] = win;
              }
              if (node === 1) break arrivalWalk;
              {
                const q = (node - 2) | 0;
                const g = ((q & ~3) + 2) | 0;
                const p = q & 3;
                const ra = ids[(g + +(p === 0)) | 0];
                const rb = ids[(g + 1 + +(p <= 1)) | 0];
                const rc = ids[(g + 3 - +(p === 3)) | 0];
                const rab = ra ^ ((ra ^ rb) & -+(times[rb] < times[ra]));
                const sw = rab ^ ((rab ^ rc) & -+(times[rc] < times[rab]));
                const sk = times[sw];
                win ^= (win ^ sw) & -(+(sk < k) | (+(sk <= k) & +(sw < win)));
                k = times[win];
                node = ((q >> 2) + 1) | 0;
                if (ids[node] === win && win !== j) break arrivalWalk;
                ids[node] = win;
              }
              if (node === 1) break arrivalWalk;
              {
                const q = (node - 2) | 0;
                const g = ((q & ~3) + 2) | 0;
                const p = q & 3;
                const ra = ids[(g + +(p === 0)) | 0];
                const rb = ids[(g + 1 + +(p <= 1)) | 0];
                const rc = ids[(g + 3 - +(p === 3)) | 0];
                const rab = ra ^ ((ra ^ rb) & -+(times[rb] < times[ra]));
                const sw = rab ^ ((rab ^ rc) & -+(times[rc] < times[rab]));
                const sk = times[sw];
                win ^= (win ^ sw) & -(+(sk < k) | (+(sk <= k) & +(sw < win)));
                k = times[win];
                node = ((q >> 2) + 1) | 0;
                if (ids[node] === win && win !== j) break arrivalWalk;
                ids[node] = win;
              }
              // trees of more than 4^5 leaves (n > 1024): the levels above, in a loop
              while (node > 1) {
                const q = (node - 2) | 0;
                const g = ((q & ~3) + 2) | 0;
                const p = q & 3;
                const ra = ids[(g + +(p === 0)) | 0];
                const rb = ids[(g + 1 + +(p <= 1)) | 0];
                const rc = ids[(g + 3 - +(p === 3)) | 0];
                const rab = ra ^ ((ra ^ rb) & -+(times[rb] < times[ra]));
                const sw = rab ^ ((rab ^ rc) & -+(times[rc] < times[rab]));
                const sk = times[sw];
                win ^= (win ^ sw) & -(+(sk < k) | (+(sk <= k) & +(sw < win)));
                k = times[win];
                node = ((q >> 2) + 1) | 0;
                if (ids[node] === win && win !== j) break arrivalWalk;
                ids[node] = win;
              }
            }
          }
          dep = times[ids[1]];
          if (c < 0) {
            if (lpwOn === 1) this.lpwStart(j, y, 0, t);
            if (tally !== undefined) tally.change(layout!.classOf[j], t, 1);
          }
        }
        // Read through this.state rather than the local `len`: see `loop`.
        const level = (this.state.store.len[j] + 1) | 0;
        len[j] = level;
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
            if (tally !== undefined) tally.close(t);
            code = goal;
            break;
          }
        } else {
          count[level]++;
        }
      } else {
        // Departure of server id's job in service; the queue's first job (if any) starts or resumes.
        const id = ids[1];
        events++;
        chunkLeft--;
        const l = len[id];
        if (measuring === 1) {
          area[l] += count[l] * (t - last[l]);
          last[l] = t;
        }
        count[l]--;
        len[id] = l - 1;
        const c = cur[id];
        const rec = pool.rec;
        const cb = c << 2;
        const a = rec[cb];
        const s = rec[cb | 1];
        const k = rec[cb | 3] - firstSeq;
        pool.release(c);
        const ql = qlen[id];
        if (ql > 0) {
          // The pop of the sorted queue: its last entry. Sorted arrays rather than binary heaps (as calls, the heaps'
          // push and pop cost ~6 % of an SRPT run): the queues are short (bench SRPT row, JSQ(2), n = 1000, λ = 0.9:
          // s_1…s_4 = 0.90, 0.51, 0.10, 0.003, so 0.68 waiting jobs per busy server, 2 or more at 11 % of them; an
          // arrival at a busy server finds 0.33 waiting on average, and 56 % of them preempt), the pop is one load
          // instead of a sift with two comparisons per level, and a preempted job's push is one comparison
          // (cachegrind, bench row at 3·10⁶ events: 9 % fewer instructions per event).
          const size = ql - 1;
          const qi = ((id << qShift) + size) | 0;
          const x = qSlot[qi];
          qlen[id] = size;
          cur[id] = x;
          // x's remaining work; under SRPT its queue key is that number (its size, or the remaining work it was
          // preempted with), read from the queue's line rather than x's record
          const r = srpt === 1 ? qKey[qi] : rec[(x << 2) | 2];
          seg[id << 1] = t;
          seg[(id << 1) | 1] = r;
          times[id] = t + r;
          if (lpwOn === 1) this.lpwResume(id, x, r, t);
        } else {
          cur[id] = -1;
          times[id] = Infinity;
          if (ism === 1) memory!.offer(id); // ISM: the server that became idle tells the dispatcher
          if (tally !== undefined) tally.change(layout!.classOf[id], t, -1);
        }
        {
          // ct4Fix(clocks, id) written out, rivalOf with it: id held every node of its path, so every one is replayed.
          // The rival of a node: the least of its parent's three other children, taken in index order (children hold
          // increasing ranges of ids, so a later one wins only when strictly earlier; clockTree.ts, rivalOf). The
          // levels are written out, five times, rather than looped: V8 checks every typed array again after each
          // turn of a loop (and after a call), and the arrival's walk as a call, or either walk as a loop, cost up to
          // 6 % of the run's instructions (cachegrind, bench SRPT row); a second call site of rivalOf took jsqPair out
          // of V8's inlining budget. Five levels cover n ≤ 1024.
          let node = first + id;
          let k = times[id];
          let win = id;
          departureWalk: {
            if (node === 1) break departureWalk;
            {
              const q = (node - 2) | 0;
              const g = ((q & ~3) + 2) | 0;
              const p = q & 3;
              const ra = ids[(g + +(p === 0)) | 0];
              const rb = ids[(g + 1 + +(p <= 1)) | 0];
              const rc = ids[(g + 3 - +(p === 3)) | 0];
              const rab = ra ^ ((ra ^ rb) & -+(times[rb] < times[ra]));
              const sw = rab ^ ((rab ^ rc) & -+(times[rc] < times[rab]));
              const sk = times[sw];
              win ^= (win ^ sw) & -(+(sk < k) | (+(sk <= k) & +(sw < win)));
              k = times[win];
              node = ((q >> 2) + 1) | 0;
              ids[node] = win;
            }
            if (node === 1) break departureWalk;
            {
              const q = (node - 2) | 0;
              const g = ((q & ~3) + 2) | 0;
              const p = q & 3;
              const ra = ids[(g + +(p === 0)) | 0];
              const rb = ids[(g + 1 + +(p <= 1)) | 0];
              const rc = ids[(g + 3 - +(p === 3)) | 0];
              const rab = ra ^ ((ra ^ rb) & -+(times[rb] < times[ra]));
              const sw = rab ^ ((rab ^ rc) & -+(times[rc] < times[rab]));
              const sk = times[sw];
              win ^= (win ^ sw) & -(+(sk < k) | (+(sk <= k) & +(sw < win)));
              k = times[win];
              node = ((q >> 2) + 1) | 0;
              ids[node] = win;
            }
            if (node === 1) break departureWalk;
            {
              const q = (node - 2) | 0;
              const g = ((q & ~3) + 2) | 0;
              const p = q & 3;
              const ra = ids[(g + +(p === 0)) | 0];
              const rb = ids[(g + 1 + +(p <= 1)) | 0];
              const rc = ids[(g + 3 - +(p === 3)) | 0];
              const rab = ra ^ ((ra ^ rb) & -+(times[rb] < times[ra]));
              const sw = rab ^ ((rab ^ rc) & -+(times[rc] < times[rab]));
              const sk = times[sw];
              win ^= (win ^ sw) & -(+(sk < k) | (+(sk <= k) & +(sw < win)));
              k = times[win];
              node = ((q >> 2) + 1) | 0;
              ids[node] = win;
            }
            if (node === 1) break departureWalk;
            {
              const q = (node - 2) | 0;
              const g = ((q & ~3) + 2) | 0;
              const p = q & 3;
              const ra = ids[(g + +(p === 0)) | 0];
              const rb = ids[(g + 1 + +(p <= 1)) | 0];
              const rc = ids[(g + 3 - +(p === 3)) | 0];
              const rab = ra ^ ((ra ^ rb) & -+(times[rb] < times[ra]));
              const sw = rab ^ ((rab ^ rc) & -+(times[rc] < times[rab]));
              const sk = times[sw];
              win ^= (win ^ sw) & -(+(sk < k) | (+(sk <= k) & +(sw < win)));
              k = times[win];
              node = ((q >> 2) + 1) | 0;
              ids[node] = win;
            }
            if (node === 1) break departureWalk;
            {
              const q = (node - 2) | 0;
              const g = ((q & ~3) + 2) | 0;
              const p = q & 3;
              const ra = ids[(g + +(p === 0)) | 0];
              const rb = ids[(g + 1 + +(p <= 1)) | 0];
              const rc = ids[(g + 3 - +(p === 3)) | 0];
              const rab = ra ^ ((ra ^ rb) & -+(times[rb] < times[ra]));
              const sw = rab ^ ((rab ^ rc) & -+(times[rc] < times[rab]));
              const sk = times[sw];
              win ^= (win ^ sw) & -(+(sk < k) | (+(sk <= k) & +(sw < win)));
              k = times[win];
              node = ((q >> 2) + 1) | 0;
              ids[node] = win;
            }
            // trees of more than 4^5 leaves (n > 1024): the levels above, in a loop
            while (node > 1) {
              const q = (node - 2) | 0;
              const g = ((q & ~3) + 2) | 0;
              const p = q & 3;
              const ra = ids[(g + +(p === 0)) | 0];
              const rb = ids[(g + 1 + +(p <= 1)) | 0];
              const rc = ids[(g + 3 - +(p === 3)) | 0];
              const rab = ra ^ ((ra ^ rb) & -+(times[rb] < times[ra]));
              const sw = rab ^ ((rab ^ rc) & -+(times[rc] < times[rab]));
              const sk = times[sw];
              win ^= (win ^ sw) & -(+(sk < k) | (+(sk <= k) & +(sw < win)));
              k = times[win];
              node = ((q >> 2) + 1) | 0;
              ids[node] = win;
            }
          }
          dep = k; // the root's winner's time (the walk replayed every level up to the root)
        }
        if (k >= 0 && k < jobsTarget) {
          const resp = t - a;
          reg[iSumT] += resp;
          // k is a double (sequence numbers may pass 2^31), so k % stride is a floating-point remainder, a C call
          // in V8: skip it when every job is kept (stride 1, up to PERCENTILE_SAMPLE_CAP jobs).
          if (stride === 1)
            responses[k | 0] = resp; // stride 1: k < responses.length, an int32
          else if (k % stride === 0) responses[(k / stride) | 0] = resp;
          completed++;
          if (tally !== undefined) {
            const cl = layout!.classOf[id];
            tally.jobs[cl]++;
            tally.sumResponse[cl] += resp;
          }
          if (s > 0) {
            // T/S with the original size (s is S/v with speeds)
            reg[iSumSlowdown] += inv === undefined ? resp / s : resp / (s / inv[id]);
            slowdownJobs++;
          }
          if (--measuredInSystem === drainGoal) {
            code = goal;
            break;
          }
        }
      }
    }

    if (plainWork === 1) workload.area = reg[iWork];
    this.closeChunk(events, arrivals, chunkLeft, measuredArrivals, measuredInSystem, slowdownJobs, completed);
    return code;
  }
}
