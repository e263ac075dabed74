/**
 * The priority event engine: SJF, PSJF, SRPT and the predicted SPJF, PSPJF, SPRPT (and FIFO, as a cross-check of
 * the FIFO engine) with any selection rule, size law and prediction model (theory.md §1). Per server: the job in
 * service (`cur`, its service segment start) and a priority queue of waiting jobs keyed by (key, arrival number)
 * (discipline/waitQueues.ts). Preemptive-resume: preemption is tested only at an arrival, which preempts iff its
 * key is strictly below the in-service job's current key; the preempted job's remaining work is frozen and it
 * re-enters the queue under its frozen key; the server's departure clock is re-keyed in the indexed event heap.
 *
 * Keys (theory.md §1 table; a = attained service): FIFO arrival time; SJF, PSJF original S; SRPT S − a; SPJF,
 * PSPJF Y; SPRPT Y − a (clipped at 0 under conventions.sprptOverrun = 'zero'). Under conventions.psjfPreemption =
 * 'remaining', PSJF (PSPJF) compares the arrival's S (Y) with the in-service job's S − a (Y − a); queue keys stay
 * the original ones.
 *
 * The discipline is a small integer read once per run; each branch in the loop tests a loop constant, so the
 * calls stay monomorphic. No allocation per event (the job pool and queues grow by doubling).
 */
import type { Engine, PhaseLoop, RunConfig, RunState } from './core.ts';
import {
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
  TICK_EVENTS,
  runPhases,
} from './core.ts';
import { WaitQueues, waitPop, waitPush } from './discipline/waitQueues.ts';
import { createIndexedHeap, ihPopTop, ihPush, ihReplaceTop, ihUpdate, type IndexedHeap } from './indexedHeap.ts';
import { JobPool } from './jobPool.ts';
import { JobSource } from './jobSource.ts';
import { DRAINING, MEASURING, WARMUP } from './measurement.ts';
import { identityPermutation } from './selection/jsqd.ts';
import { LpwState, lpwJobValue } from './selection/leastWork.ts';
import { selectServer } from './selection/select.ts';

/** True for the preemptive disciplines. */
export function isPreemptive(discipline: number): boolean {
  return discipline === D_PSJF || discipline === D_SRPT || discipline === D_PSPJF || discipline === D_SPRPT;
}

export class PriorityEngine implements Engine, PhaseLoop {
  readonly kind = 'priority' as const;
  events = 0;
  arrivals = 0;
  private readonly heap: IndexedHeap;
  private heapSize = 0;
  private readonly perm: Int32Array;
  private readonly source: JobSource;
  private readonly lpw: LpwState;
  private readonly pool: JobPool;
  private readonly queues: WaitQueues;
  /** Job slot in service at each server, −1 if idle. */
  private readonly cur: Int32Array;
  /** Start of the current service segment at each server. */
  private readonly segStart: Float64Array;
  private tick = TICK_EVENTS;

  /** Takes over the jobs of the initial state (their ring order = arrival order; the head is in service). */
  constructor(
    readonly config: RunConfig,
    readonly state: RunState,
  ) {
    const { n } = config;
    const { store, rng, t, workload } = state;
    this.heap = createIndexedHeap(n + 1);
    this.perm = identityPermutation(n);
    this.source = new JobSource(config);
    this.lpw = new LpwState(config.selection === SEL_LPW ? n : 0);
    this.pool = new JobPool(4 * n + 64);
    this.queues = new WaitQueues(n);
    this.cur = new Int32Array(n).fill(-1);
    this.segStart = new Float64Array(n);
    let size = ihPush(this.heap, 0, this.source.firstArrival(t, rng), n);
    for (let j = 0; j < n; j++) {
      const l = store.len[j];
      let work = 0;
      for (let k = 0; k < l; k++) {
        const from = (j << store.shift) + ((store.head[j] + k) & store.mask);
        const s = store.size[from];
        const y = store.pred[from];
        const slot = this.pool.alloc(store.arrival[from], s, y, -1);
        work += s;
        if (k === 0) {
          this.cur[j] = slot;
          this.segStart[j] = t;
          size = ihPush(this.heap, size, t + s, j);
          if (this.lpw.curY.length > 0) {
            this.lpw.curY[j] = y;
            this.lpw.segStart[j] = t;
          }
        } else {
          waitPush(this.queues, j, slot, this.arrivalKey(store.arrival[from], s, y), this.pool.seq);
          if (this.lpw.waitPred.length > 0) this.lpw.waitPred[j] += lpwJobValue(y, 0, config.lpwMode);
        }
      }
      if (l > 0) workload.finish[j] = t + work;
    }
    this.heapSize = size;
  }

