/**
 * A model without a predicted finite-n term (no V: theory.md §8 "Without V") has no per-cell verdict: the allowance
 * |ĉ₁|/n + |ĉ₂|/n² is fitted from the very cells it would judge, so with 2 n they can hardly fail. A new user's trial
 * (`compare --preset thesis-memory:1 --n 10,20`) read "agrees" for both cells and counted them as 2 of 4 judged
 * checks. Now: cells and quantile cells 'not-judged' (difference and fitted allowance shown as information), counted
 * nowhere; the limit check stays the test, once per model; console, report.md and results.json say the same.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/index.ts';
import { cellVerdict, judgeFamily, WITHOUT_V_RULE } from '../../src/compare/verdict.ts';
import { disagreementLine, writeComparisonReport } from '../../src/report/index.ts';
import { testMeta } from '../report/meta.ts';
import { tInterval } from '../../src/stats/index.ts';
import { reportComparison } from './config.ts';

describe('cells without a predicted term are shown, not judged', () => {
  it('cellVerdict: fitted allowance → not-judged with the allowance and t as information; exact value → judged', () => {
    const sim = tInterval([1.55, 1.6, 1.65, 1.6, 1.6]);
    const ref = { value: 1.2583, halfWidth: 0, numericalError: 0 };
    // the old code: |0.34| ≤ h + 3.4/10 → 'agrees'; a fitted allowance cannot make a cell a test
    const v = cellVerdict(sim, ref, { kind: 'fitted', c1: 3.4, c2: 0 }, 10);
    expect(v.status).toBe('not-judged');
    expect(v.allowance).toBeCloseTo(0.34, 12);
    expect(v.difference).toBeCloseTo(1.6 - 1.2583, 12);
    expect(Number.isNaN(v.pValue)).toBe(true);
    expect(v.rule).toBe(WITHOUT_V_RULE);
    // with a small fitted allowance it did not flip to 'disagrees' either
    expect(cellVerdict(sim, ref, { kind: 'fitted', c1: 0.1, c2: 0 }, 10).status).toBe('not-judged');
    // against an exact finite-n value (a prediction): judged, no allowance
    const exact = cellVerdict(sim, { ...ref, value: 1.6 }, { kind: 'exact' }, 10);
    expect(exact.status).toBe('agrees');
    expect(exact.allowance).toBe(0);
    expect(cellVerdict(sim, ref, { kind: 'exact' }, 10).status).toBe('disagrees');
    const fam = judgeFamily([v, exact], () => {
      throw new Error('no rerun expected');
    });
    expect(fam.map((f) => f.verdict.status)).toEqual(['not-judged', 'agrees']);
    expect(fam[0].verdict.adjustedPValue).toBeNull();
  });

  it('the trial: LWL(4), memory ip, λ = 0.9, n = 10, 20: no cell counted, the limit check judged once', async () => {
    const result = runComparison(
      reportComparison({
        lambdas: [0.9],
        ds: [4],
        ns: [10, 20],
        jobs: 3000,
        replications: 5,
        seed: 11,
        model: { selection: 'lwl', memory: 'ip' },
      }),
    );
    expect(result.judgedBy).not.toBe('refined-mean-field');
    expect(result.cells.map((c) => c.verdict.status)).toEqual(['not-judged', 'not-judged']);
    expect(result.cells.every((c) => Number.isFinite(c.verdict.allowance) && Number.isFinite(c.verdict.difference))).toBe(true);
    expect(result.cells.every((c) => c.confirmation === null)).toBe(true);
    expect(result.family.judged).toBe(0);
    const m = result.models[0];
    expect(m.limit.status).toMatch(/^(agrees|disagrees)$/);

    const line = disagreementLine(result);
    expect(line).toMatch(
      /^Checks that disagree: \d of 2 judged \(cells 0 of 0, limit checks \d of 1, busy-fraction check \d of 1, quantile checks 0 of 0\)\.$/,
    );

    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-without-v-'));
    await writeComparisonReport(dir, result, testMeta());
    const md = readFileSync(path.join(dir, 'report.md'), 'utf8');
    expect(md).toContain(line);
    expect(md).toContain('Per n: 0 cells agree, 0 disagree, 2 not judged');
    expect(md).toContain(WITHOUT_V_RULE);
    const json = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
    expect(json.cells.map((c: { verdict: { status: string } }) => c.verdict.status)).toEqual(['not-judged', 'not-judged']);
  });
});
