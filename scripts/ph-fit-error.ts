/**
 * The size of the two-moment phase-type fit's error for JSQ(d) FIFO with non-phase-type sizes (issue 20 item 4):
 * E[T] of the phase-type ODE on the fit (phaseTypeJsqFixedPoint, kind 'approximation') against the JSQ cavity
 * estimate (jsqCavity, 95 % CI) per law, λ and d. Its output is the table behind PH_FIT_MEASURED_ERROR
 * (meanfield/phaseType/fitError.ts). Not a unit test (tens of minutes on a shared core):
 * `nice npx tsx scripts/ph-fit-error.ts [filter substring]`.
 */
import { jsqCavity, phaseTypeJsqFixedPoint } from '../src/meanfield/index.ts';
import { parseModel } from '../src/model/index.ts';
import { loadavg } from 'node:os';

const filter = process.argv[2] ?? '';
const laws = ['weibull:0.5', 'weibull:2', 'lognormal:0.5', 'lognormal:1', 'lognormal:1.5', 'bpareto:1.5:100'];
const cells: [number, number][] = [
  [2, 0.7],
  [2, 0.9],
  [2, 0.95],
  [3, 0.9],
];
console.log(
  `load ${loadavg()[0].toFixed(1)}\n\n| law | d | λ | PH fit | JSQ cavity | error % (low, high at the CI ends) |\n|---|---|---|---|---|---|`,
);
for (const service of laws)
  for (const [d, lambda] of cells) {
    if (!`${service} d=${d} λ=${lambda}`.includes(filter)) continue;
    const model = parseModel({ lambda, d, service });
    const ph = phaseTypeJsqFixedPoint(model).meanResponseTime;
    let c;
    try {
      c = jsqCavity(model, { seed: 1 }).meanResponseTime;
    } catch (e) {
      console.log(`| ${service} | ${d} | ${lambda} | ${ph.toFixed(4)} | refused: ${(e as Error).message.slice(0, 90)} | — |`);
      continue;
    }
    const err = (x: number) => (100 * (ph - x)) / x;
    console.log(
      `| ${service} | ${d} | ${lambda} | ${ph.toFixed(4)} | ${c.mean.toFixed(4)} ± ${c.halfWidth.toFixed(4)} | ${err(c.mean).toFixed(1)} (${err(c.ci95[1]).toFixed(1)}, ${err(c.ci95[0]).toFixed(1)}) |`,
    );
  }
