/**
 * The cavity queue of theory.md §5: one server whose Poisson arrivals (rate λd, potential) are thinned by its own
 * state — the workload w (LWL(d)) or the number of jobs k (JSQ(d)) — served under any discipline (CavityScheduler).
 * It streams per-batch sums of response time, slowdown and time spent at each queue length (no per-job records).
 * Source: theory.md §5; Bramson, Lu, Prabhakar, Queueing Systems 71(3), 2012 (the cavity process).
 */
import { DISCIPLINE_TABLE, unknownPolicy, type Conventions, type Discipline } from '../../model/model.ts';
import type { PredictionModel } from '../../model/prediction/index.ts';
import type { ServiceDistribution } from '../../model/service/index.ts';
import type { Rng } from '../../stats/rng.ts';
import { CavityScheduler } from './scheduler.ts';
import { SharingScheduler } from './sharingScheduler.ts';

/**
 * The cavity queue's server: a `CavityScheduler` (one job in service, priority order) or a `SharingScheduler` (PS,
 * LAS). `complete()` processes the event `nextEventIn()` away and returns the completed job's id, or −1 for an event
 * that completes no job (a LAS merge).
 */
export interface CavityServer {
  readonly pool: { arrival(slot: number): number; size(slot: number): number };
  readonly jobs: number;
  readonly workload: number;
  nextEventIn(): number;
  advance(dt: number): void;
  arrive(t: number, size: number, prediction: number): void;
  complete(): number;
}

/** The server of a discipline, by its server model (discipline table): PS and LAS share it, the others serve one job at a time. */
export function cavityServer(discipline: Discipline, conventions: Conventions): CavityServer {
  const server = DISCIPLINE_TABLE[discipline].server;
  switch (server) {
    case 'priority':
      return new CavityScheduler(discipline, conventions);
    case 'sharing':
      return new SharingScheduler('ps');
    case 'attained-service':
      return new SharingScheduler('las');
    default:
      return unknownPolicy(server, 'server model');
  }
}

/**
 * Acceptance probability of a potential arrival, given the server's workload and number of jobs (and the queue, for
 * rules that read another state such as the predicted work of LPW(d)).
 */
export interface AcceptanceRule {
  probability(workload: number, jobs: number, queue: CavityServer): number;
  /** Called after `probability` at each potential arrival of the measured window, with its batch (PASTA samples). */
  observe?(batch: number): void;
}

export interface CavityRunOptions {
  discipline: Discipline;
  conventions: Conventions;
  service: ServiceDistribution;
  prediction: PredictionModel;
  /** Potential arrival rate (λd), per time unit. */
  potentialRate: number;
  acceptance: AcceptanceRule;
  /** Time discarded before measuring. */
  warmup: number;
  /** Measured time after the warm-up, cut into `batches` equal windows. */
  horizon: number;
  batches: number;
  rng: Rng;
  /** Record time spent at each queue length per batch (JSQ cavity). */
  levels: boolean;
  /**
   * Continue from this server at time `startTime` instead of an empty server at time 0 (a warm start: the LPW
   * cavity carries its queue from one iteration to the next, so no run pays an empty-start transient). Its jobs'
   * arrival times must be on the same clock. Default: a new empty server, `startTime` 0.
   */
  queue?: CavityServer;
  startTime?: number;
  /** Called with the response time T and batch of each job completed in the measured window (response-time laws). */
  onResponse?: (T: number, batch: number) => void;
  /**
   * Called every 2¹⁴ events with the fraction of the run's simulated time (warm-up + horizon) done, in [0, 1); for
   * progress output (a long LWL cavity behind `fixed-point --quantiles`). Changes no number.
   */
  onProgress?: (fraction: number) => void;
}

export interface CavityRunResult {
  /** Per batch: Σ T, Σ T/S and count of the jobs that completed in that window. */
  responseSum: Float64Array;
  slowdownSum: Float64Array;
  completed: Float64Array;
  /** levelTime[b][k] = time spent with exactly k jobs in batch b (only when options.levels). */
  levelTime: Float64Array[];
  /**
   * levelCompletions[k] = completions in the measured window that left the server with k − 1 jobs, i.e. down-crossings
   * k → k − 1 (only when options.levels; the JSQ cavity's level completion rates μ_k = levelCompletions[k]/Σ_b levelTime[b][k]).
   */
  levelCompletions: Float64Array;
  /** levelCompletionsByBatch[b][k]: the same count in batch b (only when options.levels). */
  levelCompletionsByBatch: Float64Array[];
  /** Accepted arrivals over the whole run (warm-up included). */
  acceptedJobs: number;
  /** Events processed (potential arrivals + completions). */
  events: number;
  /** The server at the end of the run (`endTime` = startTime + warmup + horizon), for a warm start of the next run. */
  queue: CavityServer;
  endTime: number;
}

