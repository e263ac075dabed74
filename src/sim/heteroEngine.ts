/**
 * The FIFO event engine for heterogeneous servers (theory.md §13): the loop of engine.ts with a speed per server (a
 * job of size S holds its server for S/speed), class-aware sampling and the rules that read speeds (SED(d), LWL(d)
 * by drain time), and per-class tallies (busy time, response times, jobs). A separate class, so the homogeneous
 * loop of engine.ts keeps its code, speed and numbers. The workload it integrates is each server's time to drain,
 * U_j/speed_j. No dispatcher memory and no LPW (model.ts refuses them with speeds).
 * Hot loop: locals, typed arrays, no allocation per event. Source: theory.md §1, §8, §13.
 */
import type { RunConfig, RunState } from './core.ts';
import { EngineFrame } from './frame.ts';
import { LOOP_CHUNK, LOOP_GOAL, LOOP_LIMIT, LOOP_WARM_END, PRED_EXACT, SIZE_EXP, R_T, R_NEXT, R_SUM_T, R_SUM_SLOWDOWN } from './core.ts';
import { fifoNext } from './discipline/fifo.ts';
import { createHeap, heapPush, heapReplaceTop, type HeapArrays } from './heap.ts';
import { DRAINING, MEASURING, WARMUP } from './measurement.ts';
import { workloadArea } from './workload.ts';
import { heteroSelect } from './selection/hetero.ts';
import { ClassTally, type ServerLayout } from './serverClasses.ts';

/** `reg`'s own slot after the shared ones (core.ts): the workload integral. */
const R_WORK = 4;

export class HeteroEventEngine extends EngineFrame {
  readonly kind = 'event' as const;
  private readonly heap: HeapArrays;
  private heapSize = 0;
  private readonly layout: ServerLayout;
  declare readonly classes: ClassTally;

  /** Schedules the first arrival and one departure per busy server of the given state (at its server's speed). */
  constructor(config: RunConfig, state: RunState) {
    const layout = config.layout;
    if (layout === undefined) throw new Error('internal error: HeteroEventEngine needs a server layout');
    super(config, state, 5); // reg: the shared slots and the workload integral (R_WORK)
    const { n } = config;
    this.layout = layout;
    const { store, t, workload } = state;
    this.heap = createHeap(n);
    const { keys, ids } = this.heap;
    const inv = layout.invSpeed;
    let size = 0;
    for (let j = 0; j < n; j++) {
      const l = store.len[j];
      if (l === 0) continue;
      const head = fifoNext(store, j);
      size = heapPush(keys, ids, size, t + store.size[head] * inv[j], j);
      let work = 0;
      for (let k = 0; k < l; k++) work += store.size[(j << store.shift) + ((store.head[j] + k) & store.mask)];
      workload.finish[j] = t + work * inv[j];
    }
    this.heapSize = size;
  }

