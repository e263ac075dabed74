/**
 * Every printed interval of a fitted coefficient ĉ₁, ĉ₂ is ĉ ± h with h the calibrated 95% half-width of `fitInverseN`
 * (fixed coefficients, t_{0.975,ν} with the Welch–Satterthwaite ν; scripts/fit-coverage.ts), not ĉ ± 1.96·s.e. of the
 * weighted fit, printed with decimals fitting h (`plusMinus`); a ĉ₁ whose interval is wider than |theory| reads
 * "not resolvable within budget", never "agrees" (`coefficientAgreement`, `coefficientResolvable`).
 */
import { describe, expect, it } from 'vitest';
import { fitInverseN, runComparison, type FitPoint } from '../../src/compare/index.ts';
import { coefficientAgreement, coefficientResolvable } from '../../src/compare/verdict.ts';
import { comparisonMarkdown } from '../../src/report/index.ts';
import { comparisonLatexTables } from '../../src/report/latex.ts';
import { finiteNTableCsvRows, finiteNTableMarkdown } from '../../src/report/finiteNTable.ts';
import { tableCell, tableFit, tableModel, tableTheory } from '../../src/compare/finiteNTable.ts';
import { estimateDecimals, plusMinus } from '../../src/stats/index.ts';
import { tQuantile } from '../../src/lazy.ts';
import { reportComparison } from '../compare/config.ts';
import { testMeta } from './meta.ts';

const t3 = tQuantile(0.975, 3);
/** E[Q_n] − Σπ = ΣV/n + ΣA/n² (ΣV = 2, ΣA = 5) with noise of standard error `se` at each n, R = 4 runs. */
const points = (se: number, wiggle: readonly number[]): FitPoint[] =>
  [10, 20, 30, 50, 100].map((n, i) => ({ n, value: 1.13 + 2 / n + 5 / n ** 2 + se * wiggle[i], halfWidth: t3 * se, replications: 4 }));
const WIGGLE = [0.9, -1.1, 0.4, -0.3, 1.2];

describe('estimateDecimals, plusMinus', () => {
  it('prints x ± h with two significant digits of h and x rounded at the same place', () => {
    expect(estimateDecimals(0.0374)).toBe(3);
    expect(estimateDecimals(1.83)).toBe(1);
    expect(estimateDecimals(47)).toBe(0);
    expect(estimateDecimals(Number.NaN)).toBe(2);
    expect(plusMinus(4.4312, 0.374)).toBe('4.43 ± 0.37');
    expect(plusMinus(123.4, 47)).toBe('123 ± 47');
    expect(plusMinus(1.23456, 0.0374, ' \\pm ')).toBe('1.235 \\pm 0.037');
  });
});

describe('the table prints the calibrated c₁ and c₂ intervals', () => {
  const model = tableModel(2, 0.7, 'with-replacement');
  const cell = tableCell(model, 10, [1.4, 1.41, 1.42, 1.43], tableTheory(model), null, {
    eventsPerRun: 1000,
    warmupEvents: 100,
    warmupTime: 12.5,
    start: 'empty',
  });
  const table = (se: number) => {
    const p = points(se, WIGGLE);
    return {
      one: fitInverseN(p, { limit: 1.13, inverseSquare: false })!,
      two: fitInverseN(p, { limit: 1.13, inverseSquare: true })!,
      md: (sumV: number) =>
        finiteNTableMarkdown({
          cells: [cell],
          fits: [
            {
              d: 2,
              lambda: 0.7,
              inverseN: fitInverseN(p, { limit: 1.13, inverseSquare: false }),
              inverseNSquare: fitInverseN(p, { limit: 1.13, inverseSquare: true }),
              sumV,
              sumA: 5,
              nUsed: [10, 20, 30, 50, 100],
              nUsedSquare: [10, 20, 30, 50, 100],
              leftOut: [],
              trustedFromN: 1,
              c2Judged: true,
            },
          ],
        }),
    };
  };

  it('c₁ = ĉ₁ ± t_{0.975,ν}·s.e. (not 1.96·s.e. of the weighted fit), and "agrees" only where resolvable', () => {
    const { one, two, md } = table(0.002);
    const text = md(2);
    expect(one.c1HalfWidth).toBeGreaterThan(1.96 * one.c1StandardError); // ν finite: t > 1.96
    expect(text).toContain(`c₁ = ${plusMinus(one.c1, one.c1HalfWidth)} (ΣV = `);
    expect(text).toContain(`c₁ = ${plusMinus(two.c1, two.c1HalfWidth)} (ΣV = `);
    expect(text).toContain(`c₂ = ${plusMinus(two.c2, two.c2HalfWidth)} (ΣA = `);
    const old = fitInverseN(points(0.002, WIGGLE), { limit: 1.13, inverseSquare: false, weights: 'estimated' })!;
    expect(text).not.toContain(`± ${(1.96 * old.c1StandardError).toFixed(4)}`);
    expect(coefficientResolvable(one.c1HalfWidth, 2)).toBe(true);
    // the fit with c₂ (the data's form) holds ΣV = 2 in a resolvable interval: "agrees"
    expect(coefficientAgreement(two.c1, two.c1HalfWidth, 2)).toBe('agrees');
    expect(text).toContain(`c₁ = ${plusMinus(two.c1, two.c1HalfWidth)} (ΣV = 2.000: agrees)`);
  });

  it('a c₁ interval wider than |ΣV| reads "not resolvable within budget", not "agrees"', () => {
    const { two, md } = table(0.05);
    expect(two.c1HalfWidth).toBeGreaterThanOrEqual(2);
    expect(coefficientAgreement(two.c1, two.c1HalfWidth, 2)).toBe('not-resolvable');
    const line = md(2)
      .split('\n')
      .find((l) => l.includes('c₁/n + c₂/n²'))!;
    expect(line).toMatch(/c₁ = [^,]*\(ΣV = [\d.]+: not resolvable within budget\)/);
    expect(line).not.toMatch(/c₁ = [^,]*: agrees/);
  });
});

