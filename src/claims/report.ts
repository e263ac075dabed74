/**
 * Report content of a conjecture evaluation that is plain data: one flat row per grid point (CSV/JSON). The figures
 * and the Markdown are built in src/report/claimReport.ts.
 */
import { quantityMemory, type ConjectureResult, type GridPoint, type PointResult, type QuantityValue } from './evaluate.ts';
import { parseClaim } from './claim.ts';
import { randomAtD, selectionName } from '../model/index.ts';
import { infiniteJson, type InfiniteJson, type UnsettledEstimateJson } from '../io/jsonText.ts';

export type Row = Record<string, number | string | null>;

const num = (x: number) => (Number.isFinite(x) ? x : null);

/**
 * One flat row per grid point: λ, d, service, prediction, verdict, each comparison's sides (value, lo, hi) and each
 * quantity's value, interval, source and method. A quantity infinite in theory (model/moments.ts) has its value, lo and
 * hi empty (null) and `<key> infinite` true, and the row's `infinite` says why (README "JSON formats": the flat form);
 * an interval open at an end (a percentile's [lo, ∞)) has that end empty and `<key> openEnd` the note why, as JSON's
 * `openEnd`; a bare empty cell is "no such value". Never "Infinity" or NaN.
 */
export function conjectureRows(result: ConjectureResult): Row[] {
  return result.points.map((p) => {
    const row: Row = {
      row: p.point.row,
      lambda: p.point.lambda,
      d: p.point.d,
      service: p.point.service,
      prediction: p.point.prediction,
      memory: p.point.memory,
      arrivals: p.point.arrivals,
      batch: p.point.batch,
      batchDispatch: p.point.batchDispatch,
      verdict: p.verdict,
    };
    p.comparisons.forEach((c, i) => {
      Object.assign(row, {
        [`c${i + 1}_left`]: num(c.leftValue),
        [`c${i + 1}_left_lo`]: num(c.left.lo),
        [`c${i + 1}_left_hi`]: num(c.left.hi),
        [`c${i + 1}_right`]: num(c.rightValue),
        [`c${i + 1}_right_lo`]: num(c.right.lo),
        [`c${i + 1}_right_hi`]: num(c.right.hi),
        [`c${i + 1}_verdict`]: c.verdict,
      });
    });
    for (const q of p.quantities) {
      const infinite = q.value === Infinity;
      Object.assign(row, {
        [q.key]: num(q.value),
        [`${q.key} lo`]: num(q.interval[0]),
        [`${q.key} hi`]: num(q.interval[1]),
        ...(infinite ? { [`${q.key} infinite`]: 'true' } : {}),
        // an interval open at an end (a percentile's [lo, ∞)): its empty end beside the note, named as in JSON
        ...(q.openEnd === undefined ? {} : { [`${q.key} openEnd`]: q.openEnd }),
        // not settled: value, lo, hi empty beside the flag; the run's average apart, an observation
        ...(q.unsettled === undefined ? {} : { [`${q.key} unsettled`]: 'true', [`${q.key} sampleMean`]: num(q.sampleMean ?? Number.NaN) }),
        // source and method apart, as in JSON (one column read 'simulation: simulation n = 200 (…)')
        [`${q.key} source`]: q.source,
        [`${q.key} method`]: q.method,
      });
    }
    if (p.infinite) row.infinite = p.infinite.join('; ');
    if (p.unsettled) row.unsettled = p.unsettled.join('; ');
    // what simulate warns of the intervals the verdict rests on (e.g. not a 95 % interval), as results.json says it
    if (p.warnings) row.warnings = p.warnings.join('; ');
    return row;
  });
}

/**
 * A quantity as JSON (results.json, `conjecture --json`): as it is when finite; infinite in theory, its value is the one
 * ∞ object `{ mean: null, infinite: true, reason }` (io/jsonText.ts) and it has no `interval` or `ci95`, not even
 * null ones (the ∞ object says all there is); not settled (`unsettled`), its value is the one not-settled object
 * `{ mean: null, unsettled: true, reason, replications, sampleMean }`, likewise with no interval.
 */
