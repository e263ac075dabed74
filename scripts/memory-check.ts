/**
 * Dispatcher memory (theory.md §12): every scheme simulated at n = 1000 and 10 000 against the mean-field reduction
 * (E[T] and π₀, within the CI plus 1/n). Too slow for the unit-test budget; run with `npx tsx scripts/memory-check.ts`.
 * Prints one line per (model, n): mean field, simulation ± half-width, difference, allowance, observed π₀.
 */
import { solveMeanField } from '../src/meanfield/solve.ts';
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/simulate.ts';

const models: { selection: string; d: number; memory: string; service: string; lambda: number }[] = [];
for (const selection of ['jsq', 'lwl'])
  for (const memory of ['ip', 'cp', 'bcp:3', 'ism:5']) models.push({ selection, d: 3, memory, service: 'exp', lambda: 0.85 });
models.push({ selection: 'jsq', d: 2, memory: 'ism:3', service: 'hyperexp:3', lambda: 0.9 });
models.push({ selection: 'jsq', d: 1, memory: 'ism:2', service: 'exp', lambda: 0.9 });
const extra = process.argv.slice(2);
if (extra.length > 0) models.splice(0, models.length, ...extra.map((x) => JSON.parse(x)));

let fails = 0;
for (const spec of models) {
  const model = parseModel(spec);
  const mf = solveMeanField(model);
  const warmupTime = simulationWarmup(model).time;
  for (const n of [1000, 10_000]) {
    const t0 = Date.now();
    const r = simulate(model, { n, jobs: Math.max(200_000, 50 * n), replications: 5, seed: 1, warmupTime });
    const e = r.meanResponseTime;
    const diff = e.mean - mf.meanResponseTime;
    const ok = Math.abs(diff) <= e.halfWidth + 1 / n;
    const p = r.memory!.emptyFraction;
    const pOk = Math.abs(p.mean - mf.reduction!.pi0) <= p.halfWidth + 1 / n;
    if (!ok || !pOk) fails++;
    console.log(
      `${spec.selection} d=${spec.d} ${spec.memory} ${spec.service} λ=${spec.lambda} n=${n}: mean field ${mf.meanResponseTime.toFixed(4)} ` +
        `sim ${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)} diff ${diff >= 0 ? '+' : ''}${diff.toFixed(4)} ${ok ? 'ok' : 'OUTSIDE'} | ` +
        `π₀ ${mf.reduction!.pi0.toFixed(4)} observed ${p.mean.toFixed(4)} ± ${p.halfWidth.toFixed(4)} ${pOk ? 'ok' : 'OUTSIDE'} ` +
        `(${((Date.now() - t0) / 1000).toFixed(0)} s)`,
    );
  }
}
console.log(`${fails} outside CI + 1/n`);
