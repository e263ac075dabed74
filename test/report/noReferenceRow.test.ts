/**
 * A model with no reference value (E[T]∞ = ∞ proven, not settled, or finite but not computed) and an exact value of ∞:
 * a fresh-user trial found its reference row saying solver "none", kind "exact", converged "yes", "Error bar: none
 * needed (closed form)", and the d = 1 FIFO pareto:1.5 exact points printing "bound (estimate) 0.00e+0" and "∞ ± ∞".
 */
import { describe, expect, it } from 'vitest';
import { runComparison, type ComparisonConfig } from '../../src/compare/index.ts';
import { comparisonMarkdown } from '../../src/report/index.ts';
import { comparisonLatexTables } from '../../src/report/latex.ts';
import { jsonText } from '../../src/io/index.ts';
import { testMeta } from './meta.ts';

const config = (d: number, service: string, exactNs: number[] = []): ComparisonConfig => ({
  lambdas: [0.7],
  ds: [d],
  ns: [10, 20],
  sampling: 'with-replacement',
  model: { selection: 'jsq', discipline: 'fifo', service },
  jobs: 500,
  replications: 2,
  seed: 3,
  warmupTolerance: 1e-3,
  warmupSafetyFactor: 2,
  maxLevel: 10,
  trajectory: null,
  exact: exactNs.length ? { ns: exactNs, truncationBound: 1e-4, maxStates: 2e5, jobs: 500, replications: 2 } : null,
});

describe('a reference row without a reference value says so and why', () => {
  for (const [d, service, words] of [
    [1, 'pareto:1.5', /E\[T\]∞ = ∞/], // proven ∞
    [3, 'pareto:1.9', /E\[T\]∞ finite, not computed/], // finite, E[T]_n = ∞ at every n with replacement
    [2, 'pareto:1.5', /E\[T\]∞ not settled/], // not settled
  ] as const) {
    it(`d = ${d}, ${service}: no solver, no kind, no convergence, no "closed form" error bar`, () => {
      const r = runComparison(config(d, service));
      const ref = r.models[0].reference;
      expect(ref.kind).toBe('none');
      expect(ref.convergence).toBeNull();
      expect(ref.solver).toMatch(/^no reference: /);
      expect(ref.solver).toMatch(words);
      const md = comparisonMarkdown(r, [], testMeta());
      const row = md.split('\n').find((l) => l.startsWith(`| ${d} | 0.7 | no reference: `));
      expect(row, md).toBeDefined();
      // solver | kind | E[T]∞ reference | converged: no "exact", no "yes"
      const [, , , kind, , converged] = row!.split(' | ');
      expect([kind, converged]).toEqual(['–', '–']);
      expect(md).not.toContain('none needed (closed form)');
      expect(md).toMatch(/Error bar: none: there is no reference value/);
      const json = JSON.parse(jsonText(r));
      expect(json.models[0].reference.kind).toBe('none');
      expect(json.models[0].reference.convergence).toBeNull();
    });
  }
});

describe('an exact value of ∞ has no error bar', () => {
  it('d = 1 FIFO pareto:1.5 exact points: "none (∞)", never "0.00e+0"; the simulated ∞ never "∞ ± ∞"', () => {
    const r = runComparison(config(1, 'pareto:1.5', [2, 3]));
    const points = r.models[0].exact!.points;
    expect(points.map((p) => p.n)).toEqual(expect.arrayContaining([2, 3]));
    for (const p of points) {
      expect(p.meanResponseTime).toBe(Infinity);
      expect(Number.isNaN(p.truncationBound) && Number.isNaN(p.errorEstimate)).toBe(true); // no bound of 0
    }
    const md = comparisonMarkdown(r, [], testMeta());
    expect(md).not.toMatch(/0\.00e\+0|∞ ± ∞|± none/);
    // the exact-points table: n = 2, 3 and the sweep's n (M/G/1 at every n)
    const exactRows = md.split('\n').filter((l) => /^\| 1 \| 0\.7 \| \d+ \| ∞ \| none \(∞\) \|/.test(l));
    expect(exactRows.length).toBeGreaterThanOrEqual(2);
    for (const row of exactRows) expect(row).toMatch(/\| ∞ \(sample mean \d+\.\d+\) \|/);
    expect(md).toMatch(/\| ∞ \(no error bar\) \|/); // the per-cell exact column
    expect(comparisonLatexTables(r)).not.toMatch(/0\.00e\+0|\\infty \\pm/);
    const json = JSON.parse(jsonText(r));
    expect(json.models[0].exact.points[0].truncationBound).toBeNull();
  });
});
