/**
 * Paper export of a comparison: booktabs tables of the cells and of the per-model fits (`tables.tex`, to \input),
 * and a standalone `report.tex` that sets them with every figure's PDF (figures/<name>.pdf), so that
 * `pdflatex report.tex` in the report folder checks the lot. Needs booktabs and graphicx only.
 */
import type { ComparisonResult } from '../compare/index.ts';
import { fittedLimitInterval, limitWithoutValue } from '../compare/verdict.ts';
import type { ModelSummary } from '../compare/types.ts';
import type { CellOutcome } from '../experiments/outcome.ts';
import type { Figure } from './figures.ts';
// one display text per status (page.ts `statusText`), as the Markdown and HTML tables print it: no machine word here
import { statusText } from './page.ts';
import { plusMinus } from '../stats/index.ts';

/** Text safe in LaTeX: the ten special characters escaped, the Unicode of the report's words spelled in math. */
export function latexText(s: string): string {
  const special: Record<string, string> = {
    '\\': '\\textbackslash{}',
    '&': '\\&',
    '%': '\\%',
    $: '\\$',
    '#': '\\#',
    _: '\\_',
    '{': '\\{',
    '}': '\\}',
    '~': '\\textasciitilde{}',
    '^': '\\textasciicircum{}',
    // the default OT1 encoding (report.tex loads no fontenc) sets a text-mode < and > as ¡ and ¿
    '<': '$<$',
    '>': '$>$',
  };
  const unicode: Record<string, string> = {
    λ: '$\\lambda$',
    ρ: '$\\rho$',
    Σ: '$\\Sigma$',
    '−': '$-$',
    '±': '$\\pm$',
    '≤': '$\\le$',
    '≥': '$\\ge$',
    '∞': '$\\infty$',
    '→': '$\\to$',
    '·': '$\\cdot$',
    '×': '$\\times$',
    ĉ: '$\\hat c$',
    '₁': '$_1$',
    '₂': '$_2$',
    ν: '$\\nu$',
    α: '$\\alpha$',
    '²': '$^2$',
    '³': '$^3$',
    '⁴': '$^4$',
    '√': '$\\sqrt{}$',
    '–': '--',
    '—': '---',
  };
  return [...s].map((c) => special[c] ?? unicode[c] ?? (c.charCodeAt(0) < 128 ? c : '?')).join('');
}

/** A number with `digits` decimals, '--' when it is not finite. */
function num(x: number | null | undefined, digits = 4): string {
  return typeof x === 'number' && Number.isFinite(x) ? x.toFixed(digits) : '--';
}

/**
 * "$x \\pm h$", "$\\infty$" for a mean infinite in theory (model/moments.ts), "not settled (run's average x)" for a mean
 * that is no estimate (stats `unsettledEstimate`), '--' when absent.
 */
function estimate(e: { mean: number; halfWidth: number; infinite?: true; unsettled?: true; sampleMean?: number } | undefined): string {
  if (!e) return '--';
  if (e.unsettled) return latexText(`not settled (run's average ${num(e.sampleMean)})`);
  // x ± h by the one rule of simulated numbers (`plusMinus`: two significant digits of h), as the report's markdown
  return e.infinite || e.mean === Infinity ? '$\\infty$' : `$${plusMinus(e.mean, e.halfWidth, ' \\pm ')}$`;
}

/** A booktabs table: header, rows (cells already LaTeX), column spec, caption and label. */
function table(o: { spec: string; header: string[]; rows: string[][]; caption: string; label: string }): string {
  return [
    '\\begin{table}[htbp]',
    '\\centering\\small',
    `\\caption{${o.caption}}`,
    `\\label{${o.label}}`,
    `\\begin{tabular}{${o.spec}}`,
    '\\toprule',
    `${o.header.join(' & ')} \\\\`,
    '\\midrule',
    ...o.rows.map((r) => `${r.join(' & ')} \\\\`),
    '\\bottomrule',
    '\\end{tabular}',
    '\\end{table}',
    '',
  ].join('\n');
}