  /** Key of a job that has received no service. */
  private arrivalKey(arrival: number, s: number, y: number): number {
    const disc = this.config.discipline;
    if (disc === D_FIFO) return arrival;
    if (disc === D_SJF || disc === D_PSJF || disc === D_SRPT) return s;
    if (disc === D_SPRPT && this.config.sprptZero && y < 0) return 0;
    return y;
  }

  /** See `Engine.run` and `runPhases`. */
  run(stopTime: number, onTick?: (events: number) => void): void {
    runPhases(this, stopTime, onTick);
  }

  /** The hot loop within one phase; same contract as `EventEngine.loop`. */
  loop(limit: number, onTick: ((events: number) => void) | undefined): number {
    const { n, d, withoutReplacement, selection, lpwMode, discipline: disc, psjfRemaining, sprptZero } = this.config;
    const preemptive = isPreemptive(disc);
    const state = this.state;
    const { rng, store, occupancy, measurement, workload } = state;
    const len = store.len;
    const perm = this.perm;
    const source = this.source;
    const lpw = this.lpw;
    const lpwOn = selection === SEL_LPW;
    const waitPred = lpw.waitPred;
    const finish = workload.finish;
    const heap = this.heap;
    const keys = heap.keys;
    const ids = heap.ids;
    const pool = this.pool;
    const queues = this.queues;
    const qlen = queues.len;
    const cur = this.cur;
    const segStart = this.segStart;
    let heapSize = this.heapSize;
    let count = occupancy.count;
    let area = occupancy.area;
    let last = occupancy.last;
    let levels = count.length;
    const measuring = measurement.phase === MEASURING;
    const draining = measurement.phase === DRAINING;
    const stopSeq = measurement.phase === WARMUP ? measurement.stopSeq : -1;
    const jobsTarget = measurement.jobs;
    const firstSeq = measurement.firstSeq;
    const responses = measurement.responses;
    const stride = measurement.stride;
    let measuredArrivals = measurement.measuredArrivals;
    let measuredInSystem = measurement.measuredInSystem;
    let sumResponse = measurement.sumResponse;
    let sumSlowdown = measurement.sumSlowdown;
    let slowdownJobs = measurement.slowdownJobs;
    let completed = measurement.completed;
    let arrivals = this.arrivals;
    let t = state.t;
    let events = this.events;
    let tick = this.tick;
    let code = LOOP_LIMIT;

    for (;;) {
      const time = keys[0];
      if (time > limit || heapSize === 0) {
        if (limit < Infinity) t = limit;
        break;
      }
      const id = ids[0];
      if (id === n) {
        const seq = arrivals;
        if (seq === stopSeq) {
          t = time;
          code = LOOP_WARM_END;
          break;
        }
        t = time;
        events++;
        if (--tick === 0) {
          tick = TICK_EVENTS;
          if (onTick !== undefined) onTick(events);
        }
        const j = selectServer(selection, rng, len, finish, lpw, t, lpwMode, n, d, withoutReplacement, perm);
        source.draw(seq, rng);
        const s = source.size;
        const y = source.pred;
        if (measuring) workload.accumulate(j, t);
        const f = finish[j];
        finish[j] = (f > t ? f : t) + s;
        const x = pool.alloc(t, s, y, seq);
        arrivals = seq + 1;
        const next = source.nextArrival(seq, t, rng);
        if (next < Infinity) ihReplaceTop(heap, heapSize, next, n);
        else heapSize = ihPopTop(heap, heapSize);
        // Key of the new job (no service yet).
        let key: number;
        if (disc === D_FIFO) key = t;
        else if (disc === D_SJF || disc === D_PSJF || disc === D_SRPT) key = s;
        else if (disc === D_SPRPT && sprptZero && y < 0) key = 0;
        else key = y;
        const c = cur[j];
        if (c < 0) {
          cur[j] = x;
          segStart[j] = t;
          heapSize = ihPush(heap, heapSize, t + s, j);
          if (lpwOn) {
            lpw.curY[j] = y;
            lpw.curA0[j] = 0;
            lpw.segStart[j] = t;
          }
        } else {
          let preempt = false;
          let elapsed = 0;
          if (preemptive) {
            elapsed = t - segStart[j];
            let curKey: number;
            if (disc === D_SRPT) curKey = pool.rem[c] - elapsed;
            else if (disc === D_PSJF) curKey = psjfRemaining ? pool.rem[c] - elapsed : pool.size[c];
            else if (disc === D_PSPJF) curKey = psjfRemaining ? pool.pred[c] - pool.size[c] + (pool.rem[c] - elapsed) : pool.pred[c];
            else {
              // Y − a = (Y − S) + (S − a): with exact predictions Y − S = 0 and the key equals SRPT's bit for bit.
              curKey = pool.pred[c] - pool.size[c] + (pool.rem[c] - elapsed);
              if (sprptZero && curKey < 0) curKey = 0;
            }
            preempt = key < curKey;
          }
          if (preempt) {
            // Preemptive-resume: freeze c's remaining work, requeue it under its current key, serve x now.
            let r = pool.rem[c] - elapsed;
            if (r < 0) r = 0;
            pool.rem[c] = r;
            let ck: number;
            if (disc === D_SRPT) ck = r;
            else if (disc === D_PSJF) ck = pool.size[c];
            else if (disc === D_PSPJF) ck = pool.pred[c];
            else {
              ck = pool.pred[c] - pool.size[c] + r;
              if (sprptZero && ck < 0) ck = 0;
            }
            waitPush(queues, j, c, ck, pool.seq);
            cur[j] = x;
            segStart[j] = t;
            ihUpdate(heap, heapSize, j, t + s);
            if (lpwOn) {
              waitPred[j] += lpwJobValue(pool.pred[c], pool.size[c] - r, lpwMode);
              lpw.curY[j] = y;
              lpw.curA0[j] = 0;
              lpw.segStart[j] = t;
            }
          } else {
            waitPush(queues, j, x, key, pool.seq);
            if (lpwOn) waitPred[j] += lpwJobValue(y, 0, lpwMode);
          }
        }
        const level = len[j] + 1;
        len[j] = level;
        if (level >= levels) {
          occupancy.ensureLevels(level + 1);
          count = occupancy.count;
          area = occupancy.area;
          last = occupancy.last;
          levels = count.length;
        }
        if (measuring) {
          area[level] += count[level] * (t - last[level]);
          last[level] = t;
          count[level]++;
          measuredInSystem++;
          if (++measuredArrivals === jobsTarget) {
            code = LOOP_GOAL;
            break;
          }
        } else {
          count[level]++;
        }
      } else {
        // Departure of server id's job in service; the queue's first job (if any) starts or resumes.
        t = time;
        events++;
        if (--tick === 0) {
          tick = TICK_EVENTS;
          if (onTick !== undefined) onTick(events);
        }
        const l = len[id];
        if (measuring) {
          area[l] += count[l] * (t - last[l]);
          last[l] = t;
        }
        count[l]--;
        len[id] = l - 1;
        const c = cur[id];
        const a = pool.arrival[c];
        const s = pool.size[c];
        const k = pool.seq[c] - firstSeq;
        pool.release(c);
        if (qlen[id] > 0) {
          const x = waitPop(queues, id, pool.seq);
          cur[id] = x;
          segStart[id] = t;
          const r = pool.rem[x];
          ihReplaceTop(heap, heapSize, t + r, id);
          if (lpwOn) {
            const y = pool.pred[x];
            const a0 = pool.size[x] - r;
            waitPred[id] = qlen[id] === 0 ? 0 : waitPred[id] - lpwJobValue(y, a0, lpwMode);
            lpw.curY[id] = y;
            lpw.curA0[id] = a0;
            lpw.segStart[id] = t;
          }
        } else {
          cur[id] = -1;
          heapSize = ihPopTop(heap, heapSize);
        }
        if (k >= 0 && k < jobsTarget) {
          const resp = t - a;
          sumResponse += resp;
          if (k % stride === 0) responses[(k / stride) | 0] = resp;
          completed++;
          if (s > 0) {
            sumSlowdown += resp / s;
            slowdownJobs++;
          }
          if (--measuredInSystem === 0 && draining) {
            code = LOOP_GOAL;
            break;
          }
        }
      }
    }

    this.heapSize = heapSize;
    this.events = events;
    this.arrivals = arrivals;
    this.tick = tick;
    state.t = t;
    measurement.save({ measuredArrivals, measuredInSystem, sumResponse, sumSlowdown, slowdownJobs, completed });
    return code;
  }
}
