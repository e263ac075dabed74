/**
 * The sharing event engine: processor sharing (PS) and least attained service (LAS/FB), the two disciplines whose
 * server serves several jobs at once (theory.md §1), with any selection rule but LPW (and a dispatcher memory of idle
 * servers, sim/memory.ts, as the FIFO and priority engines: IP, CP, BCP, ISM, JIQ), any size law, Poisson or
 * replayed arrivals. One core with the FIFO and priority engines (core.ts: phases, chunks, measurement); only "who is
 * served, at what rate" differs. O(log k) per event, k jobs at the server:
 *   - PS: per server a virtual time V with dV/dt = 1/k while k ≥ 1 jobs are present (each job's attained service
 *     grows by dV); a job arriving at V₀ with size x leaves when V reaches V₀ + x, so a binary heap per server on
 *     V₀ + x (discipline/waitQueues.ts, ties by arrival number) gives the next departure at t + (min − V)·k.
 *     V restarts at 0 when the server empties, so it never grows past one busy period's work.
 *   - LAS: the jobs of least attained service share the server (groups of equal attained service, the lowest one
 *     served; src/jobs/attainedGroups.ts); the server's next event is a completion or a merge of its top group into
 *     the next, and a merge is not a departure (it moves no occupancy and counts as no event).
 * Departure clocks are a tournament tree (clockTree.ts) as in the priority engine; the arrival clock is compared with
 * its winner, departures first at equal times. Response, slowdown, occupancy and workload (discipline-free: every
 * work-conserving discipline drains U at rate 1) are measured exactly as in the other engines.
 * Source: Kleinrock, Queueing Systems II (1976), §4.4 (PS), §4.7 (FB); Schrage 1967; Ciw's PSNode for the idea of
 * a server-model seam; ../shared/design/variants.md.
 * Server speeds (theory.md §13, `config.layout`): a job of size S joining a server of speed v is stored as S/v, its
 * service time there alone, at dispatch (the server serves its jobs at total rate v: PS shares it, LAS gives it to the
 * least-served group, both orders unchanged by the common 1/v); the slowdown divides by the original S. Selection over
 * classes (`heteroSelect`) and per-class tallies. Without a layout nothing changes (results bit for bit as before).
 */
import type { RunConfig, RunState } from './core.ts';
import { EngineFrame } from './frame.ts';
import {
  D_LAS,
  D_PS,
  LOOP_CHUNK,
  LOOP_GOAL,
  LOOP_LIMIT,
  LOOP_WARM_END,
  PRED_EXACT,
  R_NEXT,
  R_SUM_SLOWDOWN,
  R_SUM_T,
  R_T,
  SEL_JSQ,
  SEL_LPW,
  SIZE_EXP,
  ARR_POISSON,
} from './core.ts';
import { createClockTree, ctFix, ctFixWinner, type ClockTree } from './clockTree.ts';
import { WaitQueues, waitPop, waitPush } from './discipline/waitQueues.ts';
import { AttainedGroups } from '../jobs/attainedGroups.ts';
import { JobPool } from '../jobs/jobPool.ts';
import { DRAINING, MEASURING, WARMUP } from './measurement.ts';
import { jsqPair, PAIR_MAX_N } from './selection/jsqd.ts';
import { selectServer } from './selection/select.ts';
import { InvalidModelError } from '../errors.ts';
import { MEM_ISM } from './memory.ts';
import { heteroSelect } from './selection/hetero.ts';

/** True for the disciplines the sharing engine runs (PS, LAS). */
export function isSharing(discipline: number): boolean {
  return discipline === D_PS || discipline === D_LAS;
}

export class SharingEngine extends EngineFrame {
  readonly kind = 'sharing' as const;
  /** Next internal event of each server (PS: its next departure; LAS: a departure or a merge), +∞ when idle. */
  private readonly clocks: ClockTree;
  private readonly pool: JobPool;
  /** PS: per server a heap of job slots on the virtual departure time V₀ + x. */
  private readonly queues: WaitQueues;
  /** PS: virtual time of each server at `vTime`, and that time. */
  private readonly vClock: Float64Array;
  private readonly vTime: Float64Array;
  /** LAS: the attained-service groups of every server (writes the clock tree's times). */
  private readonly groups: AttainedGroups;