/** The cells table (d, λ, n, simulated E[T] ± h, mean field, refined, t, verdict) and the fits table, booktabs. */
export function comparisonLatexTables(result: ComparisonResult): string {
  const refined = result.judgedBy === 'refined-mean-field';
  const cells = [...result.cells].sort((a, b) => a.d - b.d || a.lambda - b.lambda || a.n - b.n);
  const models = result.models.find((m) => m) ? result.models : [];
  const ref = (c: (typeof cells)[number]) => models.find((m) => m.d === c.d && m.lambda === c.lambda)?.reference.meanResponseTime;
  // E[T]∞ in a cell: ∞, its status where it has no value ("not settled", "finite, not computed": no number), or the value
  const refText = (m: ModelSummary | undefined, value: number | undefined) => {
    // ∞ only where proven; a limit with no value reads its status, as report.md (compare/verdict.ts `limitWithoutValue`)
    const known = m && limitWithoutValue(m.reference);
    if (known) return known.status === 'infinite' ? '$\\infty$' : latexText(statusText(known.status));
    return value === Infinity ? '$\\infty$' : num(value);
  };
  const cellTable = table({
    spec: refined ? 'rrrrrrrl' : 'rrrrrrl',
    header: [
      '$d$',
      '$\\lambda$',
      '$n$',
      'simulated $E[T]_n \\pm h$',
      '$E[T]_\\infty$',
      ...(refined ? ['refined $\\pi + V/n$'] : []),
      '$t$',
      'verdict',
    ],
    rows: cells.map((c) => [
      `${c.d}`,
      `${c.lambda}`,
      `${c.n}`,
      estimate(c.simulation.meanResponseTime),
      refText(
        models.find((m) => m.d === c.d && m.lambda === c.lambda),
        ref(c),
      ),
      // a value outside the 1/n expansion's trusted range is marked, as in the report (`refinedText`)
      ...(refined ? [`${num(c.refined?.meanResponseTime)}${c.refined?.trusted === false ? ' (outside range)' : ''}`] : []),
      c.verdict.status === 'not-judged' || !Number.isFinite(c.verdict.tStatistic) ? '--' : num(c.verdict.tStatistic, 2),
      latexText(statusText(c.verdict.status)),
    ]),
    caption: `Mean response time per cell: simulation (${result.config.replications} replications, 95\\% CI half-width $h$) against the mean field${refined ? ' and the refined mean field' : ''}; $t$ and the verdict as in the report.`,
    label: 'tab:cells',
  });
  const fitTable = table({
    spec: refined ? 'rrrrrrl' : 'rrrrrl',
    header: refined
      ? ['$d$', '$\\lambda$', '$E[T]_\\infty$', '$\\Sigma V/\\lambda$', '$\\hat c_1 \\pm 95\\%$', 'slope', '$c_1$ check']
      : ['$d$', '$\\lambda$', '$E[T]_\\infty$', 'fitted limit [95\\%]', '$\\hat c_1 \\pm 95\\%$', 'limit check'],
    rows: result.models.map((m) => {
      const f = m.fit;
      const through = m.fitThroughReference;
      return refined
        ? [
            `${m.d}`,
            `${m.lambda}`,
            num(m.reference.meanResponseTime),
            num(m.refined ? m.refined.sumV / m.lambda : null, 3),
            m.c1Check && m.c1Check.status !== 'not-judged'
              ? `$${plusMinus(m.c1Check.c1, m.c1Check.halfWidth, ' \\pm ')}$`
              : through
                ? num(through.c1, 2)
                : '--',
            m.slope ? num(m.slope.slope, 2) : '--',
            latexText(statusText(m.c1Check?.status ?? 'not-judged')),
          ]
        : [
            `${m.d}`,
            `${m.lambda}`,
            refText(m, m.reference.meanResponseTime),
            f && fittedLimitInterval(m)
              ? `$${num(fittedLimitInterval(m)!.value)}\\ [${num(fittedLimitInterval(m)!.ci95[0])}, ${num(fittedLimitInterval(m)!.ci95[1])}]$`
              : '--',
            f ? `$${plusMinus(f.c1, f.c1HalfWidth, ' \\pm ')}$` : '--',
            latexText(statusText(m.limit.status)),
          ];
    }),
    caption: refined
      ? 'Per model: the mean-field limit, the refined $1/n$ coefficient $\\Sigma V/\\lambda$, the fitted $\\hat c_1$ over the trusted $n$ with its 95\\% interval, the log--log slope of the error, and the $c_1$ check.'
      : 'Per model: the reference limit, the fit $\\hat x_n = a + c_1/n\\,(+ c_2/n^2)$ with 95\\% intervals (the limit by least squares with fixed coefficients), and whether the fitted limit agrees with the reference.',
    label: 'tab:fits',
  });
  return `% supermarket-lab ${result.provenance.version}: tables of the comparison report (booktabs)\n${cellTable}\n${fitTable}`;
}

