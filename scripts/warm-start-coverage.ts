/**
 * Calibration of the fixed-point start (theory.md §8 "Start"), side by side with the empty start: coverage of the 95 %
 * intervals of E[T] against the exact n-server chain (src/meanfield/exact) for JSQ(2), n = 3, 4, 5, λ = 0.7, 0.9, over
 * ≥ 200 master seeds per cell, each start with the one rule's warm-up for it (`simulationWarmup`, start and n), against
 * the Wilson 99 % band around 0.95 (`coverageBand`). Also the mean of the estimates minus the truth (bias) with its
 * standard error, and the events spent.
 * `--refined`: instead, a short-window cell where the start matters — n = 1000, λ = 0.95, d = 2, 50 000 jobs per
 * replication, so the window jobs/(λn) is 52.6 time units (≈ 2τ, as in the default report's n = 10 000 cell, whose
 * start bias (1/jobs)∫(ΣV(t) − ΣV)dt is 10× smaller) — against the refined mean field to second order
 * (E[T]∞ + ΣV/(λn) + ΣA/(λn²), off by O(1/n³)): 1 − coverage is the false-alarm rate of the cell check before Holm.
 * `--starts auto,empty` picks the starts set side by side (default empty,fixed-point; 'auto' is what compare, run and
 * conjecture take by default: the fixed point for these SQ(d) cells, named in the row); `--d 3` and `--n 2,3,4,5` other
 * cells of the exact check (the default report's exact points are n = 2–5, d = 2, 3).
 * `--floors 3,1,0,zero` (with `--refined`): the fixed-point start only, its warm-up with the rule's floor at 3τ, 1τ and
 * none (`minRelaxationTimes` of `simulationWarmup`), 'zero' no warm-up at all (what "none" gives at n = 10 000, where the
 * refined transient is within the tolerance from t = 0); variants with the same warm-up are run once. With it,
 * `--refined` takes `--n` (default 1000), `--lambda` (default 0.95) and `--d` lists, and each row also gives the start
 * bias the refined transient predicts, (1/λ)(1/L)∫_W^{W+L}(ΣV(t) − ΣV)/n dt over the window L = jobs/(λn).
 * Not a unit test (minutes): `nice npx tsx scripts/warm-start-coverage.ts [seeds] [jobs per replication] [--refined]`.
 */
import { simulationWarmup, type StartChoice } from '../src/meanfield/warmup.ts';
import { solveExact } from '../src/meanfield/exact/solveExact.ts';
import { refine } from '../src/meanfield/refined.ts';
import { refinedTransient } from '../src/meanfield/transient.ts';
import { refineSecondOrder } from '../src/meanfield/refinedSecondOrder.ts';
import { solveSqdFixedPoint } from '../src/meanfield/fixedPoint.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/index.ts';
import { coverageBand } from '../src/stats/index.ts';

