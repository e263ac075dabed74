/**
 * False alarms of compare's c₁ check before and after the family rule's confirmatory rerun (compare/verdict.ts
 * `confirmFamily`), on sweeps whose truth is the refined mean field: JSQ(d) FIFO exponential, d = 2, 3, λ = 0.7,
 * n = 20, 50, 100 (inside the trusted range), with replacement. "Before": the first run's Holm-adjusted p < α (the
 * old rule's "disagrees"); "after": the status, "disagrees" only when the rerun's check is rejected too. Counted per
 * report (any model). Run: `nice npx tsx scripts/c1-confirm-false-alarms.ts [seeds=100] [jobs=5000] [replications=5]`.
 */
import { runComparison } from '../src/compare/index.ts';
import { SIGNIFICANCE_LEVEL } from '../src/compare/verdict.ts';
import { wilsonInterval } from '../src/stats/binomial.ts';

const seeds = Number(process.argv[2] ?? 100);
const jobs = Number(process.argv[3] ?? 5_000);
const replications = Number(process.argv[4] ?? 5);
const rate = (k: number, m: number) => {
  const [lo, hi] = wilsonInterval(k, m);
  return `${k}/${m} = ${(k / m).toFixed(3)} [${lo.toFixed(3)}, ${hi.toFixed(3)}]`;
};
let before = 0;
let after = 0;
let checks = 0;
for (let seed = 1; seed <= seeds; seed++) {
  const r = runComparison({
    lambdas: [0.7],
    ds: [2, 3],
    ns: [20, 50, 100],
    sampling: 'with-replacement',
    jobs,
    replications,
    seed,
    warmupTolerance: 1e-3,
    warmupSafetyFactor: 2,
    maxLevel: 12,
    trajectory: null,
  });
  const c1 = r.models.map((m) => m.c1Check).filter((c) => c && c.adjustedPValue !== null);
  checks += c1.length;
  if (c1.some((c) => c!.adjustedPValue! < SIGNIFICANCE_LEVEL)) before++;
  if (c1.some((c) => c!.status === 'disagrees')) after++;
}
console.log(`c₁ checks judged: ${checks} over ${seeds} reports (${jobs} jobs × ${replications} replications per cell)`);
console.log(`reports with a c₁ "disagrees": before (first run, Holm) ${rate(before, seeds)}; after (confirmed) ${rate(after, seeds)}`);
