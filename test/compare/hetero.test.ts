/**
 * compare on heterogeneous servers (theory.md §13): the reference is the per-class occupancy fixed point, the
 * calibration check is work conservation Σ f·speed·busy = λE[S] (not ŝ₁ = ρ, which does not hold with speeds),
 * and each cell is judged by the speeds' refined 1/n term (heteroRefined), as SQ(d)'s cells by ΣV.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/index.ts';
import { solveMeanField } from '../../src/meanfield/solve.ts';
import { heteroRefined } from '../../src/meanfield/hetero/refined.ts';
import { parseModel } from '../../src/model/model.ts';
import { writeComparisonReport } from '../../src/report/index.ts';
import { testMeta } from '../report/meta.ts';
import { reportComparison, testComparison } from './config.ts';

describe('compare with server speeds', () => {
  const servers = { speeds: [1, 2], fractions: [0.5, 0.5] };
  const result = runComparison(
    reportComparison({ lambdas: [0.9], ns: [10, 20, 40], jobs: 3_000, replications: 4, seed: 7, model: { servers } }),
  );

  it('judges each cell by the refined mean field of the speeds (heteroRefined: E[T]∞ + c₁/n), and ĉ₁ against ΣV/λ', () => {
    const model = parseModel({ lambda: 0.9, d: 2, servers });
    const r = heteroRefined(model);
    expect(result.judgedBy).toBe('refined-mean-field');
    for (const c of result.cells) {
      // the refined value at n is the heteroRefined expansion, E[Q]/λ with E[Q] = Σπ + ΣV/n
      expect(c.refined!.meanResponseTime).toBeCloseTo(r.meanResponseTime + r.meanResponseTimeCoefficient / c.n, 8);
      expect(c.verdict.rule).toContain('|sim − refined| ≤ h_n + δ_n');
      expect(['agrees', 'agrees-not-confirmed', 'refined-out-of-range']).toContain(c.verdict.status);
    }
    const m = result.models[0];
    expect(m.refined!.sumV).toBeCloseTo(r.meanQueueLengthCoefficient, 10);
    expect(m.c1Check!.expected).toBeCloseTo(r.meanResponseTimeCoefficient, 8);
    expect(m.c1Check!.status).not.toBe('disagrees');
    expect(result.provenance.method).toContain('per-class occupancy ODE with server speeds');
  });

  it('judges the cells against the per-class fixed point and checks Σ f·speed·busy = λE[S] per cell', async () => {
    const m = result.models[0];
    expect(m.reference.meanResponseTime).toBe(solveMeanField(parseModel({ lambda: 0.9, d: 2, servers })).meanResponseTime);
    // every cell carries its classes and work rate; the check reads all three cells (it said "got 0" before)
    for (const c of result.cells) {
      expect(c.simulation.classes).toHaveLength(2);
      const w = c.simulation.workRate!;
      const sum = c.simulation.classes!.reduce((a, k) => a + k.fraction * k.speed * k.busyFraction.mean, 0);
      expect(w.mean).toBeCloseTo(sum, 12);
      expect(Math.abs(w.mean - 0.9)).toBeLessThan(4 * w.halfWidth + 1e-3);
    }
    expect(result.busyCheck.tStatistics).toHaveLength(3);
    expect(result.busyCheck.status).not.toBe('not-judged');

    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-hetero-report-'));
    await writeComparisonReport(dir, result, testMeta());
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(md).toContain('**Mean field with server speeds**');
    expect(md).toContain('the per-class ODE as a population model (heteroRefined)');
    expect(md).not.toContain('known only for JSQ(d), FIFO, exponential');
    expect(md).toContain('work conservation Σ f·speed·busy = λE[S]');
    // the per-class table: simulated busy fraction and E[T] per class beside the limit's (class 2 of speed 2)
    const limit = m.reference.classes!;
    expect(limit.map((c) => c.speed)).toEqual([1, 2]);
    expect(md).toContain('## Per server class');
    expect(md).toContain(`| 2 | 0.9 | 40 | 2 (2, 0.5) | `);
    expect(md).toContain(`| ${limit[1].busyFraction.toFixed(4)} |`);
  });
});

describe('compare with server speeds, d distinct servers (without replacement)', () => {
  // the speeds' 1/n term is derived with replacement: it judged these cells by the other sampling's term (ΣV of
  // heteroRefined, which ignored the sampling), as one class shows: SQ(2) at λ = 0.9 has ΣV 3.99 with, 2.77 without
  it('judges the cells without a refined term, and the notes say why', () => {
    const servers = { speeds: [1, 2], fractions: [0.5, 0.5] };
    const r = runComparison(
      testComparison({
        lambdas: [0.6],
        ns: [10],
        jobs: 500,
        replications: 2,
        seed: 7,
        model: { servers },
        sampling: 'without-replacement',
      }),
    );
    expect(r.models[0].refined).toBeNull();
    expect(r.cells[0].refined).toBeNull();
    expect(r.notes.join('\n')).toMatch(/no refined 1\/n term: the 1\/n term with server speeds is derived for sampling with replacement/);
  });
});