describe('compare prints ĉ₁ ± the calibrated half-width (Markdown and LaTeX)', () => {
  // LWL(2): no refined term, the limit fitted (the Without-V report's ĉ₁, ĉ₂ columns and summary)
  const result = runComparison(
    reportComparison({ model: { selection: 'lwl' }, lambdas: [0.7], ns: [20, 50, 200], jobs: 3_000, replications: 4, seed: 5 }),
  );
  const m = result.models[0];

  it('the fit carries h = t_{0.975,ν}·s.e. with the Welch ν, and every printed ĉ₁ uses it', () => {
    const f = m.fit!;
    expect(f.weights).toBe('fixed');
    expect(f.c1HalfWidth).toBeCloseTo(tQuantile(0.975, f.c1DegreesOfFreedom) * f.c1StandardError, 12);
    const md = comparisonMarkdown(result, [], testMeta());
    expect(md).toContain(`ĉ₁ = ${plusMinus(f.c1, f.c1HalfWidth)}`); // the summary line
    expect(md).toContain(`| ${plusMinus(f.c1, f.c1HalfWidth)} |`); // the ĉ₁ ± h column
    expect(md).toContain('ĉ₁ ± h (95 %)');
    expect(md).not.toContain('(± s.e.)');
    expect(comparisonLatexTables(result)).toContain(`$${plusMinus(f.c1, f.c1HalfWidth, ' \\pm ')}$`);
  });
});

