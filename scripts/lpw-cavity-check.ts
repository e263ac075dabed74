/**
 * The LPW(d) cavity fixed point (lpwCavity, theory.md §5 [A]) against its known answer and against finite n.
 *  1. exact predictions: LPW(d) is LWL(d), so the cavity must match the LWL mean field (closed form for FIFO with
 *     exponential sizes, the LWL cavity [D] for SRPT) within its CI, at λ ∈ {0.9, 0.95, 0.99};
 *  2. noisy predictions (exponential, uniform:0.5, lognormal:1), SPRPT, exponential and Weibull ½ sizes, d = 2,
 *     λ ∈ {0.9, 0.95, 0.99}: cavity ± CI against a finite-n simulation ± CI, gap in % and in combined half-widths.
 * An O(1/n) finite-n bias is expected on top (the simulated E[T] lies above the limit). Not a unit test (an hour at
 * n = 1000 on a quiet core): `nice npx tsx scripts/lpw-cavity-check.ts [exact|noisy|all] [n, default 1000]
 * [jobs per replication, default 1e6] [filter substring on the cell label] [options]`. Options:
 * `--lambdas 0.9,0.95` (default 0.9,0.95,0.99); `--batch-means B`: at λ = 0.99 one warm-up then B spaced batches of
 * 3 × jobs each (instead of 3 replications of 4 × jobs each), the lag-1 autocorrelation of the batch means printed.
 * Prints a markdown table, one row per cell as it finishes.
 */
import { lpwCavity } from '../src/meanfield/cavity/index.ts';
import { solveMeanField } from '../src/meanfield/index.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/index.ts';
import { loadavg } from 'node:os';

const part = process.argv[2] ?? 'all';
const n = Number(process.argv[3] ?? 1000);
const jobs = Number(process.argv[4] ?? 1e6);
const filter = process.argv[5] ?? '';
const flag = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};
const lambdas = (flag('--lambdas') ?? '0.9,0.95,0.99').split(',').map(Number);
const batches = Number(flag('--batch-means') ?? 0);
const fmt = (e: { mean: number; halfWidth: number }) => `${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)}`;

function cavity(spec: Record<string, unknown>) {
  const t0 = Date.now();
  try {
    const r = lpwCavity(parseModel({ d: 2, selection: 'lpw', ...spec }), { seed: 3 });
    const c = r.convergence;
    return {
      est: r.meanResponseTime,
      note: `busy ${c.checks.busyFraction.busy.toFixed(4)}, iterations ${c.iterationsPerRestart.join('/')}, ${((Date.now() - t0) / 1000).toFixed(0)} s`,
    };
  } catch (e) {
    return { est: undefined, note: `refused: ${(e as Error).message}` };
  }
}

console.log(`load ${loadavg()[0].toFixed(1)}; d = 2`);
if (part === 'exact' || part === 'all') {
  console.log('\n| exact predictions | λ | LPW cavity | LWL mean field | gap % | covered |\n|---|---|---|---|---|---|');
  for (const discipline of ['fifo', 'srpt'])
    for (const lambda of lambdas) {
      const label = `${discipline} λ=${lambda}`;
      if (!label.includes(filter)) continue;
      const c = cavity({ lambda, discipline, prediction: 'exact' });
      const lwl = solveMeanField(parseModel({ lambda, d: 2, selection: 'lwl', discipline }));
      const refMean = lwl.meanResponseTime;
      const refHw = lwl.estimate?.halfWidth ?? lwl.numericalError ?? 0;
      const gap = c.est ? (100 * (c.est.mean - refMean)) / refMean : NaN;
      const covered = c.est ? Math.abs(c.est.mean - refMean) <= Math.hypot(c.est.halfWidth, refHw) : false;
      console.log(
        `| ${discipline.toUpperCase()} | ${lambda} | ${c.est ? fmt(c.est) : '—'} (${c.note}) | ${refMean.toFixed(4)}${refHw ? ` ± ${refHw.toFixed(4)}` : ''} (${lwl.solver}) | ${gap.toFixed(2)} | ${covered ? 'yes' : 'NO'} |`,
      );
    }
}
if (part === 'noisy' || part === 'all') {
  console.log(
    `\n| SPRPT, n = ${n} | sizes | predictions | λ | cavity | simulation | gap % | gap / combined hw |\n|---|---|---|---|---|---|---|---|`,
  );
  for (const service of ['exp', 'weibull:0.5'])
    for (const prediction of ['exp', 'uniform:0.5', 'lognormal:1'])
      for (const lambda of lambdas) {
        const label = `${service} ${prediction} λ=${lambda}`;
        if (!label.includes(filter)) continue;
        const spec = { lambda, discipline: 'sprpt', prediction, service };
        const c = cavity(spec);
        const heavy = lambda > 0.97;
        const byBatches = heavy && batches >= 2;
        const s = simulate(parseModel({ d: 2, selection: 'lpw', ...spec }), {
          n,
          jobs: jobs * (heavy ? (byBatches ? 3 : 4) : 1),
          ...(byBatches ? { method: 'batch-means' as const, batches } : { replications: 3 }),
          seed: 17,
          warmupTime: heavy ? 2000 : lambda > 0.92 ? 300 : 100,
        });
        const e = s.meanResponseTime;
        const lag1 = s.batchMeans?.lag1.meanResponseTime;
        const simNote = byBatches ? ` (${batches} batches, lag-1 ${lag1 === undefined ? '?' : lag1.toFixed(2)})` : '';
        const gap = c.est ? (100 * (c.est.mean - e.mean)) / e.mean : NaN;
        const z = c.est ? (c.est.mean - e.mean) / Math.hypot(c.est.halfWidth, e.halfWidth) : NaN;
        console.log(
          `| | ${service} | ${prediction} | ${lambda} | ${c.est ? fmt(c.est) : '—'} (${c.note}) | ${fmt(e)}${simNote} | ${gap.toFixed(2)} | ${z.toFixed(1)} |`,
        );
      }
}
