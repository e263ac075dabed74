/**
 * Arrivals and batches are coordinates of every room (issue 19 item 4): experiment cells carry them as fields (JSON,
 * figure CSV), the report's tables give them columns, a claim judged on cells reads each arrival stream at its own
 * grid point, and a conjecture grid varies them (`grid.arrivals`, `grid.batch`) with the fields in its points.csv.
 */
import { describe, expect, it } from 'vitest';
import { conjectureRows, expandConjectureGrid, judgeClaimOnCells, parseConjecture, quantityModel } from '../../src/claims/index.ts';
import { cellStream, expandGrid, judgeExperimentClaims, parseExperiment, type CellOutcome } from '../../src/experiments/index.ts';
import { experimentTables, measureFigure } from '../../src/report/experimentReport.ts';
import { measuredCell } from '../../src/experiments/claims.ts';
import { estimate } from '../stats/estimate.ts';

const base = {
  name: 'streams',
  lambda: [0.5],
  d: [2],
  n: [10],
  selections: ['jsq'],
  disciplines: ['fifo'],
  service: ['exp'],
  jobs: 100,
  replications: 2,
};

/** Outcomes of the cells with a made-up E[T] per cell (the tables and claims only read the estimates). */
function outcomes(spec: Record<string, unknown>, mean: (key: string) => number): CellOutcome[] {
  return expandGrid(parseExperiment({ ...base, ...spec })).map(({ model: _m, ...cell }) => ({
    cell,
    result: {
      meanResponseTime: estimate(mean(cell.key), 0.01),
      meanQueueLength: estimate(1, 0.01),
      events: 1,
      eventsPerSecond: 1,
      wallSeconds: 0,
      warmupTime: 0,
      seeds: {},
    },
  }));
}

describe('experiment cells carry their arrival stream', () => {
  it('expandGrid crosses arrivals × batch: fields, keys and labels; Poisson single-job cells keep key and label', () => {
    const plain = expandGrid(parseExperiment(base))[0];
    const cells = expandGrid(parseExperiment({ ...base, d: [3], arrivals: ['exp', 'Erlang:02'], batch: [1, 2] }));
    expect(cells.map((c) => [c.arrivals, c.batch, c.batchDispatch])).toEqual([
      ['exp', 1, 'spread'],
      ['exp', 2, 'spread'],
      ['erlang:2', 1, 'spread'],
      ['erlang:2', 2, 'spread'],
    ]);
    expect(cells.map((c) => c.model.batch)).toEqual([1, 2, 1, 2]);
    expect(cells[0].key).toBe(plain.key.replace('|d2|', '|d3|'));
    expect(cells[0].policy).toBe('JSQ+FIFO');
    expect(cells[3].policy).toBe('JSQ+FIFO (arrivals erlang:2, batch 2 (spread))');
    expect(new Set(cells.map((c) => c.key)).size).toBe(4);
    const whole = expandGrid(parseExperiment({ ...base, batch: [3], batchDispatch: 'whole' }));
    expect(whole[0].model.batchDispatch).toBe('whole');
    expect(whole[0].key).toMatch(/-batch-3-whole\|/);
    expect(() => expandGrid(parseExperiment({ ...base, batchDispatch: 'whole' }))).toThrow(
      /entry "batchDispatch" = "whole" has no effect: every batch size of "batch" is 1/,
    );
    // a batch of 3 spread over d = 2 sampled servers: refused naming the cell
    expect(() => expandGrid(parseExperiment({ ...base, batch: [3] }))).toThrow(/policy jsq\/fifo, batch 3: .*needs d ≥ K/);
  });

  it('a cell stored before the stream was written reads Poisson single jobs', () => {
    expect(cellStream({})).toEqual({ arrivals: 'exp', batch: 1, batchDispatch: 'spread' });
  });

  it('the report tables get arrivals and batch columns only when some cell is not the default; the figure rows carry the fields', () => {
    const poisson = outcomes({}, () => 2);
    expect(experimentTables(poisson, 'meanResponseTime')).toMatch(
      /\| policy \[prediction\] \| λ = 0\.5 \|\n\|---\|---\|\n\| JSQ\+FIFO \| 2\.000 ± 0\.010 \|/,
    );
    const mixed = outcomes(
      { d: [3], arrivals: ['exp', 'det'], batch: [1, 2] },
      (k) => (k.includes('det') ? 1.5 : 2) + (k.includes('batch') ? 1 : 0),
    );
    const table = experimentTables(mixed, 'meanResponseTime');
    expect(table).toContain('| policy [prediction] | arrivals | batch | λ = 0.5 |');
    expect(table).toContain('| JSQ+FIFO | exp | 1 | 2.000 ± 0.010 |');
    expect(table).toContain('| JSQ+FIFO | det | batch 2 (spread) | 2.500 ± 0.010 |');
    const rows = measureFigure(mixed, 'meanResponseTime')!.rows;
    expect(rows.map((r) => [r.arrivals, r.batch, r.batchDispatch])).toEqual([
      ['exp', 1, 'spread'],
      ['exp', 2, 'spread'],
      ['det', 1, 'spread'],
      ['det', 2, 'spread'],
    ]);
  });
});