export function quantityJson(
  q: QuantityValue,
  point: PointResult,
):
  | QuantityValue
  | (Omit<QuantityValue, 'value' | 'interval' | 'ci95'> & { value: InfiniteJson })
  | (Omit<QuantityValue, 'value' | 'interval' | 'ci95' | 'unsettled' | 'sampleMean' | 'replications'> & { value: UnsettledEstimateJson }) {
  if (q.unsettled !== undefined) {
    const { ci95: _c, interval: _i, unsettled, sampleMean, replications, ...rest } = q;
    return {
      ...rest,
      value: { mean: null, unsettled: true, reason: unsettled, replications: replications ?? 0, sampleMean: sampleMean ?? Number.NaN },
    };
  }
  if (q.value !== Infinity) return q;
  const reason = point.infinite?.find((r) => r.startsWith(`${q.key} = ∞`)) ?? `${q.key} = ∞ in theory`;
  const { ci95: _c, interval: _i, ...rest } = q;
  return { ...rest, value: infiniteJson(reason) };
}

/** results.json of a conjecture: the result with each infinite quantity in the ∞ object form (`quantityJson`). */
export function conjectureResultsJson(result: ConjectureResult): unknown {
  return { ...result, points: result.points.map((p) => ({ ...p, quantities: p.quantities.map((q) => quantityJson(q, p)) })) };
}

/**
 * Why some percentile intervals of a conjecture are open at an end, each note once with the grid points it holds at
 * (`QuantityValue.openEnd`, the runs' notes as simulate and replay print them), or none. For the text output and the
 * report alike. @example openEndLines(result) // ['P95(jsq, fifo) at exp, d = 2, λ = 0.9: percentile intervals: p95 has no upper end (∞): …']
 */
export function openEndLines(result: ConjectureResult): string[] {
  const where = new Map<string, string[]>();
  const why = new Set<string>();
  const name = quantityNamer(result);
  for (const p of result.points)
    for (const q of p.quantities) {
      if (q.openEnd === undefined) continue;
      const at = `${name(q, p.point)} at ${p.point.row}, λ = ${p.point.lambda}`;
      where.set(q.openEnd, [...(where.get(q.openEnd) ?? []), at]);
      if (q.openEndWhy !== undefined) why.add(q.openEndWhy);
    }
  // each percentile's numbers where it holds, then the explanation they share once (per number of sections)
  return [...[...where.entries()].map(([note, at]) => `${at.join('; ')}: ${note}`), ...why];
}

/**
 * What simulate warns of the intervals the verdicts rest on (`PointResult.warnings`, model/moments.ts: e.g. Var[T] = ∞,
 * so not a 95 % interval), each warning once with the grid points it holds at, or none. For the text output and the
 * report alike. @example intervalWarningLines(result) // ['pareto:1.5, d = 2, λ = 0.5: T(jsq, ps): the interval of E[T]
 * rests on Var[T] = ∞ (…): it is not a 95 % interval (the verdict there rests on these intervals)']
 */
export function intervalWarningLines(result: ConjectureResult): string[] {
  const where = new Map<string, string[]>();
  for (const p of result.points)
    for (const w of p.warnings ?? []) where.set(w, [...(where.get(w) ?? []), `${p.point.row}, λ = ${p.point.lambda}`]);
  return [...where.entries()].map(
    ([w, at]) => `${at.join('; ')}: ${w} (the verdict${at.length === 1 ? ' there rests' : 's there rest'} on these intervals)`,
  );
}

/**
 * The names of a result's quantities at one grid point, as the report and the text write them: the claim's key
 * ("T(jsq, fifo)"), and where the rule samples one server at that point (d = 1 without a memory: random routing,
 * `randomAtD`) the key with that said, "T(jsq, fifo) = RANDOM (d = 1)" (`selectionName`): at d = 1, T(jsq, fifo) and
 * T(lwl, fifo) are one policy.
 * @returns a function from a quantity to its name at `point`.
 */
export function quantityNamer(result: Pick<ConjectureResult, 'claim'>): (q: QuantityValue, point: GridPoint) => string {
  const refs = new Map(parseClaim(result.claim).quantities.map((r) => [r.key, r]));
  return (q, point) => {
    const ref = refs.get(q.key);
    const model = { selection: q.selection, d: point.d, memory: { kind: ref === undefined ? point.memory : quantityMemory(ref, point) } };
    return randomAtD(model) ? `${q.key} = ${selectionName(model)}` : q.key;
  };
}
