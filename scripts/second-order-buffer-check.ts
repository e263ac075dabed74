/**
 * Referee for the 1/n² equations in several dimensions at d ≥ 3: JSQ(d) with a buffer of K jobs (models/jsq-d.json
 * at small K, arrivals at level K lost) is the chain solveExact solves at level cap K (`fixedLevel`), with
 * C(n + K, K) states, so exact values reach n in the hundreds. g(n) = n²(E[Q]_n − g(π) − c₁/n) = c₂ + c₃/n + c₄/n² + …
 * is interpolated on the last 2, 3, 4 n and compared with populationSecondOrder's c₂ (theory.md §6).
 * Usage: npx tsx scripts/second-order-buffer-check.ts [lambda] [K] [d,d,…] [n,n,…]
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseModel } from '../src/model/index.ts';
import { solveExact } from '../src/meanfield/index.ts';
import { parsePopulationModel, populationSecondOrder } from '../src/meanfield/population/index.ts';
import { solveDense } from '../src/numerics/dense.ts';

const lambda = Number(process.argv[2] ?? 0.9);
const K = Number(process.argv[3] ?? 2);
const ds = (process.argv[4] ?? '3,4,5').split(',').map(Number);
const ns = (process.argv[5] ?? '20,40,80,160,320').split(',').map(Number);
const file = JSON.parse(readFileSync(path.join(import.meta.dirname, '../models/jsq-d.json'), 'utf8'));

for (const d of ds) {
  const pop = populationSecondOrder(parsePopulationModel(file, { lambda, d, K }));
  const q = pop.observables.meanQueueLength;
  console.log(
    `λ ${lambda}  d ${d}  K ${K}: g(π) ${q.meanField.toPrecision(10)}  c₁ ${q.first.toPrecision(8)}  c₂ ${q.second.toPrecision(8)}`,
  );
  const g: number[] = [];
  for (const n of ns) {
    const t0 = performance.now();
    const e = solveExact(parseModel({ lambda, d }), { n, truncationLevel: K, fixedLevel: true, tolerance: 1e-14 });
    g.push(n * n * (e.meanQueueLength - q.meanField - q.first / n));
    const s = ((performance.now() - t0) / 1000).toFixed(1);
    console.log(
      `  n ${n}  E[Q] ${e.meanQueueLength.toPrecision(14)}  n²(exact − first) ${g.at(-1)!.toFixed(5)}  states ${e.states}  ${s} s`,
    );
  }
  for (let terms = 2; terms <= Math.min(4, ns.length); terms++) {
    const at = ns.slice(-terms);
    const c = solveDense(
      at.map((n) => Array.from({ length: terms }, (_, p) => n ** -p)),
      g.slice(-terms),
      'Richardson',
    );
    const rel = ((c[0] / q.second - 1) * 100).toFixed(3);
    console.log(`  Richardson on n = ${at.join(', ')}: c₂ ${c[0].toPrecision(8)} (${rel} % from the equations), c₃ ${c[1].toPrecision(4)}`);
  }
}
