/**
 * Batches through the CLI's mean-field commands (theory.md §15): `ode` integrates the LL(d,K) workload PIDE from
 * empty (its busy fraction and E[U] at t = 1 equal `solveMeanFieldTransient`'s).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';
import { solveMeanFieldTransient } from '../../src/meanfield/solve.ts';
import { parseModel } from '../../src/model/index.ts';

describe('ode with batches', () => {
  it('ode --selection lwl --batch 2 --d 3: the LL(d,K) workload PIDE (was refused: no LL(d,K) transient)', async () => {
    const r = await runCli('ode --selection lwl --batch 2 --d 3 --lambda 0.8 --t-end 1 --dt 0.5 --json --no-progress');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout) as {
      times: number[];
      busyFraction: number[];
      meanWorkload: number[];
      provenance: { equation: string };
    };
    expect(out.times).toEqual([0, 0.5, 1]);
    expect(out.provenance.equation).toMatch(/T₁\(S_j\)/);
    const direct = solveMeanFieldTransient(parseModel({ lambda: 0.8, d: 3, selection: 'lwl', batch: 2 }), [0, 0.5, 1]);
    if (direct.solver !== 'lwl-pide') throw new Error(direct.solver);
    expect(out.busyFraction).toEqual(direct.result.busyFraction);
    expect(out.meanWorkload).toEqual(direct.result.meanWorkload);
    expect(out.busyFraction[2]).toBeGreaterThan(0.4);
  });
});
