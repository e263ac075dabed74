/**
 * Acceptance of issue 8 §2: the default report (`npm start`, DEFAULT_PRESET) over 5 master seeds must have no
 * "disagrees" that its confirmatory rerun does not confirm. Runs the preset's comparison (without the transient
 * figures, which carry no verdict) for seeds 1..5 and prints per seed: judged cells, first-run rejections after Holm,
 * confirmed disagreements, the busy-fraction check's SD of t (expected √(9/7) ≈ 1.13 with R = 10), and the c₁ checks.
 * About 2 minutes per seed on one core; run with `nice npx tsx scripts/default-report-seeds.ts [seeds]`.
 * Default seeds 1, 11, 21, 31, 41 (chosen when an earlier seed derivation gave every single-digit master the same cell
 * seeds; `cellSeed` in src/stats/rng.ts is one-to-one in the master, so any distinct seeds are distinct runs).
 */
import { runComparison, type ComparisonConfig } from '../src/compare/index.ts';
import { DEFAULT_PRESET } from '../src/cli/commands/compare.ts';

const seeds = process.argv[2] ? process.argv[2].split(',').map(Number) : [1, 11, 21, 31, 41];
const p = DEFAULT_PRESET;
const rows: string[] = [];
console.log(
  'seed | judged | first-run rejections | confirmed disagreements | busy-check SD of t (expected) | c₁ vs ΣV/λ agree | ' +
    'c₂: judged, disagree after Holm, not resolvable, not judged | wall s',
);
for (const seed of seeds) {
  const started = Date.now();
  const config: ComparisonConfig = {
    lambdas: p.lambdas,
    ds: p.ds,
    ns: p.ns,
    sampling: 'with-replacement',
    jobs: p.jobs,
    replications: p.replications,
    seed,
    warmupTolerance: 1e-3,
    warmupSafetyFactor: 2,
    maxLevel: 30,
    trajectory: null,
  };
  const r = runComparison(config);
  const c1 = r.models.map((m) => m.c1Check).filter((c) => c && c.status !== 'not-judged');
  const c2 = r.models.map((m) => m.secondOrder).filter((c) => c);
  const k2 = (s: string) => c2.filter((c) => c!.status === s).length;
  const line =
    `${seed} | ${r.family.judged} | ${r.family.firstRunRejections} | ${r.family.confirmed} | ` +
    `${r.busyCheck.sd.toFixed(2)} (${r.busyCheck.expectedSd.toFixed(2)}) | ${c1.filter((c) => c!.status === 'agrees').length}/${c1.length} | ` +
    `${k2('agrees') + k2('disagrees')}, ${k2('disagrees')}, ${k2('not-resolvable')}, ${k2('not-judged')} | ` +
    `${((Date.now() - started) / 1000).toFixed(0)}`;
  console.log(line);
  rows.push(line);
  for (const c of r.cells.filter((x) => x.confirmation)) {
    const e = c.simulation.meanResponseTime;
    const f = c.confirmation!.simulation.meanResponseTime;
    console.log(
      `    ${c.key}: first ${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)} (t = ${c.verdict.tStatistic.toFixed(1)}, p Holm ${c.verdict.adjustedPValue!.toExponential(1)}), ` +
        `rerun ${f.mean.toFixed(4)} ± ${f.halfWidth.toFixed(4)} (t = ${c.confirmation!.verdict.tStatistic.toFixed(1)}, p Holm ${c.confirmation!.verdict.adjustedPValue!.toExponential(1)}) ` +
        `refined ${c.refined?.meanResponseTime.toFixed(4)} → ${c.verdict.status}`,
    );
  }
  for (const m of r.models) {
    const k = m.c1Check;
    if (k && k.status !== 'not-judged') {
      console.log(
        `    c₁ d = ${m.d}, λ = ${m.lambda}: ${k.c1.toFixed(2)} ± ${k.halfWidth.toFixed(2)} vs ΣV/λ = ${k.expected.toFixed(2)} ` +
          `(n ${k.nUsed.join(',')}, t = ${k.tStatistic.toFixed(1)}, χ²/dof ${k.reducedChiSquare.toFixed(2)}) → ${k.status}`,
      );
    }
  }
}
console.log('\nsummary');
for (const l of rows) console.log(l);
