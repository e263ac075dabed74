/**
 * Report folders: sharded compare runs replay through merge exactly as the user gave their options (shard.json keeps
 * the user's text, so `--exact-n none` survives), merge's refusals are one line, and a command that writes a report
 * folder refuses a non-empty folder that is not one of ours instead of replacing the user's files.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';
import { writeTinyExperiment } from '../experiments/tinyExperiment.ts';

/** results.json without the fields that differ between two runs of the same cells (timing, provenance). */
function resultsOf(dir: string): unknown {
  const r = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as Record<string, unknown>;
  const { cells, models, config } = r;
  return JSON.parse(JSON.stringify({ cells, models, config }, (k, v) => (k === 'wallSeconds' || k === 'eventsPerSecond' ? undefined : v)));
}

const COMPARE = ['compare', '--lambda', '0.9', '--d', '2', '--n', '10,20', '--jobs', '2000', '--replications', '2', '--no-trajectory'];

describe('compare --shard with options that do not print back from their values', () => {
  it('--exact-n none: shard.json keeps "none"; the merged report equals a local run; a bad stored argv is refused in one line', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-fixa-'));
    const x = path.join(tmp, 'x');
    for (const i of [1, 2]) {
      const r = await runCli([...COMPARE, '--exact-n', 'none', '--out', x, '--shard', `${i}/2`, '--threads', '1', '--no-progress']);
      expect(r.status, r.stderr).toBe(0);
    }
    const manifest = JSON.parse(readFileSync(path.join(x, 'shards', '1-of-2', 'shard.json'), 'utf8')) as { argv: string[] };
    expect(manifest.argv.slice(-2)).toEqual(['--exact-n', 'none']);
    const merged = await runCli(['merge', x, '--no-progress']);
    expect(merged.status, merged.stderr).toBe(0);
    expect(merged.stdout).toMatch(/2 cells resumed/);
    const local = path.join(tmp, 'local');
    expect((await runCli([...COMPARE, '--exact-n', 'none', '--out', local, '--threads', '1', '--no-progress'])).status).toBe(0);
    expect(resultsOf(x)).toEqual(resultsOf(local));

    // shards written before this fix stored "--exact-n", "": merge names the command it cannot rerun, in merge's one-line form
    for (const i of [1, 2]) {
      const file = path.join(x, 'shards', `${i}-of-2`, 'shard.json');
      const m = JSON.parse(readFileSync(file, 'utf8')) as { argv: string[] };
      m.argv[m.argv.length - 1] = '';
      writeFileSync(file, JSON.stringify(m));
    }
    const refused = await runCli(['merge', x, '--no-progress']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(
      /^supermarket: error: merge: cannot rerun the shards' command \(supermarket compare .*--exact-n \): .*'--exact-n <list>'/,
    );
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('a report folder that is not ours', () => {
  /** A user's folder: keep.txt, index.html and figures/mine.svg. */
  function userFolder(tmp: string): string {
    const dir = path.join(tmp, 'mine');
    mkdirSync(path.join(dir, 'figures'), { recursive: true });
    writeFileSync(path.join(dir, 'keep.txt'), 'keep');
    writeFileSync(path.join(dir, 'index.html'), '<p>my page</p>');
    writeFileSync(path.join(dir, 'figures', 'mine.svg'), '<svg/>');
    return dir;
  }

  it('compare, run, conjecture and merge refuse it in one line before computing and leave its files as they were', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-fixa-'));
    const dir = userFolder(tmp);
    const experiment = writeTinyExperiment(tmp, { jobs: 200, seed: 1 });
    const conjecture = path.join(tmp, 'claim.json'); // the folder is refused while the options parse: the file is never read
    for (const args of [
      [...COMPARE, '--out', dir],
      ['run', experiment, '--out', dir],
      ['conjecture', conjecture, '--out', dir],
      ['merge', tmp, '--out', dir],
    ]) {
      const r = await runCli([...args, '--no-progress']);
      expect(r.status, args[0]).not.toBe(0);
      expect(r.stderr, args[0]).toMatch(/cannot write .*mine: it is a non-empty folder that is not a supermarket report/);
      expect(r.stderr.trim().split('\n'), args[0]).toHaveLength(1);
    }
    expect(readdirSync(dir).sort()).toEqual(['figures', 'index.html', 'keep.txt']);
    expect(readFileSync(path.join(dir, 'index.html'), 'utf8')).toBe('<p>my page</p>');
    expect(existsSync(path.join(dir, 'figures', 'mine.svg'))).toBe(true);
  });

  it("without --out, run refuses the default reports/<name> when it is a user's folder, in one line, exit 2 (bad input), files kept", async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-default-'));
    const name = `foreign-default-${process.pid}`;
    const experiment = path.join(tmp, 'exp.json');
    writeFileSync(
      experiment,
      readFileSync(writeTinyExperiment(tmp, { jobs: 200, seed: 1 }), 'utf8').replace('"tiny"', JSON.stringify(name)),
    );
    const dir = path.join('reports', name); // the default folder, relative to the working directory as the command sees it
    mkdirSync(dir, { recursive: true });
    try {
      writeFileSync(path.join(dir, 'keep.txt'), 'keep');
      const r = await runCli(['run', experiment, '--no-progress', '--threads', '1']);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `cannot write the default report folder reports/${name}: it is a non-empty folder that is not a supermarket report.*--out`,
        ),
      );
      expect(readdirSync(dir)).toEqual(['keep.txt']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a report folder of ours is still rewritten (resumed from its cells), and an empty folder is accepted', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-fixa-'));
    const out = path.join(tmp, 'report');
    mkdirSync(out);
    const args = [...COMPARE, '--exact-n', 'none', '--out', out, '--threads', '1', '--no-progress'];
    expect((await runCli(args)).status).toBe(0);
    const again = await runCli(args);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/2 cells resumed/);
  });
});

describe('a report folder is recognised by what its files say, not by their names', () => {
  it("a user's folder with its own metadata.json, or a cells/ folder of other files, is refused; our report folder is reused", async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-marks-'));
    const withMeta = path.join(tmp, 'withMeta');
    mkdirSync(path.join(withMeta, 'figures'), { recursive: true });
    writeFileSync(path.join(withMeta, 'metadata.json'), '{"author":"me"}');
    writeFileSync(path.join(withMeta, 'figures', 'my.png'), 'mine');
    const withCells = path.join(tmp, 'withCells');
    mkdirSync(path.join(withCells, 'cells'), { recursive: true });
    writeFileSync(path.join(withCells, 'notes.txt'), 'notes');
    writeFileSync(path.join(withCells, 'cells', 'foo.json'), '{"mine":1}');
    for (const dir of [withMeta, withCells]) {
      const r = await runCli([...COMPARE, '--out', dir, '--threads', '1', '--no-progress']);
      expect(r.status, dir).toBe(2);
      expect(r.stderr).toMatch(/not a supermarket report/);
    }
    expect(readFileSync(path.join(withMeta, 'figures', 'my.png'), 'utf8')).toBe('mine');
    expect(readdirSync(withCells).sort()).toEqual(['cells', 'notes.txt']);
    // our own report folder: written once, then accepted again (resumed)
    const ours = path.join(tmp, 'ours');
    expect((await runCli([...COMPARE, '--out', ours, '--threads', '1', '--no-progress'])).status).toBe(0);
    const again = await runCli([...COMPARE, '--out', ours, '--threads', '1', '--no-progress']);
    expect(again.status, again.stderr).toBe(0);
  });
});
