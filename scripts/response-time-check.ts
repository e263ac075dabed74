/**
 * Response-time quantiles of the mean field (solveResponseTime, issue 20 §3) against n = 10 000 simulations for models
 * without a closed-form law: the pooled p50/p95/p99 with their sectioning CIs, judged within CI (+ the law's own CI for
 * a cavity) + 1/n. Too slow for the unit-test budget; run with `npx tsx scripts/response-time-check.ts [model JSON …]`.
 */
import { solveResponseTime } from '../src/meanfield/responseTime.ts';
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/simulate.ts';

const models: Record<string, unknown>[] = [
  { lambda: 0.9, d: 2, service: 'erlang:2' }, // phase-type ODE, uniformisation
  { lambda: 0.9, d: 2, service: 'hyperexp:4' }, // phase-type ODE, uniformisation
  { lambda: 0.9, d: 2, selection: 'lwl', service: 'weibull:0.5' }, // LWL FPE
  { lambda: 0.9, d: 2, discipline: 'srpt' }, // JSQ cavity sample
];
const extra = process.argv.slice(2);
if (extra.length > 0) models.splice(0, models.length, ...extra.map((x) => JSON.parse(x)));

const n = 10_000;
let fails = 0;
let checks = 0;
for (const spec of models) {
  const model = parseModel(spec);
  const law = solveResponseTime(model);
  const warmupTime = simulationWarmup(model).time;
  const r = simulate(model, { n, jobs: 2_000_000, replications: 5, seed: 1, warmupTime });
  const q = r.responseTimePercentiles;
  const cells = law.quantiles.map((x) => {
    const e = x.p === 0.5 ? q.p50 : x.p === 0.95 ? q.p95 : q.p99;
    const diff = e.mean - x.value;
    const allowance = Math.hypot(e.halfWidth, x.estimate?.halfWidth ?? 0) + (law.numericalError ?? 0) + 1 / n;
    const ok = Math.abs(diff) <= allowance;
    checks++;
    if (!ok) fails++;
    return `p${Math.round(100 * x.p)} mf ${x.value.toFixed(4)}${x.estimate ? `±${x.estimate.halfWidth.toFixed(4)}` : ''} sim ${e.mean.toFixed(4)}±${e.halfWidth.toFixed(4)} Δ ${diff.toFixed(4)} ${ok ? 'ok' : 'OUTSIDE'}`;
  });
  console.log(`${JSON.stringify(spec)} [${law.solver}, ${law.kind}] n = ${n}: ${cells.join(' | ')}`);
}
console.log(`${checks - fails} of ${checks} quantiles within CI + 1/n`);
