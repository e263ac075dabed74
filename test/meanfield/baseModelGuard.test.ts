/**
 * A solver entry called directly with a setting its equation has no term for (server speeds, batches, redundancy; the
 * refined terms with non-Poisson arrivals) refuses in one line naming it, instead of answering for the model without
 * it (lwlFixedPoint on LL(3,2) gave LL(3)'s 1.2556 beside solveMeanField's 1.8656). solveMeanField routes each model.
 */
import { describe, expect, it } from 'vitest';
import { parseModel, solveMeanField, type SupermarketModel } from '../../src/index.ts';
import {
  jsqCavity,
  lwlCavity,
  lwlFixedPoint,
  lwlTransient,
  lwlWorkloadCcdf,
  mg1,
  phaseTypeJsqFixedPoint,
  refine,
  refinedTransient,
  refineSecondOrder,
  solveSqdFixedPoint,
  solveTransient,
} from '../../src/meanfield/index.ts';
import { memoryReduction, solveMemoryTransient } from '../../src/meanfield/memory/index.ts';
import { hasWorkloadReference } from '../../src/compare/lwlReference.ts';

const oneLine = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    const text = (e as Error).message;
    expect(text).not.toContain('\n');
    return text;
  }
  throw new Error('no error');
};

const settings = {
  batch: { batch: 2, d: 3 },
  speeds: { servers: { speeds: [1, 2] }, d: 2 },
  redundancy: { redundancy: 'cancel-on-complete', d: 2 },
} as const;
const named = {
  batch: /no term for batches \(K = 2\)/,
  speeds: /no term for server speeds 1,2/,
  redundancy: /no term for redundancy cancel-on-complete/,
};

const entries: [string, Record<string, unknown>, (m: SupermarketModel) => unknown][] = [
  ['solveSqdFixedPoint', {}, (m) => solveSqdFixedPoint(m)],
  ['solveTransient', {}, (m) => solveTransient(m, { times: [0, 1] })],
  ['refine', {}, (m) => refine(m)],
  ['refineSecondOrder', {}, (m) => refineSecondOrder(m)],
  ['lwlFixedPoint', { selection: 'lwl' }, (m) => lwlFixedPoint(m)],
  ['lwlWorkloadCcdf', { selection: 'lwl' }, (m) => lwlWorkloadCcdf(m)],
  ['phaseTypeJsqFixedPoint', { service: 'erlang:2' }, (m) => phaseTypeJsqFixedPoint(m)],
  ['jsqCavity', { discipline: 'srpt' }, (m) => jsqCavity(m, { seed: 1 })],
  ['lwlCavity', { selection: 'lwl', discipline: 'srpt' }, (m) => lwlCavity(m, { seed: 1 })],
  // the memory room's public entries (a fresh-user trial: solveMemoryTransient answered SQ(3) for SQ(3,2), the
  // identical-server λ for speeds 1,2 and SQ(2)'s tail for redundancy; memoryReduction the identical-server probes)
  ['solveMemoryTransient', {}, (m) => solveMemoryTransient(m, { times: [0, 1] })],
  ['memoryReduction', {}, (m) => memoryReduction(m)],
];

describe('direct solver entries refuse settings they have no term for', () => {
  for (const [name, extra, call] of entries)
    for (const [setting, fields] of Object.entries(settings))
      // redundancy is parsed for FIFO, exponential sizes, no selection only: the other entries never see it
      if (setting !== 'redundancy' || Object.keys(extra).length === 0)
        it(`${name} with ${setting}`, () => {
          const m = parseModel({ lambda: 0.5, ...fields, ...extra } as never);
          expect(oneLine(() => call(m))).toMatch(named[setting as keyof typeof named]);
        });

  it('mg1 with server speeds (it gave speed 1 M/M/1, 2.0) and the refined terms with Erlang arrivals are refused', () => {
    expect(oneLine(() => mg1(parseModel({ lambda: 0.5, d: 1, selection: 'random', servers: { speeds: [1, 2] } })))).toMatch(
      /M\/G\/1 formulas has no term for server speeds 1,2/,
    );
    const erlang = parseModel({ lambda: 0.8, d: 2, arrivals: 'erlang:2' });
    expect(solveSqdFixedPoint(erlang).meanResponseTime).toBe(solveSqdFixedPoint(parseModel({ lambda: 0.8, d: 2 })).meanResponseTime); // the Poisson limit
    expect(oneLine(() => refine(erlang))).toMatch(/refined 1\/n term is derived for Poisson arrivals .* arrivals erlang:2/);
    expect(oneLine(() => refineSecondOrder(erlang))).toMatch(/1\/n² term is derived for Poisson arrivals/);
    expect(oneLine(() => refinedTransient(erlang, { times: [0, 1] }))).toMatch(/refined transient V\(t\)\/n is derived for Poisson/);
    // the memory cavity ODE with MMPP arrivals gave the Poisson answer; solveMeanFieldTransient refuses the same model
    const mmpp = parseModel({
      lambda: 0.5,
      d: 2,
      memory: { kind: 'ism', capacity: 3 },
      arrivals: 'mmpp:1,3,0.1,0.2',
    } as never);
    expect(oneLine(() => solveMemoryTransient(mmpp, { times: [0, 1] }))).toMatch(/memory cavity ODE assumes Poisson arrivals/);
  });

  it('the entries with the term keep it: lwlTransient runs LL(3,2); solveMeanField answers LL(3,2); compare has no LWL(d) workload ccdf for it', () => {
    const ll = parseModel({ lambda: 0.8, d: 3, batch: 2, selection: 'lwl' });
    expect(lwlTransient(ll, { times: [0, 5] }).busyFraction[1]).toBeGreaterThan(0);
    expect(solveMeanField(ll).meanResponseTime).toBeCloseTo(1.8656, 3);
    expect(hasWorkloadReference(ll)).toBe(false);
    expect(hasWorkloadReference(parseModel({ lambda: 0.6, d: 2, selection: 'lwl', servers: { speeds: [1, 2] } }))).toBe(false);
    expect(hasWorkloadReference(parseModel({ lambda: 0.6, d: 2, selection: 'lwl' }))).toBe(true);
  });
});
