/**
 * The finite-n gap of renewal arrivals (theory.md §14): JSQ(2) FIFO, exponential sizes, λ = 0.9, arrivals det,
 * erlang:2, exp, hyperexp:4 at n = 10 … 500, against the common n → ∞ limit (the Poisson SQ(d) fixed
 * point). Prints E[T] ± half-width, the gap E[T]_n − E[T]∞ and n × gap (roughly constant if the gap is O(1/n)), and
 * writes the figure (report/arrivalsGapFigure.ts) with its data beside it: <out>/figures/arrivals-gap.{png,svg,
 * vl.json,csv,json} and <out>/report.md.
 * Too slow for the unit-test budget (a few minutes on a quiet core); run with
 * `npx tsx scripts/arrivals-gap.ts [λ] [--out reports/arrivals-gap]`.
 */
import path from 'node:path';
import { writeFileSync } from 'node:fs';
import { solveMeanField } from '../src/meanfield/solve.ts';
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { arrivalScv, isRenewalArrivals, parseModel } from '../src/model/index.ts';
import { arrivalsGapFigure, type ArrivalsGapCell } from '../src/report/arrivalsGapFigure.ts';
import { writeFigureFiles } from '../src/report/writeFigure.ts';
import { simulate } from '../src/sim/simulate.ts';
import { timeUnit } from '../src/model/service/index.ts';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? args[outAt + 1] : 'reports/arrivals-gap';
const lambda = Number(args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--out') ?? 0.9);
const d = 2;
const ns = [10, 20, 50, 100, 200, 500];
const replications = 8;
/** Jobs per replication: at least 5e5, and 2000 per server (the gap at n = 500 is a few thousandths). */
const jobsAt = (n: number) => Math.max(500_000, 2000 * n);
const laws = ['det', 'erlang:2', 'exp', 'hyperexp:4'];

const base = parseModel({ lambda, d });
const reference = solveMeanField(base);
const limit = reference.meanResponseTime;
console.log(`JSQ(${d}) FIFO exp, λ = ${lambda}: E[T]∞ = ${limit.toFixed(4)} (every renewal law)`);
console.log('arrivals      n      E[T]_n ± hw           gap        n·gap');
const cells: ArrivalsGapCell[] = [];
for (const arrivals of laws) {
  const model = parseModel({ lambda, d, arrivals });
  if (!isRenewalArrivals(model.arrivals)) throw new Error(`${arrivals} is not a renewal law`);
  const warmupTime = simulationWarmup(model).time;
  for (const n of ns) {
    const r = simulate(model, { n, jobs: jobsAt(n), replications, seed: 3, warmupTime });
    const e = r.meanResponseTime;
    cells.push({ arrivals, scv: arrivalScv(model.arrivals), n, meanResponseTime: e });
    const gap = e.mean - limit;
    console.log(
      `${arrivals.padEnd(12)} ${String(n).padStart(5)}  ${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)}   ${gap >= 0 ? '+' : ''}${gap.toFixed(4)}   ${(n * gap).toFixed(2)} ± ${(n * e.halfWidth).toFixed(2)}`,
    );
  }
}
const figure = arrivalsGapFigure({
  lambda,
  d,
  model: `JSQ(${d}) FIFO, exponential sizes`,
  limit,
  solver: reference.solver,
  timeUnit: timeUnit(base.service),
  cells,
});
const files = await writeFigureFiles(out, figure);
const table = figure.rows.map(
  (r) =>
    `| ${r.arrivals} | ${r.n} | ${Number(r.meanResponseTime).toFixed(4)} ± ${Number(r.halfWidth).toFixed(4)} | ${Number(r.gap).toFixed(4)} | ${Number(r.nGap).toFixed(2)} | ${r.resolved} |`,
);
writeFileSync(
  path.join(out, 'report.md'),
  `# ${figure.title}\n\nJSQ(${d}) FIFO, exponential sizes, λ = ${lambda}; ${replications} replications × max(5e5, 2000n) jobs, seed 3; written by ` +
    `\`npx tsx scripts/arrivals-gap.ts ${lambda}\`.\n\n![${figure.title}](figures/arrivals-gap.png)\n\n${figure.caption}\n\n` +
    `| arrivals | n | E[T]_n ± h | gap | n·gap | resolved |\n|---|---|---|---|---|---|\n${table.join('\n')}\n\n` +
    `Data: [CSV](figures/arrivals-gap.csv) · [JSON](figures/arrivals-gap.json) · [vega-lite spec](figures/arrivals-gap.vl.json)\n`,
);
console.log(`figure and data written to ${out}: ${[...files, 'report.md'].join(', ')}`);
