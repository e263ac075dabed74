import { describe, expect, it } from 'vitest';
import { estimateIntervalText, plusMinus } from '../../src/stats/index.ts';

// The one text of a simulated estimate and its interval (simulate, replay, the reports' interval columns).
describe('estimateIntervalText', () => {
  it('x and both ends with the decimals of two significant digits of h (plusMinus’s rule)', () => {
    expect(estimateIntervalText(1.29543, [1.27641, 1.31432], 0.0189)).toBe('1.295 [1.276, 1.314]');
    expect(plusMinus(1.29543, 0.0189)).toBe('1.295 ± 0.019');
    // a percentile: no half-width of its own, half the (asymmetric) interval's width
    expect(estimateIntervalText(0.60512, [0.60111, 0.60918])).toBe('0.6051 [0.6011, 0.6092]');
  });

  it('a row never mixes forms: all below 10⁻³ in exponent form, else fixed', () => {
    expect(estimateIntervalText(0.00171, [7.91e-4, 0.00263], 9.2e-4)).toBe('0.00171 [0.00079, 0.00263]');
    expect(estimateIntervalText(3.99e-5, [1.85e-5, 6.13e-5], 2.14e-5)).toBe('3.99e-5 [1.85e-5, 6.13e-5]');
    expect(estimateIntervalText(0, [0, 0], 0)).toBe('0.0000 [0.0000, 0.0000]');
  });

  it('an open end is ∞, the decimals then from the finite side; width pads x to the column', () => {
    expect(estimateIntervalText(50.7359, [39.4995, Infinity])).toBe('51 [39, ∞]');
    expect(estimateIntervalText(5.1, [4.93, 5.32], Number.NaN, 4, 8)).toBe('5.10     [4.93, 5.32]');
  });
});
