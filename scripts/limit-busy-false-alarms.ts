/**
 * False alarms of compare's limit check and busy-fraction check on simulated sweeps whose truth is exact, before and
 * after the family rule (compare/verdict.ts `confirmFamily`) judged them. Each master seed runs one comparison of
 * JSQ(d), d = 2, 3, λ = 0.9, n = 10, 100, exponential sizes, under LAS and under FIFO. LAS with exponential sizes has
 * FIFO's queue-length process (every busy server completes at rate 1 whichever job it serves), so E[T]∞ is SQ(d)'s
 * closed form and the refined terms are FIFO's: LAS is judged by the refined mean field like FIFO, not "Without V"
 * (this header said so before compare learnt the FIFO twin, meanfield/capabilities.ts). For both, the limit check
 * (â of x̂_n = a + c₁/n against E[T]∞, one per model) is judged and Holm-adjusted over the models whatever the cells'
 * rule; n = 10 lies outside the trusted range ΣV/(nΣπ) ≤ 5 % (n ≥ 34 at d = 2), so the c₁ check is not judged here. The
 * busy fraction is ŝ₁ = λ exactly at every n (each server takes λ by symmetry). Every "disagrees" is a false alarm.
 * The two-point fit leaves the 1/n² term in â; compare now subtracts the computed c₂/n² = ΣA/(λn²) first (summary.ts
 * `modelLimitCheck`): printed, the mean t of the first runs' limits with it (now) and without it (before, refitted
 * from the same cells).
 * Counted per report (a report "disagrees" when any of its limit checks, or its busy-fraction check, does):
 *   before: the rule the checks had: a limit said "disagrees" when |â − E[T]∞| exceeded the combined 95 % half-width
 *           (one run, no adjustment over the models); the busy check when a cell was rejected after Holm over the cells;
 *   after:  the same first runs through `confirmFamily`: Holm, then a confirmatory rerun with fresh seeds and 4× the
 *           replications, "disagrees" only when the rerun rejects too.
 * Both come from the same runs (the first runs' fields hold the old rule's inputs).
 * Measured (150 seeds, 10 × 10⁴ jobs, load ≈ 20): mean t of the limits LAS −0.211 → −0.005, FIFO −0.277 → −0.071;
 * single-run rejections 12/300 and 13/300; reports with a confirmed "disagrees" 0/150 (LAS) and 1/150 (FIFO).
 * Run: `nice npx tsx scripts/limit-busy-false-alarms.ts [seeds=200] [jobs=10000] [replications=10] [discipline=las,fifo]`.
 */
import { fitInverseN, limitCheck, runComparison, type ComparisonConfig } from '../src/compare/index.ts';
import { referenceValue } from '../src/compare/cell.ts';
import { SIGNIFICANCE_LEVEL } from '../src/compare/verdict.ts';
import { wilsonInterval } from '../src/stats/binomial.ts';

const seeds = Number(process.argv[2] ?? 200);
const jobs = Number(process.argv[3] ?? 10_000);
const replications = Number(process.argv[4] ?? 10);
const disciplines = (process.argv[5] ?? 'las,fifo').split(',') as ('las' | 'fifo')[];

const rate = (k: number, m: number) => {
  const [lo, hi] = wilsonInterval(k, m);
  return `${k}/${m} = ${(k / m).toFixed(3)} [${lo.toFixed(3)}, ${hi.toFixed(3)}]`;
};

for (const discipline of disciplines) {
  const tally = { limitBefore: 0, limitAfter: 0, limitChecks: 0, limitChecksBefore: 0, limitReruns: 0 };
  const busy = { before: 0, after: 0, reruns: 0 };
  const reports = { before: 0, after: 0 };
  const limitT: number[] = [];
  const limitTBefore: number[] = [];
  const started = Date.now();
  for (let seed = 1; seed <= seeds; seed++) {
    const config: ComparisonConfig = {
      model: { discipline },
      lambdas: [0.9],
      ds: [2, 3],
      ns: [10, 100],
      sampling: 'with-replacement',
      jobs,
      replications,
      seed,
      warmupTolerance: 1e-3,
      warmupSafetyFactor: 2,
      maxLevel: 12,
      trajectory: null,
    };
    const r = runComparison(config);
    let limitBefore = false;
    let limitAfter = false;
    for (const m of r.models) {
      const l = m.limit;
      if (!Number.isFinite(l.pValue)) continue;
      tally.limitChecks++;
      limitT.push(l.tStatistic);
      // before: the fit a + c₁/n of the same cells with the c₂/n² term left in
      const points = r.cells
        .filter((c) => c.lambda === m.lambda && c.d === m.d && !c.key.startsWith('exact-'))
        .map((c) => ({
          n: c.n,
          value: c.simulation.meanResponseTime.mean,
          halfWidth: c.simulation.meanResponseTime.halfWidth,
          replications: c.simulation.meanResponseTime.replications,
        }));
      limitTBefore.push(limitCheck(fitInverseN(points, { inverseSquare: 'auto' }), referenceValue(m.reference), null, points).tStatistic);
      const before = Math.abs(l.difference) > l.combinedHalfWidth;
      if (before) tally.limitChecksBefore++;
      if (m.limitConfirmation) tally.limitReruns++;
      limitBefore ||= before;
      limitAfter ||= l.status === 'disagrees';
    }
    const b = r.busyCheck;
    const busyBefore = b.minAdjustedPValue < SIGNIFICANCE_LEVEL;
    const busyAfter = b.status === 'disagrees';
    if (limitBefore) tally.limitBefore++;
    if (limitAfter) tally.limitAfter++;
    if (busyBefore) busy.before++;
    if (busyAfter) busy.after++;
    busy.reruns += b.firstRunRejections ?? 0;
    if (limitBefore || busyBefore) reports.before++;
    if (limitAfter || busyAfter) reports.after++;
  }
  const meanT = limitT.reduce((a, x) => a + x, 0) / limitT.length;
  const sdT = Math.sqrt(limitT.reduce((a, x) => a + (x - meanT) ** 2, 0) / (limitT.length - 1));
  const meanBefore = limitTBefore.reduce((a, x) => a + x, 0) / limitTBefore.length;
  const covered = (ts: number[]) => `${((100 * ts.filter((t) => Math.abs(t) <= 1.96).length) / ts.length).toFixed(1)} %`;
  console.log(
    `JSQ(d) ${discipline.toUpperCase()} exp, d = 2, 3, λ = 0.9, n = 10, 100, ${replications} × ${jobs} jobs, seeds 1..${seeds} ` +
      `(${((Date.now() - started) / 1000).toFixed(0)} s)`,
  );
  console.log(
    `  limit checks: ${tally.limitChecks} (t of the first runs: mean ${meanT.toFixed(3)}, SD ${sdT.toFixed(3)}, |t| ≤ 1.96 ${covered(limitT)}; ` +
      `c₂/n² left in: mean ${meanBefore.toFixed(3)}, |t| ≤ 1.96 ${covered(limitTBefore)}); single-run rejections ${rate(tally.limitChecksBefore, tally.limitChecks)}; models rerun ${tally.limitReruns}`,
  );
  console.log(`  reports with a limit "disagrees":  before ${rate(tally.limitBefore, seeds)}   after ${rate(tally.limitAfter, seeds)}`);
  console.log(
    `  reports with busy "disagrees":     before ${rate(busy.before, seeds)}   after ${rate(busy.after, seeds)}  (cells rerun ${busy.reruns})`,
  );
  console.log(`  reports with either:               before ${rate(reports.before, seeds)}   after ${rate(reports.after, seeds)}`);
}
