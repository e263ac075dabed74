/**
 * The explorer with a mean infinite in theory: the view says why (model/moments.ts), the figures of E[T] carry no
 * ∞ value into a vega domain (an axis reaching ∞ is vega's "Infinite extent" warning and an empty frame), and a
 * note replaces a figure with nothing to draw. Before: M/G/1 FIFO with pareto:1.5 drew "E[T] against λ" with every
 * value +∞ (y domain [0, ∞]) and the summary showed a bare "∞".
 */
import { describe, expect, it } from 'vitest';
import { exploreView, type ExplorerView } from '../../src/explorer/view.ts';
import { explorerFigures } from '../../src/explorer/figures.ts';
import { parseModel } from '../../src/model/index.ts';
import { meanFieldCapabilities } from '../../src/meanfield/capabilities.ts';

const finiteNumbers = (x: unknown): boolean =>
  typeof x === 'number'
    ? Number.isFinite(x)
    : Array.isArray(x)
      ? x.every(finiteNumbers)
      : x !== null && typeof x === 'object'
        ? Object.values(x).every(finiteNumbers)
        : true;

describe('explorer: ∞ with its reason, no figure of ∞', () => {
  it.each([
    ['M/G/1 FIFO', { lambda: 0.5, d: 1, selection: 'random', discipline: 'fifo', service: 'pareto:1.5' }, /FIFO waits the residual/],
    ['M/G/1 SPRPT exp', { lambda: 0.5, d: 1, selection: 'random', discipline: 'sprpt', service: 'pareto:1.5', prediction: 'exp' }, /SPRPT/],
    ['LWL(2) FIFO', { lambda: 0.5, d: 2, selection: 'lwl', service: 'pareto:1.5' }, /E\[S\^\{1\+1\/d\}\] = ∞/],
  ])(
    '%s with pareto:1.5: view.infinite says why, a note names the figures, no figure holds a non-finite number',
    (_name, input, reason) => {
      const view = exploreView(input, 100);
      expect(view.solution?.meanResponseTime).toBe(Infinity);
      expect(view.infinite).toMatch(reason);
      expect(view.notes.some((n) => /^figures of E\[T\].*E\[T\] = ∞ in the limit/.test(n))).toBe(true);
      const figures = explorerFigures(view);
      expect(figures.map((f) => f.name)).not.toContain('response-time-vs-load');
      for (const f of figures) expect(finiteNumbers(f.spec), f.name).toBe(true);
    },
  );

  it('JSQ(2) FIFO with pareto:1.5: E[T]∞ not settled, so no solution and no ∞ either: a note says why, no figure of E[T]', () => {
    // it printed ∞ ("waits the residual of the job in service") where no theorem says so (theory.md §8)
    const view = exploreView({ lambda: 0.5, d: 2, service: 'pareto:1.5' }, 100);
    expect(view.solution).toBeUndefined();
    expect(view.infinite).toBeUndefined();
    expect(view.notes.some((n) => /^fixed point: .*E\[T\]∞ not settled/.test(n))).toBe(true);
    // the report's status beside the note: "not settled" with the reason
    expect(view.unvalued).toMatchObject({ status: 'not-settled', reason: expect.stringMatching(/^E\[T\]∞ not settled/) });
    const figures = explorerFigures(view);
    expect(figures.map((f) => f.name)).not.toContain('response-time-vs-load');
    for (const f of figures) expect(finiteNumbers(f.spec), f.name).toBe(true);
  });

  it('JSQ(3) FIFO with pareto:1.9: E[T]∞ proven finite, no solver: status "finite, not computed" with the reason, not ∞', () => {
    const view = exploreView({ lambda: 0.5, d: 3, service: 'pareto:1.9' }, 100);
    expect(view.solution).toBeUndefined();
    expect(view.infinite).toBeUndefined();
    expect(view.unvalued).toMatchObject({ status: 'not-computed', reason: expect.stringMatching(/^E\[T\]∞ is finite \(Bramson/) });
    // a model with a number has no status
    expect(exploreView({ lambda: 0.5, d: 2 }, 100).unvalued).toBeUndefined();
  });

  it('E[T] against λ with some values ∞: those rows are kept (t null, infinite, reason), not drawn, the y domain finite', () => {
    const model = parseModel({ lambda: 0.5, d: 1, selection: 'random', service: 'exp' });
    const view: ExplorerView = {
      model,
      n: 10,
      title: 'random, FIFO',
      capabilities: meanFieldCapabilities(model),
      infinite: 'E[S²] = ∞ (test)',
      sweep: { lambdas: [0.25, 0.5, 0.75], meanResponseTime: [1.33, 2, Infinity], random: [1.33, 2, Infinity] },
      notes: [],
    };
    const f = explorerFigures(view).find((x) => x.name === 'response-time-vs-load')!;
    expect(f.rows.filter((r) => r.infinite === true)).toHaveLength(1); // policy = random at d = 1: one series
    expect(f.rows.find((r) => r.lambda === 0.75)).toMatchObject({ t: null, infinite: true, reason: 'E[S²] = ∞ (test)' });
    expect(f.spec.transform).toEqual([{ filter: 'datum.infinite !== true' }]);
    expect(finiteNumbers(f.spec)).toBe(true);
  });
});
