import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { assignShards, parseShard } from '../../src/runs/shard.ts';
import { missingMessage, planMerge } from '../../src/cli/commands/merge.ts';
import { runCli } from '../cli/runCli.ts';
import { writeTinyExperiment } from '../experiments/tinyExperiment.ts';

/** results.json cells without the timing fields (wall time, events per second differ between runs). */
function cellsOf(dir: string): unknown {
  const r = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8'));
  return JSON.parse(JSON.stringify(r.cells, (k, v) => (k === 'wallSeconds' || k === 'eventsPerSecond' ? undefined : v)));
}

describe('shards', () => {
  it('parseShard("i/N") accepts 1 ≤ i ≤ N and refuses the rest in one line', () => {
    expect(parseShard('2/8')).toEqual({ index: 2, count: 8 });
    expect(() => parseShard('0/8')).toThrow(/1 ≤ i ≤ N/);
    expect(() => parseShard('9/8')).toThrow(/"9\/8"/);
    expect(() => parseShard('2')).toThrow(/i\/N/);
  });

  it('assignShards(items, N) covers every key once, ignores the order of the items and balances the cost', () => {
    const items = Array.from({ length: 40 }, (_, i) => ({ key: `k${i}`, cost: 1 + ((i * 7) % 11) }));
    const a = assignShards(items, 4);
    const b = assignShards([...items].reverse(), 4);
    expect([...a.entries()].sort()).toEqual([...b.entries()].sort());
    expect(a.size).toBe(40);
    const load = [0, 0, 0, 0];
    for (const it of items) load[a.get(it.key)! - 1] += it.cost;
    const total = load.reduce((s, x) => s + x, 0);
    // greedy largest-first: no shard exceeds the mean by more than the largest item (11)
    for (const l of load) expect(Math.abs(l - total / 4)).toBeLessThanOrEqual(11);
    expect(() =>
      assignShards(
        [
          { key: 'x', cost: 1 },
          { key: 'x', cost: 2 },
        ],
        2,
      ),
    ).toThrow(/duplicate/);
  });

  it('run --shard i/4 into four folders, merged, equals one local run cell for cell; merge names missing and refuses mixed shards', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-shard-'));
    const file = writeTinyExperiment(tmp, { jobs: 1000, seed: 5 });
    const dirs = [1, 2, 3, 4].map((i) => path.join(tmp, `s${i}`));
    for (const [i, dir] of dirs.entries()) {
      const r = await runCli(['run', file, '--shard', `${i + 1}/4`, '--out', dir, '--threads', '1', '--no-progress']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`shard ${i + 1}/4: 1 of 4 cells \\(1 computed`));
    }
    const partial = planMerge(dirs.slice(0, 3));
    expect(missingMessage(partial)).toMatch(/^1 of 4 cells are missing: shard 4\/4 \(no folder given\): 1 \(exp\|d2\|n/);
    const merged = await runCli(['merge', ...dirs, '--out', path.join(tmp, 'merged'), '--no-progress']);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/4 cells \(4 resumed\)/);
    const local = await runCli(['run', file, '--out', path.join(tmp, 'local'), '--threads', '1', '--no-progress']);
    expect(local.status, local.stderr).toBe(0);
    expect(cellsOf(path.join(tmp, 'merged'))).toEqual(cellsOf(path.join(tmp, 'local')));
    // a shard of another grid (other seed) is refused with one line
    const other = writeTinyExperiment(tmp, { jobs: 1000, seed: 6 }, 'other.json');
    expect((await runCli(['run', other, '--shard', '1/4', '--out', path.join(tmp, 'o1'), '--threads', '1', '--no-progress'])).status).toBe(
      0,
    );
    expect(() => planMerge([dirs[1], path.join(tmp, 'o1')])).toThrow(
      /^refusing to merge shards of different runs: .*grid [0-9a-f]{16}.* and .*grid [0-9a-f]{16}/,
    );
  });

  it('run --shard 1/2 and 2/2 into one folder, then merge: no note of an earlier run that stopped before its report (nothing stopped)', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-shard-note-'));
    const file = writeTinyExperiment(tmp, { jobs: 500, seed: 8 });
    const out = path.join(tmp, 'out');
    for (const i of [1, 2]) {
      const r = await runCli(['run', file, '--shard', `${i}/2`, '--out', out, '--threads', '1', '--no-progress']);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).not.toMatch(/stopped/);
    }
    const merged = await runCli(['merge', out, '--no-progress']);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stderr).not.toMatch(/stopped before writing its report/);
    expect(merged.stdout).toMatch(/4 cells \(4 resumed\)/);
    expect(existsSync(path.join(out, 'index.html'))).toBe(true);
  });

  it('one grid split into 2 and into 3 shards in one folder: merge refuses and says how to merge one split', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-shard-splits-'));
    const file = writeTinyExperiment(tmp, { jobs: 500, seed: 9 });
    const out = path.join(tmp, 'out');
    for (const shard of ['1/2', '2/2', '2/3']) {
      const r = await runCli(['run', file, '--shard', shard, '--out', out, '--threads', '1', '--no-progress']);
      expect(r.status, r.stderr).toBe(0);
    }
    const refused = await runCli(['merge', out, '--no-progress']);
    expect(refused.status).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /refusing to merge shards of different runs: .*; they split one grid into 2 and 3 shards: merge one split by naming its folders/,
      ),
    ]);
    const one = ['1-of-2', '2-of-2'].map((d) => path.join(out, 'shards', d));
    const merged = await runCli(['merge', ...one, '--out', path.join(tmp, 'merged'), '--no-progress']);
    expect(merged.status, merged.stderr).toBe(0);
  });

  it('run --dry-run: the 8 shards of experiments/paper-synthetic.json partition its grid; a shard computes exactly the cells its dry run lists', async () => {
    const plan = async (file: string, args: string[]) => {
      const r = await runCli(['run', file, '--dry-run', '--json', ...args]);
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { gridCells: number; cells: { key: string; stored: boolean }[] };
    };
    const paper = path.resolve('experiments/paper-synthetic.json');
    const all = await plan(paper, []);
    expect(all.cells.length).toBe(all.gridCells);
    const shards = [];
    for (let i = 1; i <= 8; i++) shards.push((await plan(paper, ['--shard', `${i}/8`])).cells.map((c) => c.key));
    // every cell in exactly one shard (sorted lists equal: no cell lost, none twice), shards balanced in count
    expect(shards.flat().sort()).toEqual(all.cells.map((c) => c.key).sort());
    for (const keys of shards) expect(keys.length).toBeGreaterThan(all.gridCells / 16);
    // a real shard run stores exactly the cells its dry run listed, and a second dry run marks them stored
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-dry-'));
    const file = writeTinyExperiment(tmp, { jobs: 500, seed: 7 });
    const out = path.join(tmp, 'out');
    const before = await plan(file, ['--shard', '2/3', '--out', out]);
    expect(before.cells.every((c) => !c.stored)).toBe(true);
    expect(existsSync(out)).toBe(false); // nothing written
    const r = await runCli(['run', file, '--shard', '2/3', '--out', out, '--threads', '1', '--no-progress', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      shard: { index: 2, count: 3 },
      cells: before.cells.length,
      computed: before.cells.length,
      resumed: 0,
    });
    const manifest = JSON.parse(readFileSync(path.join(out, 'shards', '2-of-3', 'shard.json'), 'utf8')) as { mine: string[] };
    expect([...manifest.mine].sort()).toEqual(before.cells.map((c) => c.key).sort());
    const after = await plan(file, ['--shard', '2/3', '--out', out]);
    expect(after.cells.map((c) => [c.key, c.stored])).toEqual(before.cells.map((c) => [c.key, true]));
  });
});
