/**
 * Issue 21 §2: the false-alarm rate of the c₂ check (`judgeC2`, theory.md §8 "The c₂ check") over many master seeds
 * of a reduced default preset. ΣA is verified against the exact chain to 8 digits (theory.md §6), so every c₂
 * "disagrees" here is a false alarm; the unadjusted rate among judged checks should be ≤ α = 0.05 and the
 * Holm-adjusted count per report ≤ α per report. Beside it, the rule before issue 21 (c₁ and c₂ fitted together,
 * 1.96 × s.e., every model judged) on the same runs.
 * Reduced preset (DEFAULT_PRESET has 500 000 jobs × 10 replications, n up to 10 000, trajectories and exact cells):
 * λ ∈ {0.7, 0.9, 0.95}, d ∈ {2, 3}, n ∈ {10, 20, 50, 100, 200, 500, 1000}, JOBS jobs × 10 replications, no
 * trajectories, no exact cells.
 * Run: `nice npx tsx scripts/c2-false-alarms.ts [seeds=20] [jobs=100000]` (seeds 1, 11, 21, …: single-digit masters
 * alias before issue 21 §7).
 */
import { runComparison, type ComparisonConfig } from '../src/compare/index.ts';
import { SIGNIFICANCE_LEVEL } from '../src/compare/verdict.ts';
import { coverageBand } from '../src/stats/index.ts';

const count = Number(process.argv[2] ?? 20);
const jobs = Number(process.argv[3] ?? 100_000);
const seeds = Array.from({ length: count }, (_, i) => 1 + 10 * i);
let judged = 0;
let unadjusted = 0;
let holm = 0;
let notResolvable = 0;
let notJudged = 0;
let reportsWithAlarm = 0;
let oldAlarms = 0;
let oldChecks = 0;
const started = Date.now();
console.log(
  'seed | c₂ judged | unadjusted rejections | after Holm | not resolvable | not judged | old rule (c₁, c₂ fitted, 1.96): disagree of checks | s',
);
for (const seed of seeds) {
  const t0 = Date.now();
  const config: ComparisonConfig = {
    lambdas: [0.7, 0.9, 0.95],
    ds: [2, 3],
    ns: [10, 20, 50, 100, 200, 500, 1000],
    sampling: 'with-replacement',
    jobs,
    replications: 10,
    seed,
    warmupTolerance: 1e-3,
    warmupSafetyFactor: 2,
    maxLevel: 30,
    trajectory: null,
  };
  const r = runComparison(config);
  const c2 = r.models.map((m) => m.secondOrder!);
  const j = c2.filter((c) => c.status === 'agrees' || c.status === 'disagrees');
  const u = j.filter((c) => c.pValue < SIGNIFICANCE_LEVEL).length;
  const h = j.filter((c) => c.status === 'disagrees').length;
  const nr = c2.filter((c) => c.status === 'not-resolvable').length;
  const nj = c2.filter((c) => c.status === 'not-judged').length;
  const old = r.models.filter((m) => {
    const f = m.fitThroughReference!;
    return Math.abs(m.secondOrder!.c2 - f.c2) > 1.96 * f.c2StandardError;
  }).length;
  judged += j.length;
  unadjusted += u;
  holm += h;
  notResolvable += nr;
  notJudged += nj;
  reportsWithAlarm += h > 0 ? 1 : 0;
  oldAlarms += old;
  oldChecks += r.models.length;
  console.log(
    `${seed} | ${j.length} | ${u} | ${h} | ${nr} | ${nj} | ${old} of ${r.models.length} | ${((Date.now() - t0) / 1000).toFixed(0)}`,
  );
}
console.log(`\n${count} seeds × 6 models, ${jobs} jobs × 10 replications per cell, ${((Date.now() - started) / 60000).toFixed(1)} min`);
console.log(`c₂ checks judged ${judged}, not resolvable ${notResolvable}, not judged ${notJudged}`);
if (judged > 0) {
  const [lo, hi] = coverageBand(SIGNIFICANCE_LEVEL, judged, 0.95);
  console.log(
    `unadjusted false-alarm rate ${unadjusted}/${judged} = ${(unadjusted / judged).toFixed(3)}; 95% binomial band around α = ${SIGNIFICANCE_LEVEL} ` +
      `for ${judged} checks: [${lo.toFixed(3)}, ${hi.toFixed(3)}] → ${unadjusted / judged <= hi ? 'in band (or below)' : 'ABOVE the band'}`,
  );
}
const [plo, phi] = coverageBand(SIGNIFICANCE_LEVEL, count, 0.95);
console.log(
  `reports with a c₂ "disagrees" after Holm: ${reportsWithAlarm}/${count} = ${(reportsWithAlarm / count).toFixed(3)} ` +
    `(family-wise ≤ ${SIGNIFICANCE_LEVEL}; 95% band for ${count} reports [${plo.toFixed(3)}, ${phi.toFixed(3)}]); total after Holm ${holm}`,
);
console.log(`old rule: ${oldAlarms}/${oldChecks} = ${(oldAlarms / oldChecks).toFixed(3)} of model checks "disagree"`);
