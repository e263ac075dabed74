/**
 * How often MSER-5 calls a stationary run "too short to confirm the warm-up" (stats/mser.ts), the rule before against
 * the rule now, and whether runs that are short still get a warning.
 * Part 1, exact series (no simulator): M/M/1 FIFO response times by Lindley's recursion, each replication started in
 * the stationary law (W = 0 with probability 1 − ρ, else Exp(1 − ρ)), so there is no transient; the ensemble series is
 * the average over R replications of the batch-5 means, as `simulate` reads it. Before: d* over every d ≤ b − 2, "too
 * short" when d* > b/2. Now: d* over d ≤ ⌊b/2⌋, "too short" when d* = ⌊b/2⌋. Also counted: the other warning
 * (d* > 5 % of the jobs, "the warm-up may be too short") and either warning. A run from empty at ρ = 0.98–0.99 with a
 * few thousand jobs (relaxation time ≫ the run) is the case where a warning is due.
 * Part 2, the simulator's own warnings: M/M/1 (n = 1, d = 1) and JSQ(2) at n = 10 and 100, λ = 0.9, started at the
 * fixed point with the one warm-up rule for that start (`simulationWarmup`), 5 replications × 20 000 jobs, over master
 * seeds; `src` may be another checkout's src/ (an absolute path, e.g. /work/main/src) to count the warnings of the
 * code before.
 * Run: `nice npx tsx scripts/mser-too-short.ts [trials=1000] [seeds=100] [src=../src]` (a few minutes).
 */
import { batchMeansOf, mser, Rng, wilsonInterval } from '../src/stats/index.ts';

const trials = Number(process.argv[2] ?? 1000);
const seeds = Number(process.argv[3] ?? 100);
const src = process.argv[4] ?? '../src';

const rate = (k: number, m: number) => {
  const [lo, hi] = wilsonInterval(k, m);
  return `${k}/${m} = ${(k / m).toFixed(3)} [${lo.toFixed(3)}, ${hi.toFixed(3)}]`;
};

/** The rule before: d* over every d ≤ b − 2 (k ≥ 2 batches kept), "too short" when d* > b/2. */
function before(z: Float64Array): { d: number; tooShort: boolean } {
  const b = z.length;
  let s1 = 0;
  let s2 = 0;
  let best = Infinity;
  let bestD = 0;
  for (let i = b - 1; i >= 0; i--) {
    const x = z[i] - z[b - 1];
    s1 += x;
    s2 += x * x;
    const k = b - i;
    if (k < 2) continue;
    const stat = Math.max(0, s2 - (s1 * s1) / k) / (k * k);
    if (stat <= best) {
      best = stat;
      bestD = i;
    }
  }
  return { d: bestD, tooShort: bestD / b > 0.5 };
}

console.log('Part 1: M/M/1 FIFO response times (Lindley), 5 replications, ensemble batch-5 means');
const rng = new Rng(20261202n);
const exp = () => -Math.log(rng.nextOpen());
for (const [rho, jobs, stationary] of [
  [0.9, 20_000, true],
  [0.9, 100_000, true],
  [0.5, 20_000, true],
  [0.99, 2_000, false],
  [0.98, 5_000, false],
] as const) {
  const R = 5;
  const b = Math.floor(jobs / 5);
  const count = { shortBefore: 0, shortNow: 0, anyBefore: 0, anyNow: 0 };
  const m = stationary ? trials : Math.min(trials, 300);
  for (let t = 0; t < m; t++) {
    const ensemble = new Float64Array(b);
    const responses = new Float64Array(jobs);
    for (let r = 0; r < R; r++) {
      let w = stationary && rng.nextDouble() < rho ? exp() / (1 - rho) : 0;
      for (let k = 0; k < jobs; k++) {
        const s = exp();
        responses[k] = w + s;
        w = Math.max(0, w + s - exp() / rho);
      }
      const z = batchMeansOf(responses, jobs, 5);
      for (let i = 0; i < b; i++) ensemble[i] += z[i] / R;
    }
    const old = before(ensemble);
    const now = mser(ensemble, 5);
    if (old.tooShort) count.shortBefore++;
    if (now.tooShort) count.shortNow++;
    if (old.tooShort || old.d * 5 > 0.05 * jobs) count.anyBefore++;
    if (now.tooShort || now.truncation > 0.05 * jobs) count.anyNow++;
  }
  console.log(
    `  ρ = ${rho}, ${R} × ${jobs} jobs, ${stationary ? 'stationary start' : 'from empty, no warm-up'}: "too short" before ` +
      `${rate(count.shortBefore, m)}, now ${rate(count.shortNow, m)}; any warning before ${rate(count.anyBefore, m)}, now ${rate(count.anyNow, m)}`,
  );
}

console.log(`Part 2: simulate's warnings (${src}), λ = 0.9, fixed-point start, 5 × 20 000 jobs, seeds 1..${seeds}`);
const { simulate } = (await import(`${src}/sim/index.ts`)) as typeof import('../src/sim/index.ts');
const { simulationWarmup } = (await import(`${src}/meanfield/warmup.ts`)) as typeof import('../src/meanfield/warmup.ts');
const { parseModel } = (await import(`${src}/model/index.ts`)) as typeof import('../src/model/index.ts');
for (const [n, d] of [
  [1, 1],
  [10, 2],
  [100, 2],
]) {
  const model = parseModel({ lambda: 0.9, d });
  const w = simulationWarmup(model, { start: 'fixed-point', n, cap: Infinity });
  let tooShort = 0;
  let mayBeShort = 0;
  for (let seed = 1; seed <= seeds; seed++) {
    const r = simulate(model, {
      n,
      jobs: 20_000,
      replications: 5,
      seed,
      warmupTime: w.time,
      start: { name: 'fixed-point', from: w.from! },
    });
    if (r.warnings.some((x) => x.includes('too short to confirm'))) tooShort++;
    if (r.warnings.some((x) => x.includes('may be too short'))) mayBeShort++;
  }
  console.log(
    `  ${d === 1 ? 'M/M/1' : `JSQ(${d}), n = ${n}`} (warm-up ${w.time.toFixed(1)}): "too short to confirm" ${rate(tooShort, seeds)}; "may be too short" ${rate(mayBeShort, seeds)}`,
  );
}
