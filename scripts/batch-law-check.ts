/**
 * BSQ with a batch size law (theory.md §15): simulated E[T] at n servers (FIFO event engine, whole dispatch) against
 * the BSQ fixed point with the law, and whether |mean field − simulated| ≤ CI + 1/n.
 * Usage: npx tsx scripts/batch-law-check.ts [n=1000] [jobs=300000] [replications=4] [seed=3]
 */
import { parseModel } from '../src/model/index.ts';
import { solveMeanField } from '../src/meanfield/solve.ts';
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { simulate } from '../src/sim/index.ts';

const [n, jobs, R, seed] = [1000, 300_000, 4, 3].map((v, k) => Number(process.argv[2 + k] ?? v));
const cases: [number, number, string][] = [
  [0.8, 2, 'geom:2'],
  [0.9, 2, 'geom:2'],
  [0.8, 3, 'geom:4'],
  [0.8, 2, 'pmf:0.5,0,0.5'],
  [0.9, 1, 'geom:3'],
];
console.log(`BSQ (whole dispatch), exponential sizes, n = ${n}, ${R} × ${jobs} jobs; 95 % CI`);
console.log(
  `${'λ'.padStart(4)} ${'d'.padStart(2)} ${'law'.padEnd(14)} ${'E[T] sim'.padStart(9)} ${'± CI'.padStart(7)} ${'mean field'.padStart(10)} ok`,
);
let inside = 0;
for (const [lambda, d, batch] of cases) {
  const model = parseModel({ lambda, d, batch, batchDispatch: 'whole' });
  const mf = solveMeanField(model).meanResponseTime;
  const warmupTime = simulationWarmup(model).time;
  const r = simulate(model, { n, jobs, replications: R, seed, warmupTime });
  const e = r.meanResponseTime;
  const ok = Math.abs(mf - e.mean) <= e.halfWidth + 1 / n;
  inside += Number(ok);
  console.log(
    `${String(lambda).padStart(4)} ${String(d).padStart(2)} ${batch.padEnd(14)} ${e.mean.toFixed(4).padStart(9)} ${e.halfWidth.toFixed(4).padStart(7)} ${mf.toFixed(4).padStart(10)} ${ok}`,
  );
}
console.log(`mean field within CI + 1/n in ${inside} of ${cases.length}`);
