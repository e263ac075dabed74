/**
 * The LPW(d) cavity fixed point (lpwCavity, theory.md §5 [A]) against finite-n simulation at n = 1000, exponential
 * sizes and exponential predictions, d = 2, λ ∈ {0.9, 0.95}, under SPRPT and FIFO, plus the exact-prediction case
 * (LPW = LWL, closed form for FIFO). A small budget (issue 20 item 1): the simulation's CI and the cavity's restart CI
 * are printed side by side with their gap in combined half-widths; an O(1/n) finite-n bias is expected on top.
 * Not a unit test (minutes): `nice npx tsx scripts/lpw-cavity-check.ts [jobs per replication, default 4e5]`.
 */
import { lpwCavity } from '../src/meanfield/cavity/index.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/index.ts';

const jobs = Number(process.argv[2] ?? 4e5);
const cases: [string, string, number][] = [
  ['sprpt', 'exp', 0.9],
  ['sprpt', 'exp', 0.95],
  ['fifo', 'exp', 0.9],
  ['fifo', 'exp', 0.95],
  ['fifo', 'exact', 0.9],
];
console.log(
  `n = 1000, d = 2, exponential sizes, ${jobs} jobs × 3 replications per simulation; load ${(await import('node:os')).loadavg()[0].toFixed(1)}`,
);
for (const [discipline, prediction, lambda] of cases) {
  const model = parseModel({ lambda, d: 2, selection: 'lpw', discipline, prediction });
  let cav: { mean: number; halfWidth: number } | null = null;
  let note: string;
  try {
    const r = lpwCavity(model, { seed: 3 });
    cav = r.meanResponseTime;
    note = `iterations ${r.convergence.iterationsPerRestart.join('/')}, busy ${r.convergence.checks.busyFraction.busy.toFixed(4)}, π₀ ${r.predictedWork.atom.toFixed(4)}`;
  } catch (e) {
    note = `refused: ${(e as Error).message}`;
  }
  const s = simulate(model, { n: 1000, jobs, replications: 3, seed: 17, warmupTime: lambda > 0.92 ? 200 : 100 });
  const e = s.meanResponseTime;
  const gap = cav ? (cav.mean - e.mean) / Math.hypot(cav.halfWidth, e.halfWidth) : NaN;
  console.log(
    `${discipline.padEnd(5)} pred ${prediction.padEnd(5)} λ = ${lambda}: cavity ${cav ? `${cav.mean.toFixed(4)} ± ${cav.halfWidth.toFixed(4)}` : '—'} (${note})` +
      `  |  n = 1000: ${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)}  |  gap ${cav ? `${(cav.mean - e.mean).toFixed(4)} = ${gap.toFixed(1)} h` : '—'}`,
  );
}
