import { describe, expect, it } from 'vitest';
import { InvalidModelError, UnstableModelError } from '../../src/errors.ts';
import { capacity, load, parseModel, validateModel } from '../../src/model/model.ts';

const hetero = (servers: Record<string, unknown>, rest: Record<string, unknown> = {}) =>
  parseModel({ lambda: 0.6, d: 2, servers, ...rest } as never);

describe('server classes in the model (theory.md §13)', () => {
  it('parses speeds and fractions (lists or "1,2" strings); load is λE[S]/Σ f·speed', () => {
    const m = hetero({ speeds: '1,2', fractions: '0.5,0.5' });
    expect(m.servers).toEqual({ speeds: [1, 2], fractions: [0.5, 0.5], sampling: 'uniform' });
    expect(capacity(m.servers)).toBe(1.5);
    expect(load(m)).toBeCloseTo(0.4, 15);
    expect(hetero({ speeds: [1, 3] }).servers?.fractions).toEqual([0.5, 0.5]); // equal fractions by default
  });

  it('classes all of speed 1 are refused as the CLI’s --speeds 1 and --speeds 1,1 are (speeds: [1] was dropped silently)', () => {
    for (const speeds of [[1], [1, 1]])
      expect(() => parseModel({ lambda: 0.6, d: 2, servers: { speeds } })).toThrow(
        new RegExp(`^servers with speeds ${speeds.join(',')} have no effect: .* of speed 1 is the homogeneous model`),
      );
    expect(parseModel({ lambda: 0.6, d: 2, servers: { speeds: [2, 2] } }).servers?.speeds).toEqual([2, 2]);
  });

  it('refuses bad classes in one line', () => {
    const message = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(InvalidModelError);
        const text = (e as Error).message;
        expect(text).not.toContain('\n');
        return text;
      }
      throw new Error('no error');
    };
    expect(message(() => hetero({ speeds: [1, 2], fractions: [0.5, 0.4] }))).toBe('fractions must sum to 1, got 0.5 + 0.4 = 0.9');
    expect(message(() => hetero({ speeds: [1, 0], fractions: [0.5, 0.5] }))).toBe('speed of class 2 must be a finite number > 0, got 0');
    expect(message(() => hetero({ speeds: [1, -2], fractions: [0.5, 0.5] }))).toMatch(/^speed of class 2 must be/);
    expect(message(() => hetero({ speeds: [1, 2, 3], fractions: [0.5, 0.5] }))).toBe(
      'speeds and fractions differ in length: 3 speeds, 2 fractions',
    );
    expect(message(() => parseModel({ lambda: 0.6, d: 2, selection: 'sed' }))).toMatch(/^selection sed .* needs server speeds/);
    expect(message(() => hetero({ speeds: [1, 2] }, { selection: 'lpw' }))).toMatch(/not implemented for selection lpw/);
    expect(message(() => hetero({ speeds: [1, 2], sampling: 'speed' }, { sampling: 'without-replacement' }))).toMatch(/with replacement/);
    // speed-weighted draws over equal speeds are uniform draws: refused, also for one class of speed 1 (dropped otherwise)
    for (const speeds of [[1, 1], [3, 3, 3], [1]])
      expect(message(() => hetero({ speeds, sampling: 'speed' }))).toMatch(
        /^server sampling speed has no effect when every class has speed/,
      );
  });

  it('refuses a class the rule overloads, naming it, though the total load is < 1', () => {
    // random with uniform sampling: each class gets λ per server; class 1 (speed 0.5) cannot take 0.6
    const unstable = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        expect(e).toBeInstanceOf(UnstableModelError);
        expect((e as Error).message).not.toContain('\n');
        return (e as Error).message;
      }
      throw new Error('no error');
    };
    const slow = { speeds: [0.5, 2], fractions: [0.5, 0.5] };
    expect(load(validateModel({ lambda: 0.6, d: 1, selection: 'random', servers: slow }))).toBeLessThan(1);
    expect(unstable(() => hetero(slow, { selection: 'random', d: 1 }))).toMatch(
      /^unstable class 1 \(speed 0\.5, fraction 0\.5\): random selection/,
    );
    // speed-weighted sampling feeds each class in proportion to its speed: stable at the same load
    expect(hetero({ ...slow, sampling: 'speed' }, { selection: 'random', d: 1 }).servers?.sampling).toBe('speed');
    // JSQ(2) still sends a job to the slow class when both samples are slow: 0.9²·0.5 = 0.405 ≥ 0.9·0.1
    expect(unstable(() => parseModel({ lambda: 0.5, d: 2, servers: { speeds: [0.1, 10], fractions: [0.9, 0.1] } }))).toMatch(
      /^unstable class 1 \(speed 0\.1, fraction 0\.9\): JSQ\(2\)/,
    );
    // the whole system overloaded: the usual message
    expect(unstable(() => hetero({ speeds: [1, 2] }, { lambda: 1.6 }))).toMatch(/^unstable load: ρ = λ/);
    // the ratio is printed without float noise (1.6/1.5 = 1.0666666666666667 before)
    expect(unstable(() => hetero({ speeds: [1, 2] }, { lambda: 1.6 }))).toMatch(/= 1\.6\/1\.5 = 1\.06667 ≥ 1;/);
  });
});
