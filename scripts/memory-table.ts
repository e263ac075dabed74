/**
 * The finite-system table of T. Hellemans' thesis (Univ. Antwerp 2021, ch. 6, Table fin_acc): mean response time of
 * eight memory setups at n = 10 … 3000, beside the cavity (mean-field) value. Each setup runs through `compare`'s library
 * entry (`runComparison` on the preset `thesis-memory:K` of compare/memoryTable.ts, the same cells as
 * `supermarket compare --preset thesis-memory:K`), with a smaller budget than the thesis's (40 runs of length 10⁶/n):
 * `--replications` (default 5) × `--jobs` (default 2·10⁵) per cell. Run with
 * `npx tsx scripts/memory-table.ts [ns…] [--setup K]`; prints per setup and n the thesis value and ours ± the 95%
 * half-width, and the cavity values side by side.
 */
import { runComparison, THESIS_MEMORY_NS, THESIS_MEMORY_SETUPS, thesisMemoryPreset, type ComparisonConfig } from '../src/compare/index.ts';
import { solveMeanField } from '../src/meanfield/solve.ts';
import { parseModel } from '../src/model/index.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const replications = arg('--replications', 5);
const jobs = arg('--jobs', 200_000);
const only = arg('--setup', 0);
const ns = process.argv
  .slice(2)
  .filter((x, i, a) => /^\d+$/.test(x) && !a[i - 1]?.startsWith('--'))
  .map(Number);

for (const [k, s] of THESIS_MEMORY_SETUPS.entries()) {
  if (only && only !== k + 1) continue;
  const preset = thesisMemoryPreset(k + 1);
  const mf = solveMeanField(parseModel({ ...preset.model, lambda: s.lambda, d: s.d }));
  console.log(
    `setup ${k + 1}: ${s.selection === 'lwl' ? 'LL' : 'SQ'}(${s.d}) λ=${s.lambda} ${s.service} ${s.memory}: cavity thesis ${s.cavity.toFixed(4)} ours ${mf.meanResponseTime.toFixed(4)} (π₀ ${mf.reduction!.pi0.toFixed(4)})`,
  );
  const config: ComparisonConfig = {
    ...preset,
    ns: ns.length > 0 ? preset.ns.filter((n) => ns.includes(n)) : preset.ns,
    sampling: 'with-replacement',
    jobs,
    replications,
    seed: 1,
    warmupTolerance: 1e-3,
    warmupSafetyFactor: 2,
    maxLevel: 30,
    trajectory: null,
    exact: null,
  };
  if (config.ns.length === 0) continue;
  const t0 = Date.now();
  const result = runComparison(config);
  for (const cell of result.cells) {
    const thesis = s.finite[THESIS_MEMORY_NS.indexOf(cell.n)];
    const e = cell.simulation.meanResponseTime;
    const z = (thesis - e.mean) / e.halfWidth;
    console.log(
      `  n=${String(cell.n).padStart(4)}: thesis ${thesis.toFixed(4)}  ours ${e.mean.toFixed(4)} ± ${e.halfWidth.toFixed(4)}  (thesis − ours)/h = ${z.toFixed(2)}  compare: ${cell.verdict.status}`,
    );
  }
  console.log(`  (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
}
