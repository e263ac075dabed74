/**
 * The study's claims judged on an experiment's own cells: each claim file (analysis/h1-known-sizes.json, …) is
 * judged by the claims engine (src/claims, judgeClaimOnCells) at every grid point of the experiment where the cells
 * it names exist, with the conjecture rule (VERDICT_RULE: Bonferroni-widened CIs, interval arithmetic).
 */
import { judgeClaimOnCells, pointEvidence, type Conjecture, type MeasuredCell } from '../claims/index.ts';
import { cellStream, type CellOutcome } from './outcome.ts';
import { estimandFiniteness } from '../model/moments.ts';
import type { SupermarketModel } from '../model/index.ts';

/** The claim files judged when an experiment file names none: the seed study's H1–H3 (theory.md §1), in analysis/. */
export const STUDY_CLAIM_FILES = ['h1-known-sizes.json', 'h2-weak-predictions.json', 'h3-jsq-beats-lpw.json'] as const;

/** One verdict of one claim at one grid point, as the experiment report tabulates it. */
export interface Finding {
  /** `<claim file name>: <claim>`, e.g. "h3-jsq-beats-lpw: T(jsq, sprpt) < T(lpw, sprpt)". */
  readonly claim: string;
  /** The grid point: service, d, n, prediction (if the claim uses one), memory, arrivals and batch (if not the default), λ. */
  readonly where: string;
  /** 'undefined' when a quantity the claim names is infinite in theory (printed "undefined (infinite)"). */
  readonly verdict: 'holds' | 'fails' | 'undecided' | 'undefined';
  /** The numbers behind the verdict, in words (with the caveat of `warnings` when there are any, claims `warningCaveat`). */
  readonly evidence: string;
  /**
   * What simulate warns of the intervals the verdict rests on (claims `PointResult.warnings`, model/moments.ts: e.g. Var[T]
   * = ∞, so not a 95 % interval), "<quantities>: <warning>"; absent when none.
   */
  readonly warnings?: readonly string[];
}

/**
 * An experiment cell as the claims engine reads it.
 * @param runWarnings what the cell's run warns of beside its intervals' own (a capped warm-up, the heavy-tail budget).
 */
export function measuredCell(o: CellOutcome, model?: SupermarketModel, runWarnings: readonly string[] = []): MeasuredCell {
  const c = o.cell;
  // a mean that may be infinite without a settling rule (model/moments.ts): its claims are not judged
  const finiteness = model === undefined ? undefined : estimandFiniteness(model);
  const unsettled = finiteness?.meanResponseTimeUnsettled;
  // what simulate warns of its E[T] interval (Var[T] = ∞: not a 95 % interval): the finding's evidence says so
  const warnings = finiteness?.warnings ?? [];
  return {
    selection: c.selection,
    discipline: c.discipline,
    service: c.service,
    prediction: c.prediction,
    memory: c.memory,
    ...cellStream(c),
    lambda: c.lambda,
    d: c.d,
    n: c.n,
    meanResponseTime: o.result.meanResponseTime,
    ...(unsettled === undefined ? {} : { meanResponseTimeUnsettled: unsettled }),
    ...(warnings.length === 0 ? {} : { meanResponseTimeWarnings: warnings }),
    ...(runWarnings.length === 0 ? {} : { runWarnings }),
    meanSlowdown: o.result.meanSlowdown,
    responseTimePercentiles: o.result.responseTimePercentiles,
    method: c.trace
      ? `trace replay n = ${c.n}`
      : `simulation n = ${c.n} (${c.replications} × ${c.jobs.toExponential(0).replace('e+', 'e')} jobs)`,
  };
}

/**
 * Judges each claim on the outcomes.
 * @param models the cells' models by cell key: a cell whose E[T] may be infinite without a settling rule is not judged.
 * @param runWarnings what each cell's run warns of, by cell key (`measuredCell`): a verdict resting on it says so.
 * @returns findings in claim order, then grid order; a claim whose cells the experiment lacks gives none.
 */
export function judgeExperimentClaims(
  claims: readonly Conjecture[],
  outcomes: readonly CellOutcome[],
  models: ReadonlyMap<string, SupermarketModel> = new Map(),
  runWarnings: ReadonlyMap<string, readonly string[]> = new Map(),
): Finding[] {
  const cells = outcomes.map((o) => measuredCell(o, models.get(o.cell.key), runWarnings.get(o.cell.key)));
  return claims.flatMap((c) =>
    judgeClaimOnCells(c, cells).map((p) => ({
      claim: `${c.spec.name}: ${c.claim.text}`,
      where: `${p.point.row}, λ = ${p.point.lambda}`,
      verdict: p.verdict,
      evidence: pointEvidence(p),
      ...(p.warnings ? { warnings: p.warnings } : {}),
    })),
  );
}
