/**
 * The thesis's finite-system table as `compare` presets (compare/memoryTable.ts; Hellemans 2021, ch. 6, Table
 * fin_acc): each preset is its setup's model and n list, and the mean field of the SQ(d) setups gives the thesis's
 * cavity column to its 4 decimals (the LL(d) ones: test/meanfield/memory.test.ts). A one-setup run at small n:
 * scripts/memory-table.ts --setup K.
 */
import { describe, expect, it } from 'vitest';
import {
  lwlWorkloadReference,
  THESIS_MEMORY_NS,
  THESIS_MEMORY_PRESETS,
  THESIS_MEMORY_SETUPS,
  thesisMemoryPreset,
} from '../../src/compare/index.ts';
import { memoryReduction } from '../../src/meanfield/index.ts';
import { solveMeanField } from '../../src/meanfield/solve.ts';
import { parseModel } from '../../src/model/model.ts';

describe('thesis-memory presets', () => {
  it('eight presets, each the setup of its row with n ≥ d from the thesis columns', () => {
    expect(THESIS_MEMORY_PRESETS).toHaveLength(8);
    for (const [k, s] of THESIS_MEMORY_SETUPS.entries()) {
      const p = thesisMemoryPreset(k + 1);
      expect(p.lambdas).toEqual([s.lambda]);
      expect(p.ds).toEqual([s.d]);
      expect(p.ns).toEqual(THESIS_MEMORY_NS.filter((n) => n >= s.d));
      expect(p.model).toMatchObject({ selection: s.selection, memory: s.memory, service: s.service, discipline: 'fifo' });
      expect(s.finite).toHaveLength(THESIS_MEMORY_NS.length);
    }
    expect(() => thesisMemoryPreset(9)).toThrow(/expected 1 … 8/);
  });

  it('the SQ(d) setups (5–8): solveMeanField gives the thesis cavity value to 4 decimals', () => {
    for (let k = 5; k <= 8; k++) {
      const p = thesisMemoryPreset(k);
      const mf = solveMeanField(parseModel({ ...p.model, lambda: p.lambdas[0], d: p.ds[0] }));
      expect(Math.abs(mf.meanResponseTime - THESIS_MEMORY_SETUPS[k - 1].cavity), `setup ${k}`).toBeLessThanOrEqual(5e-5 + 1e-9);
    }
  });
});

describe('the LWL(d) workload reference of a memory model', () => {
  it('is the thesis closed form F̄(w) = (ρπ₀ + (ρ^{1−d} − ρπ₀)e^{(d−1)w})^{1/(1−d)} (exponential sizes), not the memoryless ccdf', () => {
    const model = parseModel({ lambda: 0.8, d: 3, selection: 'lwl', memory: 'cp' });
    const { pi0 } = memoryReduction(model);
    const grid = [0, 0.5, 1, 2, 4];
    const ref = lwlWorkloadReference(model, grid);
    const [rho, d] = [0.8, 3];
    grid.forEach((w, k) =>
      expect(ref.ccdf[k]).toBeCloseTo((rho * pi0 + (rho ** (1 - d) - rho * pi0) * Math.exp((d - 1) * w)) ** (1 / (1 - d)), 10),
    );
    // a phase-type law goes through the FPE at the reduced rate (before: refused by the memoryless solver)
    const hyper = lwlWorkloadReference(
      parseModel({ lambda: 0.85, d: 2, selection: 'lwl', memory: 'ism:10', service: 'hyperexp:3' }),
      [0, 1],
    );
    expect(hyper.ccdf[0]).toBeCloseTo(0.85, 3);
  });
});
