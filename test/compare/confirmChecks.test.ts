import { describe, expect, it } from 'vitest';
import { cellSeed, runComparison, type CellSimulation } from '../../src/compare/index.ts';
import { comparisonMarkdown, disagreementLine } from '../../src/report/index.ts';
import { testMeta } from '../report/meta.ts';
import { testComparison } from './config.ts';

// `compare --discipline las --lambda 0.9 --n 10,100` said "disagrees" on its limit and busy-fraction checks from one run
// each (a master seed's bad luck: other seeds said "agrees"): only the cells had the confirmatory rerun. The limit
// checks (Holm over the models) and the busy-fraction tests (Holm over the cells) now follow the same rule: a rejected
// first run is rerun with fresh seeds ("<cell key>/confirm", 4× the replications), "disagrees" only when the rerun
// rejects too. LWL(2) with exponential sizes has no refined term (its cells are not judged, the limit check judges) and
// an exact limit (the workload FPE's closed form), and ŝ₁ = λ. (The case was LAS, which now has FIFO's refined term.)
describe('runComparison: the limit and busy-fraction checks are confirmed by a rerun before "disagrees"', () => {
  const config = testComparison({ model: { selection: 'lwl' }, lambdas: [0.9], ns: [10, 100], jobs: 5_000, replications: 5, seed: 7 });
  const honest = runComparison(config);
  const [small, large] = honest.cells;
  type Stored = { key: string; seed: number; simulation: CellSimulation };
  /** A cache whose first runs (and reruns) are `fake`d; what the comparison stores goes to `stored`. */
  const faking = (fake: Map<string, CellSimulation>, stored: Stored[] = []) => ({
    get: (key: string) => (fake.has(key) ? { key, seed: 0, simulation: fake.get(key)! } : undefined),
    put: (c: Stored) => {
      stored.push(c);
    },
  });
  // a first run off by chance: E[T] at n = 100 ten half-widths high (â moves by 100/90 of it)
  const e = large.simulation.meanResponseTime;
  const highT = { ...large.simulation, meanResponseTime: { ...e, mean: e.mean + 10 * e.halfWidth } };

  it('the honest run agrees on both checks and reruns nothing', () => {
    expect(honest.models[0].limit.status).toBe('agrees');
    expect(honest.models[0].limitConfirmation).toBeNull();
    expect(honest.busyCheck).toMatchObject({ status: 'agrees', firstRunRejections: 0, confirmed: 0 });
  });

  it('a limit rejected by its first run reruns every sweep cell of the model and says "agrees (rejection not confirmed)"', () => {
    const stored: Stored[] = [];
    const r = runComparison(config, { cache: faking(new Map([[large.key, highT]]), stored) });
    const m = r.models[0];
    expect(m.limit.difference).toBeGreaterThan(m.limit.combinedHalfWidth); // the old rule's "disagrees"
    expect(m.limit.adjustedPValue!).toBeLessThan(0.05);
    expect(m.limit.status).toBe('agrees-not-confirmed');
    expect(m.limitConfirmation!.check.status).toBe('agrees');
    expect(m.limitConfirmation!.cells).toEqual([
      { n: 10, seed: cellSeed(7, `${small.key}/confirm`) },
      { n: 100, seed: cellSeed(7, `${large.key}/confirm`) },
    ]);
    expect(disagreementLine(r)).toMatch(/limit checks 0 of 1/);
    const md = comparisonMarkdown(r, [], testMeta());
    expect(md).toContain('**agrees (rejection not confirmed)**');
    expect(md).toMatch(/limit rerun[^\n]*\n[^]*â − E\[T\]∞ = -?\d\.\d+ ± \d\.\d+, t = -?\d+\.\d, p Holm/);
    expect(stored.map((s) => [s.key, s.simulation.replications])).toEqual([
      [small.key, 5],
      [`${small.key}/confirm`, 20],
      [`${large.key}/confirm`, 20],
    ]);
  });

  it('a limit whose rerun is off too "disagrees"', () => {
    const stored: Stored[] = [];
    runComparison(config, { cache: faking(new Map([[large.key, highT]]), stored) });
    const rerun = stored.find((s) => s.key === `${large.key}/confirm`)!.simulation;
    const r0 = rerun.meanResponseTime;
    const highRerun = { ...rerun, meanResponseTime: { ...r0, mean: r0.mean + 10 * r0.halfWidth } };
    const r = runComparison(config, {
      cache: faking(
        new Map([
          [large.key, highT],
          [`${large.key}/confirm`, highRerun],
        ]),
      ),
    });
    expect(r.models[0].limit.status).toBe('disagrees');
    expect(r.models[0].limitConfirmation!.check.status).toBe('disagrees');
  });

  it('a busy fraction rejected by its first run is rerun: "agrees" unless the rerun rejects too', () => {
    const busy = (s: CellSimulation, by: number): CellSimulation => ({
      ...s,
      tail: s.tail.map((x, i) => (i === 1 ? { ...x, mean: x.mean + by * x.halfWidth } : x)),
    });
    const stored: Stored[] = [];
    const r = runComparison(config, { cache: faking(new Map([[small.key, busy(small.simulation, 10)]]), stored) });
    expect(r.busyCheck.minAdjustedPValue).toBeLessThan(0.05); // the old rule's "disagrees"
    expect(r.busyCheck).toMatchObject({ status: 'agrees', firstRunRejections: 1, confirmed: 0 });
    expect(r.busyCheck.reruns).toEqual([expect.objectContaining({ key: small.key, seed: cellSeed(7, `${small.key}/confirm`) })]);
    expect(stored.map((s) => s.key)).toEqual([large.key, `${small.key}/confirm`]);
    const rerun = stored[1].simulation;
    const off = runComparison(config, {
      cache: faking(
        new Map([
          [small.key, busy(small.simulation, 10)],
          [`${small.key}/confirm`, busy(rerun, 10)],
        ]),
      ),
    });
    expect(off.busyCheck).toMatchObject({ status: 'disagrees', firstRunRejections: 1, confirmed: 1 });
  });
});

