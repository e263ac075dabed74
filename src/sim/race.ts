/**
 * The race fast path: with exponential sizes every clock is memoryless, so no event list is needed. The time
 * to the next event is Exp(λn + μ·B) with B busy servers, and the event is an arrival with probability
 * λn/(λn + μB), else a departure from a uniformly chosen busy server. Exact in law for JSQ(d) (any rule that
 * reads queue lengths only) with exponential sizes and a size-blind, non-idling discipline (FIFO here); job
 * sizes are never drawn. `simulate` picks it automatically only for such models.
 * Source: ../shared/bench/reference-sim.c (variant race); uniformization/competing exponentials.
 */
import type { Engine, RunConfig, RunState } from './core.ts';
import { TICK_EVENTS } from './core.ts';
import { fifoPop, fifoPush } from './discipline/fifo.ts';
import { DONE, DRAINING, MEASURING, WARMUP } from './measurement.ts';
import { identityPermutation, jsqWithoutReplacement, jsqWithReplacement } from './selection/jsqd.ts';

export class RaceEngine implements Engine {
  readonly kind = 'race' as const;
  events = 0;
  /** Busy servers, in busy[0..busyCount) (order arbitrary). */
  private readonly busy: Int32Array;
  private busyCount = 0;
  private readonly perm: Int32Array;
  private tick = TICK_EVENTS;

  constructor(readonly config: RunConfig, readonly state: RunState) {
    const { n } = config;
    this.busy = new Int32Array(n);
    this.perm = identityPermutation(n);
    const len = state.store.len;
    for (let j = 0; j < n; j++) {
      if (len[j] > 0) this.busy[this.busyCount++] = j;
    }
  }

  /** See `Engine.run`; when the next event falls after `stopTime` it is discarded and t = stopTime (exact by
   * memorylessness). */
  run(stopTime: number, onTick?: (events: number) => void): void {
    const { n, d, lambda, serviceMean, withoutReplacement } = this.config;
    const arrivalRate = lambda * n;
    const mu = 1 / serviceMean;
    const state = this.state;
    const { rng, store, occupancy, measurement } = state;
    const len = store.len;
    const perm = this.perm;
    const busy = this.busy;
    let busyCount = this.busyCount;
    let count = occupancy.count;
    let area = occupancy.area;
    let last = occupancy.last;
    let levels = count.length;
    const warm = measurement.warmupTime;
    const jobsTarget = measurement.jobs;
    let phase = measurement.phase;
    let measuredArrivals = measurement.measuredArrivals;
    let measuredInSystem = measurement.measuredInSystem;
    let lastMeasured = measurement.lastMeasured;
    let sumResponse = measurement.sumResponse;
    let completed = measurement.completed;
    let t = state.t;
    let events = this.events;
    let tick = this.tick;

    while (phase !== DONE) {
      const rate = arrivalRate + mu * busyCount;
      const time = t + rng.nextExp() / rate;
      if (time > stopTime) {
        t = stopTime;
        break;
      }
      if (phase === WARMUP && time > warm) {
        occupancy.begin(warm);
        phase = MEASURING;
      }
      t = time;
      events++;
      const u = rng.nextDouble() * rate;
      if (u < arrivalRate) {
        const j = withoutReplacement ? jsqWithoutReplacement(rng, len, n, d, perm) : jsqWithReplacement(rng, len, n, d);
        const l = len[j];
        fifoPush(store, j, t, 0);
        const level = l + 1;
        if (level >= levels) {
          occupancy.ensureLevels(level + 1);
          count = occupancy.count;
          area = occupancy.area;
          last = occupancy.last;
          levels = count.length;
        }
        if (phase === MEASURING) {
          area[level] += count[level] * (t - last[level]);
          last[level] = t;
          count[level]++;
          measuredInSystem++;
          if (++measuredArrivals === jobsTarget) {
            occupancy.end(t);
            measurement.windowEnd = t;
            lastMeasured = t;
            phase = DRAINING;
          }
        } else {
          count[level]++;
        }
        if (l === 0) busy[busyCount++] = j;
      } else {
        let k = Math.floor((u - arrivalRate) * serviceMean);
        if (k >= busyCount) k = busyCount - 1; // guards the rounding edge u·… → busyCount
        const j = busy[k];
        const l = len[j];
        if (phase === MEASURING) {
          area[l] += count[l] * (t - last[l]);
          last[l] = t;
        }
        count[l]--;
        const a = fifoPop(store, j);
        if (a > warm && a <= lastMeasured) {
          sumResponse += t - a;
          completed++;
          if (--measuredInSystem === 0 && phase === DRAINING) phase = DONE;
        }
        if (l === 1) busy[k] = busy[--busyCount]; // server j is idle: swap-remove it
      }
      if (--tick === 0) {
        tick = TICK_EVENTS;
        if (onTick !== undefined) onTick(events);
      }
    }

    this.busyCount = busyCount;
    this.events = events;
    this.tick = tick;
    state.t = t;
    measurement.phase = phase;
    measurement.measuredArrivals = measuredArrivals;
    measurement.measuredInSystem = measuredInSystem;
    measurement.lastMeasured = lastMeasured;
    measurement.sumResponse = sumResponse;
    measurement.completed = completed;
  }
}
