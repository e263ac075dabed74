/**
 * The explorer's library side (no browser): its controls come from the model schema and the policy tables, its view
 * of a model is the library's own answer (solveMeanField, refine/refinedEstimate, solveTransient), a part the library
 * refuses is a note naming it, and the figures carry the rows they plot with tooltips in the field's words.
 */
import { describe, expect, it } from 'vitest';
import { DISCIPLINES, SAMPLINGS, SELECTIONS, parseModel } from '../../src/model/index.ts';
import { solveMeanField } from '../../src/meanfield/solve.ts';
import { meanFieldCapabilities } from '../../src/meanfield/capabilities.ts';
import { refine, refinedEstimate } from '../../src/meanfield/refined.ts';
import { exploreView, modelControls, modelInput } from '../../src/explorer/view.ts';
import { explorerFigures, toCsv } from '../../src/explorer/figures.ts';
import { handleRequest, type Reply } from '../../src/explorer/protocol.ts';

describe('modelControls', () => {
  it('offers every row of the policy tables and a text field for the laws, with the schema defaults', () => {
    const controls = Object.fromEntries(modelControls().map((c) => [c.name, c]));
    expect(controls.selection).toMatchObject({ kind: 'choice', options: [...SELECTIONS], default: 'jsq' });
    expect(controls.discipline).toMatchObject({ kind: 'choice', options: [...DISCIPLINES], default: 'fifo' });
    expect(controls.sampling).toMatchObject({ kind: 'choice', options: [...SAMPLINGS], default: 'with-replacement' });
    expect(controls.service).toMatchObject({ kind: 'text', default: 'exp' });
    expect(controls.prediction).toMatchObject({ kind: 'text', default: 'exact' });
    expect(controls.lambda).toBeUndefined(); // laid out by the page itself
  });

  it('turns a page state into a model input: short forms as text, JSON objects parsed, empty fields left to the defaults', () => {
    const input = modelInput({ lambda: '0.8', d: '3', service: 'weibull:0.5', conventions: '{"lpwWork":"static"}', prediction: '' });
    expect(input).toMatchObject({ lambda: '0.8', d: '3', service: 'weibull:0.5', conventions: { lpwWork: 'static' } });
    expect(input.prediction).toBeUndefined(); // left to the schema's default
    expect(input.selection).toBeUndefined(); // at its default: left out too
    // a batch with every other control at its default: the default sampling is not sent (parseModel refuses
    // with-replacement beside a batch), so the page's batch control works
    expect(parseModel(modelInput({ lambda: '0.5', d: '3', batch: '2' }) as never).sampling).toBe('without-replacement');
    expect(parseModel(input as never).service).toMatchObject({ kind: 'weibull', shape: 0.5 });
    // every field at its default parses: a union field's string default (redundancy 'none') is not JSON-quoted
    expect(() => parseModel(modelInput({ lambda: '0.8', d: '2' }) as never)).not.toThrow();
  });
});

describe('exploreView', () => {
  it('SQ(2), λ = 0.9: the closed form, the refined estimate for n and the transient tending to the fixed point', () => {
    const view = exploreView({ lambda: 0.9, d: 2 }, 10);
    const model = parseModel({ lambda: 0.9, d: 2 });
    expect(view.solution!.meanResponseTime).toBe(solveMeanField(model).meanResponseTime);
    expect(view.solution!.meanResponseTime).toBeCloseTo(2.6141, 4);
    expect(view.solution!.kind).toBe('exact');
    expect(view.refined!.firstOrder.meanResponseTime).toBe(refinedEstimate(refine(model), 10).meanResponseTime);
    expect(view.refined!.secondOrder!.meanResponseTime).toBeGreaterThan(view.refined!.firstOrder.meanResponseTime);
    const t = view.transient!;
    expect(t.values[0]).toBe(0); // from empty
    // 6 relaxation times: within e^-6 of the fixed point
    expect(t.values[t.values.length - 1] / view.solution!.meanQueueLength!).toBeGreaterThan(1 - Math.exp(-6));
    expect(t.values[t.values.length - 1]).toBeLessThan(view.solution!.meanQueueLength!);
    expect(view.ccdf!.of).toBe('response time');
    expect(view.ccdf!.ccdf[0]).toBe(1);
    expect(view.notes).toEqual([]);
    // E[T] against λ: the same closed form at the model's λ, and M/M/1 (1/(1 − λ)) for random routing
    const w = view.sweep!;
    const k = w.lambdas.indexOf(0.9);
    expect(w.meanResponseTime[k]).toBe(view.solution!.meanResponseTime);
    w.lambdas.forEach((l, j) => expect(w.random[j]).toBeCloseTo(1 / (1 - l), 8));
  });

  it('LWL(2): another answer, the workload ccdf, and a note naming the refined term it has none of', () => {
    const view = exploreView({ lambda: 0.9, d: 2, selection: 'lwl' }, 10);
    expect(view.solution!.meanResponseTime).toBe(solveMeanField(parseModel({ lambda: 0.9, d: 2, selection: 'lwl' })).meanResponseTime);
    expect(view.ccdf!.of).toBe('workload');
    expect(view.transient!.of).toBe('workload');
    expect(view.refined).toBeUndefined();
    expect(view.sweep!.meanResponseTime.every((t, j) => t < view.sweep!.random[j])).toBe(true);
    // the note is the capability query's own reason, as `fixed-point --refined` gives it
    const reason = meanFieldCapabilities(parseModel({ lambda: 0.9, d: 2, selection: 'lwl' })).refined.firstOrder;
    expect(reason.available).toBe(false);
    expect(view.notes).toEqual([`refined mean field: ${reason.available ? '' : reason.reason}`]);
    expect(view.notes[0]).toMatch(/LWL\(d\)/);
  });

  it('sweeps λ only where the solver is a closed form (not for a cavity estimate)', () => {
    expect(exploreView({ lambda: 0.5, d: 2, discipline: 'srpt' }, 10).sweep).toBeUndefined();
  });

  it('refuses a bad model or n in one line', () => {
    expect(() => exploreView({ lambda: 1.2, d: 2 }, 10)).toThrow(/ρ|load|unstable|< 1/);
    expect(() => exploreView({ lambda: 0.5, d: 3 }, 2)).toThrow('d = 3 exceeds n = 2');
  });
});

