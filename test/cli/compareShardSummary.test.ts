/**
 * compare's shard summary counts the cells and the figure's transients from empty apart, as its resume and interrupt
 * messages do ("2 cells and 2 trajectories (transients from empty) resumed"). It counted the trajectory tasks as cells:
 * a 2-cell grid with 2 trajectories said "1 of 4 cells" and "3 of 4 cells" for its two shards.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

describe('compare --shard: cells and trajectories counted apart', () => {
  it('each shard names its cells of the grid and its trajectories of the grid, computed and resumed, text and --json', async () => {
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'sm-shard-')), 'r');
    const args = (i: number, ...extra: string[]) => [
      'compare',
      ...'--lambda 0.7 --d 2 --n 10,20 --jobs 2000 --replications 2 --exact-n none --trajectory-n 10,20 --t-end 5 --dt 1'.split(' '),
      ...'--trajectory-replications 2 --threads 1 --no-progress'.split(' '),
      '--out',
      out,
      '--shard',
      `${i}/2`,
      ...extra,
    ];
    const shards = [];
    for (const i of [1, 2]) {
      const r = await runCli(args(i));
      expect(r.status, r.stderr).toBe(0);
      const m = r.stdout.match(
        /^shard \d\/2: (\d) of 2 cells \((\d) computed, 0 resumed\)(?: and (\d) of 2 trajectories \(transients from empty\) \((\d) computed, 0 resumed\))? in /m,
      );
      expect(m, r.stdout).not.toBeNull();
      shards.push({ cells: Number(m![1]), trajectories: Number(m![3] ?? 0) });
    }
    // every cell and every trajectory in exactly one shard
    expect(shards.reduce((s, x) => s + x.cells, 0)).toBe(2);
    expect(shards.reduce((s, x) => s + x.trajectories, 0)).toBe(2);
    const again = await runCli(args(1, '--json'));
    expect(again.status, again.stderr).toBe(0);
    const json = JSON.parse(again.stdout);
    expect(json).toMatchObject({ cells: shards[0].cells, gridCells: 2, computed: 0, resumed: shards[0].cells });
    expect(json.trajectories).toEqual({ count: shards[0].trajectories, gridCount: 2, computed: 0, resumed: shards[0].trajectories });
  }, 600_000);
});
