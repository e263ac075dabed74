/**
 * Coverage of the simulator's 95 % intervals on cases with exact answers (theory.md §8 "Laws usable as simulator
 * tests"): over ≥ 200 master seeds per case, the fraction of intervals that contain the truth, against the Wilson
 * 99 % band around 0.95 for that many seeds (`coverageBand`). A fraction below the band says the intervals are too
 * narrow (warm-up bias, correlation, too few replications); above it, too wide.
 * Cases: M/M/1 E[T] = 1/(1 − λ) and p99 = ln(100)/(1 − λ) (pooled quantile, sectioning interval); M/G/1 by
 * Pollaczek–Khinchine, E[T] = 1 + λE[S²]/(2(1 − λ)) with E[S²] = 1 + SCV (erlang:2, hyperexp:4); M/M/1 by batch
 * means (one long run); JSQ(2) on n = 2 servers (exact CTMC values of issue 8: 1.42632 / 1.59656 at λ = 0.5 without
 * / with replacement, 5.47491 / 5.86469 at λ = 0.9).
 * Not a unit test (minutes): `nice npx tsx scripts/coverage.ts [seeds]`; a 40-seed version runs in test/sim.
 */
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { parseModel, type SupermarketModel } from '../src/model/index.ts';
import { simulate, type SimulateOptions, type SimulationResult } from '../src/sim/index.ts';
import { coverageBand, type Estimate } from '../src/stats/index.ts';

const seeds = Number(process.argv[2] ?? 200);
const only = process.argv[3]; // optional: run only the cases whose name contains this text
interface Case {
  name: string;
  model: SupermarketModel;
  n: number;
  options: Partial<SimulateOptions>;
  /** Warm-up (time units) when the mean-field rule is too short for a small finite chain. */
  warmupTime?: number;
  truth: number;
  pick: (r: SimulationResult) => Estimate;
}
const pk = (lambda: number, scv: number) => 1 + (lambda * (1 + scv)) / (2 * (1 - lambda));
const T = (r: SimulationResult) => r.meanResponseTime;
const mm1 = parseModel({ lambda: 0.5, d: 1 });
/** JSQ(2) with n = 2 servers, 10 replications of `jobs` jobs, E[T] against the exact value `truth`. */
function jsqPair(
  lambda: number,
  sampling: 'with-replacement' | 'without-replacement',
  jobs: number,
  truth: number,
  warmupTime?: number,
): Case {
  const name = `JSQ(2) n=2 λ=${lambda} ${sampling === 'with-replacement' ? 'with' : 'without'}`;
  const model = parseModel({ lambda, d: 2, sampling });
  return { name, model, n: 2, options: { jobs, replications: 10 }, truth, pick: T, ...(warmupTime ? { warmupTime } : {}) };
}
const cases: Case[] = [
  { name: 'M/M/1 λ=0.5 E[T]', model: mm1, n: 1, options: { jobs: 5_000, replications: 10 }, truth: 2, pick: T },
  {
    name: 'M/M/1 λ=0.5 p99 (pooled)',
    model: mm1,
    n: 1,
    options: { jobs: 5_000, replications: 10 },
    truth: Math.log(100) / 0.5,
    pick: (r) => r.responseTimePercentiles.p99,
  },
  {
    name: 'M/M/1 λ=0.5 E[T] batch means',
    model: mm1,
    n: 1,
    options: { jobs: 2_000, method: 'batch-means', batches: 30 },
    truth: 2,
    pick: T,
  },
  {
    name: 'M/M/1 λ=0.7 E[T]',
    model: parseModel({ lambda: 0.7, d: 1 }),
    n: 1,
    options: { jobs: 10_000, replications: 10 },
    truth: 1 / 0.3,
    pick: T,
  },
  {
    name: 'M/E2/1 λ=0.7 E[T] (P–K)',
    model: parseModel({ lambda: 0.7, d: 1, service: 'erlang:2' }),
    n: 1,
    options: { jobs: 10_000, replications: 10 },
    truth: pk(0.7, 0.5),
    pick: T,
  },
  {
    name: 'M/H2(4)/1 λ=0.5 E[T] (P–K)',
    model: parseModel({ lambda: 0.5, d: 1, service: 'hyperexp:4' }),
    n: 1,
    options: { jobs: 10_000, replications: 10 },
    truth: pk(0.5, 4),
    pick: T,
  },
  // JSQ(2) at n = 2: truths from the exact small-n chain (`supermarket exact`); λ = 0.9 needs a long warm-up at n = 2
  jsqPair(0.5, 'without-replacement', 5_000, 1.42632),
  jsqPair(0.5, 'with-replacement', 5_000, 1.59656),
  jsqPair(0.9, 'without-replacement', 20_000, 5.47491, 2000),
  jsqPair(0.9, 'with-replacement', 20_000, 5.86469, 2000),
];

const [lo, hi] = coverageBand(0.95, seeds, 0.99);
console.log(`coverage of 95 % intervals over ${seeds} master seeds; Wilson 99 % band around 0.95: [${lo.toFixed(3)}, ${hi.toFixed(3)}]`);
console.log(['case', 'truth', 'warm-up', 'jobs×R', 'mean est.', 'mean h', 'covered', 'coverage', 'in band', 's'].join(' | '));
for (const c of cases.filter((k) => only === undefined || k.name.includes(only))) {
  const t0 = Date.now();
  // n = 2 at λ = 0.9 relaxes far slower than the n → ∞ limit the mean-field rule measures: those cases give their own
  const warmupTime = c.warmupTime ?? simulationWarmup(c.model).time;
  let covered = 0;
  let sum = 0;
  let sumH = 0;
  for (let s = 1; s <= seeds; s++) {
    const r = simulate(c.model, { n: c.n, seed: 1000 + s, warmupTime, maxLevel: 5, ...c.options });
    const e = c.pick(r);
    if (e.ci95[0] <= c.truth && c.truth <= e.ci95[1]) covered++;
    sum += e.mean;
    sumH += e.halfWidth;
  }
  const f = covered / seeds;
  const size =
    c.options.method === 'batch-means' ? `${c.options.jobs}×${c.options.batches} b` : `${c.options.jobs}×${c.options.replications}`;
  console.log(
    [
      c.name,
      c.truth.toFixed(5),
      warmupTime.toFixed(1),
      size,
      (sum / seeds).toFixed(5),
      (sumH / seeds).toFixed(4),
      `${covered}/${seeds}`,
      f.toFixed(3),
      f >= lo && f <= hi ? 'yes' : 'NO',
      ((Date.now() - t0) / 1000).toFixed(0),
    ].join(' | '),
  );
}
