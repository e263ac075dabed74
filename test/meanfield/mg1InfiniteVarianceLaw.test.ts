/**
 * M/G/1 with a non-preemptive server and E[S²] = ∞ (pareto α ≤ 2): E[T] = ∞, and the wait's tail is one power heavier
 * than the size's, beyond the FPE grid and a cavity run. The response-time law and quantiles are refused in one line
 * naming E[S²] = ∞, at d = 1 and for random selection (the same M/G/1 queues), through the capability query, the
 * solver and `fixed-point --quantiles`; PS (preemptive, T ≈ S/(1 − ρ) for large S) keeps its law.
 */
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { meanFieldCapabilities } from '../../src/meanfield/index.ts';
import { solveResponseTime } from '../../src/meanfield/responseTime.ts';
import { InvalidModelError } from '../../src/errors.ts';
import { runCli } from '../cli/runCli.ts';

describe('M/G/1 response-time law with E[S²] = ∞', () => {
  it('FIFO and SJF at d = 1 and random selection: refused in one line naming E[S²] = ∞', () => {
    for (const input of [
      { lambda: 0.9, d: 1, service: 'pareto:1.5' },
      { lambda: 0.9, d: 2, selection: 'random', service: 'pareto:1.5' },
      { lambda: 0.5, d: 1, service: 'pareto:2', discipline: 'sjf' },
    ] as const) {
      const model = parseModel(input);
      const cap = meanFieldCapabilities(model).responseTime;
      expect(cap.available).toBe(false);
      if (cap.available) continue;
      expect(cap.reason).toMatch(/^no response-time law for M\/G\/1 (FIFO|SJF) with pareto sizes: E\[S²\] = ∞/);
      expect(cap.reason).not.toMatch(/\n/);
      expect(() => solveResponseTime(model, { quantiles: [0.5] })).toThrow(InvalidModelError);
    }
  });

  it('PS keeps its law (an estimate), and a finite-variance FIFO law its FPE', () => {
    const ps = meanFieldCapabilities(parseModel({ lambda: 0.9, d: 1, service: 'pareto:1.5', discipline: 'ps' })).responseTime;
    expect(ps.available).toBe(true);
    const fifo = meanFieldCapabilities(parseModel({ lambda: 0.9, d: 1, service: 'pareto:2.5' })).responseTime;
    expect(fifo.available && fifo.id).toBe('mg1-fpe');
  });

  it('fixed-point --quantiles: one line, non-zero exit, no number', async () => {
    const r = await runCli('fixed-point --lambda 0.9 --d 1 --service pareto:1.5 --quantiles 0.5,0.99');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/E\[S²\] = ∞/);
  });
});
