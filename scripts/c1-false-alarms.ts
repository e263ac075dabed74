/**
 * Issue 21 (left alone there): the false-alarm rate of the c₁ check (`c1Check`, theory.md §8 "Sweep") on synthetic
 * sweeps where the truth is known: each point x̂_n is the mean of R normal replications around x∞ + c₁/n + c₂/n², with
 * its own σ_n, and the check holds x∞ and tests c₁ = ΣV/λ. Every "disagrees" is a false alarm. Printed per setting:
 * the rule now (fixed least-squares coefficients, Welch–Satterthwaite ν) and the rule before (weights 1/σ̂_n² from the
 * same replications, s.e. from (XᵀŴX)⁻¹, t with R − 1 dof), each with its rate and the 95 % binomial band around
 * α = 0.05. The settings are the shapes of compare's sweeps: the default report's trusted n at d = 2, λ = 0.9
 * (ΣV/(nΣπ) ≤ 5 %: n = 50 … 10 000, c₂ fitted), a short sweep (2 n, c₁ alone), and fewer replications.
 * The limit check (`limitCheck` with the points: â by fixed coefficients, t with Welch ν) is counted the same way, against
 * the weighted fit's â ± 1.96 s.e. it replaced (a short compare of identical-replica redundancy said "disagrees" so).
 * Run: `nice npx tsx scripts/c1-false-alarms.ts [trials=20000] [seed=1]` (a minute).
 */
import { c1Check, fitInverseN, limitCheck, SIGNIFICANCE_LEVEL, type FitPoint } from '../src/compare/index.ts';
import { coverageBand, Rng } from '../src/stats/index.ts';
import { studentTwoSidedPValue } from '../src/stats/hypothesis.ts';
import { tQuantile } from '../src/lazy.ts';

const trials = Number(process.argv[2] ?? 20_000);
const rng = new Rng(BigInt(process.argv[3] ?? 1));
const normal = () => Math.sqrt(-2 * Math.log(rng.nextOpen())) * Math.cos(2 * Math.PI * rng.nextDouble());

interface Setting {
  readonly name: string;
  readonly ns: readonly number[];
  readonly sds: readonly number[];
  readonly replications: number;
}
// x∞ = 2.614, c₁ = ΣV/λ = 4.43, c₂ = 10 (d = 2, λ = 0.9); σ_n of one replication's mean, similar across n (the same
// jobs per replication at every n) or falling with n
const DEFAULT_NS = [50, 100, 200, 500, 1000, 10_000];
const SETTINGS: Setting[] = [
  { name: 'default n, R = 10, equal σ_n', ns: DEFAULT_NS, sds: DEFAULT_NS.map(() => 0.01), replications: 10 },
  { name: 'default n, R = 10, σ_n ∝ n^−1/2', ns: DEFAULT_NS, sds: DEFAULT_NS.map((n) => 0.05 / Math.sqrt(n)), replications: 10 },
  { name: 'default n, R = 5, equal σ_n', ns: DEFAULT_NS, sds: DEFAULT_NS.map(() => 0.01), replications: 5 },
  { name: 'default n, R = 3, equal σ_n', ns: DEFAULT_NS, sds: DEFAULT_NS.map(() => 0.01), replications: 3 },
  // two n fit c₁ alone: the c₂/n² term left out biases ĉ₁ by Σ a_n c₂/n² (0.08 s.e. here; at n = 100, 1000 it is 0.3 s.e.)
  { name: 'n = 200, 1000 (c₁ alone), R = 10', ns: [200, 1000], sds: [0.01, 0.01], replications: 10 },
  { name: 'n = 50, 100, 200, R = 5', ns: [50, 100, 200], sds: [0.01, 0.01, 0.01], replications: 5 },
];
const [x0, c1, c2] = [2.614, 4.43, 10];

/** The rule before: weighted fit (weights 1/σ̂_n² from the same replications), s.e. from (XᵀŴX)⁻¹, t with R − 1 dof. */
function oldRejects(points: FitPoint[], replications: number): boolean {
  const fit = fitInverseN(points, { limit: x0, inverseSquare: 'auto', weights: 'estimated' });
  if (!fit || !(fit.c1StandardError > 0)) return false;
  return studentTwoSidedPValue((fit.c1 - c1) / fit.c1StandardError, replications - 1) < SIGNIFICANCE_LEVEL;
}

/** One synthetic sweep under H0: per n, the mean of R normal replications and its Student-t half-width (t given). */
function sweepPoints(s: Setting, t: number) {
  return s.ns.map((n, i) => {
    const xs = Array.from({ length: s.replications }, () => x0 + c1 / n + c2 / n ** 2 + s.sds[i] * normal());
    const m = xs.reduce((a, b) => a + b, 0) / xs.length;
    const sd = Math.sqrt(xs.reduce((a, x) => a + (x - m) ** 2, 0) / (xs.length - 1));
    return { n, value: m, halfWidth: (t * sd) / Math.sqrt(xs.length), replications: s.replications };
  });
}

