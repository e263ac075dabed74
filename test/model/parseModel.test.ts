import { describe, expect, it } from 'vitest';
import { InvalidModelError, UnstableModelError } from '../../src/errors.ts';
import { checkServers, load, parseModel, parseServiceShort, type ModelInput } from '../../src/model/index.ts';

describe('parseModel', () => {
  it('parseModel({ lambda, d }) fills the defaults: JSQ(d), FIFO, exponential mean 1, exact predictions, with replacement, no memory', () => {
    const m = parseModel({ lambda: 0.9, d: 2 });
    expect(m).toEqual({
      lambda: 0.9,
      d: 2,
      selection: 'jsq',
      discipline: 'fifo',
      service: { kind: 'exponential', mean: 1 },
      prediction: { kind: 'exact' },
      sampling: 'with-replacement',
      memory: { kind: 'none' },
      arrivals: { kind: 'exponential' },
      batch: 1,
      batchDispatch: 'spread',
      conventions: { lpwWork: 'clip', sprptOverrun: 'negative', psjfPreemption: 'original' },
    });
    expect(Object.isFrozen(m)).toBe(true);
  });

  it('parseModel(input) accepts numeric strings and rejects NaN, non-numbers and non-integer d', () => {
    expect(parseModel({ lambda: '0.5', d: '3' }).d).toBe(3);
    expect(() => parseModel({ lambda: 'NaN', d: 2 })).toThrow(InvalidModelError);
    expect(() => parseModel({ lambda: 'abc', d: 2 })).toThrow(/lambda must be a finite number/);
    expect(() => parseModel({ lambda: 0.5, d: 1.5 })).toThrow(/d must be an integer ≥ 1/);
    expect(() => parseModel({ lambda: 0.5, d: 0 })).toThrow(/d must be an integer ≥ 1/);
  });

  it('parseModel(input) rejects λ ≤ 0 and ρ = λ·E[S] ≥ 1 as unstable', () => {
    expect(() => parseModel({ lambda: 0, d: 2 })).toThrow(UnstableModelError);
    expect(() => parseModel({ lambda: 1, d: 2 })).toThrow(/unstable load/);
    expect(() => parseModel({ lambda: 0.6, d: 2, service: { kind: 'exponential', mean: 2 } })).toThrow(/ρ = λ·E\[S\] = 1.2/);
    expect(load(parseModel({ lambda: 0.4, d: 2, service: 'weibull:0.5@2' }))).toBeCloseTo(0.8, 15);
  });

  it('parseModel(input) rejects unknown selection, discipline, sampling and service names, listing the choices', () => {
    expect(() => parseModel({ lambda: 0.5, d: 2, selection: 'best' })).toThrow(/expected one of: random, jsq, sed, lwl, lpw, jiq/);
    expect(() => parseModel({ lambda: 0.5, d: 2, discipline: 'lifo' })).toThrow(/unknown discipline/);
    expect(() => parseModel({ lambda: 0.5, d: 2, sampling: 'sometimes' })).toThrow(/unknown sampling/);
    expect(() => parseModel({ lambda: 0.5, d: 2, service: 'gamma:2' })).toThrow(/unknown service/);
  });

  it('parseModel(input) reads the short service and prediction forms', () => {
    expect(parseServiceShort('weibull:0.5')).toEqual({ kind: 'weibull', shape: '0.5' });
    expect(parseModel({ lambda: 0.5, d: 2, service: 'bpareto:1.5:1e4' }).service).toEqual({
      kind: 'bounded-pareto',
      alpha: 1.5,
      ratio: 1e4,
      mean: 1,
    });
    expect(parseModel({ lambda: 0.5, d: 2, service: 'hyperexp:4' }).service).toEqual({ kind: 'hyperexponential', scv: 4, mean: 1 });
    expect(() => parseModel({ lambda: 0.5, d: 2, service: 'hyperexp:0.5' })).toThrow(/scv must be > 1/);
    expect(() => parseModel({ lambda: 0.5, d: 2, service: 'erlang' })).toThrow(/expected erlang:K/);
    expect(parseModel({ lambda: 0.5, d: 2, prediction: 'uniform:0.3' }).prediction).toEqual({ kind: 'uniform', alpha: 0.3 });
    expect(parseModel({ lambda: 0.5, d: 2, prediction: 'exp' }).prediction).toEqual({ kind: 'exponential' });
    expect(parseModel({ lambda: 0.5, d: 2, prediction: 'lognormal:1:mean' }).prediction).toEqual({
      kind: 'lognormal',
      sigma: 1,
      bias: 'mean',
    });
    expect(() => parseModel({ lambda: 0.5, d: 2, prediction: 'uniform:2' })).toThrow(/alpha must be in \[0, 1\]/);
  });

  it('parseModel(input) rescales empirical sizes to the requested mean', () => {
    const m = parseModel({ lambda: 0.5, d: 2, service: { kind: 'empirical', values: [1, 3], source: 'test' } });
    expect(m.service).toEqual({ kind: 'empirical', values: [0.5, 1.5], source: 'test', mean: 1 });
    expect(() => parseModel({ lambda: 0.5, d: 2, service: { kind: 'empirical', values: [1, -1] } })).toThrow(/≥ 0/);
  });
});

