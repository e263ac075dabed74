/**
 * Issue 20 §3 calibration: the false-alarm rate of compare's fitted limit of a percentile (`quantileLimitCheck`,
 * compare/quantileCells.ts: a + c₁/n over n ≥ QUANTILE_FIT_MIN_N, Student t with ν = min_n (R_n − 1)) on exact cases:
 * JSQ(2) FIFO exponential, whose limit law is a closed form (the Poisson mixture), so every "disagrees" is a false
 * alarm. Per seed: simulations at each n (the pooled percentiles with their sectioning CIs, as compare's cells store
 * them), the limit check per λ and p ∈ {0.5, 0.95, 0.99}, judged whatever QUANTILE_LIMIT_JUDGED says. Printed: the
 * checks, the rejections, and the 95 % binomial band around α = 0.05 (as scripts/c2-false-alarms.ts) (stats/binomial.ts coverageBand); also the old
 * rule (1/n + 1/n², normal 1.96) on the same runs and n.
 * Run: `nice npx tsx scripts/quantile-limit-false-alarms.ts [seeds=20] [jobs=100000] [replications=10] [ns=100,200,500,1000]`.
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
      const old = limitCheck(fitInverseN(points, { inverseSquare: 'auto' }), reference);
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