/**
 * Simulates the cavity queue for warmup + horizon time units.
 * Sizes of 0 (possible for empirical laws) are served instantly and counted with slowdown 1.
 * @returns per-batch sums (arrays of length `batches`), `acceptedJobs`, `events`.
 */
export function runCavityQueue(o: CavityRunOptions): CavityRunResult {
  const B = o.batches;
  const queue = o.queue ?? cavityServer(o.discipline, o.conventions);
  const rng = o.rng;
  const service = o.service;
  const prediction = o.prediction;
  const acceptance = o.acceptance;
  const rate = o.potentialRate;
  const t0 = o.startTime ?? 0;
  const start = t0 + o.warmup;
  const end = start + o.horizon;
  const batchLength = o.horizon / B;
  const responseSum = new Float64Array(B);
  const slowdownSum = new Float64Array(B);
  const completed = new Float64Array(B);
  let levelTime: Float64Array[] = o.levels ? Array.from({ length: B }, () => new Float64Array(64)) : [];
  let levelCapacity = 64;
  let levelCompletions = new Float64Array(o.levels ? 64 : 0);
  let levelCompletionsByBatch: Float64Array[] = o.levels ? Array.from({ length: B }, () => new Float64Array(64)) : [];
  let accepted = 0;
  let events = 0;
  let t = t0;
  let nextArrival = t0 + rng.nextExp() / rate;
  const onProgress = o.onProgress;
  let steps = 0;

  /** Adds the time in [from, to) spent with `k` jobs to the batches it overlaps (measured window only). */
  const addLevelTime = (from: number, to: number, k: number) => {
    if (to <= start) return;
    if (from < start) from = start;
    if (to > end) to = end;
    if (k >= levelCapacity) {
      while (k >= levelCapacity) levelCapacity *= 2;
      const widen = (row: Float64Array) => {
        const r = new Float64Array(levelCapacity);
        r.set(row);
        return r;
      };
      levelTime = levelTime.map(widen);
      levelCompletionsByBatch = levelCompletionsByBatch.map(widen);
      const c = new Float64Array(levelCapacity);
      c.set(levelCompletions);
      levelCompletions = c;
    }
    while (from < to) {
      let b = Math.min(B - 1, Math.floor((from - start) / batchLength));
      if (b < B - 1 && start + (b + 1) * batchLength <= from) b++; // round-off at a batch boundary
      const stop = b === B - 1 ? to : Math.min(to, start + (b + 1) * batchLength);
      levelTime[b][k] += stop - from;
      from = stop;
    }
  };

  while (t < end) {
    if (onProgress !== undefined && (++steps & 0x3fff) === 0) onProgress((t - t0) / (end - t0));
    const completion = t + queue.nextEventIn();
    if (completion <= nextArrival) {
      if (completion > end) {
        if (o.levels) addLevelTime(t, end, queue.jobs);
        queue.advance(end - t);
        break;
      }
      if (o.levels) addLevelTime(t, completion, queue.jobs);
      queue.advance(completion - t);
      t = completion;
      const id = queue.complete();
      if (id < 0) continue; // a LAS merge: no job leaves
      events++;
      if (t >= start) {
        const b = Math.min(B - 1, Math.floor((t - start) / batchLength));
        const T = t - queue.pool.arrival(id);
        const S = queue.pool.size(id);
        responseSum[b] += T;
        slowdownSum[b] += S > 0 ? T / S : 1;
        completed[b]++;
        if (o.onResponse !== undefined) o.onResponse(T, b);
        if (o.levels && queue.jobs + 1 < levelCompletions.length) {
          levelCompletions[queue.jobs + 1]++;
          levelCompletionsByBatch[b][queue.jobs + 1]++;
        }
      }
    } else {
      if (nextArrival > end) {
        if (o.levels) addLevelTime(t, end, queue.jobs);
        queue.advance(end - t);
        break;
      }
      if (o.levels) addLevelTime(t, nextArrival, queue.jobs);
      queue.advance(nextArrival - t);
      t = nextArrival;
      events++;
      const p = acceptance.probability(queue.jobs > 0 ? queue.workload : 0, queue.jobs, queue);
      if (acceptance.observe !== undefined && t >= start) acceptance.observe(Math.min(B - 1, Math.floor((t - start) / batchLength)));
      if (p >= 1 || rng.nextDouble() < p) {
        const size = service.sample(rng);
        const y = prediction.sample(size, rng);
        queue.arrive(t, size, y);
        accepted++;
      }
      nextArrival = t + rng.nextExp() / rate;
    }
  }
  return {
    responseSum,
    slowdownSum,
    completed,
    levelTime,
    levelCompletions,
    levelCompletionsByBatch,
    acceptedJobs: accepted,
    events,
    queue,
    endTime: end,
  };
}
