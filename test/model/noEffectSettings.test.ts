import { describe, expect, it } from 'vitest';
import { expandGrid, parseExperiment } from '../../src/experiments/index.ts';
import { parseModel } from '../../src/model/index.ts';

// One rule for the library, the CLI and experiment files: a setting with no effect is refused, never rewritten.
// parseModel turned { batch: 2, sampling: 'with-replacement' } into without-replacement and dropped speeds: [1];
// an experiment file with batches and "sampling": "with-replacement" kept that sampling in its config.
describe('settings with no effect are refused by parseModel as by the CLI', () => {
  it('sampling with-replacement beside a batch (K or a size law); the default becomes without-replacement', () => {
    expect(() => parseModel({ lambda: 0.5, d: 2, batch: 2, sampling: 'with-replacement' })).toThrow(
      /^sampling with-replacement has no effect with batch 2: a batch samples d distinct servers/,
    );
    expect(() => parseModel({ lambda: 0.5, d: 2, batch: 'geom:2', batchDispatch: 'whole', sampling: 'with-replacement' })).toThrow(
      /^sampling with-replacement has no effect with batch geom:2/,
    );
    expect(parseModel({ lambda: 0.5, d: 2, batch: 2 }).sampling).toBe('without-replacement');
    expect(parseModel({ lambda: 0.5, d: 2, batch: 2, sampling: 'without-replacement' }).sampling).toBe('without-replacement');
    expect(parseModel({ lambda: 0.5, d: 2, batch: 1, sampling: 'with-replacement' }).sampling).toBe('with-replacement');
    // a normalised batch model read back is the same model
    const m = parseModel({ lambda: 0.5, d: 2, batch: 2 });
    expect(parseModel(JSON.parse(JSON.stringify(m)))).toEqual(m);
  });

  it('server classes all of speed 1', () => {
    expect(() => parseModel({ lambda: 0.5, d: 2, servers: { speeds: [1] } })).toThrow(/^servers with speeds 1 have no effect/);
    expect(() => parseModel({ lambda: 0.5, d: 2, servers: { speeds: '1,1' } })).toThrow(/^servers with speeds 1,1 have no effect/);
  });

  it('experiment files: one rule for every cell, and the config records no sampling the batch cells did not use', () => {
    const base = {
      name: 'e',
      lambda: [0.5],
      d: [2],
      n: [10],
      selections: ['jsq'],
      disciplines: ['fifo'],
      service: ['exp'],
      jobs: 10,
      replications: 2,
    };
    expect(() => expandGrid(parseExperiment({ ...base, batch: [1, 2], sampling: 'with-replacement' }))).toThrow(
      /sampling with-replacement has no effect with batch 2/,
    );
    const spec = parseExperiment({ ...base, batch: [1, 2] });
    expect(spec.sampling).toBeUndefined();
    expect(expandGrid(spec).map((c) => [c.model.batch, c.model.sampling])).toEqual([
      [1, 'with-replacement'],
      [2, 'without-replacement'],
    ]);
  });
});
