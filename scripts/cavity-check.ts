/**
 * JSQ(2) cavity solver against the phase-type ODE (theory.md §3, exact for FIFO with phase-type sizes) at high load,
 * and the SRPT case of issue 8. Too slow for the unit-test budget; run with `npx tsx scripts/cavity-check.ts`.
 * Prints, per case, the cavity E[T] with its CI and checks, or the one-line refusal (ConvergenceError).
 */
import { jsqCavity } from '../src/meanfield/cavity/index.ts';
import { phaseTypeJsqFixedPoint } from '../src/meanfield/phaseType/index.ts';
import { parseModel } from '../src/model/index.ts';

const cases: [string, string, number][] = [
  ['fifo', 'erlang:2', 0.9],
  ['fifo', 'hyperexp:4', 0.9],
  ['fifo', 'erlang:2', 0.99],
  ['fifo', 'hyperexp:4', 0.99],
  ['srpt', 'exponential', 0.95],
  ['srpt', 'exponential', 0.99],
];
for (const [discipline, service, lambda] of cases) {
  const model = parseModel({ lambda, d: 2, discipline, service });
  const ode = discipline === 'fifo' ? phaseTypeJsqFixedPoint(model).meanResponseTime : NaN;
  const t0 = Date.now();
  const head = `${discipline} ${service} λ=${lambda}: ODE ${Number.isNaN(ode) ? '—' : ode.toFixed(5)}`;
  try {
    const r = jsqCavity(model, { seed: 1, restarts: 4, iterationHorizon: lambda > 0.95 ? 2e5 : 1e5, maxIterations: 60 });
    const e = r.meanResponseTime;
    const rel = Number.isNaN(ode) ? '' : ` (${(((e.mean - ode) / ode) * 100).toFixed(2)} %)`;
    console.log(
      `${head}  cavity ${e.mean.toFixed(5)} ± ${e.halfWidth.toFixed(5)}${rel}  s1-ρ ${(r.tail[1] - lambda).toExponential(1)}  iterations ${r.convergence.iterationsPerRestart.join('/')} (${r.convergence.iterationKind.join(', ')})  ${((Date.now() - t0) / 1000).toFixed(0)} s`,
    );
  } catch (error) {
    console.log(`${head}  refused: ${(error as Error).message}  ${((Date.now() - t0) / 1000).toFixed(0)} s`);
  }
}