/**
 * One setting's false alarms of a check, now and under the rule it replaced: `decide` answers null for a sweep the check
 * does not judge, else whether each rule rejects. Prints the two rates beside the 95 % band around α.
 */
function tally(s: Setting, decide: (points: ReturnType<typeof sweepPoints>) => { now: boolean; before: boolean } | null): void {
  const t = tQuantile(0.975, s.replications - 1);
  let now = 0;
  let before = 0;
  let judged = 0;
  for (let k = 0; k < trials; k++) {
    const rejects = decide(sweepPoints(s, t));
    if (rejects === null) continue;
    judged++;
    if (rejects.now) now++;
    if (rejects.before) before++;
  }
  const [low, high] = coverageBand(SIGNIFICANCE_LEVEL, judged, 0.95);
  const show = (r: number) =>
    `${r}/${judged} = ${(r / judged).toFixed(4)} ${r / judged >= low && r / judged <= high ? 'in band' : 'OUT of band'}`;
  console.log(`  ${s.name.padEnd(34)} now ${show(now)};  before ${show(before)}  (band [${low.toFixed(4)}, ${high.toFixed(4)}])`);
}

console.log(`c₁ check false alarms on synthetic sweeps (H0 true), ${trials} sweeps per setting, α = ${SIGNIFICANCE_LEVEL}`);
for (const s of SETTINGS)
  tally(s, (points) => {
    const check = c1Check(points, x0, c1);
    return check.status === 'not-judged' ? null : { now: check.pValue < SIGNIFICANCE_LEVEL, before: oldRejects(points, s.replications) };
  });

// Two n: c₁ is fitted alone, and the c₂/n² term left in y_n biases ĉ₁ (Σ a_n c₂/n²). Where c₂ = ΣA/λ is computed
// (refined second order) the check subtracts it first. Printed: the mean t statistic (0 when unbiased), the coverage of
// ĉ₁ ± h of the true c₁ and the rejection rate, without the subtraction (before) and with it (now).
console.log('c₁ check fitted from two n: c₂/n² subtracted (now) or left in (before), same sweeps');
for (const s of [
  { name: 'n = 200, 1000, R = 10', ns: [200, 1000], sds: [0.01, 0.01], replications: 10 },
  { name: 'n = 100, 1000, R = 10', ns: [100, 1000], sds: [0.01, 0.01], replications: 10 },
  { name: 'n = 50, 100, R = 5, σ_n = 0.005', ns: [50, 100], sds: [0.005, 0.005], replications: 5 },
]) {
  const t = tQuantile(0.975, s.replications - 1);
  const sum = { before: 0, now: 0 };
  const covered = { before: 0, now: 0 };
  const rejected = { before: 0, now: 0 };
  let judged = 0;
  for (let k = 0; k < trials; k++) {
    const points = sweepPoints(s, t);
    const checks = { before: c1Check(points, x0, c1), now: c1Check(points, x0, c1, c2) };
    if (checks.now.status === 'not-judged' || checks.before.status === 'not-judged') continue;
    judged++;
    for (const key of ['before', 'now'] as const) {
      const c = checks[key];
      sum[key] += c.tStatistic;
      if (Math.abs(c.c1 - c1) <= c.halfWidth) covered[key]++;
      if (c.pValue < SIGNIFICANCE_LEVEL) rejected[key]++;
    }
  }
  const show = (key: 'before' | 'now') =>
    `mean t ${(sum[key] / judged).toFixed(3)}, coverage ${((100 * covered[key]) / judged).toFixed(1)} %, rejections ${((100 * rejected[key]) / judged).toFixed(2)} %`;
  console.log(`  ${s.name.padEnd(34)} now ${show('now')};  before ${show('before')}  (${judged} sweeps)`);
}

console.log('limit check false alarms (â against the true x∞, no reference error), same sweeps');
for (const s of [
  ...SETTINGS,
  { name: 'n = 10, 20, 50, 100, R = 5', ns: [10, 20, 50, 100], sds: [0.05, 0.05, 0.05, 0.05], replications: 5 },
])
  tally(s, (points) => {
    const fit = fitInverseN(points, { inverseSquare: 'auto' });
    const reference = { value: x0, halfWidth: 0, numericalError: 0 };
    const check = limitCheck(fit, reference, null, points);
    if (check.status !== 'agrees' && check.status !== 'disagrees') return null;
    const weighted = fitInverseN(points, { inverseSquare: 'auto', weights: 'estimated' });
    return { now: check.status === 'disagrees', before: limitCheck(weighted, reference).status === 'disagrees' };
  });