  /**
   * Takes over the jobs of the initial state (none served yet: PS keys V₀ + S with V₀ = 0; LAS one group at a = 0).
   * @throws {InvalidModelError} for a discipline other than PS or LAS, or LPW selection (its predicted-remaining-work
   *   bookkeeping assumes one job in service).
   */
  constructor(config: RunConfig, state: RunState) {
    if (!isSharing(config.discipline)) throw new InvalidModelError('the sharing engine runs disciplines "ps" and "las" only');
    if (config.selection === SEL_LPW) throw new InvalidModelError('LPW selection is not available with a sharing discipline (ps, las)');
    super(config, state, 4); // reg: the shared slots only (the workload is integrated by Workload.accumulate)
    const { n, discipline } = config;
    const { store, t, workload } = state;
    this.clocks = createClockTree(n);
    this.pool = new JobPool(4 * n + 64);
    this.queues = new WaitQueues(discipline === D_PS ? n : 1);
    this.vClock = new Float64Array(n);
    this.vTime = new Float64Array(n);
    this.groups = new AttainedGroups(discipline === D_LAS ? n : 1, this.pool, this.clocks.times);
    const inv = config.layout?.invSpeed;
    for (let j = 0; j < n; j++) {
      const l = store.len[j];
      let work = 0;
      for (let k = 0; k < l; k++) {
        const from = (j << store.shift) + ((store.head[j] + k) & store.mask);
        // with speeds, service time at this server (class doc)
        const s = inv === undefined ? store.size[from] : store.size[from] * inv[j];
        const x = this.pool.alloc(store.arrival[from], s, inv === undefined ? store.pred[from] : store.pred[from] * inv[j], -1);
        work += s;
        if (discipline === D_PS) {
          this.queues.pushKey[0] = s;
          waitPush(this.queues, j, x, this.pool.rec);
        } else {
          this.groups.add(j, x, t);
        }
      }
      if (l === 0) continue;
      workload.finish[j] = t + work;
      if (discipline === D_PS) {
        this.vTime[j] = t;
        this.clocks.times[j] = t + this.queues.key[j << this.queues.shift] * l;
      }
      ctFix(this.clocks, j);
    }
  }

  /** LAS arrival: job x joins server j at time t (rare-path call: the PS case is inline). */
  private lasArrive(j: number, x: number, t: number): void {
    this.groups.add(j, x, t);
    ctFix(this.clocks, j);
  }

  /** A SharingEngine over another state (loop priming, frame.ts). */
  protected override twin(state: RunState): SharingEngine {
    return new SharingEngine(this.config, state);
  }

