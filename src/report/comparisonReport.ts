/**
 * The report of a comparison (`runComparison`): with the refined term (JSQ(d) FIFO exponential) a validation report
 * against π + V/n; otherwise a "Without V" convergence report (theory.md §8) naming the solver with its kind and error
 * bars, the limit fitted from the n-sweep and the per-n verdicts with the stated allowance. Written as a report folder
 * (see `writeReportFolder`).
 */
import { serviceLabel, type CellResult, type ComparisonResult, type ModelSummary } from '../compare/index.ts';
import { comparisonFigures } from './comparisonFigures.ts';
import { figureSection, type Figure } from './figures.ts';
import { fix, markdownTable, reproduceSection, sci, writeReportFolder, type RunMetadata } from './page.ts';
import { refinementCellColumns, refinementSection, secondOrderModelColumns, verdictText } from './refinementSection.ts';

type Columns<T> = (readonly [string, (x: T) => string])[];

/** "1.3742 (exact)", "1.5767 ± 0.0075 (cavity 95% CI)", "3.3115 ± 4.3e-6 (numerical)". */
export function referenceText(m: ModelSummary): string {
  const r = m.reference;
  if (r.kind === 'estimate') return `${fix(r.meanResponseTime)} ± ${fix(r.halfWidth)} (estimate, 95% CI)`;
  if (r.kind === 'approximation') return `${fix(r.meanResponseTime)} (approximation, error not bounded)`;
  return r.numericalError > 0 ? `${fix(r.meanResponseTime)} ± ${sci(r.numericalError)} (numerical)` : `${fix(r.meanResponseTime)} (exact)`;
}

const modelOf = (result: ComparisonResult, c: CellResult) => result.models.find((x) => x.d === c.d && x.lambda === c.lambda)!;
const slopeText = (s: ModelSummary['slope']) => (s ? `${fix(s.slope, 2)} (${s.nUsed.join(', ')})` : 'not resolved');
const withError = (x: number, se: number, k: number) => `${fix(x, k)} (± ${fix(se, k)})`;

function modelColumns(result: ComparisonResult): Columns<ModelSummary> {
  const head: Columns<ModelSummary> = [['d', (m) => `${m.d}`], ['λ', (m) => `${m.lambda}`]];
  if (result.judgedBy === 'refined-mean-field') {
    return [...head,
      ['E[T]∞ (mean field)', (m) => fix(m.reference.meanResponseTime)], ['ΣV', (m) => fix(m.refined!.sumV)],
      ['τ (relaxation)', (m) => fix(m.relaxationTime ?? NaN, 1)], ['warm-up', (m) => fix(m.warmupTime, 1)],
      ['slope of log\\|err\\| (± s.e.)', (m) => (m.slope ? `${fix(m.slope.slope, 2)} (± ${fix(m.slope.standardError, 2)})` : 'not resolved')],
      ['n used', (m) => (m.slope ? m.slope.nUsed.join(', ') : '–')],
      ['c₁ fit (± s.e.)', (m) => (m.fitThroughReference ? withError(m.fitThroughReference.c1, m.fitThroughReference.c1StandardError, 2) : 'n/a')],
      ['ΣV/λ', (m) => fix(m.refined!.sumV / m.lambda, 2)], ...secondOrderModelColumns(result)];
  }
  return [...head,
    ['solver', (m) => m.reference.solver], ['kind', (m) => m.reference.kind], ['E[T]∞ reference', referenceText],
    ['warm-up', (m) => fix(m.warmupTime, 1)], ['â ± h (fit)', (m) => (m.fit ? `${fix(m.fit.a)} ± ${fix(m.fit.aHalfWidth)}` : 'n/a')],
    ['â − E[T]∞', (m) => fix(m.limit.difference)], ['limit', (m) => `**${m.limit.status}**`],
    ['ĉ₁ (± s.e.)', (m) => (m.fit ? withError(m.fit.c1, m.fit.c1StandardError, 2) : 'n/a')],
    ['ĉ₂ (± s.e.)', (m) => (m.fit && m.fit.inverseSquare ? withError(m.fit.c2, m.fit.c2StandardError, 1) : '–')],
    ['χ²/dof', (m) => (m.fit && m.fit.degreesOfFreedom > 0 ? fix(m.fit.chiSquare / m.fit.degreesOfFreedom, 2) : '–')],
    ['c₁ through reference (± s.e.)', (m) => (m.fitThroughReference ? withError(m.fitThroughReference.c1, m.fitThroughReference.c1StandardError, 2) : 'n/a')],
    ['slope of log\\|err\\| (n used)', (m) => slopeText(m.slope)]];
}

