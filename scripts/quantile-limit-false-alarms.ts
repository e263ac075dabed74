/**
 * Issue 20 §3 calibration: the false-alarm rate of compare's fitted limit of a percentile (`quantileLimitCheck`,
 * compare/quantileCells.ts: a + c₁/n over n ≥ QUANTILE_FIT_MIN_N, Student t with ν = min_n (R_n − 1)) on exact cases:
 * JSQ(2) FIFO exponential, whose limit law is a closed form (the Poisson mixture), so every "disagrees" is a false
 * alarm. Per seed: simulations at each n (the pooled percentiles with their sectioning CIs, as compare's cells store
 * them), the limit check per λ and p ∈ {0.5, 0.95, 0.99}, judged whatever QUANTILE_LIMIT_JUDGED says. Printed: the
 * checks, the rejections, and the 95 % binomial band around α = 0.05 (as scripts/c2-false-alarms.ts) (stats/binomial.ts coverageBand); also the old
 * rule (1/n + 1/n², normal 1.96) on the same runs and n.
 * Run: `nice npx tsx scripts/quantile-limit-false-alarms.ts [seeds=20] [jobs=100000] [replications=10] [ns=100,200,500,1000]`.
 * `--synthetic [trials=20000]`: instead, synthetic sweeps with a known limit (as scripts/c1-false-alarms.ts): each point
 * the mean of R normal replications around q∞ + c₁/n with its Student-t half-width, the rule now (fixed coefficients,
 * Welch ν) against the weighted fit with ν = min_n (R_n − 1) it replaced, each rate beside the 95 % band around α (seconds).
 */
import { fitInverseN } from '../src/compare/fit.ts';
import { JUDGED_PERCENTILES, QUANTILE_FIT_MIN_N, quantileLimitCheck } from '../src/compare/quantileCells.ts';
import { limitCheck, SIGNIFICANCE_LEVEL } from '../src/compare/verdict.ts';
import { solveResponseTime } from '../src/meanfield/responseTime.ts';
import { simulationWarmup } from '../src/meanfield/warmup.ts';
import { parseModel } from '../src/model/index.ts';
import { simulate } from '../src/sim/simulate.ts';
import { coverageBand } from '../src/stats/index.ts';
import { loadavg } from 'node:os';
import { Rng } from '../src/stats/index.ts';
import { tQuantile } from '../src/lazy.ts';

if (process.argv[2] === '--synthetic') {
  synthetic(Number(process.argv[3] ?? 20_000));
  process.exit(0);
}

/** The rule before: weighted a + c₁/n (weights 1/σ̂_n²), half-width t_{0.975, min_n (R_n − 1)}·s.e. from (XᵀŴX)⁻¹. */
function weightedRejects(points: { n: number; value: number; halfWidth: number; replications: number }[], limit: number): boolean {
  const fit = fitInverseN(points, { inverseSquare: false, weights: 'estimated' });
  if (!fit) return false;
  const nu = Math.min(...points.map((p) => p.replications - 1));
  return Math.abs(fit.a - limit) > tQuantile(0.975, nu) * fit.aStandardError;
}

function synthetic(trials: number): void {
  const rng = new Rng(1n);
  const normal = () => Math.sqrt(-2 * Math.log(rng.nextOpen())) * Math.cos(2 * Math.PI * rng.nextDouble());
  // p95 of SQ(2) at λ = 0.9 is about 4.6 with c₁ of a few units; σ_n of one section's percentile, equal or ∝ n^−1/2
  const [q0, c1] = [4.6, 3];
  const equal = [100, 200, 500, 1000];
  const wide = [100, 200, 500, 1000, 10_000];
  const settings = [
    { name: 'n 100…1000, R = 10, equal σ_n', ns: equal, sds: equal.map(() => 0.02), replications: 10 },
    { name: 'n 100…1000, R = 5, equal σ_n', ns: equal, sds: equal.map(() => 0.02), replications: 5 },
    { name: 'n 100…10 000, R = 10, σ_n ∝ n^−1/2', ns: wide, sds: wide.map((n) => 0.3 / Math.sqrt(n)), replications: 10 },
    { name: 'n 100, 1000, R = 10', ns: [100, 1000], sds: [0.02, 0.02], replications: 10 },
  ];
  console.log(`quantile limit false alarms on synthetic sweeps (H0 true), ${trials} sweeps per setting, α = ${SIGNIFICANCE_LEVEL}`);
  for (const s of settings) {
    const t = tQuantile(0.975, s.replications - 1);
    let now = 0;
    let before = 0;
    let judged = 0;
    for (let k = 0; k < trials; k++) {
      const points = s.ns.map((n, i) => {
        const xs = Array.from({ length: s.replications }, () => q0 + c1 / n + s.sds[i] * normal());
        const m = xs.reduce((a, b) => a + b, 0) / xs.length;
        const sd = Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
        return { n, value: m, halfWidth: (t * sd) / Math.sqrt(xs.length), replications: s.replications };
      });
      const { check } = quantileLimitCheck(points, { value: q0, halfWidth: 0, numericalError: 0 }, true);
      if (check.status !== 'agrees' && check.status !== 'disagrees') continue;
      judged++;
      if (check.status === 'disagrees') now++;
      if (weightedRejects(points, q0)) before++;
    }
    const [low, high] = coverageBand(SIGNIFICANCE_LEVEL, judged, 0.95);
    const show = (r: number) => `${(r / judged).toFixed(4)} ${r / judged > high ? 'ABOVE' : r / judged < low ? 'below' : 'in band'}`;
    console.log(`  ${s.name.padEnd(36)} now ${show(now)};  before ${show(before)}  (band [${low.toFixed(4)}, ${high.toFixed(4)}])`);
  }
}