  /** At most `chunkLeft` events of the current phase; returns a LOOP_* code or LOOP_CHUNK. */
  advance(limit: number): number {
    const { n, d, withoutReplacement, selection, lpwMode, discipline, serviceMean } = this.config;
    const ps = discipline === D_PS;
    const inlineExp =
      this.config.sizeKind === SIZE_EXP &&
      this.config.predKind === PRED_EXACT &&
      this.config.arrivalKind === ARR_POISSON &&
      this.config.batchSize === 1; // a batch's later jobs arrive with its first (JobSource.nextArrival)
    const invRate = 1 / (this.config.lambda * n);
    const layout = this.config.layout;
    const pairM = selection === SEL_JSQ && d === 2 && n <= PAIR_MAX_N && layout === undefined ? (withoutReplacement ? n - 1 : n) : -1;
    const state = this.state;
    const { rng, store, occupancy, measurement, workload } = state;
    // server speeds (class doc): undefined for identical servers
    const inv = layout?.invSpeed;
    const tally = this.classes;
    const len = store.len;
    const perm = this.perm;
    const source = this.source;
    const lpw = this.lpw;
    const finish = workload.finish;
    const clocks = this.clocks;
    const times = clocks.times;
    const ids = clocks.ids;
    const pool = this.pool;
    const queues = this.queues;
    const pushKey = queues.pushKey;
    const vClock = this.vClock;
    const vTime = this.vTime;
    const groups = this.groups;
    let count = occupancy.count;
    let area = occupancy.area;
    let last = occupancy.last;
    let levels = count.length;
    const measuring = measurement.phase === MEASURING;
    const drainGoal = measurement.phase === DRAINING ? 0 : -1; // the drain's goal in one test (engine.ts, `advance`)
    const memory = this.memory;
    const batch = this.batch;
    const ism = memory !== undefined && memory.kind === MEM_ISM;
    const stopSeq = measurement.phase === WARMUP ? measurement.stopSeq : -1;
    const jobsTarget = measurement.jobs;
    const firstSeq = measurement.firstSeq;
    const responses = measurement.responses;
    const stride = measurement.stride;
    let measuredArrivals = measurement.measuredArrivals;
    let measuredInSystem = measurement.measuredInSystem;
    let slowdownJobs = measurement.slowdownJobs;
    let completed = measurement.completed;
    let arrivals = this.arrivals;
    let events = this.events;
    let chunkLeft = this.chunkLeft;
    let code = LOOP_LIMIT;
    const reg = this.reg;
    this.openChunk();

    for (;;) {
      if (chunkLeft === 0) {
        code = LOOP_CHUNK;
        break;
      }
      const nextArrival = reg[R_NEXT];
      const dep = times[ids[1]];
      const t = nextArrival < dep ? nextArrival : dep;
      if (t > limit || t === Infinity) {
        if (limit < Infinity) reg[R_T] = limit;
        break;
      }
      reg[R_T] = t;
      chunkLeft--;
      if (nextArrival < dep) {
        const seq = arrivals;
        if (seq === stopSeq) {
          chunkLeft++;
          code = LOOP_WARM_END;
          break;
        }
        events++;
        const j =
          batch !== undefined
            ? batch.select(rng, len, finish, t, n) // batches of K (theory.md §15): the batch's ranking, taken at its first job
            : memory !== undefined
              ? memory.select(rng, len, finish, t, withoutReplacement, perm)
              : pairM >= 0
                ? jsqPair(rng, len, n, pairM)
                : layout !== undefined
                  ? heteroSelect(layout, selection, rng, len, finish, t, n, d, withoutReplacement, perm)
                  : selectServer(selection, rng, len, finish, lpw, t, lpwMode, n, d, withoutReplacement, perm);
        let s = 0;
        let y: number;
        let gap = 0;
        if (inlineExp) {
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
        if (inv !== undefined) {
          // server speeds: the service time at server j alone (class doc)
          s *= inv[j];
          y *= inv[j];
        }
        if (measuring) workload.accumulate(j, t);
        const f = finish[j];
        finish[j] = (f > t ? f : t) + s;
        const x = pool.alloc(t, s, y, seq);
        arrivals = seq + 1;
        reg[R_NEXT] = inlineExp ? t + gap * invRate : source.nextArrival(seq, t, rng);
        const l = this.state.store.len[j];
        const level = l + 1;
        len[j] = level;
        if (tally !== undefined && l === 0) tally.change(layout!.classOf[j], t, 1);
        if (ps) {
          // V advances by (t − t_last)/k over the time since the server's last event (k = l jobs then).
          const v = l === 0 ? 0 : vClock[j] + (t - vTime[j]) / l;
          vClock[j] = v;
          vTime[j] = t;
          pushKey[0] = v + s;
          waitPush(queues, j, x, pool.rec);
          times[j] = t + (queues.key[j << queues.shift] - v) * level;
          ctFix(clocks, j);
        } else {
          this.lasArrive(j, x, t);
        }
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
            if (tally !== undefined) tally.close(t);
            code = LOOP_GOAL;
            break;
          }
        } else {
          count[level]++;
        }
      } else {
        const id = ids[1];
        let c: number;
        if (ps) {
          // The heap's least V₀ + x is reached now: V snaps to it (no drift), the job leaves.
          const base = id << queues.shift;
          const v = queues.key[base];
          c = waitPop(queues, id, pool.rec);
          const rest = len[id] - 1;
          if (rest > 0) {
            vClock[id] = v;
            vTime[id] = t;
            times[id] = t + (queues.key[base] - v) * rest;
          } else {
            times[id] = Infinity;
          }
        } else {
          c = groups.fire(id, t);
        }
        ctFixWinner(clocks, id);
        if (c < 0) continue; // LAS merge: no departure
        events++;
        const l = len[id];
        if (measuring) {
          area[l] += count[l] * (t - last[l]);
          last[l] = t;
        }
        count[l]--;
        len[id] = l - 1;
        if (ism && l === 1) memory.offer(id); // ISM: the server that became idle tells the dispatcher
        if (tally !== undefined && l === 1) tally.change(layout!.classOf[id], t, -1);
        const a = pool.arrival(c);
        const s = pool.size(c);
        const k = pool.seq(c) - firstSeq;
        pool.release(c);
        if (k >= 0 && k < jobsTarget) {
          const resp = t - a;
          reg[R_SUM_T] += resp;
          if (stride === 1) responses[k | 0] = resp;
          else if (k % stride === 0) responses[(k / stride) | 0] = resp;
          completed++;
          if (tally !== undefined) {
            const cl = layout!.classOf[id];
            tally.jobs[cl]++;
            tally.sumResponse[cl] += resp;
          }
          if (s > 0) {
            // T/S with the original size (s is S/v with speeds)
            reg[R_SUM_SLOWDOWN] += inv === undefined ? resp / s : resp / (s / inv[id]);
            slowdownJobs++;
          }
          if (--measuredInSystem === drainGoal) {
            code = LOOP_GOAL;
            break;
          }
        }
      }
    }

    this.closeChunk(events, arrivals, chunkLeft, measuredArrivals, measuredInSystem, slowdownJobs, completed);
    return code;
  }
}
