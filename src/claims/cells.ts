/**
 * A claim judged on measured cells instead of its own grid: the experiment runner (`supermarket run`) judges the
 * study's claims H1–H3 (claim files in analysis/) on the cells it simulated, with the same per-point rule as the
 * conjecture evaluation (judgePoint, VERDICT_RULE). The claim file's grid and budget are not used: the claim is
 * judged at every grid point of the cells (service, d, n, prediction, λ) where every quantity it names was measured.
 */
import { batchLabel, usesPrediction, type BatchDispatch, type Discipline, type Selection } from '../model/index.ts';
import type { Estimate } from '../stats/index.ts';
import type { Measure } from './claim.ts';
import {
  intervalWarnings,
  judgePoint,
  quantityMemory,
  unsettledMeasure,
  type GridPoint,
  type MeasuredQuantity,
  type PointResult,
} from './evaluate.ts';
import type { Conjecture } from './schema.ts';

/** Where a cell stands: a policy (selection, discipline) at (service, d, n, prediction, λ). */
export interface CellCoordinates {
  readonly selection: Selection;
  readonly discipline: Discipline;
  /** Service law as written (short form), or the trace path / label. */
  readonly service: string;
  /** Prediction model as written, or 'none' for prediction-blind policies. */
  readonly prediction: string;
  /**
   * Dispatcher memory in short form (`formatMemory`: none, ip, cp, bcp:A, ism:A; theory.md §12); 'none' for no
   * memory (and, for jiq, its unbounded ISM).
   */
  readonly memory: string;
  /** Arrival process in canonical short form (`formatArrivals`: exp, det, erlang:K, hyperexp:SCV, mmpp:…; theory.md §14). */
  readonly arrivals: string;
  /** Batch size K (1: single jobs; theory.md §15), or a size law's canonical short form (`canonicalBatch`, e.g. geom:2). */
  readonly batch: number | string;
  /** How a batch of K > 1 is placed: spread (the K best of d) or whole (one server); spread when K = 1. */
  readonly batchDispatch: BatchDispatch;
  /** Arrival rate per server. */
  readonly lambda: number;
  readonly d: number;
  readonly n: number;
}

/** One measured cell: a policy at (service, d, n, prediction, λ) with its estimates (95% CIs). */
export interface MeasuredCell extends CellCoordinates {
  readonly meanResponseTime: Estimate;
  readonly meanSlowdown?: Estimate;
  readonly responseTimePercentiles?: Readonly<Record<string, Estimate>>;
  /** How the cell was measured, e.g. "simulation n = 1000 (4 × 5e5 jobs)" or "trace replay". */
  readonly method: string;
  /** Why its E[T] may be infinite without a settling rule (model/moments.ts `meanResponseTimeUnsettled`), when so. */
  readonly meanResponseTimeUnsettled?: string;
  /** What simulate warns of its E[T] interval (model/moments.ts `estimandFiniteness` warnings), when anything. */
  readonly meanResponseTimeWarnings?: readonly string[];
  /**
   * What the cell's run warns of, said beside every measure read from it (a warm-up cut by maxWarmup, a budget below
   * the heavy-tail rule: cli/commands/run.ts `runWarnings`), when anything.
   */
  readonly runWarnings?: readonly string[];
}

function estimateOf(cell: MeasuredCell, measure: Measure): Estimate | undefined {
  if (measure === 'T') return cell.meanResponseTime;
  if (measure === 'S') return cell.meanSlowdown;
  return cell.responseTimePercentiles?.[measure.toLowerCase()];
}

/**
 * Judges a claim at every grid point of `cells` where all its quantities were measured. A grid point is (service,
 * d, n, λ, arrivals, batch); when the claim names a policy that uses predictions, a prediction model of the cells; when it names a
 * quantity without its own memory whose rule can use one, a memory of the cells. Policies that ignore predictions
 * are read from their 'none' cell at every prediction; a quantity reads the memory it names, else the point's where
 * its rule can use it (`quantityMemory`), else its 'none' cell.
 * @param options.simultaneous Bonferroni widening over the quantities of a point (default: the claim file's
 *   `evaluation.simultaneous`).
 * @returns one PointResult per judged point, in the order of first appearance in `cells`; none if no point has
 *   every quantity.
 * @throws {InvalidModelError} from judgePoint (e.g. log of an interval reaching 0).
 */
