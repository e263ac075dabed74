/**
 * Compares the table engine's E[Q] with rmf_tool's published JSQ(d) simulation data (scripts/data/rmf-tool-jsqd-
 * steady-state.json, a summary of ngast/rmf_tool misc/jsqD_simulate/steadyState/*.npy; see its "how").
 *
 *   npx tsx scripts/rmf-tool-check.ts                      # simulate a few cells here and compare
 *   npx tsx scripts/rmf-tool-check.ts reports/table/results.json   # compare every cell of a `supermarket table` run
 *
 * Per cell: z = (ours − theirs)/√(se_ours² + se_theirs²), se_ours = half-width/t_{0.975,R−1}. Their E[Q] sums s_1..s_19
 * only; s19 (their mean s_19) says how much the levels ≥ 20 they leave out could weigh (≈ s_19·r/(1 − r) more).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { tableCellKey, tableModel } from '../src/compare/finiteNTable.ts';
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { occupancyChainSpec, runOccupancyChains } from '../src/sim/occupancyChain.ts';
import { tQuantile } from '../src/lazy.ts';
import { tInterval } from '../src/stats/tInterval.ts';

interface RmfCell {
  lambda: number;
  d: number;
  n: number;
  runs: number;
  meanQueueLength: number;
  standardError: number;
  s19: number;
}
interface OurCell {
  d: number;
  lambda: number;
  n: number;
  mean: number;
  se: number;
  runs: number;
}

const data = JSON.parse(readFileSync(path.join(import.meta.dirname, 'data/rmf-tool-jsqd-steady-state.json'), 'utf8')) as {
  cells: RmfCell[];
};
const ours: OurCell[] = [];
const file = process.argv[2];
if (file) {
  const table = JSON.parse(readFileSync(file, 'utf8')) as {
    settings: { sampling: string };
    cells: { d: number; lambda: number; n: number; meanQueueLength: { mean: number; halfWidth: number; replications: number } }[];
  };
  if (table.settings.sampling !== 'with-replacement') throw new Error('rmf_tool samples with replacement: run the table with it');
  for (const c of table.cells) {
    const q = c.meanQueueLength;
    ours.push({
      d: c.d,
      lambda: c.lambda,
      n: c.n,
      mean: q.mean,
      se: q.halfWidth / tQuantile(0.975, q.replications - 1),
      runs: q.replications,
    });
  }
} else {
  const cells: [number, number, number][] = [
    [2, 0.9, 10],
    [2, 0.95, 100],
    [3, 0.95, 20],
    [4, 0.7, 50],
    [2, 0.8, 30],
  ];
  for (const [d, lambda, n] of cells) {
    const model = tableModel(d, lambda, 'with-replacement');
    const spec = occupancyChainSpec(model, n);
    const runs = 16;
    const values = runOccupancyChains(spec, {
      warmupEvents: Math.ceil(simulationWarmup(model).time * spec.eventRate),
      events: 4_000_000,
      seed: 23,
      key: tableCellKey(d, lambda, n, 'with-replacement'),
      first: 0,
      count: runs,
    });
    const e = tInterval(values);
    ours.push({ d, lambda, n, mean: e.mean, se: e.halfWidth / tQuantile(0.975, runs - 1), runs });
  }
}
let chi2 = 0;
let k = 0;
console.log('| d | λ | n | ours E[Q] ± se (runs) | rmf_tool E[Q] ± se (runs) | diff | z | their s_19 |');
console.log('|---:|---:|---:|---|---|---:|---:|---:|');
for (const o of ours) {
  const r = data.cells.find((c) => c.d === o.d && c.lambda === o.lambda && c.n === o.n);
  if (!r) continue;
  const z = (o.mean - r.meanQueueLength) / Math.hypot(o.se, r.standardError);
  chi2 += z * z;
  k++;
  console.log(
    `| ${o.d} | ${o.lambda} | ${o.n} | ${o.mean.toFixed(5)} ± ${o.se.toFixed(5)} (${o.runs}) | ${r.meanQueueLength.toFixed(5)} ± ${r.standardError.toFixed(5)} (${r.runs}) | ` +
      `${(o.mean - r.meanQueueLength).toFixed(5)} | ${z.toFixed(2)} | ${r.s19.toExponential(1)} |`,
  );
}
console.log(
  `\n${k} cells in common; Σz² = ${chi2.toFixed(1)} on ${k} degrees of freedom (mean ${(chi2 / Math.max(1, k)).toFixed(2)}, 1 if both agree)`,
);
