/**
 * compare on a model with dispatcher memory (theory.md §12): the reference is the reduction theorem's value, no
 * refined term, the 1/n fit runs, cells are keyed by the memory, the transient is the memory cavity ODE, and the
 * report is written with the convergence figure.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runComparison } from '../../src/compare/index.ts';
import { solveMeanField } from '../../src/meanfield/solve.ts';
import { parseModel } from '../../src/model/model.ts';
import { writeComparisonReport } from '../../src/report/index.ts';
import { testMeta } from '../report/meta.ts';
import { reportComparison } from './config.ts';

describe('compare with a dispatcher memory', () => {
  const config = reportComparison({
    lambdas: [0.8],
    ns: [20, 50, 200],
    jobs: 4_000,
    replications: 3,
    seed: 5,
    model: { memory: 'ism:3' },
    trajectory: { ns: [50], tEnd: 5, dt: 1, replications: 2 },
  });
  const result = runComparison(config);

  it('judges against the reduced-rate limit with the 1/n fit, keyed by the memory', async () => {
    const m = result.models[0];
    const limit = solveMeanField(parseModel({ lambda: 0.8, d: 2, memory: 'ism:3' }));
    expect(m.reference.meanResponseTime).toBe(limit.meanResponseTime);
    expect(m.reference.solver).toMatch(/reduced rate \(memory ism:3\)/);
    expect(result.judgedBy).not.toBe('refined-mean-field');
    expect(m.fit).not.toBeNull();
    expect(Number.isFinite(m.fit!.a)).toBe(true);
    expect(Number.isFinite(m.fit!.c1)).toBe(true);
    expect(result.cells.map((c) => c.key)).toEqual([
      'jsq-fifo-memory-ism3-d2-lambda0.8-n20',
      'jsq-fifo-memory-ism3-d2-lambda0.8-n50',
      'jsq-fifo-memory-ism3-d2-lambda0.8-n200',
    ]);
    expect(result.trajectories[0].solver).toBe('ODE');
    // the ODE with memory from empty: u_1(t) rises towards ρ
    const tail = result.trajectories[0].meanField.tail;
    expect(tail[tail.length - 1][1]).toBeGreaterThan(0.5);

    const dir = mkdtempSync(path.join(os.tmpdir(), 'supermarket-memory-report-'));
    const files = await writeComparisonReport(dir, result, testMeta());
    expect(files).toContain('figures/convergence.svg');
    expect(existsSync(path.join(dir, 'figures', 'convergence.png'))).toBe(true);
    expect(readFileSync(path.join(dir, 'report.md'), 'utf8')).toContain('memory ism:3');
  });
});
