/**
 * Writes the validation report of a comparison to a folder: report.md, index.html (self-contained, opens offline),
 * figures as PNG + SVG + vega-lite spec + CSV + JSON of the plotted rows, results.json and metadata.json.
 * Every file is written atomically.
 */
import path from 'node:path';
import { marked } from 'marked';
import type { ComparisonResult, GeneralComparisonResult } from '../compare/index.ts';
import { allFigures, type Figure } from './figures.ts';
import { generalFigures } from './generalFigures.ts';
import { generalReportMarkdown } from './generalReport.ts';
import { writeFigureFiles } from './writeFigure.ts';
import { writeFileAtomic, writeJsonAtomic } from '../io/atomic.ts';

export interface RunMetadata {
  readonly command: string;
  readonly startedAt: string;
  readonly wallSeconds: number;
  readonly versions: Record<string, string>;
  readonly machine: { readonly cpu: string; readonly cores: number; readonly platform: string };
}

const fix = (x: number, k = 4) => (Number.isFinite(x) ? x.toFixed(k) : 'n/a');
const sci = (x: number) => (Number.isFinite(x) ? x.toExponential(2) : 'n/a');

function modelTable(result: ComparisonResult): string {
  const head = '| d | λ | E[T]∞ (mean field) | ΣV | τ (relaxation) | warm-up | slope of log\\|err\\| (± s.e.) | n used | c₁ fit (± s.e.) | ΣV/λ |\n|---|---|---|---|---|---|---|---|---|---|';
  const lines = result.models.map((m) => {
    const slope = m.slope ? `${fix(m.slope.slope, 2)} (± ${Number.isFinite(m.slope.standardError) ? fix(m.slope.standardError, 2) : 'n/a'})` : 'not resolved';
    const used = m.slope ? m.slope.nUsed.join(', ') : '–';
    const c1 = m.inverseN ? `${fix(m.inverseN.c1, 2)} (± ${fix(m.inverseN.c1StandardError, 2)})` : 'n/a';
    return `| ${m.d} | ${m.lambda} | ${fix(m.meanField.meanResponseTime)} | ${fix(m.sumV)} | ${fix(m.relaxationTime, 1)} | ${fix(m.warmupTime, 1)} | ${slope} | ${used} | ${c1} | ${fix(m.sumV / m.lambda, 2)} |`;
  });
  return [head, ...lines].join('\n');
}

function cellTable(result: ComparisonResult): string {
  const head = '| d | λ | n | simulated E[T] ± h | mean field | refined | sim − refined | allowance δ | z | verdict | sup\\|ŝ−s\\| MF | sup\\|ŝ−s\\| refined | events | events/s |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|';
  const lines = result.cells.map((c) => {
    const m = result.models.find((x) => x.d === c.d && x.lambda === c.lambda)!;
    const v = c.verdict;
    return `| ${c.d} | ${c.lambda} | ${c.n} | ${fix(c.simulation.meanResponseTime.mean)} ± ${fix(c.simulation.meanResponseTime.halfWidth)} | ` +
      `${fix(m.meanField.meanResponseTime)} | ${fix(c.refined.meanResponseTime)} | ${fix(v.difference)} | ${sci(v.allowance)} | ${fix(v.zScore, 1)} | ` +
      `**${v.status}** | ${sci(c.errors.tailSupVsMeanField)} | ${sci(c.errors.tailSupVsRefined)} | ${sci(c.simulation.events)} | ${sci(c.simulation.eventsPerSecond)} |`;
  });
  return [head, ...lines].join('\n');
}

function verdictSummary(result: ComparisonResult): string {
  const count = (s: string) => result.cells.filter((c) => c.verdict.status === s).length;
  const judged = count('agrees') + count('disagrees');
  const expected = 0.05 * judged;
  return `Of ${result.cells.length} cells, **${count('agrees')} agree** and **${count('disagrees')} disagree** with the refined mean field; ` +
    `${count('refined-out-of-range')} are outside the range where the 1/n expansion is trusted (ΣV/(nΣπ) > 5%) and are not judged. ` +
    `With 95% intervals about ${expected.toFixed(1)} of ${judged} judged cells would disagree by chance alone; the z column gives the ` +
    `standardised distance for a multiple-testing reading.`;
}

