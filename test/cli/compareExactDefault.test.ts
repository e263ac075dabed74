/**
 * `compare` without --exact-n: a sweep n in 2..5 gets its exact point where the n-server chain exists (R1: at
 * n = d = 2 the cell was left "refined-out-of-range" with no exact value beside it), the preset keeps its 2..5, and
 * --exact-n (also "none") still decides alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_PRESET, exactNs } from '../../src/cli/commands/compare.ts';
import { solveExact } from '../../src/meanfield/exact/index.ts';
import { parseModel } from '../../src/model/index.ts';
import { runCli } from './runCli.ts';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'supermarket-exact-default-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('compare: exact points by default at the sweep n in 2..5', () => {
  it('exactNs: --exact-n alone when given, the preset 2..5 for the default --n, else the --n values among 2..5', () => {
    expect(exactNs({ n: [...DEFAULT_PRESET.ns] })).toEqual([2, 3, 4, 5]);
    expect(exactNs({ n: [2, 10, 100] })).toEqual([2]);
    expect(exactNs({ n: [1, 3, 5, 6, 50] })).toEqual([3, 5]);
    expect(exactNs({ n: [10, 20] })).toEqual([]);
    expect(exactNs({ n: [2, 10], exactN: [3] })).toEqual([3]);
    expect(exactNs({ n: [2, 10], exactN: [] })).toEqual([]); // --exact-n none
  });

  it('--n 2,10 at d = 2: the n = 2 cell is judged against the exact chain', async () => {
    const out = path.join(tmp, 'r');
    const args = ['compare', '--d', '2', '--lambda', '0.7', '--n', '2,10', '--jobs', '5000', '--replications', '3'];
    const r = await runCli([...args, '--no-trajectory', '--threads', '1', '--no-progress', '--json', '--out', out]);
    expect(r.status).toBe(0);
    const summary = JSON.parse(r.stdout) as { cells: { d: number; n: number; exactMeanResponseTime?: number }[] };
    const exact = solveExact(parseModel({ lambda: 0.7, d: 2 }), { n: 2, truncationBound: 1e-4 }).meanResponseTime;
    const at2 = summary.cells.find((c) => c.n === 2)!;
    expect(at2.exactMeanResponseTime).toBeCloseTo(exact, 3);
    expect(summary.cells.find((c) => c.n === 10)!.exactMeanResponseTime).toBeUndefined();
  }, 600_000);
});
