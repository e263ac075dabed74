/**
 * `--quantiles` where the limit's E[T] is ∞ (closing3.md, issue 19 trial): the command answered nothing. The law and
 * its quantiles exist when the mean does not, so fixed-point now gives them and marks the mean ∞, in text and JSON.
 * Truth: LWL(d) FIFO has T = W + S with P(W > 0) = ρ^d, so S_p ≤ t_p ≤ S_{p/(1−ρ^d)} for the size quantiles S_q.
 */
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.ts';

// Pareto α = 1.5 of mean 1: x_m = (α − 1)/α, S_q = x_m (1 − q)^{−1/α}
const alpha = 1.5;
const sizeQuantile = (q: number) => ((alpha - 1) / alpha) * (1 - q) ** (-1 / alpha);

describe('fixed-point --quantiles with E[T] = ∞ in the limit', () => {
  it('LWL(2) FIFO, Pareto 1.5, λ = 0.3: E[T] = ∞ with its reason, finite quantiles within the bounds of T = W + S', async () => {
    const args = 'fixed-point --lambda 0.3 --d 2 --selection lwl --service pareto:1.5 --quantiles 0.5,0.9';
    const text = await runCli(args);
    expect(text.status, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/E\[T\] = ∞ \(E\[S\^\{1\+1\/d\}\] = ∞/);
    const match = /p50 = ([0-9.]+) {2}p90 = ([0-9.]+)/.exec(text.stdout);
    expect(match, text.stdout).not.toBeNull();
    const json = JSON.parse((await runCli(`${args} --json`)).stdout);
    // ∞ in JSON: the one ∞ object (io/jsonText.ts), with the flag and the reason beside it
    expect(json.meanResponseTime).toEqual({ mean: null, infinite: true, reason: json.infiniteReason });
    expect(json.responseTimeFinite).toBe(false);
    const quantiles = Object.values(json.responseTime.quantiles as Record<string, { p: number; value: number }>);
    const busy = 0.3 ** 2;
    quantiles.forEach(({ p, value }, i) => {
      expect(value).toBeCloseTo(Number(match![i + 1]), 5);
      expect(value).toBeGreaterThanOrEqual(sizeQuantile(p));
      expect(value).toBeLessThanOrEqual(sizeQuantile(p / (1 - busy)));
    });
  });
});
