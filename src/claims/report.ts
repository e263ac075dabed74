/**
 * Report content of a conjecture evaluation that is plain data: one flat row per grid point (CSV/JSON). The figures
 * and the Markdown are built in src/report/claimReport.ts.
 */
import type { ConjectureResult } from './evaluate.ts';

export type Row = Record<string, number | string | null>;

const num = (x: number) => (Number.isFinite(x) ? x : null);

/**
 * One flat row per grid point: λ, d, service, prediction, verdict, each comparison's sides (value, lo, hi) and each
 * quantity's value, interval, source and method.
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
      Object.assign(row, {
        [q.key]: q.value,
        [`${q.key} lo`]: q.interval[0],
        [`${q.key} hi`]: q.interval[1],
        [`${q.key} source`]: `${q.source}: ${q.method}`,
      });
    }
    return row;
  });
}
