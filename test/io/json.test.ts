import { describe, expect, it } from 'vitest';
import { jsonText, parseJsonText } from '../../src/io/index.ts';

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
    expect(text).toContain('"slowdown":{"mean":null,"ci95":null,"halfWidth":null,"infinite":true');
    const back = parseJsonText(text) as { cells: { limit?: unknown; slowdown?: { mean: number; ci95: number[] } }[] };
    expect(back.cells[1].slowdown?.mean).toBe(Infinity);
    expect(back.cells[1].slowdown?.ci95).toEqual([Infinity, Infinity]);
    expect(back.cells[0].limit).toEqual({ infinite: false, mean: 2 });
  });
});
