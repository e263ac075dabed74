import { describe, expect, it } from 'vitest';
import { evaluateClaim, parseClaim } from '../../src/claims/index.ts';
import { InvalidModelError } from '../../src/errors.ts';

const iv = (lo: number, hi: number) => ({ lo, hi });

describe('parseClaim', () => {
  it('parseClaim(text) finds each distinct quantity once, in order of appearance', () => {
    const c = parseClaim('T(jsq, sprpt) < T(lpw, sprpt) and S(lwl, srpt) / T(jsq, sprpt) <= 2 * P99(random, fifo)');
    expect(c.quantities.map((q) => q.key)).toEqual(['T(jsq, sprpt)', 'T(lpw, sprpt)', 'S(lwl, srpt)', 'P99(random, fifo)']);
    expect(c.quantities[2]).toMatchObject({ measure: 'S', selection: 'lwl', discipline: 'srpt' });
  });

  it('parseClaim(text) accepts grid symbols, functions and chained comparisons', () => {
    expect(parseClaim('T(jsq, fifo) / T(lwl, fifo) < (d - 1) / log(d)').quantities).toHaveLength(2);
    expect(parseClaim('1 < T(jsq, fifo) <= 1 / (1 - lambda)').quantities).toHaveLength(1);
    expect(parseClaim('not (abs(T(jsq, fifo) - T(lwl, fifo)) < 0.01 * sqrt(n))').quantities).toHaveLength(2);
  });

  it('parseClaim(text) reports a syntax error with the character position', () => {
    expect(() => parseClaim('T(jsq, fifo) < T(lwl,')).toThrow(InvalidModelError);
    expect(() => parseClaim('T(jsq, fifo) < T(lwl,')).toThrow(/at char 22 .*Unexpected end of expression/);
    expect(() => parseClaim('T(jsq,, fifo) < 1')).toThrow(
      /at char 7 \("T\(jsq,⟨here⟩, fifo\) < 1"\): not a valid expression: Value expected/,
    );
  });

  it('parseClaim(text) names unknown selections, disciplines, functions and symbols, with their position', () => {
    expect(() => parseClaim('T(jsq, fofo) < 1')).toThrow(/at char 8 .*unknown discipline "fofo" in T\(\); expected one of: fifo, sjf/);
    expect(() => parseClaim('T(jsx, fifo) < 1')).toThrow(/unknown selection "jsx"/);
    expect(() => parseClaim('Q(jsq, fifo) < 1')).toThrow(/at char 1 .*unknown function "Q"/);
    expect(() => parseClaim('T(jsq, fifo) < rho')).toThrow(/at char 16 .*unknown symbol "rho"/);
    expect(() => parseClaim('T(jsq) < 1')).toThrow(/T\(\) takes 2 or 3 arguments/);
  });

  it('parseClaim(text) rejects claims that are not comparisons, and equality', () => {
    expect(() => parseClaim('T(lwl, srpt) / T(jsq, fifo)')).toThrow(/expected a comparison/);
    expect(() => parseClaim('T(lwl, srpt) == T(jsq, fifo)')).toThrow(/abs\(x - y\) < tol/);
    expect(() => parseClaim('(T(jsq, fifo) < 1) + 1 < 2')).toThrow(/cannot be used as a number/);
    expect(() => parseClaim('  ')).toThrow(/non-empty/);
  });
});

describe('evaluateClaim', () => {
  const claim = parseClaim('T(lwl, srpt) / T(jsq, fifo) < 0.8');
  const run = (a: [number, number], b: [number, number]) =>
    evaluateClaim(claim, {
      intervals: new Map([
        ['T(lwl, srpt)', iv(...a)],
        ['T(jsq, fifo)', iv(...b)],
      ]),
      points: new Map([
        ['T(lwl, srpt)', (a[0] + a[1]) / 2],
        ['T(jsq, fifo)', (b[0] + b[1]) / 2],
      ]),
      symbols: { lambda: 0.9, d: 2, n: 100 },
    });

  it('evaluateClaim(claim, values) divides intervals: [1.5, 1.6] / [2.5, 2.6] = [0.577, 0.64] < 0.8 holds', () => {
    const r = run([1.5, 1.6], [2.5, 2.6]);
    expect(r.verdict).toBe('holds');
    expect(r.comparisons[0].left.lo).toBeCloseTo(1.5 / 2.6, 12);
    expect(r.comparisons[0].left.hi).toBeCloseTo(1.6 / 2.5, 12);
    expect(r.comparisons[0].leftValue).toBeCloseTo(1.55 / 2.55, 12);
  });

  it('evaluateClaim(claim, values) fails when the whole ratio interval is ≥ 0.8 and is undecided when it straddles it', () => {
    expect(run([2.1, 2.2], [2.5, 2.6]).verdict).toBe('fails'); // [0.808, 0.88]
    expect(run([1.9, 2.1], [2.5, 2.6]).verdict).toBe('undecided'); // [0.731, 0.84]
  });

  it('evaluateClaim(claim, values) combines comparisons with Kleene logic and expands chains', () => {
    const c = parseClaim('T(jsq, fifo) < 2 or T(jsq, fifo) > 3');
    const at = (lo: number, hi: number) =>
      evaluateClaim(c, { intervals: new Map([['T(jsq, fifo)', iv(lo, hi)]]), points: new Map([['T(jsq, fifo)', lo]]), symbols: {} });
    expect(at(1, 1.5).verdict).toBe('holds');
    expect(at(2.2, 2.8).verdict).toBe('fails');
    expect(at(2.9, 3.1).verdict).toBe('undecided');
    const chain = parseClaim('1 < T(jsq, fifo) < 1 / (1 - lambda)');
    const r = evaluateClaim(chain, {
      intervals: new Map([['T(jsq, fifo)', iv(2.6, 2.62)]]),
      points: new Map([['T(jsq, fifo)', 2.61]]),
      symbols: { lambda: 0.9 },
    });
    expect(r.comparisons.map((x) => x.verdict)).toEqual(['holds', 'holds']);
    expect(r.comparisons[1].right.lo).toBeCloseTo(10, 12);
  });
});