const seeds = Number(process.argv[2] ?? 20);
const jobs = Number(process.argv[3] ?? 100_000);
const replications = Number(process.argv[4] ?? 10);
const ns = (process.argv[5] ?? '100,200,500,1000').split(',').map(Number);
const lambdas = [0.9, 0.95];
console.log(
  `load ${loadavg()[0].toFixed(1)}; JSQ(2) FIFO exp, λ ${lambdas.join(', ')}, n ${ns.join(', ')} (fit over n ≥ ${QUANTILE_FIT_MIN_N}), ` +
    `${jobs} jobs × ${replications} replications, ${seeds} seeds`,
);
const laws = new Map(
  lambdas.map((lambda) => [lambda, solveResponseTime(parseModel({ lambda, d: 2 }), { quantiles: [...JUDGED_PERCENTILES] })]),
);
let checks = 0;
let alarms = 0;
let oldAlarms = 0;
const zs: number[] = [];
for (let k = 0; k < seeds; k++) {
  const seed = 1 + 10 * k;
  const line: string[] = [];
  for (const lambda of lambdas) {
    const model = parseModel({ lambda, d: 2 });
    const warmupTime = simulationWarmup(model).time;
    const sims = ns.map((n) => ({ n, r: simulate(model, { n, jobs, replications, seed: seed + n, warmupTime }) }));
    const law = laws.get(lambda)!;
    for (const q of law.quantiles) {
      const key = q.p === 0.5 ? 'p50' : q.p === 0.95 ? 'p95' : 'p99';
      const points = sims.map(({ n, r }) => {
        const e = r.responseTimePercentiles[key];
        return { n, value: e.mean, halfWidth: e.halfWidth, replications: e.replications };
      });
      const reference = { value: q.value, halfWidth: 0, numericalError: 0 };
      const { check } = quantileLimitCheck(points, reference, true);
      const old = limitCheck(fitInverseN(points, { inverseSquare: 'auto', weights: 'estimated' }), reference);
      checks++;
      if (check.status === 'disagrees') alarms++;
      if (old.status === 'disagrees') oldAlarms++;
      zs.push(check.difference / (check.fitHalfWidth / 1.96));
      line.push(
        `${lambda}/${key} ${check.status === 'disagrees' ? 'ALARM' : 'ok'} (Δ ${check.difference.toFixed(4)} ± ${check.fitHalfWidth.toFixed(4)})`,
      );
    }
  }
  console.log(`seed ${seed}: ${line.join(' | ')}`);
}
const [lo, hi] = coverageBand(SIGNIFICANCE_LEVEL, checks, 0.95);
const mean = zs.reduce((a, b) => a + b, 0) / zs.length;
const sd = Math.sqrt(zs.reduce((a, b) => a + (b - mean) ** 2, 0) / (zs.length - 1));
console.log(
  `\nnew rule: ${alarms} of ${checks} checks disagree (rate ${(alarms / checks).toFixed(3)}; 95 % band around α = ${SIGNIFICANCE_LEVEL}: ` +
    `[${lo.toFixed(3)}, ${hi.toFixed(3)}] → ${alarms / checks <= hi ? 'inside or below' : 'ABOVE'}); ` +
    `Δ/(half-width/1.96): mean ${mean.toFixed(2)}, SD ${sd.toFixed(2)}`,
);
console.log(`before (1/n + 1/n² when ≥ 4 n, normal 1.96, same n): ${oldAlarms} of ${checks} disagree`);