describe('explorer figures and worker protocol', () => {
  it('names the unit of times on the axes and in the downloaded rows: time units (E[S] = 2) with exp@2', () => {
    for (const [service, unit] of [
      [{ kind: 'exponential', mean: 2 }, 'time units (E[S] = 2)'],
      [{ kind: 'exponential', mean: 1 }, 'mean service times'],
    ] as const) {
      const figures = explorerFigures(exploreView({ lambda: 0.45, d: 2, service }, 10));
      for (const f of figures.filter((x) => x.name !== 'tail-fractions')) {
        expect(JSON.stringify(f.spec), f.name).toContain(unit);
        expect(
          f.rows.every((r) => r.timeUnit === unit),
          f.name,
        ).toBe(true);
        // ... and in the tooltips of the times (t, u, E[T]), which named none
        const tips = [...JSON.stringify(f.spec).matchAll(/"field":"(t|x)","title":"([^"]*)"/g)].map((m) => m[2]);
        expect(tips.length, f.name).toBeGreaterThan(0);
        for (const title of tips) expect(title, f.name).toContain(`(${unit})`);
      }
      if (unit !== 'mean service times')
        for (const f of figures) expect(JSON.stringify(f.spec), f.name).not.toContain('mean service times');
    }
  });

  it('plots the rows it downloads, with tooltips in the field words and 4 significant digits', () => {
    const figures = explorerFigures(exploreView({ lambda: 0.9, d: 2 }, 10));
    expect(figures.map((f) => f.name)).toEqual(['tail-fractions', 'response-time-vs-load', 'response-time-ccdf', 'transient']);
    for (const f of figures) {
      expect((f.spec.data as { values: unknown[] }).values).toBe(f.rows);
      const tips: { field: string; title: string; format?: string }[] = [];
      const walk = (x: unknown): void => {
        if (Array.isArray(x)) x.forEach(walk);
        else if (x && typeof x === 'object')
          for (const [k, v] of Object.entries(x)) {
            if (k === 'tooltip' && Array.isArray(v)) tips.push(...(v as typeof tips));
            else walk(v);
          }
      };
      walk(f.spec);
      expect(tips.length).toBeGreaterThan(2);
      for (const tip of tips) {
        expect(tip.title, tip.field).toBeTruthy(); // every field titled in words, never an internal name
        expect(['lo', 'hi', 'plo', 'phi', 'series', 'value', 'x', 'p']).not.toContain(tip.title);
        if (!['series', 'quantity', 'i'].includes(tip.field)) expect(tip.format, tip.field).toBe('.4~g');
      }
    }
    const csv = toCsv(figures[0].rows).split('\n');
    expect(csv[0]).toBe('series,i,s');
    expect(csv.length).toBe(figures[0].rows.length + 2); // header, rows, final newline
  });

  it('answers a view request and a units request, and turns a bad model into an error reply', () => {
    const replies: Reply[] = [];
    handleRequest({ type: 'view', id: 1, input: { lambda: 0.5, d: 2 }, n: 20 }, (r) => replies.push(r));
    handleRequest(
      {
        type: 'units',
        id: 2,
        input: { lambda: 0.5, d: 2 },
        options: { n: 20, jobs: 500, replications: 2, seed: 3, warmupTime: 5 },
        first: 1,
        count: 1,
      },
      (r) => replies.push(r),
    );
    handleRequest({ type: 'view', id: 3, input: { lambda: 0.5, d: 2, selection: 'nope' }, n: 20 }, (r) => replies.push(r));
    expect(replies[0]).toMatchObject({ type: 'view', id: 1 });
    const units = replies.find((r) => r.type === 'units');
    expect(units).toMatchObject({ id: 2, parts: [{ index: 1 }] });
    expect(replies[replies.length - 1]).toMatchObject({
      type: 'error',
      id: 3,
      message: expect.stringContaining('unknown selection "nope"'),
    });
  });
});