// The c₁ (and c₂) checks were the last of compare's checks judged from one run (Holm over the models, no rerun): a
// chance ĉ₁ far from ΣV/λ said "disagrees". They now follow the same rule: a rejected model's check is recomputed from
// its sweep cells' reruns, "disagrees" only when that is rejected too. (At 5 000 jobs a run the 95% half-width of ĉ₁,
// 1.8, exceeds ΣV/λ = 1.2: "not resolvable", no test; 20 000 jobs resolve it.)
describe('runComparison: the c₁ check is confirmed by a rerun before "disagrees"', () => {
  const config = testComparison({ lambdas: [0.7], ns: [20, 50], jobs: 20_000, replications: 5, seed: 11 });
  const honest = runComparison(config);
  const [small] = honest.cells;
  type Stored = { key: string; seed: number; simulation: CellSimulation };
  const faking = (fake: Map<string, CellSimulation>, stored: Stored[] = []) => ({
    get: (key: string) => (fake.has(key) ? { key, seed: 0, simulation: fake.get(key)! } : undefined),
    put: (c: Stored) => {
      stored.push(c);
    },
  });
  const high = (s: CellSimulation): CellSimulation => ({
    ...s,
    meanResponseTime: { ...s.meanResponseTime, mean: s.meanResponseTime.mean + 10 * s.meanResponseTime.halfWidth },
  });

  it('the honest run agrees and reruns nothing', () => {
    expect(honest.models[0].c1Check!.status).toBe('agrees');
    expect(honest.models[0].c1Confirmation).toBeNull();
  });

  it('a budget whose ĉ₁ interval is wider than |ΣV/λ| says "not resolvable", in the check and the report', () => {
    const short = runComparison({ ...config, jobs: 5_000 });
    const c = short.models[0].c1Check!;
    expect(c.halfWidth).toBeGreaterThanOrEqual(Math.abs(c.expected));
    expect(c).toMatchObject({ status: 'not-resolvable', adjustedPValue: null });
    expect(short.models[0].c1Confirmation).toBeNull();
    const md = comparisonMarkdown(short, [], testMeta());
    expect(md).toContain('**not resolvable within budget**');
    expect(disagreementLine(short)).toMatch(/c₁ checks 0 of 0/); // no test made: not counted as judged
    expect(md).not.toMatch(/c₁[^\n]*\*\*agrees\*\*/);
  });

  it('a ĉ₁ rejected by its first run only reads "agrees (rejection not confirmed)"; rejected twice, "disagrees"', () => {
    const stored: Stored[] = [];
    const r = runComparison(config, { cache: faking(new Map([[small.key, high(small.simulation)]]), stored) });
    const m = r.models[0];
    expect(m.c1Check!.adjustedPValue!).toBeLessThan(0.05); // the old rule's "disagrees"
    expect(m.c1Check!.status).toBe('agrees-not-confirmed');
    expect(m.c1Confirmation!.status).toBe('agrees');
    expect(disagreementLine(r)).toMatch(/c₁ checks 0 of 1/);
    expect(comparisonMarkdown(r, [], testMeta())).toContain('**agrees (rejection not confirmed)**');
    const rerun = stored.find((s) => s.key === `${small.key}/confirm`)!.simulation;
    const off = runComparison(config, {
      cache: faking(
        new Map([
          [small.key, high(small.simulation)],
          [`${small.key}/confirm`, high(rerun)],
        ]),
      ),
    });
    expect(off.models[0].c1Check!.status).toBe('disagrees');
    expect(off.models[0].c1Confirmation!.status).toBe('disagrees');
    expect(disagreementLine(off)).toMatch(/c₁ checks 1 of 1/);
  });
});
