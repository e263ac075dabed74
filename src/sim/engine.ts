/**
 * The general discrete-event engine: a binary heap of clocks in typed arrays (one arrival clock, id n, plus one
 * departure clock per busy server, id j), job sizes sampled at arrival and stored per job, FIFO service.
 * Seams for later issues: the selection rule and discipline are plain functions chosen once per run (here
 * JSQ(d) and FIFO), the size is drawn at arrival (here exponential), so other size laws, selection rules (LWL,
 * LPW need per-server work, which stored sizes give) and preemptive disciplines (a departure clock is then
 * re-keyed; add a position index to the heap) slot in without touching the loop's shape.
 * Hot loop: locals only, typed arrays, no allocation or closure per event. Source: theory.md §1, §8;
 * ../shared/bench/reference-sim.c (variant heap).
 */
import type { Engine, RunConfig, RunState } from './core.ts';
import { TICK_EVENTS } from './core.ts';
import { fifoNext, fifoPop, fifoPush } from './discipline/fifo.ts';
import { createHeap, heapPopTop, heapPush, heapReplaceTop, type HeapArrays } from './heap.ts';
import { DONE, DRAINING, MEASURING, WARMUP } from './measurement.ts';
import { identityPermutation, jsqWithoutReplacement, jsqWithReplacement } from './selection/jsqd.ts';

export class EventEngine implements Engine {
  readonly kind = 'event' as const;
  events = 0;
  private readonly heap: HeapArrays;
  private heapSize = 0;
  private readonly perm: Int32Array;
  private tick = TICK_EVENTS;

  /**
   * Schedules the first arrival and one departure per busy server of the given state (which must store sizes).
   */
  constructor(readonly config: RunConfig, readonly state: RunState) {
    const { n, lambda } = config;
    const { store, rng, t } = state;
    this.heap = createHeap(n + 1);
    this.perm = identityPermutation(n);
    const { keys, ids } = this.heap;
    let size = heapPush(keys, ids, 0, t + rng.nextExp() / (lambda * n), n);
    for (let j = 0; j < n; j++) {
      if (store.len[j] > 0) size = heapPush(keys, ids, size, t + store.size[fifoNext(store, j)], j);
    }
    this.heapSize = size;
  }

  /** See `Engine.run`; phase changes (start and end of the window) happen here, outside the hot loop. */
  run(stopTime: number, onTick?: (events: number) => void): void {
    const { occupancy, measurement: m } = this.state;
    for (;;) {
      if (m.phase === DONE) return;
      if (m.phase === WARMUP) {
        if (m.warmupTime >= stopTime) {
          this.loop(stopTime, onTick);
          return;
        }
        this.loop(m.warmupTime, onTick);
        occupancy.begin(m.warmupTime);
        m.phase = MEASURING;
        continue;
      }
      if (this.loop(stopTime, onTick)) return;
      if (m.phase === MEASURING) {
        occupancy.end(this.state.t);
        m.windowEnd = this.state.t;
        m.lastMeasured = this.state.t;
        m.phase = DRAINING;
      } else {
        m.phase = DONE;
      }
    }
  }

  /**
   * The hot loop, within one phase. Returns true when the next clock is later than `limit` (t is then set to
   * `limit`; the clocks are absolute, so nothing else changes), false when the phase's goal was met (the last
   * measured arrival while MEASURING, the last measured departure while DRAINING).
   */
  private loop(limit: number, onTick: ((events: number) => void) | undefined): boolean {
    const { n, d, lambda, serviceMean, withoutReplacement } = this.config;
    const invRate = 1 / (lambda * n);
    const state = this.state;
    const { rng, store, occupancy, measurement } = state;
    const len = store.len;
    const perm = this.perm;
    const { keys, ids } = this.heap;
    let heapSize = this.heapSize;
    let count = occupancy.count;
    let area = occupancy.area;
    let last = occupancy.last;
    let levels = count.length;
    const measuring = measurement.phase === MEASURING;
    const draining = measurement.phase === DRAINING;
    const warm = measurement.warmupTime;
    const jobsTarget = measurement.jobs;
    const lastMeasured = measurement.lastMeasured;
    let measuredArrivals = measurement.measuredArrivals;
    let measuredInSystem = measurement.measuredInSystem;
    let sumResponse = measurement.sumResponse;
    let completed = measurement.completed;
    let t = state.t;
    let events = this.events;
    let tick = this.tick;
    let reachedLimit = false;

    for (;;) {
      const time = keys[0];
      if (time > limit) {
        t = limit;
        reachedLimit = true;
        break;
      }
      t = time;
      events++;
      if (--tick === 0) {
        tick = TICK_EVENTS;
        if (onTick !== undefined) onTick(events);
      }
      const id = ids[0];
      if (id === n) {
        // Arrival: select, store the job with its size, schedule the next arrival (and a departure if idle).
        const j = withoutReplacement ? jsqWithoutReplacement(rng, len, n, d, perm) : jsqWithReplacement(rng, len, n, d);
        const l = len[j];
        const slot = fifoPush(store, j, t, rng.nextExp() * serviceMean);
        heapReplaceTop(keys, ids, heapSize, t + rng.nextExp() * invRate, n);
        if (l === 0) heapSize = heapPush(keys, ids, heapSize, t + store.size[slot], j);
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
          if (++measuredArrivals === jobsTarget) break;
        } else {
          count[level]++;
        }
      } else {
        // Departure of server id's job in service; start the next one if any.
        const l = len[id];
        if (measuring) {
          area[l] += count[l] * (t - last[l]);
          last[l] = t;
        }
        count[l]--;
        const a = fifoPop(store, id);
        if (l > 1) heapReplaceTop(keys, ids, heapSize, t + store.size[fifoNext(store, id)], id);
        else heapSize = heapPopTop(keys, ids, heapSize);
        if (a > warm && a <= lastMeasured) {
          sumResponse += t - a;
          completed++;
          if (--measuredInSystem === 0 && draining) break;
        }
      }
    }

    this.heapSize = heapSize;
    this.events = events;
    this.tick = tick;
    state.t = t;
    measurement.measuredArrivals = measuredArrivals;
    measurement.measuredInSystem = measuredInSystem;
    measurement.sumResponse = sumResponse;
    measurement.completed = completed;
    return reachedLimit;
  }
}
