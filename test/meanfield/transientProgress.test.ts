/**
 * Every transient solver behind `solveMeanFieldTransient` reports its progress (the fraction of the horizon done,
 * non-decreasing, reaching the end), so `ode` can show a bar with an ETA for any long transient — the LL(d) PIDE with
 * a memory ran 9 CPU seconds for t = 50 with no sign of life (fresh-user trial, issue 18/21).
 */
import { describe, expect, it } from 'vitest';
import { parseModel } from '../../src/model/index.ts';
import { solveMeanFieldTransient } from '../../src/meanfield/index.ts';

const cases: [string, Parameters<typeof parseModel>[0]][] = [
  ['sqd-ode', { lambda: 0.7, d: 2 }],
  ['phase-type-ode', { lambda: 0.7, d: 2, service: 'erlang:2' }],
  ['lwl-pide', { lambda: 0.7, d: 2, selection: 'lwl' }],
  ['memory-cavity-ode', { lambda: 0.7, d: 2, memory: 'ism:3' }],
  ['memory-phase-type-ode', { lambda: 0.7, d: 2, memory: 'ism:3', service: 'erlang:2' }],
  ['memory-lwl-pide', { lambda: 0.7, d: 2, selection: 'lwl', memory: 'ism:3' }],
  ['hetero-occupancy-ode', { lambda: 0.7, d: 2, servers: { speeds: '1,2', fractions: '0.5,0.5' } }],
];

describe('solveMeanFieldTransient: onProgress reaches every solver', () => {
  for (const [solver, input] of cases) {
    it(`${solver}: fractions in [0, 1], non-decreasing, the last ≥ 0.9`, () => {
      const seen: number[] = [];
      const r = solveMeanFieldTransient(parseModel(input), [0, 5, 10], { onProgress: (f) => seen.push(f) });
      expect(r.solver).toBe(solver);
      expect(seen.length).toBeGreaterThan(0);
      expect(seen.every((f, k) => f >= 0 && f <= 1 + 1e-9 && (k === 0 || f >= seen[k - 1] - 1e-12))).toBe(true);
      expect(seen[seen.length - 1]).toBeGreaterThanOrEqual(0.9);
    });
  }
});