describe('parseModel names the bad key of a servers or memory object', () => {
  const message = (input: Record<string, unknown>): string => {
    try {
      parseModel({ lambda: 0.5, d: 2, ...input } as ModelInput);
    } catch (error) {
      expect(error).toBeInstanceOf(InvalidModelError);
      return (error as Error).message;
    }
    throw new Error(`accepted ${JSON.stringify(input)}`);
  };
  it('servers: an unknown field is named first, in one line (it said only "servers must be an object")', () => {
    // the near miss is named, and the missing key it was meant to be is not a second problem
    expect(message({ servers: { speeds: [1, 2], fraction: [0.5, 0.5] } })).toBe(
      'servers: unknown key "fraction" (did you mean "fractions"?); allowed keys: speeds, fractions, sampling',
    );
    expect(message({ servers: { speedz: [1, 2] } })).toBe(
      'servers: unknown key "speedz" (did you mean "speeds"?); allowed keys: speeds, fractions, sampling',
    );
    expect(message({ servers: { speeds: [1, 2], classes: 2 } })).toBe(
      'servers: unknown key "classes"; allowed keys: speeds, fractions, sampling',
    );
    expect(message({ servers: 5 })).toBe('servers must be an object { speeds, fractions?, sampling? }');
  });
  it('memory: an unknown field or a missing kind is named first (it said "memory size A … got undefined", "kind undefined")', () => {
    expect(message({ memory: { kind: 'bcp', A: 3 } })).toBe(
      'memory: unknown key "A"; allowed keys: kind, capacity (and 1 more: memory capacity is missing: the memory size A, an integer ≥ 1)',
    );
    expect(message({ memory: { kind: 'none', size: 2 } })).toBe('memory: unknown key "size"; allowed keys: kind');
    expect(message({ memory: { knd: 'ism' } })).toBe('memory needs a kind (none, ip, cp, bcp, ism); got the field "knd"');
    expect(message({ memory: { kind: 'ism' } })).toBe('memory capacity is missing: the memory size A, an integer ≥ 1');
    for (const m of [message({ memory: { kind: 'bcp', A: 3 } }), message({ servers: { speedz: [1] } })]) expect(m).not.toMatch(/\n/);
  });
  it('service and arrivals laws: the unknown key comes before the missing parameter it causes', () => {
    expect(message({ service: { kind: 'weibull', shap: 2 } })).toBe(
      'service: unknown key "shap" (did you mean "shape"?); allowed keys: kind, shape, mean',
    );
    expect(message({ arrivals: { kind: 'erlang', K: 2 } })).toBe('arrivals: unknown key "K" (did you mean "k"?); allowed keys: kind, k');
  });
});

describe('checkServers', () => {
  it('checkServers(model, n) accepts 1 ≤ d ≤ n and rejects n < 1, non-integers and d > n', () => {
    const m = parseModel({ lambda: 0.5, d: 3 });
    expect(checkServers(m, 3)).toBe(3);
    expect(() => checkServers(m, 2)).toThrow(/d = 3 exceeds n = 2/);
    expect(() => checkServers(m, 0)).toThrow(/n must be an integer ≥ 1/);
    expect(() => checkServers(m, 2.5)).toThrow(/n must be an integer ≥ 1/);
  });
});
