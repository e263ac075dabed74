/**
 * Long reasons said once, referenced where they apply: simulate printed the same reason after E[T], E[Q], Little and
 * E[T/S] (the last holding it again inside its own), and run's ∞ footnote repeated it.
 */
import { describe, expect, it } from 'vitest';
import { ReasonNotes } from '../../src/report/reasons.ts';
import { runCli } from '../cli/runCli.ts';

describe('ReasonNotes: each reason once, by its mark', () => {
  it('marks in order of first use; a reason holding an earlier one cites it by its mark', () => {
    const r = new ReasonNotes();
    expect(r.mark('E[S²] = ∞: FIFO waits the residual')).toBe('[1]');
    expect(r.mark('E[S²] = ∞: FIFO waits the residual')).toBe('[1]');
    expect(r.mark('E[T/S] ≥ E[W]·E[1/S] and E[W] = ∞: E[S²] = ∞: FIFO waits the residual')).toBe('[2]');
    expect(r.mark('other')).toBe('[3]');
    expect(r.size).toBe(3);
    expect(r.lines()).toEqual(['[1] E[S²] = ∞: FIFO waits the residual', '[2] E[T/S] ≥ E[W]·E[1/S] and E[W] = ∞: [1]', '[3] other']);
  });
});

describe('simulate: the reason of an ∞ mean once, below the table', () => {
  it('d = 1 FIFO pareto:1.5: E[T], E[Q], Little cite [1], E[T/S] [2] which cites [1]; the reason text appears once', async () => {
    const r = await runCli('simulate --service pareto:1.5 --d 1 --n 5 --lambda 0.5 --jobs 2000 --replications 2 --no-progress');
    expect(r.status, r.stderr).toBe(0);
    const reason = 'FIFO waits the residual of the job in service';
    expect(r.stdout.split(reason).length - 1).toBe(1);
    for (const label of ['E[T] response time', 'E[Q] per server', 'E[Q]/λ (Little)'])
      expect(r.stdout).toMatch(
        new RegExp(`${label.replace(/[[\]()/]/g, '\\$&')} +∞ +\\(the run's average [0-9.e+]+ estimates nothing; why: \\[1\\]\\)`),
      );
    expect(r.stdout).toMatch(/E\[T\/S\] slowdown +∞ +\(.*why: \[2\]\)/);
    expect(r.stdout).toMatch(/\n {2}∞ \[1\] E\[S²\] = ∞ \(pareto α = 1\.5 ≤ 2\): FIFO waits the residual of the job in service\n/);
    expect(r.stdout).toMatch(/\n {2}∞ \[2\] E\[T\/S\] ≥ E\[W\]·E\[1\/S\] and E\[W\] = ∞: \[1\]\n/);
  }, 600_000);
});
