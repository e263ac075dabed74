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
import { finiteNTableMarkdown } from '../../src/report/finiteNTable.ts';
import { tableCell, tableModel, tableTheory } from '../../src/compare/finiteNTable.ts';
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
