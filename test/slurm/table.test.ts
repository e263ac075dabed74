/**
 * `supermarket slurm --command table` (issue 23: the table works "with shards and Slurm like every grid"; slurm took
 * run and conjecture only). No cluster needed: the written array.sbatch runs under bash once per task with
 * SLURM_ARRAY_TASK_ID set, as Slurm runs it (the #SBATCH lines are comments to bash), then merge.sbatch; the merged
 * table must equal one local run cell for cell. The scripts run bin/supermarket.js (dist/), built here if missing, as
 * ./slurm.test.ts does; the real one-node cluster is that test's.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../cli/runCli.ts';
import { sh } from '../system.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const BIN = path.join(ROOT, 'bin', 'supermarket.js');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-slurm-table-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const grid = ['--d', '2', '--lambda', '0.7,0.9', '--n', '4,8', '--runs', '3', '--events-per-run', '2000', '--exact-max-n', '0'];

describe('slurm --command table', () => {
  it('writes an array whose tasks run table --shard i/N; run under bash as Slurm would, then merged: one local run', async () => {
    if (!existsSync(path.join(ROOT, 'dist', 'cli', 'main.js'))) {
      const b = sh('npm', ['run', 'build', '--prefix', ROOT], 300_000);
      expect(b.status, `npm run build: ${b.stderr}`).toBe(0);
    }
    const out = path.join(tmp, 'table');
    const w = sh(process.execPath, [BIN, 'slurm', '--command', 'table', '--array', '3', '--out', out, '--', ...grid]);
    expect(w.status, w.stderr).toBe(0);
    expect(w.stdout).toContain(`Wrote ${path.join(out, 'slurm', 'array.sbatch')} (3 tasks)`);
    const array = path.join(out, 'slurm', 'array.sbatch');
    const exec = readFileSync(array, 'utf8')
      .split('\n')
      .find((l) => l.startsWith('exec '));
    expect(exec).toMatch(/ table --d 2 --lambda 0\.7,0\.9 --n 4,8 .* --shard "\$\{SLURM_ARRAY_TASK_ID\}\/\$SHARDS" --out /);
    for (const i of ['1', '2', '3']) {
      const task = sh('bash', [array], 300_000, { ...process.env, SLURM_ARRAY_TASK_ID: i, SLURM_CPUS_PER_TASK: '1' });
      expect(task.status, task.stderr).toBe(0);
      expect(task.stdout).toMatch(new RegExp(`^shard ${i}/3: \\d of 4 cells`));
    }
    const merge = sh('bash', [path.join(out, 'slurm', 'merge.sbatch')], 300_000);
    expect(merge.status, merge.stderr).toBe(0);
    const local = sh(process.execPath, [BIN, 'table', ...grid, '--threads', '1', '--no-progress', '--json']);
    expect(local.status, local.stderr).toBe(0);
    const merged = JSON.parse(readFileSync(path.join(out, 'results.json'), 'utf8'));
    expect(merged.cells).toEqual(JSON.parse(local.stdout).cells);
    expect(merged.run.resumedCells).toBe(4);
  });

  it('refuses in one line: a bad table option (checked now, not in every task), an option slurm sets, a file', async () => {
    const out = path.join(tmp, 'refused');
    for (const [args, message] of [
      [['--d', '2', '--lambda', 'x'], /--command table: --lambda: "x" is not a number/],
      [['--d', '2', '--out', '/tmp/x'], /--out is set by slurm for every table task/],
      [['--threads', '2'], /--threads is set by slurm/],
      [['--start', 'empty', '--d', '2'], /--start is given twice/],
    ] as const) {
      const twice = args[0] === '--start' ? ['--start', 'auto'] : [];
      const r = await runCli(['slurm', '--command', 'table', '--array', '2', '--out', out, ...twice, '--', ...args]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
      expect(r.stderr).toMatch(message);
    }
    const r = await runCli(['slurm', '--array', '2', '--out', out]);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('missing the experiment file');
  });

  it("caps --array at the table grid's cells", async () => {
    const out = path.join(tmp, 'capped');
    const r = await runCli([
      'slurm',
      '--command',
      'table',
      '--array',
      '30',
      '--out',
      out,
      '--',
      '--d',
      '2',
      '--lambda',
      '0.7',
      '--n',
      '4,8',
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('warning: --array 30 is more than the 2 cells of the table: 2 tasks written');
    expect(readFileSync(path.join(out, 'slurm', 'array.sbatch'), 'utf8')).toContain('#SBATCH --array=1-2');
  });
});
