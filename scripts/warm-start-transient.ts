/**
 * Step 1 of the warm-start task: how long is the finite-n transient of exponential JSQ(d) FIFO from empty and from the
 * mean-field fixed point (round(n·s_i*) servers hold ≥ i jobs)? For each cell, R replications of the queue-length
 * trajectory from each start; m(t) = mean jobs per server against the stationary E[Q]_n (refined mean field to second
 * order for n ≥ 100, a long occupancy-chain run for smaller n). Reports the residual bias a warm-up W leaves in the
 * E[T] estimate of a replication of `jobs` measured arrivals: ∫_W^{W+L} (m(t) − E[Q]_n) dt / (λL), L = jobs/(λn), with
 * its 95 % half-width over replications.
 * Usage: npx tsx scripts/warm-start-transient.ts [--lambda 0.8,0.95] [--n 10,100,1000,10000] [--d 2] [--jobs 5e5]
 */
import { parseModel } from '../src/model/model.ts';
import { warmupTime } from '../src/meanfield/warmup.ts';
import { refine } from '../src/meanfield/refined.ts';
import { refineSecondOrder } from '../src/meanfield/refinedSecondOrder.ts';
import { solveSqdFixedPoint } from '../src/meanfield/index.ts';
import { sqdClosedFormTail, sqdTruncationLevel } from '../src/meanfield/sqd.ts';
import { planTrajectory, runTrajectoryReplications } from '../src/sim/trajectory.ts';
import { occupancyChainSpec, runOccupancyChains } from '../src/sim/occupancyChain.ts';
import { tInterval } from '../src/stats/tInterval.ts';

const arg = (name: string, fallback: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
};
const lambdas = arg('lambda', '0.8,0.95').split(',').map(Number);
const ns = arg('n', '10,100,1000,10000').split(',').map(Number);
const d = Number(arg('d', '2'));
const jobs = Number(arg('jobs', '5e5'));
const budget = Number(arg('budget', '4e7')); // events per start and cell

for (const lambda of lambdas) {
  const model = parseModel({ lambda, d });
  const w = warmupTime(model);
  const tau = w.relaxationTime;
  const K = sqdTruncationLevel(lambda, d, 1e-12);
  const star = sqdClosedFormTail(lambda, d, K);
  for (const n of ns) {
    const L = jobs / (lambda * n);
    const tEnd = Math.ceil(w.warmupTime + Math.min(L, 4 * tau) + 2 * tau);
    const dt = Math.max(0.25, tau / 20);
    const times = Array.from({ length: Math.floor(tEnd / dt) + 1 }, (_, j) => j * dt);
    const reference = stationaryQ(model, n);
    const reps = Math.max(8, Math.min(4000, Math.round(budget / (2 * lambda * n * tEnd))));
    console.log(
      `\nλ ${lambda} d ${d} n ${n}: τ ${tau.toFixed(2)}, empty rule W ${w.warmupTime.toFixed(1)} (${(w.warmupTime / tau).toFixed(1)}τ), ` +
        `window L ${L.toFixed(1)}, E[Q]_n ${reference.value.toFixed(5)} (${reference.source}), ${reps} replications per start`,
    );
    for (const [name, from] of [
      ['empty', undefined],
      ['fixed-point', star],
    ] as const) {
      const plan = planTrajectory(model, { n, times, from: from ? [...from] : undefined, replications: reps, seed: 7, maxLevel: 1 });
      const parts = runTrajectoryReplications(plan, 0, reps);
      const q = (p: (typeof parts)[number], j: number) => p.queue[j] - reference.value;
      const rows: string[] = [];
      for (const t of [0, 0.5, 1, 2, 3, 5, 8, 11.5]) {
        const j = Math.round((t * tau) / dt);
        if (j >= times.length) continue;
        const e = tInterval(parts.map((p) => q(p, j)));
        rows.push(`${t}τ ${e.mean.toFixed(4)}±${e.halfWidth.toFixed(4)}`);
      }
      console.log(`  ${name.padEnd(11)} m(t) − E[Q]_n: ${rows.join(', ')}`);
      const warmups = name === 'empty' ? [w.warmupTime, 0.5 * w.warmupTime] : [0, tau, 2 * tau, 3 * tau, 5 * tau];
      const out: string[] = [];
      for (const W of warmups) {
        const a = Math.round(W / dt);
        const b = Math.min(times.length - 1, Math.round((W + L) / dt));
        // bias of the window mean, the part of the window past tEnd counted as stationary (0)
        const bias = tInterval(
          parts.map((p) => {
            let s = 0;
            for (let j = a; j < b; j++) s += 0.5 * (q(p, j) + q(p, j + 1)) * dt;
            return s / (lambda * L);
          }),
        );
        out.push(`W ${W.toFixed(1)} (${(W / tau).toFixed(1)}τ): ${bias.mean.toExponential(2)}±${bias.halfWidth.toExponential(1)}`);
      }
      console.log(`  ${''.padEnd(11)} E[T] bias: ${out.join('; ')}`);
    }
  }
}

function stationaryQ(model: ReturnType<typeof parseModel>, n: number): { value: number; source: string } {
  if (n >= 100) {
    const limit = solveSqdFixedPoint(model).meanQueueLength;
    const value = limit + refine(model).sumV / n + refineSecondOrder(model).sumA / n ** 2;
    return { value, source: 'refined, 2nd order' };
  }
  const spec = occupancyChainSpec(model, n);
  const runs = runOccupancyChains(spec, { warmupEvents: 2e5, events: 5e6, seed: 3, key: `ref-${n}`, first: 0, count: 32 });
  const e = tInterval([...runs]);
  return { value: e.mean, source: `chains 32 × 5e6 events, ±${e.halfWidth.toFixed(5)}` };
}
