/**
 * Markdown of a "Without V" convergence report (theory.md §8): any model with a mean-field solver, the solver named
 * with its kind and error bars, the limit fitted from the n-sweep, per-n verdicts with the stated allowance.
 */
import { serviceLabel, type GeneralComparisonResult, type GeneralModelSummary } from '../compare/index.ts';
import type { Figure } from './figures.ts';
import type { RunMetadata } from './writeReport.ts';

const fix = (x: number, k = 4) => (Number.isFinite(x) ? x.toFixed(k) : 'n/a');
const sci = (x: number) => (Number.isFinite(x) ? x.toExponential(2) : 'n/a');

/** "1.3742 (exact, ± 0)", "1.5767 ± 0.0075 (estimate, 95% CI)", "3.3115 ± 4.3e-6 (numerical)". */
export function referenceText(m: GeneralModelSummary): string {
  const r = m.reference;
  if (r.kind === 'estimate') return `${fix(r.meanResponseTime)} ± ${fix(r.halfWidth)} (estimate, 95% CI)`;
  if (r.kind === 'approximation') return `${fix(r.meanResponseTime)} (approximation, error not bounded)`;
  return r.numericalError > 0 ? `${fix(r.meanResponseTime)} ± ${sci(r.numericalError)} (numerical)` : `${fix(r.meanResponseTime)} (exact)`;
}

function modelTable(result: GeneralComparisonResult): string {
  const head = '| d | λ | solver | kind | E[T]∞ reference | warm-up | â ± h (fit) | â − E[T]∞ | limit | ĉ₁ (± s.e.) | ĉ₂ (± s.e.) | χ²/dof | ' +
    'c₁ through reference (± s.e.) | slope of log\\|err\\| (n used) |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|';
  const lines = result.models.map((m) => {
    const f = m.fit;
    const slope = m.slope ? `${fix(m.slope.slope, 2)} (${m.slope.nUsed.join(', ')})` : 'not resolved';
    const through = m.fitThroughReference ? `${fix(m.fitThroughReference.c1, 2)} (± ${fix(m.fitThroughReference.c1StandardError, 2)})` : 'n/a';
    return `| ${m.d} | ${m.lambda} | ${m.reference.solver} | ${m.reference.kind} | ${referenceText(m)} | ${fix(m.warmupTime, 1)} | ` +
      `${f ? `${fix(f.a)} ± ${fix(f.aHalfWidth)}` : 'n/a'} | ${fix(m.limit.difference)} | **${m.limit.status}** | ` +
      `${f ? `${fix(f.c1, 2)} (± ${fix(f.c1StandardError, 2)})` : 'n/a'} | ${f && f.inverseSquare ? `${fix(f.c2, 1)} (± ${fix(f.c2StandardError, 1)})` : '–'} | ` +
      `${f && f.degreesOfFreedom > 0 ? fix(f.chiSquare / f.degreesOfFreedom, 2) : '–'} | ${through} | ${slope} |`;
  });
  return [head, ...lines].join('\n');
}

function workloadTable(result: GeneralComparisonResult): string {
  const lwl = result.models.filter((m) => m.workload);
  if (lwl.length === 0) return '';
  const head = '| d | λ | workload solver | its sup error | slope of sup\\|F̂−F̄\\| (n used) |\n|---|---|---|---|---|';
  const lines = lwl.map((m) => `| ${m.d} | ${m.lambda} | ${m.workload!.solver} | ${sci(m.workload!.numericalError)} | ` +
    `${m.workloadSlope ? `${fix(m.workloadSlope.slope, 2)} (${m.workloadSlope.nUsed.join(', ')})` : 'not resolved'} |`);
  return `\n### Workload ccdf (LWL)\n\n${[head, ...lines].join('\n')}\n`;
}

function cellTable(result: GeneralComparisonResult): string {
  const hasWork = result.cells.some((c) => c.errors.workloadSup !== null);
  const hasTail = result.cells.some((c) => c.errors.tailSup !== null);
  const extra = hasWork ? ' sup\\|F̂−F̄\\| (max h) |' : hasTail ? ' sup\\|ŝ−s\\| |' : '';
  const head = `| d | λ | n | simulated E[T] ± h | reference | sim − reference | CI ⊕ ref | allowance \\|ĉ₁\\|/n + \\|ĉ₂\\|/n² | z | verdict |${extra} events | events/s |\n` +
    `|---|---|---|---|---|---|---|---|---|---|${extra ? '---|' : ''}---|---|`;
  const lines = result.cells.map((c) => {
    const m = result.models.find((x) => x.d === c.d && x.lambda === c.lambda)!;
    const v = c.verdict;
    const more = hasWork ? ` ${sci(c.errors.workloadSup ?? NaN)} (${sci(c.errors.workloadHalfWidth ?? NaN)}) |` : hasTail ? ` ${sci(c.errors.tailSup ?? NaN)} |` : '';
    return `| ${c.d} | ${c.lambda} | ${c.n} | ${fix(c.simulation.meanResponseTime.mean)} ± ${fix(c.simulation.meanResponseTime.halfWidth)} | ` +
      `${referenceText(m)} | ${fix(v.difference)} | ${fix(v.combinedHalfWidth)} | ${fix(v.allowance)} | ${fix(v.zScore, 1)} | **${v.status}** |${more} ` +
      `${sci(c.simulation.events)} | ${sci(c.simulation.eventsPerSecond)} |`;
  });
  return [head, ...lines].join('\n');
}

