/**
 * Calibration of the batch warm-up (theory.md §8 "Warm-up", §15): coverage of the 95 % intervals of E[T] for SQ(d,K)
 * and BSQ cells started empty with the one rule's warm-up (`simulationWarmup`, read on the batch tail ODE), against
 * the mean-field value (batch models have no refined term: n large, so the 1/n bias is small against the CI), over
 * master seeds, with the Wilson 99 % band around 0.95 (`coverageBand`); the mean error with its standard error.
 * Not a unit test (about a minute): `nice npx tsx scripts/batch-warmup-coverage.ts [seeds] [n] [jobs per replication]`.
 */
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { solveMeanField } from '../src/meanfield/solve.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/index.ts';
import { coverageBand } from '../src/stats/index.ts';

const seeds = Number(process.argv[2] ?? 40);
const n = Number(process.argv[3] ?? 1000);
const jobs = Number(process.argv[4] ?? 20_000);
const [lo, hi] = coverageBand(0.95, seeds);
console.log(
  `${seeds} seeds per cell, 5 replications × ${jobs} jobs, n = ${n}; 99 % band for 95 % coverage: [${(100 * lo).toFixed(1)}, ${(100 * hi).toFixed(1)}] %`,
);
for (const spec of [
  { lambda: 0.9, d: 3, batch: 2 },
  { lambda: 0.9, d: 2, batch: 3, batchDispatch: 'whole' },
] as const) {
  const model = parseModel(spec);
  const truth = solveMeanField(model).meanResponseTime;
  const w = simulationWarmup(model);
  let covered = 0;
  const errors: number[] = [];
  for (let seed = 1; seed <= seeds; seed++) {
    const r = simulate(model, { n, jobs, replications: 5, seed, warmupTime: w.time });
    const [a, b] = r.meanResponseTime.ci95;
    if (a <= truth && truth <= b) covered++;
    errors.push(r.meanResponseTime.mean - truth);
  }
  const mean = errors.reduce((s, e) => s + e, 0) / seeds;
  const se = Math.sqrt(errors.reduce((s, e) => s + (e - mean) ** 2, 0) / (seeds - 1) / seeds);
  console.log(
    `${JSON.stringify(spec)}: warm-up ${w.time.toFixed(1)} (${w.rule}); E[T]∞ ${truth.toFixed(5)}; coverage ${covered}/${seeds} = ${((100 * covered) / seeds).toFixed(1)} %; bias ${mean.toExponential(2)} ± ${se.toExponential(2)}`,
  );
}
