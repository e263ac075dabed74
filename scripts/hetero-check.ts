/**
 * Heterogeneous servers (theory.md §13): simulation at finite n against the mean-field fixed point, for JSQ(d), SED(d)
 * and LWL(d) with speeds 1, 2 and fractions 0.5, 0.5 at λ = 0.6, d = 2 (the acceptance case), both samplings.
 * A check passes when |E[T]_sim − E[T]_∞| ≤ CI half-width + 1/n. Also prints per class and Σ f·speed·busy.
 * Run: npx tsx scripts/hetero-check.ts [n ...]   (default n = 1000; each n runs 5 replications × 400 000 jobs)
 */
import { parseModel } from '../src/model/model.ts';
import { solveMeanField, simulationWarmup } from '../src/meanfield/index.ts';
import { simulate } from '../src/sim/simulate.ts';

const ns = process.argv.slice(2).map(Number);
let pass = 0;
let total = 0;
for (const n of ns.length ? ns : [1000])
  for (const sampling of ['uniform', 'speed'] as const)
    for (const selection of ['jsq', 'sed', 'lwl'] as const) {
      const model = parseModel({ lambda: 0.6, d: 2, selection, servers: { speeds: [1, 2], fractions: [0.5, 0.5], sampling } });
      const limit = solveMeanField(model);
      const warm = Math.max(50, simulationWarmup(model).time);
      const sim = simulate(model, { n, jobs: 400_000, replications: 5, warmupTime: warm, seed: 11 });
      const e = sim.meanResponseTime;
      const ok = Math.abs(e.mean - limit.meanResponseTime) <= e.halfWidth + 1 / n;
      total++;
      if (ok) pass++;
      const served = sim.classes!.reduce((a, c) => a + c.fraction * c.speed * c.busyFraction.mean, 0);
      console.log(
        `${selection.toUpperCase()}(2) ${sampling.padEnd(7)} n=${n}: sim ${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)}  limit ${limit.meanResponseTime.toFixed(4)} (${limit.solver})  ` +
          `diff ${(e.mean - limit.meanResponseTime).toFixed(4)}  ${ok ? 'agrees' : 'DISAGREES'} (CI + 1/n)  Σf·speed·busy ${served.toFixed(4)}`,
      );
      sim.classes!.forEach((c, k) => {
        const l = limit.classes![k];
        console.log(
          `    class ${k + 1} (speed ${c.speed}): busy ${c.busyFraction.mean.toFixed(4)} ± ${c.busyFraction.halfWidth.toFixed(4)} vs ${l.busyFraction.toFixed(4)}; ` +
            `E[T] ${c.meanResponseTime.mean.toFixed(4)} ± ${c.meanResponseTime.halfWidth.toFixed(4)} vs ${l.meanResponseTime.toFixed(4)}; jobs ${c.jobs}`,
        );
      });
    }
console.log(`${pass} of ${total} checks within CI + 1/n`);
