import { describe, expect, it } from 'vitest';
import { expandGrid, parseExperiment } from '../../src/experiments/index.ts';
import { parseModel } from '../../src/model/index.ts';
import { InvalidModelError } from '../../src/errors.ts';
import {
  refine,
  simulationWarmup,
  solveMeanField,
  solveResponseTime,
  type ResponseTimeOptions,
  type SimulationWarmupOptions,
  type SolveOptions,
} from '../../src/meanfield/index.ts';
import {
  simulate,
  simulateReplay,
  simulateTrajectory,
  type ReplayOptions,
  type SimulateOptions,
  type TrajectoryOptions,
} from '../../src/sim/index.ts';

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

// The library's option objects: a key that is no field of the options type was dropped ({ replication: 20 } ran 5
// replications, { tolerence: 1e-4 } warmed up at 1e-3); every public entry that takes options now refuses it.
describe('library entries refuse an option key they do not read (refuseUnknownOptions)', () => {
  const model = parseModel({ lambda: 0.5, d: 2 });
  const cases: [string, () => unknown, RegExp][] = [
    [
      'solveMeanField',
      () => solveMeanField(model, { sed: 3 } as SolveOptions),
      /^solveMeanField: unknown option "sed" \(did you mean "seed"\?\)/,
    ],
    [
      'solveResponseTime',
      () => solveResponseTime(model, { quantile: [0.5] } as ResponseTimeOptions),
      /^solveResponseTime: unknown option "quantile" \(did you mean "quantiles"\?\)/,
    ],
    [
      'refine',
      () => refine(model, { truncation: 20 } as Parameters<typeof refine>[1]),
      /^refine: unknown option "truncation"; allowed options: fixedPoint, truncationLevel$/,
    ],
    [
      'simulationWarmup',
      () => simulationWarmup(model, { tolerence: 1e-4 } as SimulationWarmupOptions),
      /^simulationWarmup: unknown option "tolerence" \(did you mean "tolerance"\?\)/,
    ],
    [
      'simulate',
      () => simulate(model, { n: 10, jobs: 100, warmupTime: 1, replication: 20 } as SimulateOptions),
      /^simulate: unknown option "replication" \(did you mean "replications"\?\)/,
    ],
    [
      'simulateTrajectory',
      () => simulateTrajectory(model, { n: 10, times: [0, 1], replication: 3 } as TrajectoryOptions),
      /^simulateTrajectory: unknown option "replication" \(did you mean "replications"\?\)/,
    ],
    [
      'simulateReplay',
      () =>
        simulateReplay(parseModel({ lambda: 0.5, d: 1 }), { arrivals: Float64Array.of(0, 1, 2), sizes: Float64Array.of(1, 1, 1) }, {
          n: 1,
          warmup: 1,
        } as ReplayOptions),
      /^simulateReplay: unknown option "warmup"; allowed options: n, warmupJobs, seed, batches, maxLevel, workloadGrid, record$/,
    ],
  ];
  it.each(cases)('%s', (_name, call, message) => {
    expect(call).toThrow(InvalidModelError);
    expect(call).toThrow(message);
  });

  it('a key present as undefined is absent, and every field of the type is allowed', () => {
    expect(solveMeanField(model, { seed: undefined, cavityHorizon: undefined } as SolveOptions).kind).toBe('exact');
    expect(
      simulationWarmup(model, { tolerance: 1e-3, safetyFactor: 2, cap: 100, minRelaxationTimes: 1, start: 'empty', n: 10 }).time,
    ).toBeGreaterThan(0);
  });
});