describe('the table fits and reads c₁, c₂ only from the n in the trusted range (tableFit, one rule with compare)', () => {
  /** Cells of one (d, λ) whose runs' E[Q] are Σπ + ΣV/n + ΣA/n² + `extra(n)` ± a small spread, R = 4. */
  const cellsOf = (d: number, lambda: number, ns: readonly number[], extra: (n: number) => number, spread = 1e-4) => {
    const model = tableModel(d, lambda, 'with-replacement');
    const theory = tableTheory(model);
    const cells = ns.map((n) => {
      const mean = theory.meanField + theory.sumV / n + theory.sumA! / n ** 2 + extra(n);
      return tableCell(model, n, [mean - spread, mean, mean + spread, mean], theory, null, {
        eventsPerRun: 1000,
        warmupEvents: 100,
        warmupTime: 10,
        start: 'empty',
      });
    });
    return { theory, cells, fit: tableFit(theory, cells) };
  };
  const fitLines = (md: string) => md.split('\n').filter((l) => l.startsWith('- fit '));

  it('d = 2, λ = 0.9, n = 3, 4, 5 (all outside |ΣV|/(nΣπ) ≤ 5 %): no fit, "not judged", never agrees/disagrees', () => {
    // a 1/n³ remainder such as the small-n chain's: fitted over n = 3, 4, 5 it read "disagrees" for ĉ₁ and ĉ₂
    const { fit, cells } = cellsOf(2, 0.9, [3, 4, 5], (n) => 20 / n ** 3);
    expect(fit.inverseN).toBeNull();
    expect(fit.inverseNSquare).toBeNull();
    expect(fit.nUsed).toEqual([]);
    expect(fit.leftOut).toEqual([3, 4, 5].map((n) => ({ n, why: 'outside-first-order-range' })));
    expect(fit.trustedFromN).toBe(34);
    const lines = fitLines(finiteNTableMarkdown({ cells, fits: [fit] }));
    expect(lines).toEqual([
      '- fit E[Q_n] − Σπ = c₁/n: not judged: fewer than 2 n in the trusted range (|ΣV|/(nΣπ) ≤ 5 %; here n ≥ 34); ' +
        'n = 3, 4, 5 outside the trusted range (|ΣV|/(nΣπ) > 5 %), left out',
      '- fit E[Q_n] − Σπ = c₁/n + c₂/n²: not judged: fewer than 3 n in the trusted range (|ΣV|/(nΣπ) ≤ 5 % and ' +
        '|ΣA|/(n|ΣV|) ≤ 0.5; here n ≥ 34); n = 3, 4, 5 outside the trusted range (|ΣV|/(nΣπ) > 5 %), left out',
    ]);
    for (const l of lines) expect(l).not.toMatch(/agrees|disagrees|not resolvable/);
  });

  it('one n given, inside the trusted range: "1 n given", not "fewer than 2 n in the trusted range (here n ≥ 10)"', () => {
    const { fit, cells } = cellsOf(2, 0.5, [100], () => 0);
    expect(fit.nUsed).toEqual([100]);
    expect(fitLines(finiteNTableMarkdown({ cells, fits: [fit] }))).toEqual([
      '- fit E[Q_n] − Σπ = c₁/n: not judged: 1 n given, a fit needs ≥ 2 (it lies in the trusted range, |ΣV|/(nΣπ) ≤ 5 %)',
    ]);
  });

  it('the small n are left out and named; the readings come from the n in range (d = 2, λ = 0.9, n = 4, 40, 60, 100)', () => {
    const { fit, cells } = cellsOf(2, 0.9, [4, 40, 60, 100], (n) => (n < 34 ? 20 / n ** 3 : 0), 1e-3);
    expect(fit.nUsed).toEqual([40, 60, 100]);
    expect(fit.nUsedSquare).toEqual([40, 60, 100]);
    expect(fit.inverseNSquare!.nUsed).toEqual([40, 60, 100]);
    expect(fit.inverseN!.nUsed).toEqual([40, 60, 100]);
    expect(fit.c2Judged).toBe(true); // |ΣA|/(n|ΣV|) = 0.033 at n = 40: inside compare's c₂ range
    const lines = fitLines(finiteNTableMarkdown({ cells, fits: [fit] }));
    expect(lines[0]).toMatch(
      /^- fit E\[Q_n\] − Σπ = c₁\/n over n = 40, 60, 100: c₁ = .*; n = 4 outside the trusted range \(\|ΣV\|\/\(nΣπ\) > 5 %\), left out$/,
    );
    expect(lines[1]).toMatch(/^- fit E\[Q_n\] − Σπ = c₁\/n \+ c₂\/n² over n = 40, 60, 100: c₁ = [^,]*\(ΣV = [\d.]+: agrees\)/);
    expect(lines[1]).toMatch(/n = 4 outside the trusted range .*, left out$/);
  });

  it('ĉ₂ is not read where an n of its fit lies outside compare’s c₂ range (d = 3, λ = 0.9, n = 46: |ΣA|/(n|ΣV|) = 0.0506)', () => {
    const { fit, cells } = cellsOf(3, 0.9, [46, 60, 100], () => 0, 1e-3);
    expect(fit.nUsedSquare).toEqual([46, 60, 100]);
    expect(fit.c2Judged).toBe(false);
    const line = fitLines(finiteNTableMarkdown({ cells, fits: [fit] }))[1];
    expect(line).toMatch(/c₂ = [^(]*\(ΣA = [\d.]+; not judged: some n of the fit have \|ΣA\|\/\(n\|ΣV\|\) > 0\.05/);
    expect(line).not.toMatch(/c₂ = [^(]*\(ΣA = [\d.]+: (agrees|disagrees)/);
  });

  it('an n in the order-1 range but outside the order-2 range is left out of the c₁/n + c₂/n² fit only, and said so', () => {
    const { theory, cells } = cellsOf(2, 0.5, [10, 20, 40, 80], () => 0, 1e-3);
    // ΣA large against ΣV (synthetic): |ΣA|/(n|ΣV|) = 10/(0.2914 n) > 0.5 at n < 69
    const second = { ...theory.second!, sumA: 10 };
    const fit = tableFit({ ...theory, second, sumA: 10 }, cells);
    expect(fit.nUsed).toEqual([10, 20, 40, 80]);
    expect(fit.nUsedSquare).toEqual([80]);
    expect(fit.inverseNSquare).toBeNull();
    expect(fit.leftOut).toEqual([10, 20, 40].map((n) => ({ n, why: 'outside-second-order-range' })));
    const lines = fitLines(finiteNTableMarkdown({ cells, fits: [fit] }));
    expect(lines[0]).toMatch(/^- fit E\[Q_n\] − Σπ = c₁\/n over n = 10, 20, 40, 80: c₁ = [^,]*\(ΣV = [\d.]+: \w+/);
    expect(lines[0]).not.toContain('left out');
    expect(lines[1]).toContain('not judged: fewer than 3 n in the trusted range');
    expect(lines[1]).toContain('n = 10, 20, 40 outside the order-2 trusted range (|ΣA|/(n|ΣV|) > 0.5), left out');
  });

  it('the refined 1st column says "outside range (x, not trusted)" outside |ΣV|/(nΣπ) ≤ 5 %; JSON and CSV carry the flag', () => {
    const { fit, cells } = cellsOf(2, 0.9, [4, 40], () => 0);
    expect(cells.map((c) => c.refinedFirstTrusted)).toEqual([false, true]);
    const md = finiteNTableMarkdown({ cells, fits: [fit] });
    expect(md).toMatch(new RegExp(`^\\| 4 \\|.*\\| outside range \\(${cells[0].refinedFirst.toFixed(5)}, not trusted\\) \\|`, 'm'));
    expect(md).toMatch(new RegExp(`^\\| 40 \\|.*\\| ${cells[1].refinedFirst.toFixed(5)} \\([+-]\\d+\\.\\d\\) \\|`, 'm'));
    const rows = finiteNTableCsvRows({ cells, fits: [fit] });
    // appended last: the columns before it keep their positions
    expect(rows[0].slice(-2)).toEqual(['refined_second_trusted', 'refined_first_trusted']);
    expect(rows.slice(1).map((r) => r[r.length - 1])).toEqual(['false', 'true']);
  });
});

describe('the table judges a c₁/n fit over two n without the c₂/n² bias', () => {
  // d = 2, λ = 0.5 at n = 10, 20 (both in the order-1 trusted range, |ΣV|/(nΣπ) ≤ 4.6 %): runs at Σπ + ΣV/n + ΣA/n²
  // exactly, with a tiny spread. A c₁/n fit of the raw points gives ĉ₁ = ΣV + ΣA·(bias of the 1/n² term left in
  // them), outside the tight interval about ΣV: a "disagrees" the data do not carry. With the computed ΣA/n²
  // subtracted first (as compare's c₁ check does) ĉ₁ agrees with ΣV.
  const model = tableModel(2, 0.5, 'with-replacement');
  const theory = tableTheory(model);
  const opts = { eventsPerRun: 1000, warmupEvents: 100, warmupTime: 20, start: 'fixed-point' as const };
  const exact = (n: number) => theory.meanField + theory.sumV / n + theory.sumA! / (n * n);
  const runs = (x: number) => [x - 3e-6, x - 1e-6, x + 1e-6, x + 3e-6];
  const cells = [10, 20].map((n) => tableCell(model, n, runs(exact(n)), theory, null, opts));

  it('subtracts ΣA/n² before the c₁/n fit and says so', () => {
    const fit = tableFit(theory, cells);
    expect(fit.nUsed).toEqual([10, 20]);
    const raw = fitInverseN(
      cells.map((c) => ({ n: c.n, value: c.meanQueueLength.mean, halfWidth: c.meanQueueLength.halfWidth, replications: 4 })),
      { limit: theory.meanField, inverseSquare: false },
    )!;
    expect(coefficientAgreement(raw.c1, raw.c1HalfWidth, theory.sumV)).toBe('disagrees'); // the bias the fix removes
    expect(coefficientAgreement(fit.inverseN!.c1, fit.inverseN!.c1HalfWidth, theory.sumV)).toBe('agrees');
    expect(fit.inverseNSquare).toBeNull();
    expect(fit.c2Subtracted).toBe(true);
    const line = finiteNTableMarkdown({ cells, fits: [fit] })
      .split('\n')
      .find((l) => l.startsWith('- fit E[Q_n]'))!;
    expect(line).toContain('E[Q_n] − Σπ − ΣA/n² (the computed c₂/n² subtracted first) = c₁/n over n = 10, 20');
    expect(line).toMatch(/\(ΣV = [\d.]+: agrees\)/);
  });
});