const flag = (name: string): string | undefined => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};
const valued = new Set(['--starts', '--d', '--n', '--lambda', '--floors']);
// positional arguments: neither a flag nor the value after a valued flag (a value may equal a positional, e.g. `2 --d 2`)
const args = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !(i > 0 && valued.has(all[i - 1])));
const starts = (flag('--starts') ?? 'empty,fixed-point').split(',') as StartChoice[];
const ds = (flag('--d') ?? '2').split(',').map(Number);
const refinedCells = process.argv.includes('--refined');
const ns = (flag('--n') ?? (refinedCells ? '1000' : '3,4,5')).split(',').map(Number);
const lambdas = (flag('--lambda') ?? (refinedCells ? '0.95' : '0.7,0.9')).split(',').map(Number);
const floors = flag('--floors')?.split(',');
if (floors !== undefined && !refinedCells) throw new Error('--floors needs --refined');
const seeds = Number(args[0] ?? 200);
const jobsArg = args[1] === undefined ? undefined : Number(args[1]);
const [lo, hi] = coverageBand(0.95, seeds);
console.log(
  `${seeds} seeds per cell, 10 replications; 99 % band for 95 % coverage: [${(100 * lo).toFixed(1)}, ${(100 * hi).toFixed(1)}] %`,
);
const cells = ds.flatMap((d) =>
  lambdas.flatMap((lambda) => ns.map((n) => ({ d, lambda, n, jobs: jobsArg ?? (refinedCells ? Math.round(52.63 * lambda * n) : 20_000) }))),
);
/** (1/λ)(1/L)∫_W^{W+L}(ΣV(t) − ΣV)/n dt: the start bias of E[T] the refined transient from the fixed point predicts. */
const predictedBias = (model: ReturnType<typeof parseModel>, n: number, w: number, window: number, from: number[]): number => {
  const steps = 400;
  const times = Array.from({ length: steps + 1 }, (_, j) => w + (j * window) / steps);
  // the transient starts at `from` at times[0]: from t = 0, then read from the warm-up's end on
  const path = refinedTransient(model, { times: w > 0 ? [0, ...times] : times, from });
  const sumV = refine(model, { truncationLevel: path.diagnostics.truncationLevel }).sumV;
  const f = path.sumV.slice(w > 0 ? 1 : 0).map((v) => v - sumV);
  const integral = (window / steps) * (f.reduce((a, b) => a + b, 0) - (f[0] + f[steps]) / 2);
  return integral / window / n / model.lambda;
};
type Variant = { label: string; start: StartChoice; floor?: number; zero?: boolean };
const variants: Variant[] =
  floors === undefined
    ? starts.map((start) => ({ label: start, start }))
    : floors.map((f) =>
        f === 'zero'
          ? { label: 'W = 0', start: 'fixed-point', zero: true }
          : { label: `floor ${f}τ`, start: 'fixed-point', floor: Number(f) },
      );
for (const { d, lambda, n, jobs } of cells) {
  {
    const model = parseModel({ lambda, d });
    const truth = refinedCells
      ? solveSqdFixedPoint(model).meanResponseTime + (refine(model).sumV / n + refineSecondOrder(model).sumA / n ** 2) / lambda
      : solveExact(model, { n, truncationBound: 1e-5 }).meanResponseTime;
    const row: string[] = [];
    const done = new Map<number, string>();
    for (const { label, start, floor, zero } of variants) {
      const rule = simulationWarmup(model, { start, n, cap: Infinity, ...(floor === undefined ? {} : { minRelaxationTimes: floor }) });
      const w = zero ? { ...rule, time: 0 } : rule;
      const again = floors === undefined ? undefined : done.get(w.time);
      if (again !== undefined) {
        row.push(`${label} (W ${w.time.toFixed(1)}): as ${again}`);
        continue;
      }
      done.set(w.time, label);
      let covered = 0;
      let events = 0;
      const errors: number[] = [];
      for (let seed = 1; seed <= seeds; seed++) {
        const r = simulate(model, {
          n,
          jobs,
          replications: 10,
          seed,
          warmupTime: w.time,
          ...(w.from ? { start: { name: w.start ?? start, from: w.from } } : {}),
        });
        const e = r.meanResponseTime;
        if (e.ci95[0] <= truth && truth <= e.ci95[1]) covered++;
        errors.push(e.mean - truth);
        events += r.events;
      }
      const mean = errors.reduce((a, b) => a + b, 0) / seeds;
      const se = Math.sqrt(errors.reduce((a, b) => a + (b - mean) ** 2, 0) / (seeds - 1) / seeds);
      const c = covered / seeds;
      const predicted =
        floors === undefined ? '' : `, predicted ${predictedBias(model, n, w.time, jobs / (lambda * n), w.from!).toExponential(2)}`;
      row.push(
        `${label}${start === w.start ? '' : ` → ${w.start}`} (W ${w.time.toFixed(1)}): ${(100 * c).toFixed(1)} %${c < lo || c > hi ? ' OUT OF BAND' : ''}, bias ${mean.toExponential(2)} ± ${(2 * se).toExponential(1)} (2 SE)${predicted}, ${(events / seeds / 1e6).toFixed(2)} M events`,
      );
    }
    console.log(`d ${d} λ ${lambda} n ${n} jobs ${jobs} E[T] ${truth.toFixed(5)} | ${row.join(' | ')}`);
  }
}
