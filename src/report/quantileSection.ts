/**
 * The response-time quantile cells of a comparison report (issue 20 §3): per model and cell, the simulated pooled
 * percentile with its sectioning CI against the mean field's t_p, the fitted allowance, Holm's p and the verdict
 * ("shown, not judged" without a predicted finite-n term), or the short-section warning (issue 21 §4).
 * Data: compare/quantileCells.ts.
 */
import { QUANTILE_RULE, type ComparisonResult, type QuantileCell, type ModelSummary } from '../compare/index.ts';
import { fix, markdownTable, statusText } from './page.ts';
import { estimateIntervalText } from '../stats/index.ts';

/** The judged quantile checks of the report (cells and fitted limits), and how many disagree. */
export function quantileCounts(result: ComparisonResult): { disagree: number; judged: number; any: boolean } {
  const cells = result.models.flatMap((m) => m.quantiles?.cells ?? []);
  const limits = result.models.flatMap((m) => m.quantiles?.limits ?? []).map((l) => l.check);
  return {
    disagree: cells.filter((c) => c.verdict.status === 'disagrees').length + limits.filter((l) => l.status === 'disagrees').length,
    judged: cells.filter((c) => !Number.isNaN(c.verdict.pValue)).length + limits.filter((l) => l.status !== 'not-judged').length,
    any: result.models.some((m) => m.quantiles),
  };
}

const pHolm = (p: number | null) => (p === null ? '–' : p < 1e-4 ? p.toExponential(1) : p.toFixed(4));

/** The "Response-time quantiles" section (Markdown with its heading), or '' when no model has a mean-field law. */
export function quantileSection(result: ComparisonResult): string {
  const rows: { m: ModelSummary; c: QuantileCell }[] = result.models.flatMap((m) => (m.quantiles?.cells ?? []).map((c) => ({ m, c })));
  if (rows.length === 0) return '';
  const warned = rows.filter((r) => r.c.warning);
  const table = markdownTable(rows, [
    ['d', (r) => `${r.m.d}`],
    ['λ', (r) => `${r.m.lambda}`],
    ['n', (r) => `${r.c.n}`],
    ['p', (r) => `${r.c.p}`],
    // the sectioning interval inverts the cdf (not symmetric): printed as it is, not as mean ± half its length
    // by simulate's one rule (`estimateIntervalText`: decimals from the interval's width, ∞ at an open end)
    ['simulated [95 % CI]', (r) => estimateIntervalText(r.c.simulated.mean, r.c.simulated.ci95)],
    ['mean field t_p', (r) => fix(r.c.meanField)],
    ['difference', (r) => fix(r.c.simulated.mean - r.c.meanField)],
    ['allowance', (r) => (Number.isFinite(r.c.verdict.allowance) ? fix(r.c.verdict.allowance) : 'n/a')],
    ['p Holm', (r) => pHolm(r.c.verdict.adjustedPValue)],
    [
      'verdict',
      (r) =>
        r.c.warning
          ? 'not judged (short sections)'
          : r.c.verdict.status === 'not-judged'
            ? 'shown, not judged (no predicted term)'
            : `**${statusText(r.c.verdict.status)}**`,
    ],
  ]);
  const limits = result.models.flatMap((m) => (m.quantiles?.limits ?? []).map((l) => ({ m, l })));
  const limitTable = markdownTable(limits, [
    ['d', (r) => `${r.m.d}`],
    ['λ', (r) => `${r.m.lambda}`],
    ['p', (r) => `${r.l.p}`],
    ['mean field t_p', (r) => fix(r.l.meanField)],
    ['fitted â ± h', (r) => (Number.isFinite(r.l.fitted) ? `${fix(r.l.fitted)} ± ${fix(r.l.fittedHalfWidth)}` : 'n/a')],
    ['â − t_p', (r) => (Number.isFinite(r.l.fitted) ? fix(r.l.fitted - r.l.meanField) : 'n/a')],
    // the fitted limit of a percentile is not calibrated yet (compare/quantileCells.ts): shown, never counted
    ['limit', (r) => (r.l.check.status === 'not-judged' ? 'shown, not judged' : `**${statusText(r.l.check.status)}**`)],
  ]);
  const solvers = [...new Set(result.models.flatMap((m) => (m.quantiles ? [m.quantiles.solver] : [])))].join('; ');
  return (
    `\n### Response-time quantiles\n\nMean field: ${solvers}. Rule: ${QUANTILE_RULE}.\n\n${limitTable}\n\n${table}\n` +
    (warned.length > 0
      ? `\n**Not judged**: ${warned.length} quantile cell${warned.length === 1 ? '' : 's'}: ${warned[0].c.warning}.\n`
      : '')
  );
}
