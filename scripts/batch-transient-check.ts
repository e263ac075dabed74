/**
 * LL(d,K) transient against simulation (theory.md §15): E[Q](t) and the busy fraction from R replications of the
 * n-server FIFO event engine from empty (simulateTrajectory) against the LL(d,K) workload PIDE from empty (the LWL(d)
 * scheme with the batch-sampling map, via solveMeanFieldTransient). With exponential sizes and FIFO, E[U] = E[Q]·E[S],
 * so the PIDE's mean workload is the mean-field E[Q]. Prints per instant the simulated mean ± 95 % CI, the mean field,
 * and whether |mean field − simulated| ≤ CI + 1/n.
 * Usage: npx tsx scripts/batch-transient-check.ts [n=1000] [lambda=0.8] [d=3] [K=2] [replications=20] [seed=5]
 */
import { parseModel } from '../src/model/index.ts';
import { solveMeanFieldTransient } from '../src/meanfield/solve.ts';
import { simulateTrajectory } from '../src/sim/index.ts';

const [n, lambda, d, K, R, seed] = [1000, 0.8, 3, 2, 20, 5].map((v, k) => Number(process.argv[2 + k] ?? v));
const model = parseModel({ lambda, d, selection: 'lwl', batch: K });
const times = [0, 1, 2, 4, 8, 12, 16, 24, 32, 48, 64];
let t0 = performance.now();
const sim = simulateTrajectory(model, { n, times, replications: R, seed, maxLevel: 2 });
const simSeconds = (performance.now() - t0) / 1000;
t0 = performance.now();
const mf = solveMeanFieldTransient(model, times);
const mfSeconds = (performance.now() - t0) / 1000;
if (mf.solver !== 'lwl-pide') throw new Error(`expected the LL(d,K) PIDE, got ${mf.solver}`);
const pide = mf.result;
console.log(
  `LL(${d},${K}) FIFO, exponential sizes, λ = ${lambda}, n = ${n}, from empty; ${R} replications (${simSeconds.toFixed(0)} s), ` +
    `${mf.capability.name} Δ = ${pide.diagnostics.step} (${mfSeconds.toFixed(0)} s); 95 % CI`,
);
console.log(
  `${'t'.padStart(5)} ${'E[Q] sim'.padStart(9)} ${'± CI'.padStart(7)} ${'mean field'.padStart(10)} ${'ok'.padStart(5)}   ${'busy sim'.padStart(9)} ${'± CI'.padStart(7)} ${'mean field'.padStart(10)} ${'ok'.padStart(5)}`,
);
let inside = 0;
times.forEach((t, j) => {
  const q = sim.meanQueueLength[j];
  const b = sim.tail[j][1];
  const okQ = Math.abs(pide.meanWorkload[j] - q.mean) <= q.halfWidth + 1 / n;
  const okB = Math.abs(pide.busyFraction[j] - b.mean) <= b.halfWidth + 1 / n;
  inside += Number(okQ) + Number(okB);
  console.log(
    `${String(t).padStart(5)} ${q.mean.toFixed(4).padStart(9)} ${q.halfWidth.toFixed(4).padStart(7)} ${pide.meanWorkload[j].toFixed(4).padStart(10)} ${String(okQ).padStart(5)}   ` +
      `${b.mean.toFixed(4).padStart(9)} ${b.halfWidth.toFixed(4).padStart(7)} ${pide.busyFraction[j].toFixed(4).padStart(10)} ${String(okB).padStart(5)}`,
  );
});
console.log(`mean field within CI + 1/n at ${inside} of ${2 * times.length} (instant, quantity) pairs`);
