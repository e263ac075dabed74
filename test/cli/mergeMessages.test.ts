/**
 * `merge` says what to do: shards of different settings name the setting and both values (it named only two grid
 * hashes); a missing shard, or one of other code, names the command that (re)computes that shard (it said "rerun those
 * shards" without the command).
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';
import { writeTinyExperiment } from '../experiments/tinyExperiment.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'merge-messages-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const grid = ['table', '--d', '2', '--lambda', '0.7,0.9', '--n', '4,8', '--events-per-run', '1000', '--exact-max-n', '0'];
const quiet = ['--no-progress', '--threads', '1'];

/** The supermarket command line quoted in `line` after `marker`, as argv (no word there needs quoting). */
function quotedCommand(line: string, marker: RegExp): string[] {
  const m = marker.exec(line);
  expect(m, line).not.toBeNull();
  return m![1].trim().split(/\s+/).slice(1);
}

describe('merge messages', () => {
  it('shards that differ in --runs: the setting and both values are named, in one line', async () => {
    const out = path.join(dir, 'runs');
    expect((await runCli([...grid, '--runs', '3', '--shard', '1/2', '--out', out, ...quiet])).status).toBe(0);
    expect((await runCli([...grid, '--runs', '4', '--shard', '2/2', '--out', out, ...quiet])).status).toBe(0);
    const r = await runCli(['merge', out, '--no-progress']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/refusing to merge shards of different runs: .*a setting differs \(shard 1\/2 vs shard 2\/2\): --runs 3 vs 4/);
  });

  it('a missing shard: the command that computes it is named, and running it lets the merge through', async () => {
    const out = path.join(dir, 'missing');
    expect((await runCli([...grid, '--runs', '3', '--shard', '1/2', '--out', out, ...quiet])).status).toBe(0);
    const r = await runCli(['merge', out, '--no-progress']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(`Rerun that shard (or resubmit the array): supermarket table --d 2`);
    const rerun = quotedCommand(r.stderr, /\(or resubmit the array\): (supermarket .*?) —/);
    expect(rerun).toEqual(expect.arrayContaining(['--shard', '2/2', '--out', out]));
    expect((await runCli([...rerun, ...quiet])).status).toBe(0);
    const merged = await runCli(['merge', out, '--no-progress', '--json']);
    expect(merged.status, merged.stderr).toBe(0);
    expect(JSON.parse(merged.stdout).cells).toHaveLength(4);
  });

  it('a shard of other code: the command recomputing it with this code (--fresh) is named', async () => {
    const out = path.join(dir, 'code');
    for (const shard of ['1/2', '2/2'])
      expect((await runCli([...grid, '--runs', '3', '--shard', shard, '--out', out, ...quiet])).status).toBe(0);
    const manifest = path.join(out, 'shards', '2-of-2', 'shard.json');
    writeFileSync(manifest, JSON.stringify({ ...JSON.parse(readFileSync(manifest, 'utf8')), code: 'dist:0000000000000000' }));
    const r = await runCli(['merge', out, '--no-progress']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(/shard .*2-of-2 was computed by other code \(dist:0{16}; this is /);
    const rerun = quotedCommand(r.stderr, /recompute that shard with this code \((supermarket .*?)\) and merge again/);
    expect(rerun).toEqual(expect.arrayContaining(['--shard', '2/2', '--out', out, '--fresh']));
    expect(r.stderr).toContain('or merge with --allow-mixed-code');
    expect((await runCli([...rerun, ...quiet])).status).toBe(0);
    expect((await runCli(['merge', out, '--no-progress'])).status).toBe(0);
  });
});

describe('merge: shards of one run that read the experiment file at other paths', () => {
  // a tester's find: shard 1/2 run with experiments/smoke.json and 2/2 with an identical copy at /tmp/smoke3.json, the
  // grid hashes equal, and merge refused: "a setting differs …: <file> …/experiments/smoke.json vs /tmp/smoke3.json"
  const folder = (...parts: string[]) => {
    const d = path.join(dir, ...parts);
    mkdirSync(d, { recursive: true });
    return d;
  };
  const twoShards = async (name: string, second: (file: string) => string) => {
    const first = writeTinyExperiment(folder(name, 'a'), { jobs: 300, seed: 1 });
    const other = second(first);
    const out = path.join(dir, name, 'report');
    expect((await runCli(['run', first, '--shard', '1/2', '--out', out, ...quiet])).status).toBe(0);
    expect((await runCli(['run', other, '--shard', '2/2', '--out', out, ...quiet])).status).toBe(0);
    return { first, other, out };
  };

  it("an identical copy elsewhere: merged, also when the first shard's path is gone (another checkout of a cluster)", async () => {
    const { first, out } = await twoShards('copy', (file) => {
      const copy = path.join(folder('copy', 'b'), 'copy.json');
      copyFileSync(file, copy);
      return copy;
    });
    const r = await runCli(['merge', out, '--no-progress', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).cells).toHaveLength(4);
    rmSync(first);
    const again = await runCli(['merge', out, '--no-progress', '--json']);
    expect(again.status, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).cells).toHaveLength(4);
  });

  it('the file edited after the shards ran: refused, not rerun (it reported, or simulated anew, a run no shard ran)', async () => {
    const { first, out } = await twoShards('changed', (file) => file);
    const original = readFileSync(first, 'utf8');
    for (const edit of [{ description: 'edited after the shards' }, { seed: 2 }]) {
      writeFileSync(first, JSON.stringify({ ...JSON.parse(original), ...edit }));
      const r = await runCli(['merge', out, '--no-progress']);
      expect(r.status, r.stdout).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toContain(`the experiment file ${first} has changed since shard 1/2 read it (its contents differ)`);
    }
    writeFileSync(first, original);
    const merged = await runCli(['merge', out, '--no-progress', '--json']);
    expect(merged.status, merged.stderr).toBe(0);
    expect(JSON.parse(merged.stdout).cells).toHaveLength(4);
  });

  it('a file of other contents (same grid, other description): refused, naming the experiment file, not "<file>"', async () => {
    const { first, other, out } = await twoShards('edited', (file) => {
      const edited = path.join(folder('edited', 'b'), 'tiny.json');
      writeFileSync(edited, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), description: 'another run' }));
      return edited;
    });
    const r = await runCli(['merge', out, '--no-progress']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain(
      `a setting differs (shard 1/2 vs shard 2/2): the experiment file ${first} vs ${other} (their contents differ)`,
    );
    expect(r.stderr).not.toContain('<file>');
  });
});
