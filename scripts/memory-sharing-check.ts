/**
 * Dispatcher memory with a sharing server (theory.md §12, §5 "Sharing disciplines"): JSQ(d) + PS or LAS with memory,
 * simulated at n = 1000 (longer runs than test/sim/memorySharing.test.ts), against the FIFO model's reduced-rate value
 * with exponential sizes of the same mean (capabilities.ts `memoryFifoTwin`). Exponential sizes: the same queue-length
 * process as FIFO (exact); PS with other laws: insensitivity carried over to memory, which this script checks (E[T]
 * and the observed π₀ within the CI plus 1/n). Run with `npx tsx scripts/memory-sharing-check.ts [n] [jobs]`.
 */
import { solveMeanField } from '../src/meanfield/solve.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/simulate.ts';

const n = Number(process.argv[2] ?? 1000);
const jobs = Number(process.argv[3] ?? 200_000);
const CASES: [string, number, string, string][] = [
  ['ps', 2, 'cp', 'exp'],
  ['ps', 2, 'ism:2', 'exp'],
  ['las', 2, 'cp', 'exp'],
  ['ps', 3, 'cp', 'lognormal:1.5'],
  ['ps', 2, 'ip', 'hyperexp:10'],
  ['ps', 3, 'bcp:3', 'weibull:0.5'],
  ['ps', 2, 'ism:2', 'lognormal:1.5'],
];
for (const [discipline, d, memory, service] of CASES) {
  const model = parseModel({ lambda: 0.85, d, discipline, memory, service });
  const mf = solveMeanField(model);
  const r = simulate(model, { n, jobs, replications: 5, seed: 31, warmupTime: 300 });
  const e = r.meanResponseTime;
  const pi0 = r.memory!.emptyFraction;
  const ok =
    Math.abs(e.mean - mf.meanResponseTime) <= e.halfWidth + 1 / n && Math.abs(pi0.mean - mf.reduction!.pi0) <= pi0.halfWidth + 1 / n;
  console.log(
    `${discipline} d=${d} ${memory} ${service}: sim ${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)}, mean field ${mf.meanResponseTime.toFixed(4)} (${mf.kind}); ` +
      `π₀ ${pi0.mean.toFixed(4)} ± ${pi0.halfWidth.toFixed(4)} vs ${mf.reduction!.pi0.toFixed(4)} ${ok ? 'ok' : 'OUTSIDE'}`,
  );
}