function workloadTable(result: ComparisonResult): string {
  const lwl = result.models.filter((m) => m.workload);
  if (lwl.length === 0) return '';
  return `\n### Workload ccdf (LWL)\n\n${markdownTable(lwl, [['d', (m) => `${m.d}`], ['λ', (m) => `${m.lambda}`],
    ['workload solver', (m) => m.workload!.solver], ['its sup error', (m) => sci(m.workload!.numericalError)],
    ['slope of sup\\|F̂−F̄\\| (n used)', (m) => slopeText(m.workloadSlope)]])}\n`;
}

function cellColumns(result: ComparisonResult): Columns<CellResult> {
  const head: Columns<CellResult> = [['d', (c) => `${c.d}`], ['λ', (c) => `${c.lambda}`], ['n', (c) => `${c.n}`],
    ['simulated E[T] ± h', (c) => `${fix(c.simulation.meanResponseTime.mean)} ± ${fix(c.simulation.meanResponseTime.halfWidth)}`]];
  const tail: Columns<CellResult> = [['events', (c) => sci(c.simulation.events)], ['events/s', (c) => sci(c.simulation.eventsPerSecond)]];
  if (result.judgedBy === 'refined-mean-field') {
    return [...head,
      ['mean field', (c) => fix(modelOf(result, c).reference.meanResponseTime)], ['refined', (c) => fix(c.refined!.meanResponseTime)],
      ...refinementCellColumns(result),
      ['sim − refined', (c) => fix(c.verdict.difference)], ['allowance δ', (c) => sci(c.verdict.allowance)], ['z', (c) => fix(c.verdict.zScore, 1)],
      ['verdict', verdictText], ['sup\\|ŝ−s\\| MF', (c) => sci(c.errors.tailSup ?? NaN)],
      ['sup\\|ŝ−s\\| refined', (c) => sci(c.errors.tailSupVsRefined ?? NaN)], ...tail];
  }
  const extra: Columns<CellResult> = result.cells.some((c) => c.errors.workloadSup !== null)
    ? [['sup\\|F̂−F̄\\| (max h)', (c) => `${sci(c.errors.workloadSup ?? NaN)} (${sci(c.errors.workloadHalfWidth ?? NaN)})`]]
    : result.cells.some((c) => c.errors.tailSup !== null) ? [['sup\\|ŝ−s\\|', (c) => sci(c.errors.tailSup ?? NaN)]] : [];
  return [...head,
    ['reference', (c) => referenceText(modelOf(result, c))], ...refinementCellColumns(result), ['sim − reference', (c) => fix(c.verdict.difference)],
    ['CI ⊕ ref', (c) => fix(c.verdict.combinedHalfWidth)], ['allowance \\|ĉ₁\\|/n + \\|ĉ₂\\|/n²', (c) => fix(c.verdict.allowance)],
    ['z', (c) => fix(c.verdict.zScore, 1)], ['verdict', verdictText], ...extra, ...tail];
}

