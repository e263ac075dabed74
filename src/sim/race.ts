/**
 * The race fast path: with exponential sizes every clock is memoryless, so no event list is needed. The time
 * to the next event is Exp(λn + μ·B) with B busy servers, and the event is an arrival with probability
 * λn/(λn + μB), else a departure from a uniformly chosen busy server. Exact in law for JSQ(d) (any rule that
 * reads queue lengths only) with exponential sizes and a size-blind, non-idling discipline (FIFO here); job
 * sizes are never drawn: a job's size is read off as the time from its service start (its arrival or the previous
 * departure at its server, whichever is later) to its departure, which gives slowdowns T/S exactly.
 * `simulate` picks it automatically only for such models.
 * Source: ../shared/bench/reference-sim.c (variant race); competing exponential clocks.
 */
import type { Engine, PhaseLoop, RunConfig, RunState } from './core.ts';
import { LOOP_GOAL, LOOP_LIMIT, LOOP_PAUSE, LOOP_PAUSE_EVENTS, TICK_EVENTS, runPhases } from './core.ts';
import { DRAINING, MEASURING } from './measurement.ts';
import { PAIR_MAX_N, identityPermutation, jsqPair, jsqWithoutReplacement, jsqWithReplacement } from './selection/jsqd.ts';

const TWO_POW_32 = 4294967296;
const TWO_POW_MINUS_53 = 1 / 9007199254740992;

export class RaceEngine implements Engine, PhaseLoop {
  readonly kind = 'race' as const;
  events = 0;
  arrivals = 0;
  /** Time of the last departure at each server (service of its next job starts then, or at that job's arrival). */
  private readonly lastDeparture: Float64Array;
  /** Busy servers, in busy[0..busyCount) (order arbitrary). */
  private readonly busy: Int32Array;
  private busyCount = 0;
  private readonly perm: Int32Array;
  /** arrivalShare[B] = λn/(λn + μB), the arrival probability with B busy servers (one division per run, not per event). */
  private readonly arrivalShare: Float64Array;
  private tick = TICK_EVENTS;

  constructor(
    readonly config: RunConfig,
    readonly state: RunState,
  ) {
    const { n } = config;
    const arrivalRate = config.lambda * n;
    const mu = 1 / config.serviceMean;
    this.arrivalShare = new Float64Array(n + 1);
    for (let b = 0; b <= n; b++) this.arrivalShare[b] = arrivalRate / (arrivalRate + mu * b);
    this.busy = new Int32Array(n);
    this.lastDeparture = new Float64Array(n);
    this.perm = identityPermutation(n);
    const len = state.store.len;
    for (let j = 0; j < n; j++) if (len[j] > 0) this.busy[this.busyCount++] = j;
    state.occupancy.ensureLevels(state.store.cap + 2);
  }

  /**
   * See `Engine.run` and `runPhases`. When the next event falls after `stopTime` (or after the end of the
   * warm-up) it is discarded and t is set to that time: exact, since every clock is memoryless.
   */
  run(stopTime: number, onTick?: (events: number) => void): void {
    runPhases(this, stopTime, onTick);
  }

