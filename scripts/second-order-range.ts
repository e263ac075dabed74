/**
 * Issue 21 §3: where is order 2 (π + V/n + A/n²) trusted? Against the exact n-server chain (`solveExact`), per
 * (d, λ, n): the errors of order 1 and order 2 and the ratio |ΣA|/(n|ΣV|) that `SECOND_ORDER_RANGE` bounds.
 * Run: `nice npx tsx scripts/second-order-range.ts [ns=2,3,4,5,6] [λs=0.5,0.7,0.8,0.9,0.95] [ds=2,3,4]` (exact
 * solves at λ ≥ 0.9 and n ≥ 5 take minutes).
 */
import { refineSecondOrder, secondOrderEstimate, refinedEstimate, solveExact } from '../src/meanfield/index.ts';
import { parseModel } from '../src/model/index.ts';
console.log('d λ n | exact | o1 err | o2 err | r=|ΣA|/(n|ΣV|) | better');
const NS = (process.argv[2] ?? '2,3,4,5,6').split(',').map(Number);
const LS = (process.argv[3] ?? '0.5,0.7,0.8,0.9,0.95').split(',').map(Number);
const DS = (process.argv[4] ?? '2,3,4').split(',').map(Number);
for (const d of DS)
  for (const l of LS) {
    const m = parseModel({ lambda: l, d });
    const c = refineSecondOrder(m);
    for (const n of NS) {
      if (n < d) continue;
      let ex;
      try {
        ex = solveExact(m, { n, truncationBound: 1e-7 }).meanResponseTime;
      } catch {
        continue; // over the state budget
      }
      const o1 = refinedEstimate({ fixedPoint: c.fixedPoint, V: c.V, sumV: c.sumV }, n).meanResponseTime;
      const o2 = secondOrderEstimate(c, n).meanResponseTime;
      const r = Math.abs(c.sumA) / (n * Math.abs(c.sumV));
      console.log(
        d,
        l,
        n,
        '|',
        ex.toFixed(5),
        '| o2',
        o2.toFixed(4),
        '| Aterm',
        (c.sumA / l / n / n).toExponential(2),
        '|',
        (o1 - ex).toExponential(2),
        '|',
        (o2 - ex).toExponential(2),
        '|',
        r.toFixed(3),
        '|',
        Math.abs(o2 - ex) <= Math.abs(o1 - ex) ? 'o2' : 'O1',
      );
    }
  }
