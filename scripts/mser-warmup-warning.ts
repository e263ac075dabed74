/**
 * How often `simulate` warns of its warm-up, by the rule before ("may be too short" on MSER-5's cut beyond 5 % of the
 * measured jobs alone) and the rule now (that cut AND the head–tail test across replications at its level,
 * `InitialBiasCheck`, theory.md §8 "Warm-up"); "too short to confirm" (MSER's minimum on the half) is the same in both
 * and counted in each ("any warm-up warning"), and apart. Both rules are read off the same runs: before from
 * `warmupCheck.ensemble`, now from the warnings. Cases where the truth is known:
 * - false alarms: M/M/1 at ρ = 0.9 (E[T] = 10 exactly; n = 1, d = 1, race engine) with the one warm-up rule
 *   (`simulationWarmup`), started empty and at the fixed point, and JSQ(2) at n = 100 from the fixed point; any warning
 *   there is false (the warm-up is ≥ 2× the time the mean field needs to within 1e−3); also M/M/1 at ρ = 0.99 from
 *   empty with the rule's (uncapped) warm-up;
 * - detection: M/M/1 at ρ = 0.99 from empty with no warm-up (τ ≈ 4·10⁴ ≫ the run: slow, short transient), and M/M/1 at
 *   ρ = 0.9 started with a backlog of 100 or 400 jobs and no warm-up (it drains in ≈ 1000 or 4000 time units).
 * Every case 5 replications.
 * Run: `nice npx tsx scripts/mser-warmup-warning.ts [seeds=400] [first=1]` (a few minutes).
 */
import { simulate } from '../src/sim/index.ts';
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { parseModel } from '../src/model/index.ts';
import { wilsonInterval } from '../src/stats/index.ts';

const seeds = Number(process.argv[2] ?? 400);
const first = Number(process.argv[3] ?? 1);

const rate = (k: number, m: number) => {
  const [lo, hi] = wilsonInterval(k, m);
  return `${k}/${m} = ${((100 * k) / m).toFixed(1)} % [${(100 * lo).toFixed(1)}, ${(100 * hi).toFixed(1)}]`;
};

interface Case {
  readonly name: string;
  readonly lambda: number;
  readonly d: number;
  readonly n: number;
  readonly jobs: number;
  /** 'rule': the one warm-up rule for the start; a number: that warm-up. */
  readonly warmup: 'rule' | number;
  readonly start: 'empty' | 'fixed-point' | 'backlog';
  readonly due: boolean;
  /** Jobs at the one server at the start (start 'backlog'). */
  readonly backlog?: number;
}

// [name, λ, d, n, jobs per replication, warm-up ('rule' or a time), start, warning due, backlog]
const rows: [string, number, number, number, number, 'rule' | number, Case['start'], boolean, number?][] = [
  ['M/M/1 ρ = 0.9, empty start, warm-up rule', 0.9, 1, 1, 20_000, 'rule', 'empty', false],
  ['M/M/1 ρ = 0.9, fixed-point start, warm-up rule', 0.9, 1, 1, 20_000, 'rule', 'fixed-point', false],
  ['JSQ(2) n = 100 ρ = 0.9, fixed-point start, warm-up rule', 0.9, 2, 100, 20_000, 'rule', 'fixed-point', false],
  ['M/M/1 ρ = 0.99, empty start, warm-up rule (uncapped)', 0.99, 1, 1, 20_000, 'rule', 'empty', false],
  ['M/M/1 ρ = 0.99, empty start, no warm-up', 0.99, 1, 1, 2_000, 0, 'empty', true],
  ['M/M/1 ρ = 0.99, empty start, no warm-up', 0.99, 1, 1, 20_000, 0, 'empty', true],
  ['M/M/1 ρ = 0.9, backlog of 100 jobs, no warm-up', 0.9, 1, 1, 20_000, 0, 'backlog', true, 100],
  ['M/M/1 ρ = 0.9, backlog of 400 jobs, no warm-up', 0.9, 1, 1, 20_000, 0, 'backlog', true, 400],
];
const cases: Case[] = rows.map(([name, lambda, d, n, jobs, warmup, start, due, backlog]) => ({
  name: `${name}, 5 × ${jobs}`,
  lambda,
  d,
  n,
  jobs,
  warmup,
  start,
  due,
  backlog,
}));

console.log(`seeds ${first}..${first + seeds - 1}; "before": MSER-5 cut > 5 % alone; "now": and the head–tail test at its level`);
for (const c of cases) {
  const model = parseModel({ lambda: c.lambda, d: c.d });
  let warmupTime: number;
  let start: { name: string; from: number[] } | undefined;
  if (c.start === 'backlog') {
    warmupTime = c.warmup as number;
    start = { name: 'backlog', from: Array.from({ length: c.backlog! + 1 }, () => 1) };
  } else {
    const w = simulationWarmup(model, { start: c.start, n: c.n, cap: Infinity });
    warmupTime = c.warmup === 'rule' ? w.time : c.warmup;
    start = c.start === 'fixed-point' ? { name: 'fixed-point', from: w.from! } : undefined;
  }
  let before = 0;
  let now = 0;
  let anyBefore = 0;
  let anyNow = 0;
  let tooShort = 0;
  let significant = 0;
  for (let seed = first; seed < first + seeds; seed++) {
    const r = simulate(model, { n: c.n, jobs: c.jobs, replications: 5, seed, warmupTime, ...(start ? { start } : {}) });
    const e = r.warmupCheck.ensemble;
    if (e !== null && !e.tooShort && e.truncatedJobs > 0.05 * c.jobs) before++;
    if (r.warnings.some((x) => x.includes('may be too short'))) now++;
    if (e?.tooShort) tooShort++;
    if (e !== null && (e.tooShort || e.truncatedJobs > 0.05 * c.jobs)) anyBefore++;
    if (r.warnings.some((x) => x.includes('may be too short') || x.includes('too short to confirm'))) anyNow++;
    if (r.warmupCheck.initialBias?.significant) significant++;
  }
  const what = c.due ? 'detection' : 'false alarms';
  console.log(
    `${c.name} (warm-up ${warmupTime.toFixed(1)}):\n  ${what}, any warm-up warning: before ${rate(anyBefore, seeds)}, now ${rate(anyNow, seeds)}\n` +
      `  "may be too short": before ${rate(before, seeds)}, now ${rate(now, seeds)}; head–tail test alone ${rate(significant, seeds)}; ` +
      `"too short to confirm" ${rate(tooShort, seeds)}`,
  );
}
