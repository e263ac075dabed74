/**
 * The conjecture report's sides figure names the unit of what it plots (it said "value"): times in the grid's time
 * unit (model/service `timeUnit`: E[S] = 2 with exp@2), the slowdown S a ratio. Truth: the closed forms of JSQ(2) and
 * LWL(2) FIFO with exponential sizes (theory.md §2, §4), so no simulation runs.
 */
import { describe, expect, it } from 'vitest';
import { evaluateConjecture, parseConjecture } from '../../src/claims/index.ts';
import { conjectureFigures, conjectureMarkdown } from '../../src/report/claimReport.ts';

const sides = async (claim: string, service: string[], lambda = [0.5, 0.9]) => {
  const c = parseConjecture({ name: 'units', claim, grid: { lambda, d: [2], service } });
  const figure = conjectureFigures(await evaluateConjecture(c)).find((f) => f.name === 'sides')!;
  return { spec: JSON.stringify(figure.spec), units: new Set(figure.rows.map((r) => r.unit)) };
};

describe('conjecture report: units of the sides figure', () => {
  it('T in mean service times, or in time units (E[S] = 2) with exp@2, on the y axis and in every row', async () => {
    const one = await sides('T(lwl, fifo) < T(jsq, fifo)', ['exp']);
    expect(one.spec).toContain('"title":"value (mean service times)"');
    expect(one.units).toEqual(new Set(['mean service times']));
    const two = await sides('T(lwl, fifo) < T(jsq, fifo)', ['exp@2'], [0.2, 0.4]); // ρ = 2λ < 1
    expect(two.spec).toContain('"title":"value (time units (E[S] = 2))"');
    expect(two.units).toEqual(new Set(['time units (E[S] = 2)']));
  });

  it('an expression of quantities has no unit of its own: the axis says how to read each kind', async () => {
    const ratio = await sides('T(jsq, fifo) / T(lwl, fifo) < 2', ['exp']);
    expect(ratio.spec).toContain('"title":"value (times in mean service times; S a ratio)"');
    expect(ratio.units).toEqual(new Set([undefined]));
  });
});

describe('conjecture report: the grid line', () => {
  const meta = {
    command: 'supermarket conjecture c.json',
    startedAt: '2026-12-04T00:00:00Z',
    wallSeconds: 1,
    versions: {},
    machine: { cpu: 'x', cores: 1 },
  };
  const grid = { lambda: [0.5], d: [2], service: ['exp'] };

  it('names the sampling of a file that does not set it (it said "sampling undefined")', async () => {
    const md = conjectureMarkdown(
      await evaluateConjecture(parseConjecture({ name: 'g', claim: 'T(lwl, fifo) < T(jsq, fifo)', grid })),
      [],
      meta,
    );
    const line = md.split('\n').find((l) => l.startsWith('- **Grid:**'))!;
    expect(line).toContain('sampling with-replacement (the default).');
    expect(md).not.toContain('sampling undefined');
  });

  it('names the sampling the file sets', async () => {
    const c = parseConjecture({ name: 'g', claim: 'T(jsq, fifo) < 3', grid, sampling: 'without-replacement' });
    const md = conjectureMarkdown(await evaluateConjecture(c), [], meta);
    expect(md.split('\n').find((l) => l.startsWith('- **Grid:**'))).toContain('sampling without-replacement.');
  });
});
