/** Issue 21 §11: `slurm --array N` caps N at the grid's cells and warns above the cluster's MaxArraySize. */
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeTinyExperiment } from '../experiments/tinyExperiment.ts';
import { runCli } from './runCli.ts';

describe('slurm --array', () => {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-slurm-array-'));
  const file = writeTinyExperiment(tmp, { jobs: 500, seed: 1 }); // 2 λ × 2 n = 4 cells

  it('--array 1500 on a 4-cell grid writes 4 tasks and says so', async () => {
    const out = path.join(tmp, 'capped');
    const r = await runCli(['slurm', file, '--array', '1500', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/warning: --array 1500 is more than the 4 cells of .*: 4 tasks written/);
    const sbatch = readFileSync(path.join(out, 'slurm', 'array.sbatch'), 'utf8');
    expect(sbatch).toContain('#SBATCH --array=1-4');
    expect(sbatch).not.toContain('1500');
    expect(r.stdout).toMatch(/\(4 tasks\)/);
  });

  it('--start reaches every task: the array line runs the command with it (it ran the default whatever was asked)', async () => {
    const out = path.join(tmp, 'start');
    const r = await runCli(['slurm', file, '--array', '2', '--out', out, '--start', 'empty']);
    expect(r.status, r.stderr).toBe(0);
    const exec = readFileSync(path.join(out, 'slurm', 'array.sbatch'), 'utf8')
      .split('\n')
      .find((line) => line.startsWith('exec '));
    expect(exec).toMatch(/ run .* --shard "\$\{SLURM_ARRAY_TASK_ID\}\/\$SHARDS" --out .* --start empty --threads /);
    const none = await runCli(['slurm', file, '--array', '2', '--out', path.join(tmp, 'nostart')]);
    expect(none.status, none.stderr).toBe(0);
    expect(readFileSync(path.join(tmp, 'nostart', 'slurm', 'array.sbatch'), 'utf8')).not.toContain('--start');
    const bad = await runCli(['slurm', file, '--array', '2', '--out', out, '--start', 'full']);
    expect(bad.status).not.toBe(0);
  });

  // trial M6: sbatch splits a directive at whitespace outside double quotes, so an unquoted path with a space broke --output
  it('quotes #SBATCH paths with a space (double quotes, as sbatch reads them) and the printed submit line (shell quotes)', async () => {
    const out = path.join(tmp, 'sl urm');
    const r = await runCli(['slurm', file, '--array', '2', '--out', out]);
    expect(r.status, r.stderr).toBe(0);
    for (const name of ['array.sbatch', 'merge.sbatch']) {
      const directives = readFileSync(path.join(out, 'slurm', name), 'utf8')
        .split('\n')
        .filter((line) => line.startsWith('#SBATCH'));
      const output = directives.find((line) => line.startsWith('#SBATCH --output='));
      expect(output).toBe(`#SBATCH --output="${path.join(out, 'slurm', 'logs', name === 'array.sbatch' ? 'shard-%a.out' : 'merge.out')}"`);
      // no directive holds whitespace outside double quotes
      for (const line of directives) expect(line.slice('#SBATCH '.length).replace(/"[^"]*"/g, '')).not.toMatch(/\s/);
    }
    expect(r.stdout).toContain(`submit with: bash '${path.join(out, 'slurm', 'submit.sh')}'`);
  });

  it('warns when the tasks exceed the MaxArraySize that scontrol reports', async () => {
    const fake = path.join(tmp, 'scontrol');
    writeFileSync(fake, '#!/bin/sh\necho "Configuration data as of now"\necho "MaxArraySize            = 3"\n');
    chmodSync(fake, 0o755);
    const before = process.env.SUPERMARKET_SCONTROL;
    process.env.SUPERMARKET_SCONTROL = fake;
    try {
      const r = await runCli(['slurm', file, '--array', '4', '--out', path.join(tmp, 'big')]);
      expect(r.status, r.stderr).toBe(0);
      expect(r.stderr).toMatch(/warning: --array 4 exceeds this cluster's MaxArraySize = 3 .*use --array ≤ 2/);
      const ok = await runCli(['slurm', file, '--array', '2', '--out', path.join(tmp, 'small')]);
      expect(ok.stderr).not.toMatch(/MaxArraySize/);
    } finally {
      if (before === undefined) delete process.env.SUPERMARKET_SCONTROL;
      else process.env.SUPERMARKET_SCONTROL = before;
    }
  });
});
