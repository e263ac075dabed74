/**
 * The finite-system table of T. Hellemans' thesis (Univ. Antwerp 2021, ch. 6, Table fin_acc): mean response time of
 * eight memory setups at n = 10 … 3000, beside the cavity (mean-field) value. Reproduced by simulation here with a
 * smaller budget than the thesis's (40 runs of length 10⁶/n): `--replications` (default 5) × `--jobs` (default
 * 2·10⁵) per cell. Run with `npx tsx scripts/memory-table.ts [ns…]`; prints per setup and n the thesis value and
 * ours ± the 95% half-width, and the cavity values side by side.
 */
import { solveMeanField } from '../src/meanfield/solve.ts';
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/simulate.ts';

const NS = [10, 20, 50, 100, 200, 500, 1000, 3000];
/** Setups 1–8 of the thesis (1–4 LL(d), 5–8 SQ(d)) and its table: values at NS, then the cavity value. */
const SETUPS: [string, number, number, string, string, number[]][] = [
  ['lwl', 4, 0.9, 'exp', 'ip', [1.8839, 1.5363, 1.3556, 1.3059, 1.2832, 1.2683, 1.2638, 1.2574, 1.2583]],
  ['lwl', 3, 0.8, 'exp', 'cp', [1.4533, 1.3119, 1.2313, 1.2045, 1.1926, 1.1836, 1.181, 1.1794, 1.1787]],
  ['lwl', 3, 0.8, 'hyperexp:2', 'bcp:5', [1.5906, 1.386, 1.2787, 1.2399, 1.2215, 1.211, 1.2097, 1.2068, 1.2058]],
  ['lwl', 2, 0.85, 'hyperexp:3', 'ism:10', [1.9086, 1.3981, 1.1643, 1.1158, 1.0999, 1.0928, 1.0921, 1.0896, 1.0888]],
  ['jsq', 4, 0.9, 'exp', 'ip', [2.3918, 2.0132, 1.82, 1.7733, 1.7407, 1.7252, 1.7178, 1.7146, 1.7138]],
  ['jsq', 3, 0.8, 'exp', 'cp', [1.7583, 1.592, 1.4943, 1.4578, 1.4404, 1.4314, 1.4304, 1.4257, 1.4256]],
  ['jsq', 3, 0.8, 'hyperexp:2', 'bcp:5', [2.0504, 1.804, 1.6643, 1.6161, 1.5901, 1.5753, 1.5736, 1.5667, 1.566]],
  ['jsq', 2, 0.85, 'hyperexp:3', 'ism:10', [2.279, 1.5924, 1.295, 1.2352, 1.2186, 1.2097, 1.2096, 1.207, 1.2056]],
];
const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const replications = arg('--replications', 5);
const jobs = arg('--jobs', 200_000);
const only = arg('--setup', 0);
const ns = process.argv
  .slice(2)
  .filter((x, i, a) => /^\d+$/.test(x) && !a[i - 1]?.startsWith('--'))
  .map(Number);

for (const [k, [selection, d, lambda, service, memory, thesis]] of SETUPS.entries()) {
  if (only && only !== k + 1) continue;
  const model = parseModel({ lambda, d, selection, service, memory });
  const mf = solveMeanField(model);
  const warmupTime = simulationWarmup(model).time;
  console.log(
    `setup ${k + 1}: ${selection === 'lwl' ? 'LL' : 'SQ'}(${d}) λ=${lambda} ${service} ${memory}: cavity thesis ${thesis[8].toFixed(4)} ours ${mf.meanResponseTime.toFixed(4)} (π₀ ${mf.reduction!.pi0.toFixed(4)})`,
  );
  for (const [j, n] of NS.entries()) {
    if (ns.length > 0 && !ns.includes(n)) continue;
    if (d > n) continue;
    const t0 = Date.now();
    const r = simulate(model, { n, jobs, replications, seed: 1, warmupTime });
    const e = r.meanResponseTime;
    const z = (thesis[j] - e.mean) / e.halfWidth;
    console.log(
      `  n=${String(n).padStart(4)}: thesis ${thesis[j].toFixed(4)}  ours ${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)}  (thesis − ours)/h = ${z.toFixed(2)}  (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
    );
  }
}
