/**
 * `simulate` takes the one warm-up rule as the library gives it (`simulationWarmup`, theory.md §8), uncapped (one
 * model's run; grids cap it at 5000): the SQ(d,K) warm-up was the SQ(1) rule's 8629 where the model's own batch ODE
 * settles by t ≈ 110 (trial finding F10).
 */
import { describe, expect, it } from 'vitest';
import { simulationWarmup } from '../../src/meanfield/warmup.ts';
import { parseModel } from '../../src/model/model.ts';
import { runCli } from './runCli.ts';

describe('simulate: the warm-up of the library', () => {
  it('M/M/1 at λ = 0.95 and SQ(3,2) at λ = 0.9 (batch ODE): the JSON warm-up is simulationWarmup(model, { cap: ∞ }).time', async () => {
    for (const [flags, spec] of [
      ['--d 1 --lambda 0.95', { lambda: 0.95, d: 1 }],
      ['--d 3 --batch 2 --lambda 0.9', { lambda: 0.9, d: 3, batch: 2 }],
    ] as const) {
      const r = await runCli(`simulate ${flags} --n 4 --jobs 100 --replications 2 --json`);
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout).warmupTime).toBe(simulationWarmup(parseModel(spec), { cap: Number.POSITIVE_INFINITY }).time);
    }
    expect(simulationWarmup(parseModel({ lambda: 0.95, d: 1 })).rule).toMatch(/capped at 5000/); // a grid's cell
    expect(simulationWarmup(parseModel({ lambda: 0.9, d: 3, batch: 2 })).time).toBeLessThan(500); // not SQ(1)'s 8629
  });
});
