/**
 * The dispatcher memory in the finite system (sim/memory.ts; theory.md §12): the memory's own rules on a hand-made
 * state, and a short run per scheme at n = 1000 against the mean-field reduction (E[T] within the CI plus 1/n, the
 * observed π₀ within its CI plus 1/n). Longer runs at n = 1000 and 10 000: scripts/memory-check.ts; with PS and LAS: memorySharing.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { solveMeanField } from '../../src/meanfield/solve.ts';
import { parseModel } from '../../src/model/model.ts';
import { DispatcherMemory, MEM_CP, MEM_IP, MEM_ISM } from '../../src/sim/memory.ts';
import { simulate } from '../../src/sim/simulate.ts';
import { Rng } from '../../src/stats/rng.ts';

describe('DispatcherMemory', () => {
  const n = 8;
  const identity = Int32Array.from({ length: n }, (_, i) => i);

  it('IP: an empty memory probes d servers, the job takes the shortest, the other idle probed ones are kept once', () => {
    const len = Int32Array.from([0, 3, 0, 2, 0, 1, 1, 1]);
    const m = new DispatcherMemory(MEM_IP, 3, n, 4, false);
    const rng = new Rng(7n);
    const j = m.select(rng, len, new Float64Array(n), 0, false, identity.slice());
    expect(len[j]).toBe(0);
    const probed = Array.from(m.probe);
    const idleOthers = new Set(probed.filter((s) => s !== j && len[s] === 0));
    expect(m.size).toBe(idleOthers.size);
    for (let k = 0; k < m.size; k++) expect(idleOthers.has(m.ids[(m.head + k) % m.capacity])).toBe(true);
    // while ids are held IP does not probe: the next arrival takes the oldest id
    if (m.size > 0) {
      const first = m.ids[m.head];
      const probes = Array.from(m.probe);
      expect(m.select(rng, len, new Float64Array(n), 0, false, identity.slice())).toBe(first);
      expect(Array.from(m.probe)).toEqual(probes);
    }
  });

  it('CP/BCP: taking a held id still probes, and the bound A holds; ISM offers respect A and never duplicate', () => {
    const len = new Int32Array(n); // all idle
    const cp = new DispatcherMemory(MEM_CP, 2, n, 3, false);
    cp.offer(5);
    const j = cp.select(new Rng(3n), len, new Float64Array(n), 0, false, identity.slice());
    expect(j).toBe(5);
    expect(cp.size).toBeLessThanOrEqual(2);
    expect(cp.held[5]).toBe(0);
    const ism = new DispatcherMemory(MEM_ISM, 2, n, 1, false);
    ism.offer(1);
    ism.offer(1);
    ism.offer(2);
    ism.offer(3);
    expect(ism.size).toBe(2);
    expect([ism.take(), ism.take()]).toEqual([1, 2]);
  });
});

describe('classic JIQ in the finite system', () => {
  it('--selection jiq at n = 1000, λ = 0.8: almost no waiting (E[T] → E[S] = 1), every held id idle', () => {
    const model = parseModel({ lambda: 0.8, d: 1, selection: 'jiq' });
    const r = simulate(model, { n: 1000, jobs: 20_000, replications: 3, seed: 3, warmupTime: 10 });
    expect(r.meanResponseTime.mean).toBeLessThan(1 + r.meanResponseTime.halfWidth + 1e-3);
    expect(r.memory!.emptyFraction.mean).toBeLessThan(1e-3);
    expect(r.tail[2].mean).toBeLessThan(1e-3); // no server holds two jobs
  });
});

describe('simulate with memory at n = 1000 against the reduction', () => {
  const n = 1000;
  const cases: [string, number, string, string][] = [
    ['jsq', 2, 'ip', 'exp'],
    ['jsq', 3, 'cp', 'exp'],
    ['jsq', 3, 'bcp:2', 'hyperexp:2'],
    ['jsq', 2, 'ism:5', 'exp'],
    ['lwl', 2, 'ism:3', 'exp'],
  ];
  for (const [selection, d, memory, service] of cases) {
    it(`${selection} d=${d} ${memory} ${service}`, () => {
      const model = parseModel({ lambda: 0.85, d, selection, memory, service });
      const mf = solveMeanField(model);
      const r = simulate(model, { n, jobs: 20_000, replications: 5, seed: 11, warmupTime: 60 });
      const e = r.meanResponseTime;
      expect(Math.abs(e.mean - mf.meanResponseTime)).toBeLessThanOrEqual(e.halfWidth + 1 / n);
      const pi0 = r.memory!.emptyFraction;
      expect(Math.abs(pi0.mean - mf.reduction!.pi0)).toBeLessThanOrEqual(pi0.halfWidth + 1 / n);
      expect(r.engine).not.toBe('race');
    });
  }
});
