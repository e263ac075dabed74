/**
 * Mean-field benchmark (issue 4 "Speed"): wall time of each solver, median of a few runs after one untimed warm-up
 * run, with its accuracy where an independent reference exists. Run: `npx tsx bench/meanfield.ts [runs]` (default 5;
 * the LWL rows use 3). Prints one table.
 *
 * Rows: SQ(d) fixed point and refined term (theory.md §2, §6); phase-type JSQ(d) fixed point, Erlang-2 and H2 with
 * SCV 4 (§3); LWL(d) FPE by Picard/FFT at λ = 0.99 on the default grid (Δ = 0.005, grid check at Δ/2 included), exponential
 * (E[T] error against the closed form of §4) and Weibull k = ½ (no closed form: the Δ vs Δ/2 E[T] difference; also at Δ = 0.01); the
 * refined 1/n correction of the generic population models (§6) at K = 50 variables, models/jsq-d.json (ΣV checked
 * against `refine`) and models/threshold-probe.json.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseModel } from '../src/model/index.ts';
import {
  lwlExponentialClosedForm,
  lwlFixedPoint,
  parsePopulationModel,
  phaseTypeJsqFixedPoint,
  populationFixedPoint,
  populationRefined,
  refine,
  solveSqdFixedPoint,
} from '../src/meanfield/index.ts';

const runs = Number(process.argv[2] ?? 5);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface Row {
  task: string;
  ms: number;
  runs: number;
  result: string;
  accuracy: string;
}

/** Median wall time (ms) of `k` runs of f after one untimed run; returns the last value too. */
function time<T>(f: () => T, k: number): { ms: number; value: T } {
  let value = f();
  const ms: number[] = [];
  for (let i = 0; i < k; i++) {
    const t0 = performance.now();
    value = f();
    ms.push(performance.now() - t0);
  }
  ms.sort((a, b) => a - b);
  return { ms: ms[ms.length >> 1], value };
}

