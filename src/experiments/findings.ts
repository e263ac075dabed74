/**
 * The seed study's claims (theory.md §1, H1–H3; Mitzenmacher & Dell'Amico, TPDS 2022) evaluated on an experiment
 * grid, each at each grid point where its cells exist, with 95% CIs: `holds` when the difference is significant in
 * the claimed direction, `fails` when significant the other way, `undecided` when the CI straddles zero.
 * Differences of independent estimates use the half-width √(h₁² + h₂²) (independent seeds per cell).
 */
import type { Estimate } from '../stats/index.ts';
import type { CellOutcome } from './outcome.ts';

export interface Finding {
  readonly claim: 'H1' | 'H2' | 'H3';
  readonly statement: string;
  readonly where: string;
  readonly verdict: 'holds' | 'fails' | 'undecided';
  /** The numbers behind the verdict, in words. */
  readonly evidence: string;
}

export const CLAIMS = {
  H1: 'Known sizes help most at high load: the gain of LWL+SRPT over JSQ+FIFO grows with λ',
  H2: 'Even weak predictions beat blind FIFO: JSQ+SPRPT with the prediction beats JSQ+FIFO',
  H3: 'With predicted ordering, choosing by job count beats choosing by predicted work: JSQ+SPRPT beats LPW+SPRPT',
} as const;

type Verdict = Finding['verdict'];

/** Verdict on "a < b" from two independent estimates. */
export function lessThan(a: Estimate, b: Estimate): { verdict: Verdict; difference: number; halfWidth: number } {
  const difference = a.mean - b.mean;
  const halfWidth = Math.hypot(a.halfWidth, b.halfWidth);
  const verdict: Verdict = difference + halfWidth < 0 ? 'holds' : difference - halfWidth > 0 ? 'fails' : 'undecided';
  return { verdict, difference, halfWidth };
}

/** Ratio a/b with a delta-method half-width (relative half-widths added in quadrature). */
function ratio(a: Estimate, b: Estimate): { value: number; halfWidth: number } {
  const value = a.mean / b.mean;
  return { value, halfWidth: value * Math.hypot(a.halfWidth / a.mean, b.halfWidth / b.mean) };
}

const f3 = (x: number) => x.toFixed(3);

function group(outcomes: readonly CellOutcome[]): Map<string, CellOutcome[]> {
  const groups = new Map<string, CellOutcome[]>();
  for (const o of outcomes) {
    const g = `${o.cell.service}, d = ${o.cell.d}, n = ${o.cell.n}`;
    groups.set(g, [...(groups.get(g) ?? []), o]);
  }
  return groups;
}

function find(cells: readonly CellOutcome[], policy: string, prediction: string, lambda: number): CellOutcome | undefined {
  return cells.find((o) => o.cell.policy === policy && o.cell.prediction === prediction && o.cell.lambda === lambda);
}

/**
 * Evaluates H1–H3 wherever the grid holds the cells they need.
 * - H1 needs JSQ+FIFO and LWL+SRPT at ≥ 2 values of λ: holds if the ratio E[T]_JSQ+FIFO / E[T]_LWL+SRPT at the
 *   largest λ exceeds the ratio at the smallest, beyond both CIs.
 * - H2 per λ and prediction p ≠ exact: JSQ+SPRPT[p] vs JSQ+FIFO.
 * - H3 per λ and prediction p: JSQ+SPRPT[p] vs LPW+SPRPT[p].
 */
export function evaluateFindings(outcomes: readonly CellOutcome[]): Finding[] {
  const findings: Finding[] = [];
  for (const [where, cells] of group(outcomes)) {
    const lambdas = [...new Set(cells.map((o) => o.cell.lambda))].sort((a, b) => a - b);
    const predictions = [...new Set(cells.map((o) => o.cell.prediction))].filter((p) => p !== 'none');
    // H1
    const gains = lambdas.map((l) => {
      const fifo = find(cells, 'JSQ+FIFO', 'none', l);
      const srpt = find(cells, 'LWL+SRPT', 'none', l);
      return fifo && srpt ? { lambda: l, ...ratio(fifo.result.meanResponseTime, srpt.result.meanResponseTime) } : undefined;
    }).filter((g): g is NonNullable<typeof g> => g !== undefined);
    if (gains.length >= 2) {
      const lo = gains[0], hi = gains[gains.length - 1];
      const diff = hi.value - lo.value, h = Math.hypot(hi.halfWidth, lo.halfWidth);
      const verdict: Verdict = diff - h > 0 ? 'holds' : diff + h < 0 ? 'fails' : 'undecided';
      findings.push({ claim: 'H1', statement: CLAIMS.H1, where, verdict,
        evidence: `gain E[T]_JSQ+FIFO/E[T]_LWL+SRPT ${gains.map((g) => `${f3(g.value)} ± ${f3(g.halfWidth)} at λ = ${g.lambda}`).join('; ')}` });
    }
    for (const p of predictions) {
      for (const l of lambdas) {
        const sprpt = find(cells, 'JSQ+SPRPT', p, l);
        const fifo = find(cells, 'JSQ+FIFO', 'none', l);
        if (p !== 'exact' && sprpt && fifo) {
          const c = lessThan(sprpt.result.meanResponseTime, fifo.result.meanResponseTime);
          findings.push({ claim: 'H2', statement: CLAIMS.H2, where: `${where}, λ = ${l}, prediction ${p}`, verdict: c.verdict,
            evidence: `E[T] JSQ+SPRPT ${f3(sprpt.result.meanResponseTime.mean)} vs JSQ+FIFO ${f3(fifo.result.meanResponseTime.mean)}: difference ${f3(c.difference)} ± ${f3(c.halfWidth)}` });
        }
        const lpw = find(cells, 'LPW+SPRPT', p, l);
        if (sprpt && lpw) {
          const c = lessThan(sprpt.result.meanResponseTime, lpw.result.meanResponseTime);
          findings.push({ claim: 'H3', statement: CLAIMS.H3, where: `${where}, λ = ${l}, prediction ${p}`, verdict: c.verdict,
            evidence: `E[T] JSQ+SPRPT ${f3(sprpt.result.meanResponseTime.mean)} vs LPW+SPRPT ${f3(lpw.result.meanResponseTime.mean)}: difference ${f3(c.difference)} ± ${f3(c.halfWidth)}` });
        }
      }
    }
  }
  return findings;
}
