import { describe, expect, it } from 'vitest';
import { exactPoints, groupNotes } from '../../src/compare/index.ts';
import { parseModel } from '../../src/model/index.ts';

/** Notes as comparison.ts writes them (modelExactPoints, secondOrderTerm, the transient skip). */
const over = (d: number, lambda: number, n: number, states: string) =>
  `No exact point at d = ${d}, λ = ${lambda}, n = ${n}: state space too large: ${states} states (n = ${n}, levels 0..31), about 0.06 GiB; limits 2.0e+5 states, 4.00 GiB.`;

describe('groupNotes', () => {
  it('gives one line per kind of note, naming the option that changes the limit, models and n listed once', () => {
    const notes = [
      over(2, 0.9, 5, '3.770e+5'),
      over(2, 0.95, 3, '2.158e+5'),
      over(2, 0.95, 4, '2.124e+6'),
      'No exact point at d = 3, λ = 0.7, n = 2: n = 2 < d = 3.',
      'No exact point at d = 3, λ = 0.9, n = 2: n = 2 < d = 3.',
      over(3, 0.95, 5, '1.399e+7'),
      'something else entirely',
      'something else entirely',
    ];
    const lines = groupNotes(notes);
    expect(lines).toEqual([
      'exact points skipped, chain over 2e+5 states (raise --exact-max-states, or drop them with --exact-n): ' +
        'd = 2, λ = 0.9: n = 5; d = 2, λ = 0.95: n = 3, 4; d = 3, λ = 0.95: n = 5',
      'exact points skipped where n < d (choose --exact-n ≥ d): d = 3, n = 2',
      'something else entirely',
    ]);
  });

  it('keeps different limits or reasons apart and leaves an unknown note as it is', () => {
    const lines = groupNotes([
      'no 1/n² term for d = 2, λ = 0.7: reason A',
      'no 1/n² term for d = 2, λ = 0.9: reason A',
      'no 1/n² term for d = 3, λ = 0.9: reason B',
    ]);
    expect(lines).toEqual([
      'no 1/n² term (c₂ not checked) for d = 2, λ = 0.7; d = 2, λ = 0.9: reason A',
      'no 1/n² term (c₂ not checked) for d = 3, λ = 0.9: reason B',
    ]);
    expect(groupNotes([])).toEqual([]);
  });
});

describe('exactPoints quietBelowD', () => {
  it('drops n < d without a reason for a preset list, and names it when the user asked for that n', () => {
    const model = parseModel({ lambda: 0.5, d: 3 });
    const asked = exactPoints(model, [2, 3], { truncationBound: 1e-4, maxStates: 2e5 });
    expect(asked.skipped).toEqual([{ n: 2, reason: 'n = 2 < d = 3' }]);
    const preset = exactPoints(model, [2, 3], { truncationBound: 1e-4, maxStates: 2e5, quietBelowD: true });
    expect(preset.skipped).toEqual([]);
    expect(preset.points.map((p) => p.n)).toEqual([3]);
  });
});
