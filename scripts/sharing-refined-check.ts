/**
 * PS and LAS with exponential sizes under JSQ(d) (theory.md §5 "Sharing disciplines"): FIFO's queue-length process, so
 * E[T]_n is FIFO's at every n and the refined terms (ΣV/n, ΣA/n²) and the exact chain predict it (capabilities.ts
 * `throughFifo`, model/model.ts `fifoQueueLengthTwin`). Simulates JSQ(2) + PS, LAS (FIFO as control) at small n and sets
 * E[T] ± 95% CI beside E[T]∞ + ΣV/(λn) (+ ΣA/(λn²)) and the exact chain where it fits; "ok" when |sim − refined| ≤ h +
 * 2|ΣA|/(λn²) (compare's allowance). Run with `npx tsx scripts/sharing-refined-check.ts [jobs] [replications]`.
 */
import { refine, refinedEstimate } from '../src/meanfield/refined.ts';
import { refineSecondOrder, secondOrderEstimate } from '../src/meanfield/refinedSecondOrder.ts';
import { solveExact } from '../src/meanfield/exact/solveExact.ts';
import { solveMeanField } from '../src/meanfield/solve.ts';
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/simulate.ts';

const jobs = Number(process.argv[2] ?? 100_000);
const replications = Number(process.argv[3] ?? 20);
const EXACT_MAX_STATES = 2e6;
for (const lambda of [0.7, 0.9]) {
  for (const n of [10, 20]) {
    for (const discipline of ['ps', 'las', 'fifo'] as const) {
      const model = parseModel({ lambda, d: 2, discipline });
      const limit = solveMeanField(model).meanResponseTime;
      const first = refine(model);
      const second = refineSecondOrder(model, { fixedPoint: first.fixedPoint });
      const r1 = refinedEstimate(first, n).meanResponseTime;
      const r2 = secondOrderEstimate(second, n).meanResponseTime;
      let exact: string;
      try {
        exact = solveExact(model, { n, maxStates: EXACT_MAX_STATES }).meanResponseTime.toFixed(4);
      } catch {
        exact = 'too large';
      }
      const warmupTime = simulationWarmup(model).time;
      const e = simulate(model, { n, jobs, replications, seed: 8, warmupTime }).meanResponseTime;
      const allowance = e.halfWidth + (2 * Math.abs(second.sumA)) / (lambda * n * n);
      console.log(
        `λ=${lambda} n=${n} ${discipline.padEnd(4)} sim ${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)}  E[T]∞ ${limit.toFixed(4)}  ` +
          `refined ${r1.toFixed(4)}  order 2 ${r2.toFixed(4)}  exact ${exact}  sim − refined ${(e.mean - r1).toFixed(4)} ` +
          `${Math.abs(e.mean - r1) <= allowance ? 'ok' : 'OUTSIDE'}`,
      );
    }
  }
}