/** A standalone document with the tables (\input{tables.tex}) and each figure's PDF. */
export function latexDocument(title: string, figures: readonly Pick<Figure, 'name' | 'title'>[]): string {
  return [
    '\\documentclass[11pt]{article}',
    '\\usepackage[margin=2cm,landscape]{geometry}',
    '\\usepackage{booktabs}',
    '\\usepackage{graphicx}',
    `\\title{${latexText(title)}}`,
    '\\date{}',
    '\\begin{document}',
    '\\maketitle',
    '\\input{tables.tex}',
    ...figures.flatMap((f) => [
      '\\begin{figure}[htbp]',
      '\\centering',
      `\\includegraphics[width=\\linewidth,height=0.8\\textheight,keepaspectratio]{figures/${f.name}.pdf}`,
      `\\caption{${latexText(f.title)}}`,
      '\\end{figure}',
    ]),
    '\\end{document}',
    '',
  ].join('\n');
}

/**
 * The cells of an experiment as one booktabs table: policy, service, prediction, d, λ, n, E[T] ± h (and E[T/S] ± h).
 * @param unsettled cell key → why its E[T] is not settled (experimentReport.ts `writeExperimentReport`): its means read
 *   "not settled (run's average x)" with no interval, as the Markdown tables print them.
 * @param warnings cell key → what simulate warns of its E[T] interval (experimentReport.ts `IntervalWarnings`, e.g. not a
 *   95 % interval): the entry is marked $^{w k}$, as the Markdown tables mark it [wk], and the caption says warning k.
 */
export function experimentLatexTable(
  name: string,
  outcomes: readonly CellOutcome[],
  unsettled: ReadonlyMap<string, string> = new Map(),
  warnings: ReadonlyMap<string, readonly string[]> = new Map(),
): string {
  const slowdown = outcomes.some((o) => o.result.meanSlowdown);
  const pm = (e: Parameters<typeof estimate>[0], key: string) =>
    e && !e.infinite && e.mean !== Infinity && !e.unsettled && unsettled.has(key)
      ? latexText(`not settled (run's average ${num(e.mean)})`)
      : estimate(e);
  // the warnings on E[T] intervals, each once, in order of first use (the Markdown's [wk])
  const said: string[] = [];
  const marked = (e: Parameters<typeof estimate>[0], key: string) => {
    const text = pm(e, key);
    const ws = warnings.get(key) ?? [];
    if (!e || e.infinite || e.mean === Infinity || e.unsettled || unsettled.has(key) || ws.length === 0) return text;
    const marks = ws.map((w) => (said.includes(w) ? said.indexOf(w) : said.push(w) - 1) + 1);
    return `${text}$^{${marks.map((k) => `w${k}`).join(',')}}$`;
  };
  const rows = outcomes.map((o) => [
    // the label names the memory, arrivals and batch when not the default (experiments/grid.ts policyLabel)
    latexText(o.cell.policy),
    latexText(o.cell.service),
    latexText(o.cell.prediction),
    `${o.cell.d}`,
    `${o.cell.lambda}`,
    `${o.cell.n}`,
    marked(o.result.meanResponseTime, o.cell.key),
    ...(slowdown ? [pm(o.result.meanSlowdown, o.cell.key)] : []),
  ]);
  const caveat =
    said.length === 0
      ? ''
      : ` Warnings on the marked $E[T]$ intervals (as simulate prints them): ${said.map((w, k) => `$^{w${k + 1}}$ ${latexText(w)}`).join('; ')}.`;
  return `% supermarket-lab: cells of the experiment ${latexText(name)} (booktabs)\n${table({
    spec: slowdown ? 'lllrrrrr' : 'lllrrrr',
    header: ['policy', 'service', 'prediction', '$d$', '$\\lambda$', '$n$', '$E[T] \\pm h$', ...(slowdown ? ['$E[T/S] \\pm h$'] : [])],
    rows,
    caption: `Experiment ${latexText(name)}: mean response time (and mean slowdown) per cell with the 95\\% CI half-width $h$.${caveat}`,
    label: 'tab:cells',
  })}`;
}
