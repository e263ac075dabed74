/**
 * Coverage of replay's batch-means 95 % interval for E[T] on an exact case: a Poisson trace over n servers with random
 * selection (d = 1) is n independent M/M/1 queues at load λ, E[T] = 1/(1 − λ) (unit-mean exponential sizes; the
 * replay takes the trace's own times, as `replay --no-rescale`). Per (λ, n, jobs N) and batch rule, `seeds` traces: the
 * fraction of intervals holding 1/(1 − λ), beside the Wilson band around 0.95, the bias of the pooled mean over the
 * seeds' spread, how many traces had no interval ("too few jobs") and how often the lag-1 warning (> 0.2) fired.
 * Rules: `old` (until 2026-12-03: 25 batches, at least 1 job each, min(25, N); recomputed here from the per-job records,
 * as the library now refuses batches under MIN_BATCH_JOBS jobs) and `new`, the replay's rule (`replayBatchCount`:
 * batches of ≥ MIN_BATCH_JOBS jobs, at most DEFAULT_BATCHES). The replay starts empty, as a trace does; the part of the
 * miss that is start-up bias shows in bias/sd.
 * Run: `nice npx tsx scripts/replay-batch-coverage.ts [seeds=400] [λs=0.5,0.8] [ns=1,10] [Ns=30,100,300,1000,3000,10000]`.
 */
import { loadavg } from 'node:os';
import { parseModel } from '../src/model/index.ts';
import { simulateReplay } from '../src/sim/index.ts';
import { replayBatchCount } from '../src/sim/replay.ts';
import { batchEstimate, coverageBand, type BatchEstimate } from '../src/stats/index.ts';
import { Rng, streamSeed } from '../src/stats/rng.ts';

const list = (i: number, d: string) => (process.argv[i] ?? d).split(',').map(Number);
const seeds = Number(process.argv[2] ?? 400);
const lambdas = list(3, '0.5,0.8');
const ns = list(4, '1,10');
const sizes = list(5, '30,100,300,1000,3000,10000');
const [lo, hi] = coverageBand(0.95, seeds, 0.95);
console.log(`replay batch-means coverage of E[T] = 1/(1 − λ), d = 1 random over n servers (n M/M/1), ${seeds} traces per row`);
console.log(`Wilson band for 0.95 at ${seeds} trials: [${lo.toFixed(3)}, ${hi.toFixed(3)}]`);
console.log(
  `load average at start ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log('λ | n | N jobs | rule | batches | cover | no interval | bias/sd | mean half-width | lag-1 check');
for (const lambda of lambdas) {
  const truth = 1 / (1 - lambda);
  for (const n of ns) {
    const model = parseModel({ lambda, d: 1, selection: 'random', ...(n === 1 ? {} : {}) });
    for (const N of sizes) {
      const rules: [string, number | null][] = [
        ['old', Math.min(25, N)],
        ['new', replayBatchCount(N)],
      ];
      for (const [rule, batches] of rules) {
        let covered = 0;
        let none = 0;
        let sum = 0;
        let sum2 = 0;
        let width = 0;
        let flagged = 0;
        let flaggedMissed = 0;
        for (let s = 0; s < seeds; s++) {
          const rng = new Rng(streamSeed(1000 + s, 7));
          const arrivals = new Float64Array(N);
          const jobSizes = new Float64Array(N);
          let t = 0;
          for (let k = 0; k < N; k++) {
            t += rng.nextExp() / (lambda * n);
            arrivals[k] = t;
            jobSizes[k] = rng.nextExp();
          }
          const r = simulateReplay(model, { arrivals, sizes: jobSizes }, { n, seed: s + 1, warmupJobs: 0, record: rule === 'old' });
          let e: BatchEstimate = r.meanResponseTime;
          if (rule === 'old' && batches !== null) {
            // the old rule's interval: B batches of consecutive measured jobs (arrival order), as replay cut them
            const T = r.records!.jobs.response;
            const bounds = Array.from({ length: batches + 1 }, (_, b) => Math.floor((b * N) / batches));
            const means = bounds
              .slice(0, batches)
              .map((lo, b) => T.slice(lo, bounds[b + 1]).reduce((x, y) => x + y, 0) / (bounds[b + 1] - lo));
            e = batchEstimate(means, e.mean);
          }
          sum += e.mean;
          sum2 += e.mean * e.mean;
          if (batches === null) {
            none++;
            continue;
          }
          width += e.halfWidth;
          const hit = e.ci95[0] <= truth && truth <= e.ci95[1];
          if (hit) covered++;
          if (e.lag1 > 0.2) {
            flagged++;
            if (!hit) flaggedMissed++;
          }
        }
        const mean = sum / seeds;
        const sd = Math.sqrt(Math.max(0, sum2 / seeds - mean * mean));
        const withInterval = seeds - none;
        console.log(
          `${lambda} | ${n} | ${N} | ${rule} | ${batches ?? '—'} | ${withInterval ? (covered / withInterval).toFixed(3) : '—'} | ` +
            `${none} | ${((mean - truth) / sd).toFixed(2)} | ${withInterval ? (width / withInterval).toFixed(3) : '—'} | ` +
            `lag1 > 0.2: ${flagged} (missed ${flaggedMissed} of ${withInterval - covered} misses)`,
        );
      }
    }
  }
}
