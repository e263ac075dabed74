/**
 * The redundancy-d engine, cancel-on-complete (theory.md §16): each arrival samples d servers (with or without
 * replacement) and queues a replica at every one of them (FIFO); when the first replica completes the job leaves, and
 * its other replicas are removed, from service (the server starts its next replica at once) or from the queue.
 * Replica sizes: iid from the service law (`independent`) or one size per job (`identical`).
 *
 * A focused engine beside engine.ts, sharing its pieces: the job store's per-server rings (a replica's size, the
 * arrival time and sequence number of its job, and its job's slot in a `JobPool`), the departure clocks of the
 * priority engine (clockTree.ts: a cancelled replica's server changes its clock in place), the job source, the phase
 * machine and the measurement. A replica removed from a queue is not searched for: its job's slot is marked done, and
 * the replica is skipped when it reaches its ring's head (it takes no service). So a ring's head is always the replica
 * in service, `len[j] > 0` means busy, and the occupancy counts (`live`, replicas of jobs still present) are what a
 * server holds. Every replica of a job leaves at the job's response time T, so the time-average replicas per server is
 * λ·d·E[T] (Little). Work per job: the service its replicas received, in service when the job left included.
 * Hot loop: locals, typed arrays, no allocation per event (the rings and the job pool grow by doubling).
 * Source: Gardner et al., "Redundancy-d: the power of d choices for redundancy", Oper. Res. 65(4), 2017.
 */
import { InvalidModelError } from '../errors.ts';
import type { ReplicaWork, RunConfig, RunState } from './core.ts';
import { EngineFrame } from './frame.ts';
import { LOOP_CHUNK, LOOP_GOAL, LOOP_LIMIT, LOOP_WARM_END, R_T, R_NEXT, R_SUM_T, R_SUM_SLOWDOWN } from './core.ts';
import { createClockTree, ctFix, type ClockTree } from './clockTree.ts';
import { J_SEQ, J_SHIFT, JobPool } from '../jobs/jobPool.ts';
import { DRAINING, MEASURING, WARMUP } from './measurement.ts';
import { fisherYatesStep } from './selection/jsqd.ts';

/** `reg`'s own slot after the shared ones (core.ts): Σ work of the measured jobs. */
const R_WORK = 4;

export class RedundancyEngine extends EngineFrame {
  readonly kind = 'redundancy' as const;
  private readonly clocks: ClockTree;
  /** Jobs in the system: arrival time, the first replica's size (slowdown), sequence number (−1 once done). */
  private readonly pool = new JobPool(64);
  /** The d servers of the job in pool slot p: jobServers[p·d + i]. */
  private jobServers: Int32Array;
  /** Replicas of jobs still present, per server (the queue length the occupancy counts). */
  private readonly live: Int32Array;
  /** When server j started the replica it serves. */
  private readonly startAt: Float64Array;
  private readonly identical: boolean;
  private workJobs = 0;

  /**
   * @throws {InvalidModelError} if the state holds jobs: a redundancy run starts empty (an occupancy tail has no replicas).
   */
  constructor(config: RunConfig, state: RunState, identical: boolean) {
    for (let j = 0; j < config.n; j++)
      if (state.store.len[j] !== 0)
        throw new InvalidModelError('a redundancy-d run starts empty: an initial occupancy has no replicas to place; drop it');
    super(config, state, 5); // reg: the shared slots and Σ work of measured jobs (R_WORK)
    const { n, d } = config;
    this.identical = identical;
    this.clocks = createClockTree(n);
    this.jobServers = new Int32Array(this.pool.cap * d);
    this.live = new Int32Array(n);
    this.startAt = new Float64Array(n);
  }

  /** The measured jobs' replica work so far (reset with each new measurement window). */
  get replicaWork(): ReplicaWork {
    return { sumWork: this.reg[R_WORK], jobs: this.workJobs, replicas: this.config.d };
  }

