/**
 * Referee for the 1/n² coefficient c₂ of E[T]: the exact n-server chain (solveExact) at small n, fitted by least
 * squares to E[T](n) = a + c₁/n + c₂/n² + c₃/n³ (+ c₄/n⁴), against the mean field a = E[T](∞), the refined c₁ and
 * the second-order c₂. Usage: npx tsx scripts/second-order-richardson.ts [lambda] [d] [nMax]
 */
import { parseModel } from '../src/model/index.ts';
import { refineSecondOrder, solveExact } from '../src/meanfield/index.ts';
import { solveDense } from '../src/numerics/dense.ts';

const lambda = Number(process.argv[2] ?? 0.5);
const d = Number(process.argv[3] ?? 2);
const nMax = Number(process.argv[4] ?? 10);
const model = parseModel({ lambda, d });
const r = refineSecondOrder(model);
const a = r.fixedPoint.meanQueueLength / lambda;
const c1 = r.sumV / lambda;
const c2 = r.sumA / lambda;
console.log(`mean field ${a.toPrecision(12)}  c1 ${c1.toPrecision(10)}  c2 ${c2.toPrecision(10)}  (K = ${r.diagnostics.truncationLevel})`);
const ns: number[] = [];
const values: number[] = [];
for (let n = 2; n <= nMax; n++) {
  const t0 = performance.now();
  const e = solveExact(model, { n, truncationBound: 1e-13, tolerance: 1e-15 });
  ns.push(n);
  values.push(e.meanResponseTime);
  const g = n * n * (e.meanResponseTime - a - c1 / n);
  console.log(
    `n ${n}  E[T] ${e.meanResponseTime.toPrecision(14)}  n²(exact − first) ${g.toFixed(6)}  states ${e.states}  K ${e.truncation.K}  ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
}
/** Least squares in 1/n powers (normal equations, small), with the leading coefficients fixed or free. */
function fit(from: number, terms: number, fixA: boolean, fixC1: boolean) {
  const rows: number[][] = [];
  const rhs: number[] = [];
  ns.forEach((n, k) => {
    if (n < from) return;
    const row: number[] = [];
    let y = values[k];
    if (fixA) y -= a;
    else row.push(1);
    if (fixC1) y -= c1 / n;
    else row.push(1 / n);
    for (let p = 2; p < 2 + terms; p++) row.push(n ** -p);
    rows.push(row);
    rhs.push(y);
  });
  const m = rows[0].length;
  const N = Array.from({ length: m }, (_, i) => Array.from({ length: m }, (_, j) => rows.reduce((s, r) => s + r[i] * r[j], 0)));
  const b = Array.from({ length: m }, (_, i) => rows.reduce((s, r, k) => s + r[i] * rhs[k], 0));
  return solveDense(N, b, 'fit');
}
for (const [fixA, fixC1] of [
  [true, true],
  [true, false],
  [false, false],
] as const) {
  for (const from of [2, 3, 4]) {
    for (const terms of [2, 3, 4]) {
      const free = (fixA ? 0 : 1) + (fixC1 ? 0 : 1) + terms;
      if (ns.filter((n) => n >= from).length < free + 1) continue;
      const coef = fit(from, terms, fixA, fixC1);
      const names = [...(fixA ? [] : ['a']), ...(fixC1 ? [] : ['c1']), ...Array.from({ length: terms }, (_, p) => `c${p + 2}`)];
      console.log(
        `fit n ≥ ${from}, ${fixA ? 'a fixed' : 'a free'}, ${fixC1 ? 'c1 fixed' : 'c1 free'}: ${names.map((nm, i) => `${nm} ${coef[i].toPrecision(7)}`).join('  ')}`,
      );
    }
  }
}
