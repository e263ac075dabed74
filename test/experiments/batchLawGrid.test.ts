/**
 * Batch size laws in grids (issue 19 item 2): an experiment or claim file's `batch` list takes a law's short form
 * beside integers K; a law is its own coordinate (key, label, CSV field) in its canonical short form, never K's.
 */
import { describe, expect, it } from 'vitest';
import { expandConjectureGrid, parseConjecture, quantityModel } from '../../src/claims/index.ts';
import { expandGrid, parseExperiment } from '../../src/experiments/index.ts';
import { cellFileName } from '../../src/runs/cellStore.ts';

const base = {
  name: 'laws',
  lambda: [0.5],
  d: [2],
  n: [10],
  selections: ['jsq'],
  disciplines: ['fifo'],
  service: ['exp'],
  jobs: 100,
  replications: 2,
};

describe('experiment grids take batch size laws', () => {
  it('[1, 2, "Geom:2.0"] with whole dispatch: distinct keys, labels and coordinates; the models carry the law', () => {
    const cells = expandGrid(parseExperiment({ ...base, batch: [1, 2, 'Geom:2.0'], batchDispatch: 'whole' }));
    expect(cells.map((c) => c.batch)).toEqual([1, 2, 'geom:2']);
    expect(cells[0].key).toBe('exp|d2|n10|jsq-fifo|none|lambda0.5');
    expect(cells[1].key).toBe('exp|d2|n10|jsq-fifo-batch-2-whole|none|lambda0.5');
    expect(cells[2].key).toBe('exp|d2|n10|jsq-fifo-batch-geom:2-whole|none|lambda0.5');
    expect(new Set(cells.map((c) => cellFileName(c.key))).size).toBe(3);
    expect(cellFileName(cells[2].key)).toMatch(/^[A-Za-z0-9._-]+\.json$/);
    expect(cells.map((c) => c.policy)).toEqual(['JSQ+FIFO', 'JSQ+FIFO (batch 2 (whole))', 'JSQ+FIFO (batch geom:2 (whole))']);
    expect(cells[2].batchDispatch).toBe('whole');
    // the law reaches the model: E[X] = 2 in batch, the geometric law in batchLaw; K = 2 has none
    expect([cells[2].model.batch, cells[2].model.batchLaw]).toEqual([2, { kind: 'geometric', mean: 2 }]);
    expect(cells[1].model.batchLaw).toBeUndefined();
    expect(cells[1].seed).not.toBe(cells[2].seed);
  });

  it('a pmf law: canonical form in the key (commas slugged); a one-atom pmf is that K and repeats it', () => {
    const [cell] = expandGrid(parseExperiment({ ...base, batch: ['pmf:0.5,0,0.5'], batchDispatch: 'whole' }));
    expect(cell.batch).toBe('pmf:0.5,0,0.5');
    expect(cell.key).toBe('exp|d2|n10|jsq-fifo-batch-pmf:0.5_0_0.5-whole|none|lambda0.5');
    expect(cell.model.batchLaw).toEqual({ kind: 'pmf', p: [0.5, 0, 0.5] });
    expect(parseExperiment({ ...base, batch: ['pmf:0,1'], batchDispatch: 'whole' }).batch).toEqual([2]);
    expect(() => expandGrid(parseExperiment({ ...base, batch: [2, 'pmf:0,1'], batchDispatch: 'whole' }))).toThrow(
      /entry "batch" lists the batch size 2 twice/,
    );
  });

  it('refuses in one line: a bad law names its entry; a law with spread dispatch names the cell and the law', () => {
    const oneLine = (f: () => unknown, pattern: RegExp) => {
      let message = '';
      try {
        f();
      } catch (error) {
        message = (error as Error).message;
      }
      expect(message).toMatch(pattern);
      expect(message).not.toContain('\n');
    };
    oneLine(
      () => parseExperiment({ ...base, batch: [1, 'geom:0.5'], batchDispatch: 'whole' }),
      /batch\[1\].*geom mean must be in \(1, 1000\]/,
    );
    oneLine(
      () => parseExperiment({ ...base, batch: [1, 'poisson:2'], batchDispatch: 'whole' }),
      /batch\[1\].*unknown batch size "poisson:2"/,
    );
    oneLine(() => parseExperiment({ ...base, batch: [1.5] }), /batch\[0\].*must be an integer/);
    oneLine(
      () => expandGrid(parseExperiment({ ...base, batch: ['geom:2'] })),
      /batch "geom:2": batch size law geom:2 needs batch dispatch whole/,
    );
  });
});

describe('claim grids take batch size laws', () => {
  it('grid.batch [1, "geom:2"] (whole): distinct keys and rows; the quantity models carry the law', () => {
    const c = parseConjecture({
      name: 'c',
      claim: 'T(jsq, fifo) < T(lwl, fifo)',
      grid: { lambda: [0.5], d: [3], batch: [1, 2, 'geom:2'], batchDispatch: 'whole' },
    });
    const points = expandConjectureGrid(c.spec, c.claim);
    expect(points.map((p) => [p.batch, p.batchDispatch, p.key])).toEqual([
      [1, 'spread', 'exp|d3|exact|lambda0.5'],
      [2, 'whole', 'exp|d3|exact|batch-2-whole|lambda0.5'],
      ['geom:2', 'whole', 'exp|d3|exact|batch-geom:2-whole|lambda0.5'],
    ]);
    expect(points[2].row).toBe('exp, d = 3, batch geom:2 (whole)');
    const model = quantityModel(c.spec, points[2], c.claim.quantities[0]);
    expect([model.batch, model.batchLaw, model.batchDispatch]).toEqual([2, { kind: 'geometric', mean: 2 }, 'whole']);
    expect(quantityModel(c.spec, points[1], c.claim.quantities[0]).batchLaw).toBeUndefined();
  });

  it('a bad law is one line naming grid.batch', () => {
    expect(() => parseConjecture({ name: 'c', claim: 'T(jsq, fifo) < 3', grid: { lambda: [0.5], d: [2], batch: ['geom:x'] } })).toThrow(
      /grid\.batch\[0\].*batch geom mean must be a finite number/,
    );
  });
});
