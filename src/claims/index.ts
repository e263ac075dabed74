/**
 * Conjecture testing (issue 4): a claim over named quantities (T, S, P50/P95/P99 of a selection × discipline pair),
 * evaluated across a parameter grid from mean field where a solver exists and from simulation with CIs where not,
 * with a holds / fails / undecided verdict per grid point by interval arithmetic. The one claims engine: the study's
 * H1–H3 are claim files (analysis/), judged here both by `conjecture` (evaluateConjecture) and on an experiment's
 * cells by `run` (judgeClaimOnCells).
 */
export * from './interval.ts';
export {
  CLAIM_SYMBOLS,
  MEASURES,
  evaluateClaim,
  parseClaim,
  type ClaimOutcome,
  type ClaimValues,
  type ComparisonOutcome,
  type Measure,
  type ParsedClaim,
  type QuantityRef,
} from './claim.ts';
export { conjectureSchema, parseConjecture, type Conjecture, type ConjectureSpec, type EvaluationSpec } from './schema.ts';
export {
  VERDICT_RULE,
  bonferroniFactor,
  evaluateConjecture,
  intervalWarnings,
  expandConjectureGrid,
  judgePoint,
  quantityModel,
  type MeasuredQuantity,
  type ConjectureHooks,
  type ConjectureResult,
  type GridPoint,
  type PointResult,
  type QuantitySource,
  type QuantityValue,
  type SimulationRequest,
  type SimulationSummary,
} from './evaluate.ts';
export { judgeClaimOnCells, pointEvidence, warningCaveat, type CellCoordinates, type MeasuredCell } from './cells.ts';
export { conjectureResultsJson, conjectureRows, intervalWarningLines, openEndLines, quantityJson, quantityNamer } from './report.ts';
