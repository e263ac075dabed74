/**
 * Longer validation of the sharing engine (PS, LAS) than the tests can afford: JSQ(2)+PS at n = 1000, λ = 0.9 for
 * exponential, hyperexponential (SCV 10) and Weibull ½ sizes against the exponential SQ(2) fixed point (Bramson, Lu &
 * Prabhakar 2012: insensitive), FIFO with hyperexponential sizes as the contrast; M/G/1-PS and M/G/1-FB (d = 1) for
 * hyperexponential and Weibull ½ sizes against their formulas (mg1/sharing.ts). Warm-ups by `simulationWarmup`.
 * Run: `nice npx tsx scripts/sharing-validation.ts [jobs] [replications]`.
 */
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { sharingMeans } from '../src/meanfield/mg1/sharing.ts';
import { SizeLaw } from '../src/meanfield/mg1/sizeLaw.ts';
import { parseModel, type Discipline, type ModelInput } from '../src/model/index.ts';
import { simulate } from '../src/sim/index.ts';

const jobs = Number(process.argv[2] ?? 1_000_000);
const replications = Number(process.argv[3] ?? 10);

function run(spec: ModelInput, discipline: Discipline, n: number, seed: number) {
  const model = parseModel({ ...spec, discipline });
  return simulate(model, { n, jobs, replications, seed, warmupTime: simulationWarmup(model).time });
}

function line(label: string, e: { mean: number; halfWidth: number }, exact: number, allowance: number, started: number): void {
  const err = Math.abs(e.mean - exact);
  console.log(
    `${label} | ${e.mean.toFixed(5)} ± ${e.halfWidth.toFixed(5)} | ${exact.toFixed(5)} | ${err.toFixed(5)} | ${(e.halfWidth + allowance).toFixed(5)} ${err <= e.halfWidth + allowance ? 'ok' : 'OUTSIDE'} | ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

const lambda = 0.9;
let meanQ = 0;
for (let k = 1; k < 60; k++) meanQ += lambda ** (2 ** k - 1);
const sq2 = meanQ / lambda;
console.log(`jobs ${jobs} × ${replications} replications per case; 95 % CIs`);
console.log('case | E[T] ± half-width | exact | |error| | allowance (hw + 1/n) | wall');
for (const [label, service, discipline] of [
  ['JSQ(2)+PS exp, n = 1000', 'exp', 'ps'],
  ['JSQ(2)+PS hyperexp:10, n = 1000', 'hyperexp:10', 'ps'],
  ['JSQ(2)+PS weibull:0.5, n = 1000', 'weibull:0.5', 'ps'],
  ['JSQ(2)+FIFO hyperexp:10, n = 1000 (contrast: not insensitive)', 'hyperexp:10', 'fifo'],
] as const) {
  const started = performance.now();
  line(label, run({ lambda, d: 2, service }, discipline, 1000, 21).meanResponseTime, sq2, 1e-3, started);
}
for (const [label, service, discipline] of [
  ['M/G/1-PS hyperexp:10, λ = 0.9', 'hyperexp:10', 'ps'],
  ['M/G/1-FB hyperexp:10, λ = 0.9', 'hyperexp:10', 'las'],
  ['M/G/1-FB weibull:0.5, λ = 0.9', 'weibull:0.5', 'las'],
  ['M/M/1-FB, λ = 0.9 (= PS 10)', 'exp', 'las'],
] as const) {
  const started = performance.now();
  const model = parseModel({ lambda, d: 1, selection: 'random', service });
  const exact = sharingMeans(new SizeLaw(model.service, lambda), discipline, 1e-10).meanResponseTime;
  line(label, run({ lambda, d: 1, selection: 'random', service }, discipline, 1, 23).meanResponseTime, exact, 0, started);
}