function summary(result: ComparisonResult): string {
  const count = (xs: readonly { status: string }[], s: string) => xs.filter((x) => x.status === s).length;
  const verdicts = result.cells.map((c) => c.verdict);
  if (result.judgedBy === 'refined-mean-field') {
    const judged = count(verdicts, 'agrees') + count(verdicts, 'disagrees');
    return `Of ${result.cells.length} cells, **${count(verdicts, 'agrees')} agree** and **${count(verdicts, 'disagrees')} disagree** with the refined mean field; ` +
      `${count(verdicts, 'refined-out-of-range')} are outside the range where the 1/n expansion is trusted (ΣV/(nΣπ) > 5%) and are not judged. ` +
      `With 95% intervals about ${(0.05 * judged).toFixed(1)} of ${judged} judged cells would disagree by chance alone; the z column gives the ` +
      `standardised distance for a multiple-testing reading.`;
  }
  const limits = result.models.map((m) => m.limit);
  const c1 = result.models.map((m) => `d = ${m.d}, λ = ${m.lambda}: ĉ₁ = ${m.fit ? `${fix(m.fit.c1, 2)} ± ${fix(1.96 * m.fit.c1StandardError, 2)}` : 'n/a'}`);
  return `Limits: of ${limits.length} model${limits.length === 1 ? '' : 's'}, **${count(limits, 'agrees')} agree** and **${count(limits, 'disagrees')} disagree** with the mean-field ` +
    `reference (the fitted n → ∞ value â against E[T]∞ with the combined 95% CI)${count(limits, 'not-judged') ? `; ${count(limits, 'not-judged')} not judged (too few n)` : ''}.\n` +
    `Per n: ${count(verdicts, 'agrees')} cells agree, ${count(verdicts, 'disagrees')} disagree, ${count(verdicts, 'not-judged')} not judged ` +
    '(no refined term V exists here, so each cell is allowed the fitted finite-n bias |ĉ₁|/n + |ĉ₂|/n²; see Method).\n\n' +
    `Measured 1/n coefficients (95%): ${c1.join('; ')}.`;
}

const SLOPE_METHOD = '- **Slope**: least squares of log|E[T]_n − E[T]∞| on log n over the n where the difference is resolved';
const SIMULATION_METHOD = '- **Simulation** (theory.md §8): event-driven';

function method(result: ComparisonResult): string {
  const m0 = result.models[0];
  if (result.judgedBy === 'refined-mean-field') {
    return `- **Mean field** (theory.md §2): s_i* = λ^((d^i−1)/(d−1)), E[T]∞ = Σ_{i≥1} s_i*/λ (Vvedenskaya, Dobrushin, Karpelevich 1996; Mitzenmacher 2001).
- **Refined mean field** (theory.md §6; Gast & Van Houdt 2017): E[Q_n] ≈ Σπ + ΣV/n with V = −A⁻¹b from the Jacobian A, the Hessian
  and the Lyapunov solution W of AW + WAᵀ + Q = 0; E[T_n] = E[Q_n]/λ.
${SIMULATION_METHOD}, ties among the sampled minimisers broken uniformly at random; E[T] is the mean over
  jobs arriving after the warm-up; CIs are Student-t 95% over replications.
- **Verdict**: ${result.cells[0]?.verdict.rule ?? ''}.
${SLOPE_METHOD} (> 3 × CI half-width);
  c₁ is the weighted fit of E[T]_n − E[T]∞ = c₁/n + c₂/n² (weights 1/σ_n², σ_n = h_n/t_{0.975,R−1}), to be compared with ΣV/λ.`;
  }
  const solvers = [...new Map(result.models.map((m) => [m.reference.solver, m])).values()]
    .map((m) => `- **${m.reference.solver}** (${m.reference.kind}): ${m.reference.source}. Error bar: ${
      m.reference.kind === 'estimate' ? 'the estimate\'s 95% CI (a cavity solver: independent restarts)'
        : m.reference.kind === 'approximation' ? 'none stated: an approximation (a disagreement may be the approximation\'s)'
          : m.reference.numericalError > 0 ? `numerical, ${sci(m.reference.numericalError)} (e.g. d = ${m.d}, λ = ${m.lambda})` : 'none needed (closed form)'}.`);
  return `- **Mean-field reference** (picked by \`solveMeanField\`, theory.md §2–§7):
${solvers.map((l) => `  ${l}`).join('\n')}
- **No refined term**: the 1/n term V is known only for JSQ(d), FIFO, exponential sizes (theory.md §6); this model is judged
  "Without V" (theory.md §8).
${SIMULATION_METHOD}, the model as given; E[T] is the mean over jobs arriving after the warm-up, each followed
  to its departure; CIs are Student-t 95% over replications.${m0.workload ? ' The workload ccdf is a time average over the same window.' : ''}
- **Limit fit**: weighted least squares x̂_n = a + c₁/n${result.models.some((m) => m.fit?.inverseSquare) ? ' + c₂/n²' : ''} (weights 1/σ_n², σ_n = h_n/t);
  **limit verdict**: ${m0.limit.rule}.
- **Per-n verdict**: ${result.cells[0]?.verdict.rule ?? ''}. The allowance is fitted from the same sweep, so this checks
  consistency with a c₁/n approach; the limit verdict is the test of the mean field.
${SLOPE_METHOD} (> 3 × combined half-width);
  "c₁ through reference" fits E[T]_n − E[T]∞ = c₁/n + c₂/n² with the reference taken as the limit.`;
}

