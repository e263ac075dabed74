/**
 * The dispatcher memory is a coordinate of claims like every other policy axis (issue 18; theory.md §12): a quantity
 * may name its memory (`T(jsq, fifo, bcp:3)`), a conjecture grid may vary it (`grid.memory`), and a claim judged on an
 * experiment's cells reads the cell of the right memory.
 */
import { describe, expect, it } from 'vitest';
import { evaluateConjecture, judgeClaimOnCells, parseClaim, parseConjecture, type MeasuredCell } from '../../src/claims/index.ts';
import { expandGrid, parseExperiment } from '../../src/experiments/index.ts';
import { measuredCell } from '../../src/experiments/claims.ts';
import { solveMeanField } from '../../src/meanfield/solve.ts';
import { parseModel } from '../../src/model/index.ts';
import { estimate } from '../stats/estimate.ts';

const cell = (memory: string, mean: number, selection: 'jsq' | 'random' = 'jsq'): MeasuredCell => ({
  selection,
  discipline: 'fifo',
  service: 'exp',
  prediction: 'none',
  memory,
  arrivals: 'exp',
  batch: 1,
  batchDispatch: 'spread',
  lambda: 0.9,
  d: 2,
  n: 100,
  meanResponseTime: estimate(mean, 0.01),
  method: 'simulation n = 100',
});

describe('claims over a dispatcher memory', () => {
  it('parseClaim reads a memory argument, canonical (bcp:03 → bcp:3), and refuses a malformed one in one line', () => {
    const c = parseClaim('T(jsq, fifo, BCP:03) < T(jsq, fifo, ip) and T(jsq, fifo) < 3');
    expect(c.quantities.map((q) => [q.key, q.memory])).toEqual([
      ['T(jsq, fifo, bcp:3)', 'bcp:3'],
      ['T(jsq, fifo, ip)', 'ip'],
      ['T(jsq, fifo)', undefined],
    ]);
    expect(() => parseClaim('T(jsq, fifo, bcp) < 2')).toThrow(/bcp needs a memory size/);
    expect(() => parseClaim('T(jsq, fifo, 2 + 3) < 2')).toThrow(/memory of T\(\) must be none, ip, cp, bcp:A or ism:A/);
  });

  it('judgeClaimOnCells reads the cell of the right memory: one point per memory, and a named memory its own cell', () => {
    const cells = [cell('none', 2.6), cell('ip', 1.5), cell('none', 10, 'random')];
    const byMemory = judgeClaimOnCells(parseConjecture({ name: 'm', claim: 'T(jsq, fifo) < 2', grid: { lambda: [0.9], d: [2] } }), cells);
    // before memory was a coordinate the ip cell overwrote the none cell: one point, "holds"
    expect(byMemory.map((p) => [p.point.memory, p.verdict, p.quantities[0].value])).toEqual([
      ['none', 'fails', 2.6],
      ['ip', 'holds', 1.5],
    ]);
    const named = judgeClaimOnCells(
      parseConjecture({ name: 'm', claim: 'T(jsq, fifo, ip) < T(jsq, fifo, none)', grid: { lambda: [0.9], d: [2] } }),
      cells,
    );
    expect(named.map((p) => [p.verdict, p.quantities.map((q) => q.value)])).toEqual([['holds', [1.5, 2.6]]]);
    // random cannot use a memory: at the ip point it is read from its none cell
    const mixed = judgeClaimOnCells(
      parseConjecture({ name: 'm', claim: 'T(jsq, fifo) < T(random, fifo)', grid: { lambda: [0.9], d: [2] } }),
      cells,
    );
    expect(mixed.map((p) => [p.point.memory, p.quantities.map((q) => q.value)])).toEqual([
      ['none', [2.6, 10]],
      ['ip', [1.5, 10]],
    ]);
  });

  it('experiment cells carry their memory (canonical), so the claims engine tells them apart', () => {
    const spec = parseExperiment({
      name: 'mem',
      lambda: [0.8],
      d: [2],
      n: [10],
      selections: ['jsq'],
      disciplines: ['fifo'],
      memory: ['none', 'BCP:2'],
      service: ['exp'],
      jobs: 100,
      replications: 2,
    });
    const cells = expandGrid(spec);
    expect(cells.map((c) => [c.memory, c.model.memory])).toEqual([
      ['none', { kind: 'none' }],
      ['bcp:2', { kind: 'bcp', capacity: 2 }],
    ]);
    const outcome = (c: (typeof cells)[number], mean: number) => ({
      cell: c,
      result: {
        meanResponseTime: estimate(mean, 0.01),
        meanQueueLength: estimate(mean * 0.8, 0.01),
        events: 1,
        eventsPerSecond: 1,
        wallSeconds: 1,
        warmupTime: 0,
        seeds: [],
      },
    });
    expect(measuredCell(outcome(cells[1], 1.4)).memory).toBe('bcp:2');
  });

  it('evaluateConjecture varies grid.memory on the quantities that can use it; the mean field gives the reduced-rate values', async () => {
    const c = parseConjecture({
      name: 'memory-helps',
      claim: 'T(jsq, fifo) < T(jsq, fifo, none) or T(random, fifo) < 0',
      grid: { lambda: [0.8], d: [2], memory: ['ip', 'bcp:2'] },
    });
    const r = await evaluateConjecture(c, {
      simulate: async () => {
        throw new Error('no simulation expected');
      },
    });
    expect(r.points.map((p) => p.point.memory)).toEqual(['ip', 'bcp:2']);
    for (const p of r.points) {
      const [withMemory, without, random] = p.quantities;
      expect(withMemory.value).toBeCloseTo(solveMeanField(parseModel({ lambda: 0.8, d: 2, memory: p.point.memory })).meanResponseTime, 12);
      expect(without.value).toBeCloseTo(solveMeanField(parseModel({ lambda: 0.8, d: 2 })).meanResponseTime, 12);
      expect(random.value).toBeCloseTo(5, 9); // M/M/1 at 0.8: random takes no memory
      expect(p.verdict).toBe('holds');
      expect(p.point.row).toContain(`memory ${p.point.memory}`);
    }
  });

  it('evaluateConjecture simulates a memory model with its memory (tiny grid, prefer: simulation)', async () => {
    const c = parseConjecture({
      name: 'memory-sim',
      claim: 'T(jsq, fifo) < T(jsq, fifo, none)',
      grid: { lambda: [0.8], d: [2], memory: ['cp'] },
      evaluation: { n: 20, jobs: 3000, replications: 2, prefer: 'simulation', warmup: 20 },
    });
    const r = await evaluateConjecture(c);
    expect(r.simulations.map((s) => s.model.memory)).toEqual([{ kind: 'cp' }, { kind: 'none' }]);
    const [cp, none] = r.points[0].quantities;
    expect(cp.value).toBeLessThan(none.value);
  });

  it('a grid memory no quantity can use, or a d no rule samples, is refused in one line', async () => {
    const random = parseConjecture({ name: 'x', claim: 'T(random, fifo) < 10', grid: { lambda: [0.5], d: [1], memory: ['ip'] } });
    await expect(evaluateConjecture(random)).rejects.toThrow(/"grid.memory" entry "ip" has no effect/);
    const jiq = parseConjecture({ name: 'x', claim: 'T(jiq, fifo) < 10', grid: { lambda: [0.5], d: [2] } });
    await expect(evaluateConjecture(jiq)).rejects.toThrow(/"grid.d" = \[2\] has no effect: selection jiq samples no servers/);
  });
});
