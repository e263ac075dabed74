/**
 * Issue 21 §4: coverage of the pooled p50, p95 and p99 intervals (the cdf-inverting sectioning interval over
 * replications or batches, stats/tInterval.ts `cdfSectioningInterval`) of the M/M/1 response time, whose law is
 * known: T ~ Exp(μ − λ), so the p-quantile is −ln(1 − p)/(1 − λ) (μ = 1). Over ≥ 100 master seeds per budget, the
 * fraction of 95 % intervals containing the truth, against the Wilson 95 % band around 0.95; how many intervals had
 * zero width (the sections' fractions tied: what the binomial floor of `cdfSectioningLevels` prevents) and how many
 * were open at +∞; and whether the simulator warned that the budget is below `MIN_TAIL_JOBS_PER_SECTION`
 * (src/sim/simulate.ts). Tiny budgets (b2x40: 2 batches of 40 jobs) show the floor, long ones that it costs nothing.
 * Run: `nice npx tsx scripts/quantile-coverage.ts [seeds=100] [λ=0.8] [budgets=b2x40,b2x80,…]`
 * (RxJ: R replications of J jobs; bNxJ: batch means, N batches of J jobs).
 */
import { loadavg } from 'node:os';
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/index.ts';
import { coverageBand } from '../src/stats/index.ts';

const seeds = Number(process.argv[2] ?? 100);
const lambda = Number(process.argv[3] ?? 0.8);
const budgets = (process.argv[4] ?? 'b2x40,b2x80,2x100,5x100,5x400,b30x200,5x2000,b30x2000,5x20000').split(',');
const model = parseModel({ lambda, d: 1 });
const levels = [
  ['p50', 0.5],
  ['p95', 0.95],
  ['p99', 0.99],
] as const;
const truth = (p: number) => -Math.log(1 - p) / (1 - lambda);
const warmupTime = simulationWarmup(model).time;
const [lo, hi] = coverageBand(0.95, seeds, 0.95);
const load = () =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
console.log(
  `M/M/1 λ = ${lambda}: p50, p95, p99 = ${levels.map(([, p]) => truth(p).toFixed(4)).join(', ')}; warm-up ${warmupTime.toFixed(1)}; ${seeds} seeds per budget; load ${load()}`,
);
console.log(`Wilson 95 % band around 0.95 for ${seeds} intervals: [${lo.toFixed(3)}, ${hi.toFixed(3)}]`);
console.log(`budget | ${levels.map(([k]) => `${k}: coverage, zero-width, open at ∞`).join(' | ')} | warned | s`);
for (const b of budgets) {
  const t0 = Date.now();
  const batch = b.startsWith('b');
  const [units, jobs] = b.replace(/^b/, '').split('x').map(Number);
  const acc = levels.map(() => ({ covered: 0, zero: 0, open: 0 }));
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
    levels.forEach(([k, p], j) => {
      const e = r.responseTimePercentiles[k];
      if (e.ci95[0] <= truth(p) && truth(p) <= e.ci95[1]) acc[j].covered++;
      if (e.ci95[1] === e.ci95[0]) acc[j].zero++;
      if (e.ci95[1] === Infinity) acc[j].open++;
    });
    if (r.warnings.some((w) => w.includes('percentile intervals'))) warned++;
  }
  const cells = acc.map((a) => {
    const f = a.covered / seeds;
    return `${f.toFixed(3)}${f < lo ? ' LOW' : f > hi ? ' high' : ''}, ${a.zero}, ${a.open}`;
  });
  console.log(
    `${batch ? `${units} batches × ${jobs}` : `${units} × ${jobs}`} | ${cells.join(' | ')} | ${warned}/${seeds} | ${((Date.now() - t0) / 1000).toFixed(0)}`,
  );
}
console.log(`load at end ${load()}`);