const rows: Row[] = [];
const sqd = parseModel({ lambda: 0.9, d: 2 });
{
  const { ms, value } = time(() => solveSqdFixedPoint(sqd), runs);
  rows.push({
    task: 'solveSqdFixedPoint SQ(2), λ = 0.9',
    ms,
    runs,
    result: `E[T] = ${value.meanResponseTime.toFixed(6)}`,
    accuracy: `|E[T] − 2.6141 (theory.md §10)| = ${Math.abs(value.meanResponseTime - 2.6141).toExponential(1)} (table rounded to 1e−4)`,
  });
}
{
  const fp = solveSqdFixedPoint(sqd);
  const { ms, value } = time(() => refine(sqd, { fixedPoint: fp }), runs);
  rows.push({
    task: 'refine SQ(2), λ = 0.9 (given π)',
    ms,
    runs,
    result: `ΣV = ${value.sumV.toFixed(6)}`,
    accuracy: 'Lyapunov residual checked inside',
  });
}
for (const [service, label] of [
  ['erlang:2', 'Erlang-2'],
  ['hyperexp:4', 'H2, SCV 4'],
] as const) {
  const m = parseModel({ lambda: 0.9, d: 2, service });
  const { ms, value } = time(() => phaseTypeJsqFixedPoint(m), runs);
  rows.push({
    task: `phaseTypeJsqFixedPoint ${label}, λ = 0.9, d = 2`,
    ms,
    runs,
    result: `E[T] = ${value.meanResponseTime.toFixed(6)}`,
    accuracy: `K = ${value.tail.length - 1} levels, fit ${value.fit}`,
  });
}
const lwlRuns = Math.min(runs, 3);
{
  const m = parseModel({ lambda: 0.99, d: 2, selection: 'lwl' });
  const { ms, value } = time(() => lwlFixedPoint(m), lwlRuns);
  const exact = lwlExponentialClosedForm(0.99, 2).meanResponseTime;
  rows.push({
    task: 'LWL(2) FPE, exponential, λ = 0.99 (with Δ/2 check)',
    ms,
    runs: lwlRuns,
    result: `E[T] = ${value.meanResponseTime.toFixed(6)}`,
    accuracy: `|E[T] − closed form ${exact.toFixed(6)}| = ${Math.abs(value.meanResponseTime - exact).toExponential(1)}; ccdf Δ vs Δ/2 ${value.diagnostics.gridError.toExponential(1)}`,
  });
}
{
  const m = parseModel({ lambda: 0.99, d: 2, selection: 'lwl', service: 'weibull:0.5' });
  const { ms, value } = time(() => lwlFixedPoint(m), lwlRuns);
  rows.push({
    task: 'LWL(2) FPE, Weibull k = ½, λ = 0.99 (with Δ/2 check)',
    ms,
    runs: lwlRuns,
    result: `E[T] = ${value.meanResponseTime.toFixed(6)}`,
    accuracy: `no closed form: |E[T]_Δ − E[T]_Δ/2| = ${value.diagnostics.meanResponseTimeGridError.toExponential(1)}, F̄(horizon) = ${value.diagnostics.tailAtHorizon.toExponential(1)}`,
  });
}
{
  const m = parseModel({ lambda: 0.99, d: 2, selection: 'lwl', service: 'weibull:0.5' });
  const { ms, value } = time(() => lwlFixedPoint(m, { step: 0.01 }), lwlRuns);
  rows.push({
    task: 'LWL(2) FPE, Weibull k = ½, λ = 0.99, Δ = 0.01 (with Δ/2 check)',
    ms,
    runs: lwlRuns,
    result: `E[T] = ${value.meanResponseTime.toFixed(6)}`,
    accuracy: `|E[T]_Δ − E[T]_Δ/2| = ${value.diagnostics.meanResponseTimeGridError.toExponential(1)} (coarser grid, still within 1e−4)`,
  });
}
for (const file of ['jsq-d.json', 'threshold-probe.json']) {
  const json = JSON.parse(readFileSync(path.join(root, 'models', file), 'utf8'));
  const model = parsePopulationModel(json, { K: 50 }, { file });
  const fp = populationFixedPoint(model);
  const { ms, value } = time(() => populationRefined(model, fp), Math.min(runs, 3));
  const sumV = value.V.reduce((s, v) => s + v, 0);
  let accuracy = `Lyapunov residual ${value.lyapunovResidual.toExponential(1)}`;
  if (file === 'jsq-d.json') {
    const builtIn = refine(sqd).sumV;
    accuracy += `; |ΣV − refine| = ${Math.abs(sumV - builtIn).toExponential(1)}`;
  }
  const t0 = performance.now();
  populationFixedPoint(model);
  rows.push({
    task: `populationRefined ${file}, K = ${model.variables.length} variables (given π)`,
    ms,
    runs: Math.min(runs, 3),
    result: `ΣV = ${sumV.toFixed(6)}`,
    accuracy: `${accuracy}; fixed point ${(performance.now() - t0).toFixed(0)} ms`,
  });
}

const w = [Math.max(...rows.map((r) => r.task.length)), 10, 4, Math.max(...rows.map((r) => r.result.length))];
const line = (c: string[]) => `| ${c[0].padEnd(w[0])} | ${c[1].padStart(w[1])} | ${c[2].padStart(w[2])} | ${c[3].padEnd(w[3])} | ${c[4]} |`;
console.log(
  `Mean-field benchmark: median wall time (ms) after one untimed run. Node ${process.version}, ${os.cpus()[0]?.model ?? 'unknown cpu'}, ${os.cpus().length} cores.`,
);
console.log(line(['task', 'ms', 'runs', 'result', 'accuracy']));
console.log(`|${'-'.repeat(w[0] + 2)}|${'-'.repeat(w[1] + 2)}|${'-'.repeat(w[2] + 2)}|${'-'.repeat(w[3] + 2)}|---|`);
for (const r of rows) console.log(line([r.task, r.ms < 10 ? r.ms.toFixed(2) : r.ms.toFixed(0), String(r.runs), r.result, r.accuracy]));
