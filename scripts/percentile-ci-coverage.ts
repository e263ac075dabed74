/**
 * Coverage of simulate's 95 % percentile intervals (pooled type-7 quantile ± t_{R−1}·s/√R over the R replications'
 * own quantiles, sectioning) and of the mean's t interval as a control, on exact cases: random selection d = 1 is n
 * independent M/M/1 queues, FIFO response time T ~ Exp(1 − λ) (unit-mean exponential sizes), so the p-quantile is
 * −ln(1 − p)/(1 − λ) and E[T] = 1/(1 − λ) at any n. Per setting (λ, n, R, jobs per replication) ≥ 200 seeds: the
 * fraction of intervals holding the truth beside the Wilson 95 % band around 0.95, and the ratio of the estimates'
 * spread over seeds to the intervals' root-mean-square standard error (h/t_{R−1}; 1 when the spread is measured
 * right, < 1 when the intervals are too wide, > 1 when too narrow; for the percentiles' cdf-inverted intervals, not
 * symmetric, h is half their length and the ratio only a rough guide), and the bias over the seeds' spread.
 * Run: `nice npx tsx scripts/percentile-ci-coverage.ts [seeds=200] [λs=0.5,0.9] [ns=10] [Rs=3,5,10] [jobs=20000,50000]`.
 */
import { loadavg } from 'node:os';
import { tQuantile } from '../src/lazy.ts';
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/index.ts';
import { coverageBand } from '../src/stats/index.ts';

const list = (i: number, d: string) => (process.argv[i] ?? d).split(',').map(Number);
const seeds = Number(process.argv[2] ?? 200);
const lambdas = list(3, '0.5,0.9');
const ns = list(4, '10');
const Rs = list(5, '3,5,10');
const budgets = list(6, '20000,50000');
const [lo, hi] = coverageBand(0.95, seeds, 0.95);
const keys = ['mean', 'p50', 'p95', 'p99'] as const;
console.log(
  `coverage of 95 % intervals, d = 1 (n independent M/M/1, FIFO), ${seeds} seeds per setting; band [${lo.toFixed(3)}, ${hi.toFixed(3)}]`,
);
console.log(
  `load average at start ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
console.log('λ | n | R | jobs | ' + keys.map((k) => `${k}: cover, sd/se, bias/sd`).join(' | ') + ' | s');
for (const lambda of lambdas) {
  const model = parseModel({ lambda, d: 1 });
  const truth = {
    mean: 1 / (1 - lambda),
    p50: Math.log(2) / (1 - lambda),
    p95: Math.log(20) / (1 - lambda),
    p99: Math.log(100) / (1 - lambda),
  };
  const warmupTime = simulationWarmup(model).time;
  for (const n of ns) {
    for (const R of Rs) {
      const t = tQuantile(0.975, R - 1);
      for (const jobs of budgets) {
        const t0 = Date.now();
        const acc = Object.fromEntries(keys.map((k) => [k, { covered: 0, sum: 0, sum2: 0, se2: 0 }]));
        for (let s = 1; s <= seeds; s++) {
          const r = simulate(model, { n, jobs, seed: 90_000 + s, warmupTime, replications: R, maxLevel: 3 });
          const est = { mean: r.meanResponseTime, ...r.responseTimePercentiles };
          for (const k of keys) {
            const e = est[k];
            const a = acc[k];
            if (e.ci95[0] <= truth[k] && truth[k] <= e.ci95[1]) a.covered++;
            a.sum += e.mean - truth[k];
            a.sum2 += (e.mean - truth[k]) ** 2;
            a.se2 += (e.halfWidth / t) ** 2;
          }
        }
        const cells = keys.map((k) => {
          const a = acc[k];
          const f = a.covered / seeds;
          const bias = a.sum / seeds;
          const sd = Math.sqrt((a.sum2 - seeds * bias * bias) / (seeds - 1));
          const flag = f < lo ? ' LOW' : f > hi ? ' high' : '';
          return `${f.toFixed(3)}${flag}, ${(sd / Math.sqrt(a.se2 / seeds)).toFixed(2)}, ${(bias / sd).toFixed(2)}`;
        });
        console.log(`${lambda} | ${n} | ${R} | ${jobs} | ${cells.join(' | ')} | ${((Date.now() - t0) / 1000).toFixed(0)}`);
      }
    }
  }
}
console.log(
  `load average at end ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
