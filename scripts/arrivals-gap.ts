/**
 * The finite-n gap of renewal arrivals (theory.md §14): JSQ(2) FIFO, exponential sizes, λ = 0.9, arrivals det,
 * erlang:2, exp, hyperexp:4 at n = 10, 100, 1000, against the common n → ∞ limit (the Poisson SQ(d) fixed point).
 * Prints E[T] ± half-width, the gap E[T]_n − E[T]∞ and n × gap (roughly constant if the gap is O(1/n)).
 * Too slow for the unit-test budget; run with `npx tsx scripts/arrivals-gap.ts [λ]`.
 */
import { solveMeanField } from '../src/meanfield/solve.ts';
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/simulate.ts';

const lambda = Number(process.argv[2] ?? 0.9);
const limit = solveMeanField(parseModel({ lambda, d: 2 })).meanResponseTime;
console.log(`JSQ(2) FIFO exp, λ = ${lambda}: E[T]∞ = ${limit.toFixed(4)} (every renewal law)`);
console.log('arrivals      n      E[T]_n ± hw           gap        n·gap');
for (const arrivals of ['det', 'erlang:2', 'exp', 'hyperexp:4']) {
  const model = parseModel({ lambda, d: 2, arrivals });
  const warmupTime = simulationWarmup(model).time;
  for (const n of [10, 100, 1000]) {
    const r = simulate(model, { n, jobs: Math.max(400_000, 200 * n), replications: 5, seed: 3, warmupTime });
    const e = r.meanResponseTime;
    const gap = e.mean - limit;
    console.log(
      `${arrivals.padEnd(12)} ${String(n).padStart(5)}  ${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)}   ${gap >= 0 ? '+' : ''}${gap.toFixed(4)}   ${(n * gap).toFixed(2)} ± ${(n * e.halfWidth).toFixed(2)}`,
    );
  }
}