  /**
   * The hot loop, within one phase. Returns LOOP_LIMIT when time reached `limit`, LOOP_GOAL when the phase's
   * goal was met (the last measured arrival while MEASURING, the last measured departure while DRAINING).
   */
  loop(limit: number, onTick: ((events: number) => void) | undefined): number {
    const { n, d, lambda, serviceMean, withoutReplacement } = this.config;
    const arrivalRate = lambda * n;
    const mu = 1 / serviceMean;
    const state = this.state;
    const { rng, store, occupancy, measurement } = state;
    const len = store.len;
    const head = store.head;
    let arrival = store.arrival;
    let cap = store.cap;
    let shift = store.shift;
    let mask = store.mask;
    const perm = this.perm;
    // d = 2 (n ≤ PAIR_MAX_N): the pair rule directly, over m = n (with replacement) or n − 1 (without) others.
    const pair = d === 2 && n <= PAIR_MAX_N;
    const pairM = withoutReplacement ? n - 1 : n;
    const arrivalShare = this.arrivalShare;
    const busy = this.busy;
    let busyCount = this.busyCount;
    let count = occupancy.count;
    let area = occupancy.area;
    let last = occupancy.last;
    const measuring = measurement.phase === MEASURING;
    const draining = measurement.phase === DRAINING;
    const warm = measurement.warmupTime;
    const jobsTarget = measurement.jobs;
    const lastMeasured = measurement.lastMeasured;
    let measuredArrivals = measurement.measuredArrivals;
    let measuredInSystem = measurement.measuredInSystem;
    let sumResponse = measurement.sumResponse;
    let completed = measurement.completed;
    let sumSlowdown = measurement.sumSlowdown;
    let slowdownJobs = measurement.slowdownJobs;
    const responses = measurement.responses;
    const stride = measurement.stride;
    const lastDeparture = this.lastDeparture;
    let arrivals = this.arrivals;
    let t = state.t;
    let events = this.events;
    let tick = this.tick;
    let code = LOOP_LIMIT;
    let pause = LOOP_PAUSE_EVENTS;

    for (;;) {
      if (--pause === 0) {
        code = LOOP_PAUSE; // see LOOP_PAUSE_EVENTS
        break;
      }
      const rate = arrivalRate + mu * busyCount;
      const time = t + rng.nextExp() / rate;
      if (time > limit) {
        t = limit;
        break;
      }
      t = time;
      events++;
      if (--tick === 0) {
        tick = TICK_EVENTS;
        if (onTick !== undefined) onTick(events);
      }
      // Arrival with probability p = λn/rate: compare a 53-bit uniform U with p, drawing its low 21 bits only
      // when the high 32 bits x leave the outcome open (x = ⌊p·2^32⌋, probability 2^−32). Same law as U < p.
      const x = rng.nextInt32() >>> 0;
      const p = arrivalShare[busyCount];
      const threshold = p * TWO_POW_32;
      const isArrival = x + 1 <= threshold || (x < threshold && (x * 2097152 + (rng.nextInt32() >>> 11)) * TWO_POW_MINUS_53 < p);
      if (isArrival) {
        const j = pair
          ? jsqPair(rng, len, n, pairM)
          : withoutReplacement
            ? jsqWithoutReplacement(rng, len, n, d, perm)
            : jsqWithReplacement(rng, len, n, d);
        const l = len[j];
        if (l === cap) {
          store.grow();
          occupancy.ensureLevels(store.cap + 2);
          arrival = store.arrival;
          cap = store.cap;
          shift = store.shift;
          mask = store.mask;
          count = occupancy.count;
          area = occupancy.area;
          last = occupancy.last;
        }
        arrival[(j << shift) + ((head[j] + l) & mask)] = t; // FIFO: append at the tail
        len[j] = l + 1;
        arrivals++;
        if (l === 0) busy[busyCount++] = j;
        const level = l + 1;
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
        const k = rng.below(busyCount); // every busy server has the same rate μ
        const j = busy[k];
        const l = len[j];
        if (measuring) {
          area[l] += count[l] * (t - last[l]);
          last[l] = t;
        }
        count[l]--;
        const h = head[j]; // FIFO: the oldest job leaves
        const a = arrival[(j << shift) + h];
        head[j] = (h + 1) & mask;
        len[j] = l - 1;
        if (l === 1) busy[k] = busy[--busyCount]; // server j is idle: swap-remove it
        const start = a > lastDeparture[j] ? a : lastDeparture[j];
        lastDeparture[j] = t;
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
          if (--measuredInSystem === 0 && draining) {
            code = LOOP_GOAL;
            break;
          }
        }
      }
    }

    this.busyCount = busyCount;
    this.events = events;
    this.arrivals = arrivals;
    this.tick = tick;
    state.t = t;
    measurement.save({ measuredArrivals, measuredInSystem, sumResponse, sumSlowdown, slowdownJobs, completed });
    return code;
  }
}