function reportMarkdown(result: ComparisonResult, figures: readonly Figure[], meta: RunMetadata): string {
  const c = result.config;
  const fig = (f: Figure) =>
    `### ${f.title}\n\n![${f.title}](figures/${f.name}.svg)\n\n${f.caption}\n\n` +
    `Files: [PNG](figures/${f.name}.png) · [SVG](figures/${f.name}.svg) · [vega-lite spec](figures/${f.name}.vl.json) · ` +
    `[data CSV](figures/${f.name}.csv) · [data JSON](figures/${f.name}.json)\n`;
  const m0 = result.models[0];
  return `# Validation report: SQ(d) mean field vs finite-n simulation

JSQ(d) selection, FIFO, exponential service of mean 1 (time in mean service times), sampling ${c.sampling}.
Generated ${meta.startedAt} by \`${meta.command}\` in ${meta.wallSeconds.toFixed(1)} s (supermarket-lab ${result.provenance.version}).

## Summary

${verdictSummary(result)}

- Grid: d ∈ {${c.ds.join(', ')}}, λ ∈ {${c.lambdas.join(', ')}}, n ∈ {${c.ns.join(', ')}}.
- Budget per cell: ${c.replications} independent replications × ${c.jobs.toExponential(1)} measured jobs, each after its own warm-up
  (${c.warmupSafetyFactor} × the time for the mean-field transient from empty to come within ${c.warmupTolerance} of the fixed point, sup norm; at least 3τ).
- Master seed ${c.seed}; each cell's seed is derived from it and the cell key (see results.json).
- Example: d = ${m0?.d}, λ = ${m0?.lambda}: E[T]∞ = ${fix(m0?.meanField.meanResponseTime ?? NaN)}, ΣV = ${fix(m0?.sumV ?? NaN)}.

## Method

- **Mean field** (theory.md §2): s_i* = λ^((d^i−1)/(d−1)), E[T]∞ = Σ_{i≥1} s_i*/λ (Vvedenskaya, Dobrushin, Karpelevich 1996; Mitzenmacher 2001).
- **Refined mean field** (theory.md §6; Gast & Van Houdt 2017): E[Q_n] ≈ Σπ + ΣV/n with V = −A⁻¹b from the Jacobian A, the Hessian
  and the Lyapunov solution W of AW + WAᵀ + Q = 0; E[T_n] = E[Q_n]/λ.
- **Simulation** (theory.md §8): event-driven, ties among the sampled minimisers broken uniformly at random; E[T] is the mean over
  jobs arriving after the warm-up; CIs are Student-t 95% over replications.
- **Verdict**: ${result.cells[0]?.verdict.rule ?? ''}.
- **Slope**: least squares of log|E[T]_n − E[T]∞| on log n over the n where the difference is resolved (> 3 × CI half-width);
  c₁ is the weighted fit of E[T]_n − E[T]∞ = c₁/n + c₂/n², to be compared with ΣV/λ.

## Per model

${modelTable(result)}

## Per cell

${cellTable(result)}

## Figures

${figures.map(fig).join('\n')}
## Files

- \`results.json\`: the full comparison (every estimate with its CI, seeds, verdicts); \`metadata.json\`: command, versions, machine, wall time.
- \`cells/\`: one JSON per finished cell; rerunning the same command resumes from them (delete the folder to start afresh).

## Reproduce

\`\`\`
${meta.command}
\`\`\`

Versions: ${Object.entries(meta.versions).map(([k, v]) => `${k} ${v}`).join(', ')}. Machine: ${meta.machine.cpu}, ${meta.machine.cores} cores, ${meta.machine.platform}.
`;
}

export function htmlPage(markdownBody: string, title: string): string {
  const body = marked.parse(markdownBody, { async: false }) as string;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<style>
body { font-family: 'DejaVu Sans', system-ui, sans-serif; max-width: 1200px; margin: 2em auto; padding: 0 1em; line-height: 1.45; color: #222; }
table { border-collapse: collapse; font-size: 0.82em; margin: 1em 0; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.5em; text-align: right; }
th { background: #f3f3f3; }
img { max-width: 100%; border: 1px solid #eee; }
code, pre { background: #f6f6f6; }
pre { padding: 0.6em; overflow-x: auto; }
</style></head><body>
${body}
</body></html>
`;
}

/** True for the result of `runGeneralComparison` (judged "Without V"), false for `runComparison` (refined mean field). */
export function isGeneralResult(result: ComparisonResult | GeneralComparisonResult): result is GeneralComparisonResult {
  return (result as GeneralComparisonResult).kind === 'without-v';
}

/**
 * Renders every figure and writes the report folder: the refined-mean-field validation report for a `runComparison`
 * result, the "Without V" convergence report (generalReport.ts) for a `runGeneralComparison` result.
 * @param outDir target folder (created if missing); existing files of the same name are replaced atomically.
 * @returns the paths written, relative to outDir.
 */
export async function writeReport(outDir: string, result: ComparisonResult | GeneralComparisonResult, meta: RunMetadata): Promise<string[]> {
  const written: string[] = [];
  const put = (rel: string, data: string | Uint8Array) => {
    writeFileAtomic(path.join(outDir, rel), data);
    written.push(rel);
  };
  const general = isGeneralResult(result);
  const figures = general ? generalFigures(result) : allFigures(result);
  for (const f of figures) {
    written.push(...(await writeFigureFiles(outDir, f)));
  }
  writeJsonAtomic(path.join(outDir, 'results.json'), result);
  written.push('results.json');
  writeJsonAtomic(path.join(outDir, 'metadata.json'), { ...meta, config: result.config });
  written.push('metadata.json');
  const md = general ? generalReportMarkdown(result, figures, meta) : reportMarkdown(result, figures, meta);
  put('report.md', md);
  put('index.html', htmlPage(md, general ? 'supermarket-lab convergence report' : 'supermarket-lab validation report'));
  return written;
}