export function judgeClaimOnCells(
  conjecture: Conjecture,
  cells: readonly MeasuredCell[],
  options: { simultaneous?: boolean } = {},
): PointResult[] {
  const { claim, spec } = conjecture;
  const simultaneous = options.simultaneous ?? spec.evaluation.simultaneous;
  const predicted = claim.quantities.some((q) => usesPrediction(q.selection, q.discipline));
  // the point's memory matters when a quantity without its own memory can use some memory of the cells
  const memoryVaries = claim.quantities.some(
    (q) => q.memory === undefined && cells.some((c) => c.memory !== 'none' && quantityMemory(q, c) === c.memory),
  );
  const index = new Map<string, MeasuredCell>();
  // the arrival stream is a coordinate of the point: every quantity of a claim is read at the point's arrivals and batch
  type Where = Pick<CellCoordinates, 'service' | 'd' | 'n' | 'lambda' | 'arrivals' | 'batch' | 'batchDispatch'>;
  const where = (c: Where) => `${c.service}|d${c.d}|n${c.n}|lambda${c.lambda}|arrivals-${c.arrivals}|batch-${c.batch}-${c.batchDispatch}`;
  const cellKey = (c: Where, policy: string, prediction: string, memory: string) => `${where(c)}|${policy}|${prediction}|memory-${memory}`;
  for (const c of cells) index.set(cellKey(c, `${c.selection}-${c.discipline}`, c.prediction, c.memory), c);
  const points = new Map<string, GridPoint & Where>();
  for (const c of cells) {
    if (predicted === (c.prediction === 'none')) continue;
    const prediction = predicted ? c.prediction : 'none';
    const memory = memoryVaries ? c.memory : 'none';
    const key = `${where(c)}|${prediction}|memory-${memory}`;
    if (points.has(key)) continue;
    const batch = batchLabel(c.batch, c.batchDispatch);
    const row =
      `${c.service}, d = ${c.d}, n = ${c.n}${predicted ? `, prediction ${prediction}` : ''}${memory !== 'none' ? `, memory ${memory}` : ''}` +
      `${c.arrivals !== 'exp' ? `, arrivals ${c.arrivals}` : ''}${batch === '' ? '' : `, ${batch}`}`;
    const stream = { arrivals: c.arrivals, batch: c.batch, batchDispatch: c.batchDispatch };
    points.set(key, { key, lambda: c.lambda, d: c.d, n: c.n, service: c.service, prediction, memory, ...stream, row });
  }
  const results: PointResult[] = [];
  for (const point of points.values()) {
    const raw: MeasuredQuantity[] = [];
    for (const q of claim.quantities) {
      const prediction = usesPrediction(q.selection, q.discipline) ? point.prediction : 'none';
      const cell = index.get(cellKey(point, `${q.selection}-${q.discipline}`, prediction, quantityMemory(q, point)));
      const estimate = cell && estimateOf(cell, q.measure);
      if (!cell || !estimate) break;
      raw.push({
        key: q.key,
        measure: q.measure,
        selection: q.selection,
        discipline: q.discipline,
        source: 'simulation',
        kind: 'simulation',
        method: cell.method,
        value: estimate.mean,
        estimate,
        ...unsettledMeasure(q.measure, cell.meanResponseTimeUnsettled),
        ...withRunWarnings(intervalWarnings(q.measure, cell.meanResponseTimeWarnings).warnings, cell.runWarnings),
      });
    }
    if (raw.length === claim.quantities.length) results.push(judgePoint(claim, point, raw, { simultaneous, n: point.n }));
  }
  return results;
}

/** A quantity's `warnings`: its interval's own, then the run's (each list may be absent); none when both are empty. */
function withRunWarnings(
  own: readonly string[] | undefined,
  run: readonly string[] | undefined,
): { readonly warnings?: readonly string[] } {
  const all = [...(own ?? []), ...(run ?? [])];
  return all.length === 0 ? {} : { warnings: all };
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : x > 0 ? '∞' : x < 0 ? '−∞' : 'n/a');

/** The numbers behind a point's verdict in one line: each comparison's sides at the estimates and as intervals. */
export function pointEvidence(p: PointResult): string {
  if (p.verdict === 'undefined') return `infinite in theory: ${(p.infinite ?? []).join('; ')}`;
  const unsettled = p.unsettled ? `not judged, ${p.unsettled.join('; ')}; ` : '';
  return (
    unsettled +
    p.comparisons
      .map(
        (c) =>
          `${c.text}: ${f3(c.leftValue)} [${f3(c.left.lo)}, ${f3(c.left.hi)}] vs ${f3(c.rightValue)} [${f3(c.right.lo)}, ${f3(c.right.hi)}]`,
      )
      .join('; ') +
    warningCaveat(p)
  );
}

/**
 * The caveat of a verdict judged on intervals that simulate warns of (`PointResult.warnings`, model/moments.ts), as
 * compare notes it: "; caveat: <quantities>: <warning>; …; the verdict rests on these intervals", or '' when none.
 */
export function warningCaveat(p: Pick<PointResult, 'warnings'>): string {
  return p.warnings ? `; caveat: ${p.warnings.join('; ')}; the verdict rests on these intervals` : '';
}
