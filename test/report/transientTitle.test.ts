/**
 * C1 of the fresh-user trial: the transient figure's title promised "refined s(t) + V(t)/n dotted" for a model whose
 * trajectories carry no refined curve (e.g. Erlang sizes: the ODE exists, the refined transient does not). Title and
 * caption now name the refined curve only where one is drawn, and say why not otherwise.
 */
import { describe, expect, it } from 'vitest';
import { transientFigure } from '../../src/report/comparisonFigures.ts';
import type { ComparisonResult, TrajectoryComparison } from '../../src/compare/types.ts';

const est = (x: number) => ({ mean: x, ci95: [x - 0.01, x + 0.01] as [number, number], halfWidth: 0.01, replications: 2 });
const times = [0, 1, 2];
const tail = times.map((t) => [1, 0.5 * (1 - Math.exp(-t)), 0.2 * (1 - Math.exp(-t)), 0.05 * (1 - Math.exp(-t))]);

function resultWith(refined: boolean): ComparisonResult {
  const trajectory: TrajectoryComparison = {
    lambda: 0.5,
    d: 2,
    times,
    solver: 'ODE',
    meanField: { tail },
    simulated: [{ n: 10, tail: tail.map((row) => row.map(est)), seed: 1, events: 100, ...(refined ? { refined: tail } : {}) }],
    note: 'ODE',
    drawnTo: 2,
  };
  return {
    judgedBy: refined ? 'refined-mean-field' : 'without-v',
    config: { lambdas: [0.5], ds: [2], ns: [10] },
    models: [],
    cells: [],
    trajectories: [trajectory],
  } as unknown as ComparisonResult;
}

/** The heading as one line (titleBlock wraps it into lines). */
const titleOf = (f: ReturnType<typeof transientFigure>) =>
  ([] as string[]).concat((f.spec.title as unknown as { text: string | string[] }).text).join(' ');

describe('transient figure: the refined curve is named only where it is drawn', () => {
  it('without refined curves: no promise in the title, the caption says why', () => {
    const f = transientFigure(resultWith(false));
    const title = titleOf(f);
    expect(title).toContain('ODE dashed black, simulation coloured');
    expect(title).not.toMatch(/refined/);
    expect(f.caption).not.toMatch(/Dotted, in the colour/);
    expect(f.caption).toMatch(/No refined curve s_i\(t\) \+ V_i\(t\)\/n is drawn/);
    expect(f.rows.some((r) => String(r.source).startsWith('refined'))).toBe(false);
  });

  it('with refined curves: title and caption name the dotted curve, and it is in the data', () => {
    const f = transientFigure(resultWith(true));
    expect(titleOf(f)).toContain('refined s(t) + V(t)/n dotted');
    expect(f.caption).toMatch(/Dotted, in the colour of its n: the refined mean field/);
    expect(f.caption).not.toMatch(/No refined curve/);
    expect(f.rows.some((r) => r.source === 'refined n = 10')).toBe(true);
  });
});