describe('claims read each arrival stream at its own grid point', () => {
  const claim = parseConjecture({ name: 'c', claim: 'T(jsq, fifo) < T(random, fifo)', grid: { lambda: [0.5], d: [2] } });

  it('judgeClaimOnCells: det and exp cells of the same policies are two points, each judged on its own cells', () => {
    // exp: JSQ 1.2 < random 2 (holds); det: JSQ 1.1 vs random 1.05 (fails). Before, the det cells overwrote the exp ones.
    const results = outcomes({ selections: ['jsq', 'random'], arrivals: ['exp', 'det'] }, (k) =>
      k.startsWith('exp|d2|n10|jsq') ? (k.includes('det') ? 1.1 : 1.2) : k.includes('det') ? 1.05 : 2,
    );
    const points = judgeClaimOnCells(
      claim,
      results.map((o) => measuredCell(o)),
    );
    expect(points.map((p) => [p.point.row, p.verdict])).toEqual([
      ['exp, d = 2, n = 10', 'holds'],
      ['exp, d = 2, n = 10, arrivals det', 'fails'],
    ]);
    expect(judgeExperimentClaims([claim], results).map((f) => f.where)).toEqual([
      'exp, d = 2, n = 10, λ = 0.5',
      'exp, d = 2, n = 10, arrivals det, λ = 0.5',
    ]);
  });
});

describe('conjecture grids vary arrivals and batches', () => {
  it('expandConjectureGrid: canonical arrivals and batch in the points, rows and keys; the models carry them; points.csv has the columns', () => {
    const c = parseConjecture({
      name: 'c',
      claim: 'T(jsq, fifo) < T(lwl, fifo)',
      grid: { lambda: [0.5], d: [3], arrivals: ['exp', 'H2:4'], batch: [1, 2], batchDispatch: 'whole' },
    });
    const points = expandConjectureGrid(c.spec, c.claim);
    expect(points.map((p) => [p.arrivals, p.batch, p.batchDispatch, p.row])).toEqual([
      ['exp', 1, 'spread', 'exp, d = 3, arrivals exp, batch 1'],
      ['exp', 2, 'whole', 'exp, d = 3, arrivals exp, batch 2 (whole)'],
      ['hyperexp:4', 1, 'spread', 'exp, d = 3, arrivals hyperexp:4, batch 1'],
      ['hyperexp:4', 2, 'whole', 'exp, d = 3, arrivals hyperexp:4, batch 2 (whole)'],
    ]);
    expect(points[0].key).toBe('exp|d3|exact|lambda0.5');
    expect(points[3].key).toBe('exp|d3|exact|arrivals-hyperexp:4|batch-2-whole|lambda0.5');
    const model = quantityModel(c.spec, points[3], c.claim.quantities[1]);
    expect([model.arrivals, model.batch, model.batchDispatch]).toEqual([{ kind: 'hyperexponential', scv: 4 }, 2, 'whole']);
    const rows = conjectureRows({
      name: 'c',
      claim: c.claim.text,
      spec: c.spec,
      points: points.map((point) => ({ point, quantities: [], comparisons: [], verdict: 'undecided', perQuantityConfidence: 0.95 })),
      summary: { holds: 0, fails: 0, undecided: 4, undefined: 0, total: 4 },
      simulations: [],
      provenance: { version: '', verdictRule: '' },
    });
    expect(rows.map((r) => [r.arrivals, r.batch, r.batchDispatch])).toEqual(points.map((p) => [p.arrivals, p.batch, p.batchDispatch]));
  });

  it('refuses in one line: a bad arrivals entry, a batch dispatch with no batch, a batch on a rule that cannot take one', () => {
    const spec = (grid: Record<string, unknown>, claim = 'T(jsq, fifo) < 3') =>
      parseConjecture({ name: 'c', claim, grid: { lambda: [0.5], d: [2], ...grid } });
    const grid = (grid: Record<string, unknown>, claim?: string) => {
      const c = spec(grid, claim);
      return expandConjectureGrid(c.spec, c.claim).map((p) => c.claim.quantities.map((q) => quantityModel(c.spec, p, q)));
    };
    expect(() => grid({ arrivals: ['erlang:0'] })).toThrow(/arrivals erlang k must be an integer in \[1, 1000\]/);
    expect(() => grid({ batchDispatch: 'whole' })).toThrow(/"grid.batchDispatch" = "whole" has no effect: every batch size .* is 1/);
    expect(() => grid({ batch: [2] }, 'T(jsq, fifo) < T(random, fifo)')).toThrow(
      /grid point .*batch-2-spread.*: batch size 2 works with selection jsq/,
    );
  });
});
