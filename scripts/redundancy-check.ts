/**
 * Redundancy-d cancel-on-complete (theory.md §16): the simulation at n = 1000 against the mean field, for independent
 * and identical exponential replicas at a few loads, d = 2 and 3. Prints E[T] ± half-width, the mean-field E[T], the
 * gap in half-widths and whether |gap| ≤ hw + 1/n; the busy fraction s₁ against F̄(0).
 * Too slow for the unit-test budget; run with `npx tsx scripts/redundancy-check.ts [n] [jobs]`.
 */
import { solveMeanField } from '../src/meanfield/solve.ts';
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/simulate.ts';

const n = Number(process.argv[2] ?? 1000);
const jobs = Number(process.argv[3] ?? 200_000);
const cases: [string, number, number][] = [
  ['independent', 2, 0.5],
  ['independent', 2, 0.9],
  ['independent', 3, 0.7],
  ['identical', 2, 0.5],
  ['identical', 2, 0.75],
  ['identical', 3, 0.5],
];
console.log(`n = ${n}, 5 × ${jobs} jobs per case`);
console.log('replicas      d   λ     E[T]_n ± hw          mean field   gap/hw   ≤ hw + 1/n   s₁ (sim)   F̄(0) (mf)');
for (const [replicas, d, lambda] of cases) {
  const model = parseModel({ lambda, d, redundancy: 'cancel-on-complete', replicas });
  const mf = solveMeanField(model);
  const r = simulate(model, { n, jobs, replications: 5, seed: 11, warmupTime: simulationWarmup(model).time });
  const e = r.meanResponseTime;
  const gap = e.mean - mf.meanResponseTime;
  console.log(
    `${replicas.padEnd(12)} ${d}  ${lambda.toFixed(2)}  ${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)}    ${mf.meanResponseTime.toFixed(4)}     ${(gap / e.halfWidth).toFixed(2).padStart(6)}   ${Math.abs(gap) <= e.halfWidth + 1 / n ? 'yes' : 'NO '}          ${r.redundancy!.busyFraction.mean.toFixed(4)}     ${mf.redundancy!.busyFraction.toFixed(4)}`,
  );
}