/** The report body (Markdown) of a comparison. */
export function comparisonMarkdown(result: ComparisonResult, figures: readonly Figure[], meta: RunMetadata): string {
  const c = result.config;
  const m0 = result.models[0];
  const refined = result.judgedBy === 'refined-mean-field';
  const model = m0.model;
  const name = `${model.selection.toUpperCase()}(d) ${model.discipline.toUpperCase()}`;
  const heading = refined
    ? `# Validation report: SQ(d) mean field vs finite-n simulation\n\nJSQ(d) selection, FIFO, exponential service of mean 1 (time in mean service times), sampling ${c.sampling}.`
    : `# Convergence report: ${name} mean field vs finite-n simulation\n\n${model.selection.toUpperCase()}(d) selection, ${model.discipline.toUpperCase()} discipline, ` +
      `service ${serviceLabel(model.service)}, prediction ${model.prediction.kind}, sampling ${c.sampling} (time in mean service times when the service mean is 1).`;
  const bullets = [
    `- Grid: d ∈ {${c.ds.join(', ')}}, λ ∈ {${c.lambdas.join(', ')}}, n ∈ {${c.ns.join(', ')}}.`,
    `- Budget per cell: ${c.replications} independent replications × ${c.jobs.toExponential(1)} measured jobs, each after its own warm-up (${m0.warmupRule}).`,
    `- Master seed ${c.seed}; each cell's seed is derived from it and the cell key (see results.json).`,
    ...(refined ? [`- Example: d = ${m0.d}, λ = ${m0.lambda}: E[T]∞ = ${fix(m0.reference.meanResponseTime)}, ΣV = ${fix(m0.refined!.sumV)}.`] : []),
    ...result.notes.map((n) => `- ${n}`),
  ];
  return `${heading}
Generated ${meta.startedAt} by \`${meta.command}\` in ${meta.wallSeconds.toFixed(1)} s (supermarket-lab ${result.provenance.version}).

## Summary

${summary(result)}

${bullets.join('\n')}

## Method

${method(result)}

## Per model

${markdownTable(result.models, modelColumns(result))}
${workloadTable(result)}${refinementSection(result)}
## Per cell

${markdownTable(result.cells, cellColumns(result))}

## Figures

${figures.map(figureSection).join('\n')}
## Files

- \`results.json\`: the full comparison (every estimate with its CI, seeds, verdicts); \`metadata.json\`: command, versions, machine, wall time.
- \`cells/\`: one JSON per finished simulation; rerunning the same command resumes from them (comparisons and verdicts are recomputed;
  delete the folder to start afresh).

${reproduceSection(meta)}`;
}

/**
 * Renders every figure and writes the report folder of a comparison (report.md, index.html, figures, results.json,
 * metadata.json with the config).
 * @param outDir target folder (created if missing); existing files of the same name are replaced atomically.
 * @returns the paths written, relative to outDir.
 */
export async function writeComparisonReport(outDir: string, result: ComparisonResult, meta: RunMetadata): Promise<string[]> {
  const figures = comparisonFigures(result);
  return writeReportFolder(outDir, {
    figures, results: result, metadata: { ...meta, config: result.config }, markdown: comparisonMarkdown(result, figures, meta),
    title: result.judgedBy === 'refined-mean-field' ? 'supermarket-lab validation report' : 'supermarket-lab convergence report',
  });
}
