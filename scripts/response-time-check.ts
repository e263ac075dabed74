/**
 * Response-time quantiles of the mean field (solveResponseTime, issue 20 §3) against n = 10 000 simulations for models
 * without a closed-form law: the pooled p50/p95/p99 with their sectioning CIs, judged within CI (+ the law's own CI for
 * a cavity) + 1/n. Too slow for the unit-test budget; run with `nice npx tsx scripts/response-time-check.ts [--jobs J] [--replications R] [model JSON …]` (default: the LPW,
 * JSQ and LWL cavity laws, the phase-type ODE and the LWL FPE at λ = 0.9, d = 2).
 */
import { solveResponseTime } from '../src/meanfield/responseTime.ts';
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/simulate.ts';
import { loadavg } from 'node:os';

const models: Record<string, unknown>[] = [
  { lambda: 0.9, d: 2, selection: 'lpw', discipline: 'sprpt', prediction: 'exp' }, // LPW cavity sample
  { lambda: 0.9, d: 2, selection: 'lpw', discipline: 'sprpt', prediction: 'lognormal:1', service: 'weibull:0.5' }, // LPW cavity
  { lambda: 0.9, d: 2, service: 'weibull:0.5' }, // JSQ cavity sample (FIFO, a law that is not phase-type)
  { lambda: 0.9, d: 2, selection: 'lwl', discipline: 'srpt' }, // LWL cavity sample
  { lambda: 0.9, d: 2, discipline: 'srpt' }, // JSQ cavity sample
  { lambda: 0.9, d: 2, service: 'erlang:2' }, // phase-type ODE, uniformisation
  { lambda: 0.9, d: 2, service: 'hyperexp:4' }, // phase-type ODE, uniformisation
  { lambda: 0.9, d: 2, selection: 'lwl', service: 'weibull:0.5' }, // LWL FPE
];
// `--jobs J` (default 2e6) and `--replications R` (default 5) per model; other arguments are model JSON
const args = process.argv.slice(2);
const flag = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(args[i + 1]);
  args.splice(i, 2);
  return v;
};
const jobs = flag('--jobs', 2_000_000);
const replications = flag('--replications', 5);
const extra = args;
if (extra.length > 0) models.splice(0, models.length, ...extra.map((x) => JSON.parse(x)));

const n = 10_000;
console.log(`load ${loadavg()[0].toFixed(1)}; n = ${n}, ${jobs} jobs × ${replications} replications per model`);
let fails = 0;
let checks = 0;
for (const spec of models) {
  const model = parseModel(spec);
  const law = solveResponseTime(model);
  const warmupTime = simulationWarmup(model).time;
  const r = simulate(model, { n, jobs, replications, seed: 1, warmupTime });
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
