/**
 * `compare` on a redundancy-d model (theory.md §16): the capability query picks the redundancy solver, the cells are
 * keyed by the replicas, and the busy-fraction check ŝ₁ = ρ is judged only where it holds at every n (independent
 * exponential replicas), not for identical ones (s₁ = λE[W] > ρ).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.ts';

describe('compare on a redundancy-d model', () => {
  it('writes a convergence report against the identical-replica fixed point', async () => {
    const out = path.join(mkdtempSync(path.join(tmpdir(), 'redundancy-compare-')), 'report');
    const r = await runCli(
      `compare --lambda 0.5 --d 2 --n 10,20 --redundancy cancel-on-complete --replicas identical --jobs 1000 --replications 3 --no-trajectory --out ${out}`,
    );
    expect(r.status).toBe(0);
    const results = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
    const model = results.models[0];
    expect(model.label).toMatch(/^RED\(2\) FIFO.*cancel-on-complete \(identical replicas\)/);
    expect(model.reference.solver).toMatch(/identical replicas/);
    expect(model.reference.meanResponseTime).toBeCloseTo(1.46868, 4);
    expect(results.cells.map((c: { key: string }) => c.key)).toEqual(
      expect.arrayContaining([expect.stringMatching(/-red-identical-d2-lambda0\.5-n10$/)]),
    );
    expect(results.busyCheck.status).toBe('not-judged');
  });
});