function summary(result: GeneralComparisonResult): string {
  const count = (xs: { status: string }[], s: string) => xs.filter((x) => x.status === s).length;
  const limits = result.models.map((m) => m.limit);
  const verdicts = result.cells.map((c) => c.verdict);
  const c1 = result.models.map((m) => `d = ${m.d}, λ = ${m.lambda}: ĉ₁ = ${m.fit ? `${fix(m.fit.c1, 2)} ± ${fix(1.96 * m.fit.c1StandardError, 2)}` : 'n/a'}`);
  return `Limits: of ${limits.length} model${limits.length === 1 ? '' : 's'}, **${count(limits, 'agrees')} agree** and **${count(limits, 'disagrees')} disagree** with the mean-field ` +
    `reference (the fitted n → ∞ value â against E[T]∞ with the combined 95% CI)${count(limits, 'not-judged') ? `; ${count(limits, 'not-judged')} not judged (too few n)` : ''}.\n` +
    `Per n: ${count(verdicts, 'agrees')} cells agree, ${count(verdicts, 'disagrees')} disagree, ${count(verdicts, 'not-judged')} not judged ` +
    '(no refined term V exists here, so each cell is allowed the fitted finite-n bias |ĉ₁|/n + |ĉ₂|/n²; see Method).\n\n' +
    `Measured 1/n coefficients (95%): ${c1.join('; ')}.`;
}

/** The report body (Markdown) of a general comparison. */
export function generalReportMarkdown(result: GeneralComparisonResult, figures: readonly Figure[], meta: RunMetadata): string {
  const c = result.config;
  const m0 = result.models[0];
  const model = m0.model;
  const fig = (f: Figure) =>
    `### ${f.title}\n\n![${f.title}](figures/${f.name}.svg)\n\n${f.caption}\n\n` +
    `Files: [PNG](figures/${f.name}.png) · [SVG](figures/${f.name}.svg) · [vega-lite spec](figures/${f.name}.vl.json) · ` +
    `[data CSV](figures/${f.name}.csv) · [data JSON](figures/${f.name}.json)\n`;
  const solvers = [...new Map(result.models.map((m) => [m.reference.solver, m])).values()]
    .map((m) => `- **${m.reference.solver}** (${m.reference.kind}): ${m.reference.source}. Error bar: ${
      m.reference.kind === 'estimate' ? 'the estimate\'s 95% CI (a cavity simulation; it covers the final run only)'
        : m.reference.kind === 'approximation' ? 'none stated: an approximation (a disagreement may be the approximation\'s)'
          : m.reference.numericalError > 0 ? `numerical, ${sci(m.reference.numericalError)} (e.g. d = ${m.d}, λ = ${m.lambda})` : 'none needed (closed form)'}.`)
    .join('\n');
  return `# Convergence report: ${model.selection.toUpperCase()}(d) ${model.discipline.toUpperCase()} mean field vs finite-n simulation

${model.selection.toUpperCase()}(d) selection, ${model.discipline.toUpperCase()} discipline, service ${serviceLabel(model.service)}, prediction ${model.prediction.kind}, sampling ${c.sampling} (time in mean service times when the service mean is 1).
Generated ${meta.startedAt} by \`${meta.command}\` in ${meta.wallSeconds.toFixed(1)} s (supermarket-lab ${result.provenance.version}).

## Summary

${summary(result)}

- Grid: d ∈ {${c.ds.join(', ')}}, λ ∈ {${c.lambdas.join(', ')}}, n ∈ {${c.ns.join(', ')}}.
- Budget per cell: ${c.replications} independent replications × ${c.jobs.toExponential(1)} measured jobs, each after its own warm-up (${m0.warmupRule}).
- Master seed ${c.seed}; each cell's seed is derived from it and the cell key (see results.json).
${result.notes.map((n) => `- ${n}`).join('\n')}

## Method

- **Mean-field reference** (picked by \`solveMeanField\`, theory.md §2–§7):
${solvers.split('\n').map((l) => `  ${l}`).join('\n')}
- **No refined term**: the 1/n term V is known only for JSQ(d), FIFO, exponential sizes (theory.md §6); this model is judged
  "Without V" (theory.md §8).
- **Simulation** (theory.md §8): event-driven, the model as given; E[T] is the mean over jobs arriving after the warm-up, each followed
  to its departure; CIs are Student-t 95% over replications.${m0.workload ? ' The workload ccdf is a time average over the same window.' : ''}
- **Limit fit**: weighted least squares x̂_n = a + c₁/n${result.models.some((m) => m.fit?.inverseSquare) ? ' + c₂/n²' : ''} (weights 1/σ_n², σ_n = h_n/t);
  **limit verdict**: ${m0.limit.rule}.
- **Per-n verdict**: ${result.cells[0]?.verdict.rule ?? ''}. The allowance is fitted from the same sweep, so this checks
  consistency with a c₁/n approach; the limit verdict is the test of the mean field.
- **Slope**: least squares of log|E[T]_n − E[T]∞| on log n over the n where the difference is resolved (> 3 × combined half-width);
  "c₁ through reference" fits E[T]_n − E[T]∞ = c₁/n + c₂/n² with the reference taken as the limit.

## Per model

${modelTable(result)}
${workloadTable(result)}
## Per cell

${cellTable(result)}

## Figures

${figures.map(fig).join('\n')}
## Files

- \`results.json\`: the full comparison (every estimate with its CI, seeds, verdicts); \`metadata.json\`: command, versions, machine, wall time.
- \`cells/\`: one JSON per finished simulation; rerunning the same command resumes from them (verdicts are recomputed).

## Reproduce

\`\`\`
${meta.command}
\`\`\`

Versions: ${Object.entries(meta.versions).map(([k, v]) => `${k} ${v}`).join(', ')}. Machine: ${meta.machine.cpu}, ${meta.machine.cores} cores, ${meta.machine.platform}.
`;
}
