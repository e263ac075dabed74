/**
 * Issue 21 §4: coverage of the pooled p99 interval (sectioning over replications or batches) of the M/M/1 response
 * time, whose law is known: T ~ Exp(μ − λ), so p99 = ln(100)/(1 − λ) (μ = 1). Over ≥ 100 master seeds per budget,
 * the fraction of 95 % intervals containing the truth, against the Wilson 95 % band around 0.95, and whether the
 * simulator warned that the budget is below `MIN_TAIL_JOBS_PER_SECTION` (src/sim/simulate.ts).
 * Run: `nice npx tsx scripts/quantile-coverage.ts [seeds=100] [λ=0.8] [budgets=5x2000,b30x2000,…]`
 * (RxJ: R replications of J jobs; bNxJ: batch means, N batches of J jobs).
 */
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/index.ts';
import { coverageBand } from '../src/stats/index.ts';

const seeds = Number(process.argv[2] ?? 100);
const lambda = Number(process.argv[3] ?? 0.8);
const budgets = (process.argv[4] ?? '5x2000,b30x2000,5x10000,5x20000,b30x20000,5x50000').split(',');
const model = parseModel({ lambda, d: 1 });
const truth = Math.log(100) / (1 - lambda);
const warmupTime = simulationWarmup(model).time;
const [lo, hi] = coverageBand(0.95, seeds, 0.95);
console.log(
  `M/M/1 λ = ${lambda}, p99 = ln(100)/(1 − λ) = ${truth.toFixed(4)}, warm-up ${warmupTime.toFixed(1)}; ${seeds} seeds per budget`,
);
console.log(`Wilson 95 % band around 0.95 for ${seeds} intervals: [${lo.toFixed(3)}, ${hi.toFixed(3)}]`);
console.log('budget | covered | coverage | in band | mean p99 | mean h | warned | s');
for (const b of budgets) {
  const t0 = Date.now();
  const batch = b.startsWith('b');
  const [units, jobs] = b.replace(/^b/, '').split('x').map(Number);
  let covered = 0;
  let sum = 0;
  let sumH = 0;
  let warned = 0;
  for (let s = 1; s <= seeds; s++) {
    const r = simulate(model, {
      n: 1,
      jobs,
      seed: 5000 + s,
      warmupTime,
      maxLevel: 5,
      ...(batch ? { method: 'batch-means' as const, batches: units } : { replications: units }),
    });
    const e = r.responseTimePercentiles.p99;
    if (e.ci95[0] <= truth && truth <= e.ci95[1]) covered++;
    sum += e.mean;
    sumH += e.halfWidth;
    if (r.warnings.some((w) => w.includes('percentile intervals'))) warned++;
  }
  const f = covered / seeds;
  console.log(
    `${batch ? `${units} batches × ${jobs}` : `${units} × ${jobs}`} | ${covered}/${seeds} | ${f.toFixed(3)} | ${f >= lo && f <= hi ? 'yes' : f < lo ? 'BELOW' : 'above'} | ` +
      `${(sum / seeds).toFixed(3)} | ${(sumH / seeds).toFixed(3)} | ${warned}/${seeds} | ${((Date.now() - t0) / 1000).toFixed(0)}`,
  );
}