  /** At most `chunkLeft` events of the current phase; returns a LOOP_* code or LOOP_CHUNK (engine.ts's loop, with speeds). */
  advance(limit: number): number {
    const { n, d, withoutReplacement, selection, serviceMean } = this.config;
    const inlineExp = this.config.sizeKind === SIZE_EXP && this.config.predKind === PRED_EXACT && this.config.trace === undefined;
    const invRate = 1 / (this.config.lambda * n);
    const state = this.state;
    const { rng, store, occupancy, measurement, workload } = state;
    const layout = this.layout;
    const inv = layout.invSpeed;
    const classOf = layout.classOf;
    const tally = this.classes;
    const len = store.len;
    const ringHead = store.head;
    let rArrival = store.arrival;
    let rSize = store.size;
    let rPred = store.pred;
    let rSeq = store.seq;
    let shift = store.shift;
    let mask = store.mask;
    let cap = store.cap;
    const perm = this.perm;
    const source = this.source;
    const finish = workload.finish;
    const wLast = workload.last;
    const gridOn = workload.grid.length > 0;
    const { keys, ids } = this.heap;
    let heapSize = this.heapSize;
    const reg = this.reg;
    this.openChunk();
    reg[R_WORK] = workload.area;
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
    const classJobs = tally.jobs;
    const classSumT = tally.sumResponse;
    let measuredArrivals = measurement.measuredArrivals;
    let measuredInSystem = measurement.measuredInSystem;
    let slowdownJobs = measurement.slowdownJobs;
    let completed = measurement.completed;
    let arrivals = this.arrivals;
    let events = this.events;
    let chunkLeft = this.chunkLeft;
    let code = LOOP_LIMIT;

    for (;;) {
      if (chunkLeft === 0) {
        code = LOOP_CHUNK;
        break;
      }
      const nextArrival = reg[R_NEXT];
      const departure = heapSize > 0 ? keys[0] : Infinity;
      const isArrival = nextArrival < departure;
      const t = isArrival ? nextArrival : departure;
      if (t > limit || t === Infinity) {
        if (limit < Infinity) reg[R_T] = limit;
        break;
      }
      if (isArrival && arrivals === stopSeq) {
        reg[R_T] = t;
        code = LOOP_WARM_END;
        break;
      }
      reg[R_T] = t;
      events++;
      chunkLeft--;
      if (isArrival) {
        const seq = arrivals;
        const j = heteroSelect(layout, selection, rng, len, finish, t, n, d, withoutReplacement, perm);
        let s: number;
        let y: number;
        if (inlineExp) {
          s = rng.nextExp() * serviceMean;
          y = s;
        } else {
          source.draw(seq, rng);
          s = source.size;
          y = source.pred;
        }
        const hold = s * inv[j];
        if (measuring) {
          const from = wLast[j];
          wLast[j] = t;
          const u0 = finish[j] - from;
          if (u0 > 0) {
            const dt = t - from;
            reg[R_WORK] += workloadArea(u0, dt);
            if (gridOn) workload.accumulateAbove(u0, dt);
          }
        }
        const f = finish[j];
        finish[j] = (f > t ? f : t) + hold;
        const l = this.state.store.len[j];
        if (l === cap) {
          store.grow();
          rArrival = store.arrival;
          rSize = store.size;
          rPred = store.pred;
          rSeq = store.seq;
          shift = store.shift;
          mask = store.mask;
          cap = store.cap;
        }
        const slot = (j << shift) + ((ringHead[j] + l) & mask);
        rArrival[slot] = t;
        rSize[slot] = s;
        rPred[slot] = y;
        rSeq[slot] = seq;
        len[j] = l + 1;
        arrivals = seq + 1;
        reg[R_NEXT] = inlineExp ? t + rng.nextExp() * invRate : source.nextArrival(seq, t, rng);
        if (l === 0) {
          heapSize = heapPush(keys, ids, heapSize, t + hold, j);
          tally.change(classOf[j], t, 1);
        }
        const level = l + 1;
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
            tally.close(t);
            code = LOOP_GOAL;
            break;
          }
        } else {
          count[level]++;
        }
      } else {
        const id = ids[0];
        const l = len[id];
        if (measuring) {
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
        let key: number;
        let owner: number;
        if (l > 1) {
          key = t + rSize[(id << shift) + h2] * inv[id];
          owner = id;
        } else {
          heapSize--;
          key = keys[heapSize];
          owner = ids[heapSize];
          tally.change(classOf[id], t, -1);
        }
        if (heapSize > 0) heapReplaceTop(keys, ids, heapSize, key, owner);
        if (k >= 0 && k < jobsTarget) {
          const r = t - a;
          reg[R_SUM_T] += r;
          const c = classOf[id];
          classJobs[c]++;
          classSumT[c] += r;
          if (stride === 1) responses[k] = r;
          else if (k % stride === 0) responses[(k / stride) | 0] = r;
          completed++;
          if (s > 0) {
            reg[R_SUM_SLOWDOWN] += r / s;
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
    workload.area = reg[R_WORK];
    this.closeChunk(events, arrivals, chunkLeft, measuredArrivals, measuredInSystem, slowdownJobs, completed);
    return code;
  }
}
