import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

// the acceptance case of issue 20 (item 1): the LPW cavity with its default budget (~10 s on a quiet core)
describe('supermarket fixed-point --selection lpw', () => {
  it('returns an estimate with a CI and its convergence status, in JSON and text', { timeout: 240_000 }, async () => {
    const args = ['fixed-point', '--selection', 'lpw', '--discipline', 'sprpt', '--prediction', 'exp', '--lambda', '0.9', '--d', '2'];
    const r = await runCli([...args, '--json']);
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.kind).toBe('estimate');
    expect(j.solver).toBe('LPW cavity iteration');
    expect(j.convergence.converged).toBe(true);
    expect(j.convergence.iterations).toBeGreaterThan(0);
    const [lo, hi] = j.estimate.ci95;
    expect(lo).toBeLessThan(j.meanResponseTime);
    expect(hi).toBeGreaterThan(j.meanResponseTime);
    // a sanity range: above LWL(2) + SRPT with exact predictions (≈ 1.58 by the cavity), below JSQ(2) FIFO (2.6141)
    expect(j.meanResponseTime).toBeGreaterThan(1.5);
    expect(j.meanResponseTime).toBeLessThan(2.6);
    const t = await runCli(args);
    expect(t.status).toBe(0);
    expect(t.stdout).toMatch(/solver: LPW cavity iteration \(estimate\)/);
    expect(t.stdout).toMatch(/95% CI \[/);
    expect(t.stdout).toMatch(/convergence: converged, \d+ iterations/);
  });
});
