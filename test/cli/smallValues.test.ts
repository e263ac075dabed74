import { describe, expect, it } from 'vitest';
import { decimalText, intervalText } from '../../src/cli/output.ts';
import { runCli } from './runCli.ts';

// At tiny λ the text printed nonzero means as zero: `fixed-point --lambda 1e-9` gave "E[Q] = 0.000000" and
// `simulate --lambda 1e-6` gave "E[Q] per server 0.0000 [0.0000, 0.0000]" and every s_i as 0.0000, though none is 0.
describe('small nonzero values keep their significant digits in text', () => {
  it('decimalText: fixed decimals for ordinary values, exponent form below 10^−(digits−1), zero and ∞ as such', () => {
    expect(decimalText(2.3526519, 6)).toBe('2.352652');
    expect(decimalText(0.00123, 4)).toBe('0.0012');
    expect(decimalText(1e-9, 6)).toBe('1.00e-9');
    expect(decimalText(-3.456e-7, 4)).toBe('-3.46e-7');
    expect(decimalText(0, 4)).toBe('0.0000');
    expect(decimalText(Infinity, 4)).toBe('∞');
    expect(intervalText([2.5e-6, 0.25], 4)).toBe('[2.50e-6, 0.2500]');
    expect(intervalText([0, Infinity], 4)).toBe('[0.0000, ∞]');
  });

  it('fixed-point --lambda 1e-9: E[Q] is λ to first order, not 0.000000', async () => {
    const r = await runCli('fixed-point --lambda 1e-9 --d 2');
    expect(r.status).toBe(0);
    const q = /E\[Q\] = (\S+) jobs per server/.exec(r.stdout)![1];
    expect(q).not.toMatch(/^0\.0+$/);
    // E[Q] = Σ_{i≥1} λ^{(d^i − 1)/(d − 1)} (closed form, theory.md), ≈ λ at λ = 1e−9
    expect(Number(q)).toBeCloseTo(1e-9, 12);
    expect(Math.abs(Number(q) / 1e-9 - 1)).toBeLessThan(0.01);
  });

  it('simulate --lambda 1e-5: E[Q] per server and s_1 print nonzero', async () => {
    const r = await runCli('simulate --lambda 1e-5 --d 2 --n 10 --jobs 2000 --replications 2 --threads 1');
    expect(r.status).toBe(0);
    const q = /E\[Q\] per server\s+(\S+)/.exec(r.stdout)![1];
    expect(q).not.toMatch(/^0\.0+$/);
    expect(Number(q)).toBeGreaterThan(0);
    expect(Number(q)).toBeLessThan(1e-3);
    expect(r.stdout).toMatch(/s_1\s+\d\.\d\de-\d/);
  });
});
