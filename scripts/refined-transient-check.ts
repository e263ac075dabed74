/**
 * Refined transient against simulated trajectories: E[Q_n(t)] from R replications of the n-server system
 * (simulateTrajectory, from empty) against the mean field Σs(t) and the refined Σs(t) + ΣV(t)/n (refinedTransient).
 * Usage: npx tsx scripts/refined-transient-check.ts [n=100] [lambda=0.9] [d=2] [replications=20000] [seed=7]
 */
import { parseModel } from '../src/model/index.ts';
import { refinedTransient, refinedTransientAt } from '../src/meanfield/index.ts';
import { simulateTrajectory } from '../src/sim/index.ts';

const [n, lambda, d, R, seed] = [100, 0.9, 2, 20000, 7].map((v, k) => Number(process.argv[2 + k] ?? v));
const model = parseModel({ lambda, d });
const times = [0, 1, 2, 5, 10, 20, 30, 40, 60, 80, 120];
const t0 = performance.now();
const sim = simulateTrajectory(model, { n, times, replications: R, seed });
const seconds = (performance.now() - t0) / 1000;
const r = refinedTransient(model, { times });
const at = refinedTransientAt(r, n);
console.log(`n = ${n}, λ = ${lambda}, d = ${d}, from empty; ${R} replications (${seconds.toFixed(0)} s), 95% CI`);
console.log(
  `${'t'.padStart(6)} ${'simulated'.padStart(10)} ${'± CI'.padStart(8)} ${'mean field'.padStart(11)} ${'refined'.padStart(9)} ${'MF in CI'.padStart(9)} ${'ref in CI'.padStart(9)}`,
);
let inside = 0;
times.forEach((t, j) => {
  const e = sim.meanQueueLength[j];
  const mf = r.meanField.meanQueueLength[j];
  const ref = at.meanQueueLength[j];
  const ok = Math.abs(ref - e.mean) <= e.halfWidth;
  if (ok) inside++;
  console.log(
    `${String(t).padStart(6)} ${e.mean.toFixed(4).padStart(10)} ${e.halfWidth.toFixed(4).padStart(8)} ${mf.toFixed(4).padStart(11)} ${ref.toFixed(4).padStart(9)} ${String(Math.abs(mf - e.mean) <= e.halfWidth).padStart(9)} ${String(ok).padStart(9)}`,
  );
});
console.log(`refined inside the CI at ${inside} of ${times.length} instants`);
