/**
 * L2 of the fresh-user trial: for an estimate (cavity) fixed-point printed E[T] with its 95% CI and E[Q] without one.
 * E[Q] = λE[T] by Little's law, so its interval is λ times E[T]'s; text and JSON give both.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

const ARGS = ['fixed-point', '--lambda', '0.7', '--d', '2', '--selection', 'lwl', '--discipline', 'srpt', '--no-progress'];

describe('fixed-point of an estimate kind: E[Q] with its CI beside E[T]', () => {
  it('text and JSON', { timeout: 240_000 }, async () => {
    const j = JSON.parse((await runCli([...ARGS, '--json'])).stdout);
    expect(j.kind).toBe('estimate');
    expect(j.meanQueueLengthEstimate.mean).toBe(j.meanQueueLength);
    expect(j.meanQueueLengthEstimate.ci95[0]).toBeCloseTo(0.7 * j.estimate.ci95[0], 12);
    expect(j.meanQueueLengthEstimate.ci95[1]).toBeCloseTo(0.7 * j.estimate.ci95[1], 12);
    const t = await runCli(ARGS);
    expect(t.status).toBe(0);
    const [lo, hi] = j.meanQueueLengthEstimate.ci95 as number[];
    expect(t.stdout).toContain(`  E[Q] 95% CI [${lo.toFixed(4)}, ${hi.toFixed(4)}] (λ × the interval of E[T], Little's law)\n`);
    // an exact solver has no interval to give
    expect((await runCli('fixed-point --lambda 0.7 --d 2')).stdout).not.toMatch(/95% CI/);
  });
});