  /** At most `chunkLeft` events of the current phase; returns a LOOP_* code or LOOP_CHUNK. */
  advance(limit: number): number {
    const { n, d, withoutReplacement } = this.config;
    const identical = this.identical;
    const state = this.state;
    const { rng, store, occupancy, measurement } = state;
    const len = store.len;
    const ringHead = store.head;
    let rArrival = store.arrival;
    let rSize = store.size;
    let rJob = store.pred; // the replica's job slot in the pool
    let rSeq = store.seq;
    let shift = store.shift;
    let mask = store.mask;
    let cap = store.cap;
    const perm = this.perm;
    const source = this.source;
    const pool = this.pool;
    let jobServers = this.jobServers;
    const live = this.live;
    const startAt = this.startAt;
    const clocks = this.clocks;
    const times = clocks.times;
    const winners = clocks.ids;
    const reg = this.reg;
    this.openChunk();
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
    let slowdownJobs = measurement.slowdownJobs;
    let completed = measurement.completed;
    // the work tally belongs to the measurement window: a new window (the next batch) starts it again
    if (measurement.measuredArrivals === 0 && measurement.completed === 0) {
      reg[R_WORK] = 0;
      this.workJobs = 0;
    }
    let workJobs = this.workJobs;
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
      const server = winners[1];
      const departure = times[server];
      const isArrival = nextArrival < departure; // equal times: the departure first
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
        source.draw(seq, rng);
        const first = source.size;
        if (pool.freeCount === 0) {
          const grown = new Int32Array(2 * pool.cap * d);
          grown.set(jobServers);
          jobServers = grown;
          this.jobServers = grown;
        }
        const p = pool.alloc(t, first, first, seq);
        for (let i = 0; i < d; i++) {
          const j = withoutReplacement ? fisherYatesStep(rng, n, i, perm) : rng.below(n);
          let s = first;
          if (i > 0 && !identical) {
            source.draw(seq, rng);
            s = source.size;
          }
          jobServers[p * d + i] = j;
          const l = this.state.store.len[j];
          if (l === cap) {
            store.grow();
            rArrival = store.arrival;
            rSize = store.size;
            rJob = store.pred;
            rSeq = store.seq;
            shift = store.shift;
            mask = store.mask;
            cap = store.cap;
          }
          const slot = (j << shift) + ((ringHead[j] + l) & mask);
          rArrival[slot] = t;
          rSize[slot] = s;
          rJob[slot] = p;
          rSeq[slot] = seq;
          len[j] = l + 1;
          if (l === 0) {
            startAt[j] = t;
            times[j] = t + s;
            ctFix(clocks, j);
          }
          const level = live[j] + 1;
          live[j] = level;
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
          }
          count[level]++;
        }
        arrivals = seq + 1;
        reg[R_NEXT] = source.nextArrival(seq, t, rng);
        if (measuring) {
          measuredInSystem++;
          if (++measuredArrivals === jobsTarget) {
            code = LOOP_GOAL;
            break;
          }
        }
      } else {
        // the replica in service at `server` completes: its job leaves, every replica of it goes
        const head = (server << shift) + ringHead[server];
        const p = rJob[head] | 0;
        const seq = rSeq[head];
        const a = rArrival[head];
        pool.rec[(p << J_SHIFT) + J_SEQ] = -1; // done: its replicas still queued are skipped when they reach a head
        let work = 0;
        for (let i = 0; i < d; i++) {
          const k = jobServers[p * d + i];
          const l = live[k];
          if (measuring) {
            area[l] += count[l] * (t - last[l]);
            last[l] = t;
          }
          count[l]--;
          live[k] = l - 1;
        }
        for (let i = 0; i < d; i++) {
          const k = jobServers[p * d + i];
          // in service at k (a ring's head is its replica in service): stop it and start k's next live replica
          if (len[k] === 0 || rSeq[(k << shift) + ringHead[k]] !== seq) continue;
          work += t - startAt[k];
          let h = (ringHead[k] + 1) & mask;
          let l = len[k] - 1;
          while (l > 0) {
            const next = (k << shift) + h;
            if (pool.seq(rJob[next] | 0) === rSeq[next]) break;
            h = (h + 1) & mask;
            l--;
          }
          ringHead[k] = h;
          len[k] = l;
          if (l > 0) {
            startAt[k] = t;
            times[k] = t + rSize[(k << shift) + h];
          } else {
            times[k] = Infinity;
          }
          ctFix(clocks, k);
        }
        const size = pool.size(p);
        pool.release(p);
        const m = seq - firstSeq;
        if (m >= 0 && m < jobsTarget) {
          const r = t - a;
          reg[R_SUM_T] += r;
          reg[R_WORK] += work;
          workJobs++;
          if (stride === 1) responses[m] = r;
          else if (m % stride === 0) responses[(m / stride) | 0] = r;
          completed++;
          if (size > 0) {
            reg[R_SUM_SLOWDOWN] += r / size;
            slowdownJobs++;
          }
          if (--measuredInSystem === 0 && draining) {
            code = LOOP_GOAL;
            break;
          }
        }
      }
    }

    this.workJobs = workJobs;
    this.closeChunk(events, arrivals, chunkLeft, measuredArrivals, measuredInSystem, slowdownJobs, completed);
    return code;
  }
}
