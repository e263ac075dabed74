import { describe, expect, it } from 'vitest';
import { infiniteJson, jsonText, meanJson, parseJsonText, unvaluedJson, unvaluedStatusOf } from '../../src/io/index.ts';
import { isUnsettled, unsettledEstimate } from '../../src/stats/index.ts';

describe('jsonText / parseJsonText without and with infinite estimates', () => {
  const infinite = {
    mean: Infinity,
    ci95: [Infinity, Infinity],
    halfWidth: Infinity,
    infinite: true,
    reason: 'E[1/S] = ∞',
    replications: 5,
  };

  it('a value with no key "infinite" is written and read as JSON.stringify and JSON.parse do', () => {
    const value = { a: [1, 2.5, -0, null], b: { note: 'the word infinite in a string', c: 'x"infinite"y' }, d: NaN };
    expect(jsonText(value, 2)).toBe(JSON.stringify(value, null, 2));
    expect(parseJsonText(jsonText(value))).toEqual(JSON.parse(JSON.stringify(value)));
  });

  it('an infinite estimate deep in a value beside an "infinite": false key keeps its encoding and reads back as +∞', () => {
    const value = { cells: [{ limit: { infinite: false, mean: 2 } }, { slowdown: infinite }] };
    const text = jsonText(value);
    // the one ∞ object, with the run it came from and no interval fields (not even null ones)
    expect(text).toContain('"slowdown":{"mean":null,"infinite":true,"reason":"E[1/S] = ∞","replications":5}');
    const back = parseJsonText(text) as { cells: { limit?: unknown; slowdown?: { mean: number; ci95: number[] } }[] };
    expect(back.cells[1].slowdown?.mean).toBe(Infinity);
    expect(back.cells[1].slowdown?.ci95).toEqual([Infinity, Infinity]);
    expect(back.cells[0].limit).toEqual({ infinite: false, mean: 2 });
    // read back as `infiniteEstimate` builds it in memory: a round trip changes nothing
    expect(back.cells[1].slowdown).toEqual(infinite);
  });

  it('files written before the one form (interval fields null) still read back as the in-memory estimate', () => {
    const old = '{"s":{"mean":null,"ci95":null,"halfWidth":null,"infinite":true,"reason":"r","sampleMean":3,"replications":2}}';
    expect(parseJsonText(old)).toEqual({
      s: { mean: Infinity, ci95: [Infinity, Infinity], halfWidth: Infinity, infinite: true, reason: 'r', sampleMean: 3, replications: 2 },
    });
  });

  it('the ∞ object of a quantity (no interval fields) is written as it is and read back with mean +∞, the reason kept', () => {
    const value = { limit: meanJson(Infinity, 'E[S²] = ∞ (pareto α = 1.5 ≤ 2)'), finite: meanJson(2.5, 'unused'), none: meanJson(NaN, '') };
    const text = jsonText(value);
    expect(JSON.parse(text)).toEqual({
      limit: { mean: null, infinite: true, reason: 'E[S²] = ∞ (pareto α = 1.5 ≤ 2)' },
      finite: 2.5,
      none: null,
    });
    expect(text).not.toContain('ci95'); // an analytic value has no interval: none is invented
    expect(parseJsonText(text)).toEqual({
      limit: { mean: Infinity, infinite: true, reason: 'E[S²] = ∞ (pareto α = 1.5 ≤ 2)' },
      finite: 2.5,
      none: null,
    });
    // the in-memory form (mean +∞) is written the same way
    expect(jsonText({ limit: { ...infiniteJson('r'), mean: Infinity } })).toBe('{"limit":{"mean":null,"infinite":true,"reason":"r"}}');
    expect(() => meanJson(-Infinity, 'r')).toThrow(RangeError);
  });

  it('a limit with no value (not settled, finite not computed) reads back as its status, not a bare null mean', () => {
    // parseJsonText read { mean: null, unsettled: true, reason } back as written: a bare null mean, "no such value"
    const value = {
      a: unvaluedJson('not-settled', 'E[T]∞ not settled: …'),
      b: unvaluedJson('not-computed', 'E[T]∞ is finite, …'),
      c: null,
    };
    const text = jsonText(value);
    expect(JSON.parse(text)).toEqual(value); // the written form is unchanged (README "JSON formats of ∞")
    const back = parseJsonText(text) as Record<string, { mean: number }>;
    expect(back.a).toEqual({ mean: Number.NaN, unsettled: true, reason: 'E[T]∞ not settled: …' });
    expect(back.b).toEqual({ mean: Number.NaN, notComputed: true, reason: 'E[T]∞ is finite, …' });
    expect([unvaluedStatusOf(back.a), unvaluedStatusOf(back.b), unvaluedStatusOf(back.c)]).toEqual(['not-settled', 'not-computed', null]);
    expect(unvaluedStatusOf(infiniteJson('r'))).toBeNull(); // ∞ is no "no value"
    // a round trip writes the same text again
    expect(jsonText(back)).toBe(text);
    // a flat row with `unsettled` and `value` (run's tables) is not a limit object: left as it is
    expect(parseJsonText('{"value":null,"unsettled":true,"reason":"r"}')).toEqual({ value: null, unsettled: true, reason: 'r' });
  });
});

// simulate and run --json wrote a mean not settled as `{ mean: 1.45, replications, unsettled: "<reason>" }` (a number
// where an estimate stands) while compare wrote its limit as `{ mean: null, unsettled: true, reason }`: one form now,
// the run's average apart as `sampleMean`, read back as the in-memory record `unsettledEstimate` builds.
describe('jsonText / parseJsonText: a mean not settled, one form', () => {
  const memory = unsettledEstimate({ mean: 1.45, ci95: [1, 7.7], halfWidth: 3.4, replications: 3 }, 'E[T] may be infinite: why');

  it('written as the not-settled object with the run, no interval fields, not even null ones', () => {
    const text = jsonText({ cell: { meanResponseTime: memory } });
    expect(JSON.parse(text).cell.meanResponseTime).toEqual({
      mean: null,
      unsettled: true,
      reason: 'E[T] may be infinite: why',
      replications: 3,
      sampleMean: 1.45,
    });
    expect(text).not.toMatch(/ci95|halfWidth/);
  });

  it('read back as the record (mean, ci95, halfWidth NaN; flag, reason, average kept), and its status is not-settled', () => {
    const back = (parseJsonText(jsonText({ e: memory })) as { e: typeof memory }).e;
    expect(back).toEqual(memory);
    expect(isUnsettled(back)).toBe(true);
    expect(unvaluedStatusOf(back)).toBe('not-settled');
  });

  it('the form of 2026-12-03 (the average as mean, the reason as a string) reads back the same', () => {
    const old = '{"e":{"mean":1.45,"replications":3,"unsettled":"E[T] may be infinite: why"}}';
    expect((parseJsonText(old) as { e: unknown }).e).toEqual(memory);
    // a reference object whose `unsettled` names its limit's status (no `mean`, no `replications`) is left as it is
    const ref = '{"r":{"meanResponseTime":{"mean":null,"unsettled":true,"reason":"x"},"unsettled":"x"}}';
    expect((parseJsonText(ref) as { r: { unsettled: unknown } }).r.unsettled).toBe('x');
  });
});
