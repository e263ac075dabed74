/**
 * The cavity with a speed per class (meanfield/hetero/cavity.ts) against simulation at finite n: SRPT (and PSJF,
 * weibull sizes) under JSQ(d), SED(d) and LWL(d) with speeds 1, 2 and fractions 0.5, 0.5, d = 2, λ = 0.9 per server
 * (ρ = 0.6), both samplings for JSQ. The limit is an estimate with its own CI, so a check passes when
 * |E[T]_sim − E[T]_∞| ≤ √(h_sim² + h_∞²) + 1/n. Also prints per class and Σ f·speed·busy against λE[S].
 * Run: npx tsx scripts/speed-cavity-check.ts [n ...]   (default n = 1000; each model 5 replications × 400 000 jobs)
 */
import { parseModel } from '../src/model/model.ts';
import { solveMeanField, simulationWarmup } from '../src/meanfield/index.ts';
import { simulate } from '../src/sim/simulate.ts';

const ns = process.argv.slice(2).map(Number);
const cases = [
  { selection: 'jsq', discipline: 'srpt' },
  { selection: 'jsq', discipline: 'srpt', sampling: 'speed' },
  { selection: 'sed', discipline: 'srpt' },
  { selection: 'lwl', discipline: 'srpt' },
  { selection: 'jsq', discipline: 'psjf', service: 'weibull:2' },
  { selection: 'lwl', discipline: 'ps' },
] as const;
let pass = 0;
let total = 0;
for (const n of ns.length ? ns : [1000])
  for (const c of cases) {
    const model = parseModel({
      lambda: 0.9,
      d: 2,
      selection: c.selection,
      discipline: c.discipline,
      ...('service' in c ? { service: c.service } : {}),
      servers: { speeds: [1, 2], fractions: [0.5, 0.5], sampling: 'sampling' in c ? c.sampling : 'uniform' },
    });
    const t0 = Date.now();
    const limit = solveMeanField(model);
    const solveSeconds = (Date.now() - t0) / 1000;
    const warm = Math.max(50, simulationWarmup(model).time);
    const sim = simulate(model, { n, jobs: 400_000, replications: 5, warmupTime: warm, seed: 11 });
    const e = sim.meanResponseTime;
    const h = limit.estimate?.halfWidth ?? 0;
    const bound = Math.hypot(e.halfWidth, h) + 1 / n;
    const ok = Math.abs(e.mean - limit.meanResponseTime) <= bound;
    total++;
    if (ok) pass++;
    const served = sim.classes!.reduce((a, k) => a + k.fraction * k.speed * k.busyFraction.mean, 0);
    const label = `${c.selection.toUpperCase()}(2)+${c.discipline.toUpperCase()} ${'service' in c ? c.service : 'exp'} ${'sampling' in c ? c.sampling : 'uniform'}`;
    console.log(
      `${label.padEnd(32)} n=${n}: sim ${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)}  limit ${limit.meanResponseTime.toFixed(4)} ± ${h.toFixed(4)} (${limit.solver}, ${solveSeconds.toFixed(0)} s)  ` +
        `diff ${(e.mean - limit.meanResponseTime).toFixed(4)}  ${ok ? 'agrees' : 'DISAGREES'} (CIs + 1/n)  Σf·speed·busy ${served.toFixed(4)} (λE[S] 0.9)`,
    );
    sim.classes!.forEach((k, i) => {
      const l = limit.classes![i];
      console.log(
        `    class ${i + 1} (speed ${k.speed}): busy ${k.busyFraction.mean.toFixed(4)} ± ${k.busyFraction.halfWidth.toFixed(4)} vs ${l.busyFraction.toFixed(4)}; ` +
          `E[T] ${k.meanResponseTime.mean.toFixed(4)} ± ${k.meanResponseTime.halfWidth.toFixed(4)} vs ${l.meanResponseTime.toFixed(4)}`,
      );
    });
  }
console.log(`${pass} of ${total} checks within the CIs + 1/n`);
