import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

// One rule for path errors: a path the command cannot use (missing, a folder where a file is wanted, a file where a
// folder is wanted) is bad input and exits 2 in every command, as a bad flag value and a file whose content is wrong do
// (cli/errors.ts; path errors exited 1 until 2026-12-03, beside bad models' 2). A missing run/conjecture/model/trace/empirical/--init/slurm file exited 2,
// replay's exited 1, and merge of a missing folder said "no shard.json here" (exit 2).
describe('path errors exit 2 (bad input) in every command, in one line', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sm-path-'));
  const missing = path.join(dir, 'none.json');
  const folder = path.join(dir, 'folder');
  mkdirSync(folder);
  const file = path.join(dir, 'file.json');
  writeFileSync(file, '{');
  const cases: [string, string[], RegExp][] = [
    ['run, missing', ['run', missing], /experiment file not found/],
    ['run, folder', ['run', folder], /is a folder, not a file/],
    ['conjecture, missing', ['conjecture', missing], /conjecture file not found/],
    ['model, missing', ['model', missing], /model file not found/],
    ['model, folder', ['model', folder], /is a folder, not a file/],
    ['trace, missing', ['trace', missing], /trace file not found/],
    ['replay, missing', ['replay', path.join(dir, 'none.swf'), '--n', '2', '--d', '1'], /cannot open .*none\.swf: ENOENT/],
    [
      'empirical sizes, missing',
      ['simulate', '--lambda', '0.5', '--d', '1', '--n', '2', '--service', `empirical:${missing}`],
      /cannot read the file \(no such file\)/,
    ],
    [
      'empirical sizes, folder',
      ['simulate', '--lambda', '0.5', '--d', '1', '--n', '2', '--service', `empirical:${folder}`],
      /is a folder, not a file/,
    ],
    [
      'ode --init, missing',
      ['ode', '--lambda', '0.5', '--d', '2', '--t-end', '1', '--dt', '1', '--init', missing],
      /--init .*: cannot read the file/,
    ],
    ['merge, missing folder', ['merge', path.join(dir, 'nodir')], /nodir: no such folder/],
    ['merge, a file', ['merge', file], /file\.json is a file, not a folder/],
    ['slurm, missing', ['slurm', missing, '--array', '2', '--out', path.join(dir, 'slurm')], /none\.json: no such file/],
  ];
  it.each(cases)('%s', async (_, args, message) => {
    const r = await runCli(args);
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toMatch(message);
  });

  it('a file whose content is wrong is bad input: exit 2', async () => {
    const r = await runCli(['run', file]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/not valid JSON/);
  });
});
