/**
 * The refined mean field of heterogeneous servers (theory.md §13, meanfield/hetero/refined.ts) against simulation at
 * small n: E[T]_n from simulate beside the limit E[T]∞ and the refined value E[T]∞ + c₁/n, for JSQ(2) and SED(2) with
 * speeds 1, 2 (fractions 0.5, 0.5, uniform sampling) at ρ = 0.6 and 0.9 (λ = 0.9 and 1.35). A row is "closer to
 * refined" when |sim − refined| < |sim − limit|; the z columns are the distances in simulation standard errors.
 * Run: npx tsx scripts/hetero-refined-check.ts [n ...]   (default n = 10 20 50; each cell 8 replications × 200 000 jobs)
 */
import { parseModel } from '../src/model/model.ts';
import { simulationWarmup } from '../src/meanfield/index.ts';
import { heteroRefined } from '../src/meanfield/hetero/refined.ts';
import { simulate } from '../src/sim/simulate.ts';

const ns = process.argv.slice(2).map(Number);
let closer = 0;
let total = 0;
for (const lambda of [0.9, 1.35])
  for (const selection of ['jsq', 'sed'] as const) {
    const model = parseModel({ lambda, d: 2, selection, servers: { speeds: [1, 2], fractions: [0.5, 0.5] } });
    const r = heteroRefined(model);
    console.log(
      `${selection.toUpperCase()}(2) λ = ${lambda} (ρ = ${(lambda / 1.5).toFixed(2)}): E[T]∞ = ${r.meanResponseTime.toFixed(5)}, c₁ = ${r.meanResponseTimeCoefficient.toFixed(5)} (K = ${r.truncationLevel})`,
    );
    for (const n of ns.length ? ns : [10, 20, 50]) {
      const warm = Math.max(50, simulationWarmup(model).time);
      const sim = simulate(model, { n, jobs: 200_000, replications: 8, warmupTime: warm, seed: 23 });
      const e = sim.meanResponseTime;
      const se = e.halfWidth / 2.365; // t_{0.975, 7}
      const refined = r.meanResponseTime + r.meanResponseTimeCoefficient / n;
      const win = Math.abs(e.mean - refined) < Math.abs(e.mean - r.meanResponseTime);
      total++;
      if (win) closer++;
      console.log(
        `  n = ${String(n).padStart(3)}: sim ${e.mean.toFixed(5)} ± ${e.halfWidth.toFixed(5)}  refined ${refined.toFixed(5)} (z ${((e.mean - refined) / se).toFixed(2)})  ` +
          `limit ${r.meanResponseTime.toFixed(5)} (z ${((e.mean - r.meanResponseTime) / se).toFixed(2)})  ${win ? 'closer to refined' : 'closer to the limit'}`,
      );
    }
  }
console.log(`${closer} of ${total} cells closer to the refined value than to the limit`);
