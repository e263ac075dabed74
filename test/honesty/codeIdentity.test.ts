/**
 * Issue 21 item 8: results know their code. Cells, shard manifests and metadata.json record the code identity (a hash
 * of the code that runs, runs/codeIdentity.ts); resume and merge refuse other code in one line unless
 * --allow-mixed-code, which the report then names.
 */
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeIdentity } from '../../src/runs/codeIdentity.ts';
import { runCli } from '../cli/runCli.ts';
import { writeTinyExperiment } from '../experiments/tinyExperiment.ts';

const OTHER = 'git:0123456789abcdef0123456789abcdef01234567';
const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('code identity (issue 21 item 8)', () => {
  it('codeIdentity() names a hash of the code that runs (its folder, version, runtime dependencies), not a git commit', () => {
    expect(codeIdentity()).toMatch(/^(dist|src):[0-9a-f]{16}$/);
  });

  it('run records the code in every cell and metadata.json; resuming a cell of other code is refused in one line, --allow-mixed-code notes it', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-code-'));
    const file = writeTinyExperiment(tmp, { jobs: 200, seed: 2 });
    const out = path.join(tmp, 'out');
    const args = ['run', file, '--out', out, '--threads', '1', '--no-progress'];
    expect((await runCli(args)).status).toBe(0);
    const cells = readdirSync(path.join(out, 'cells')).map((f) => path.join(out, 'cells', f));
    for (const c of cells) expect(json(c).code).toBe(codeIdentity());
    expect(json(path.join(out, 'metadata.json')).code).toBe(codeIdentity());
    expect(json(path.join(out, 'results.json')).code).toBe(codeIdentity());
    // one cell computed by other code: a resume refuses it
    writeFileSync(cells[0], JSON.stringify({ ...json(cells[0]), code: OTHER }));
    const refused = await runCli(args);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/computed by other code \(git:0123456789abcdef.*--allow-mixed-code/);
    const mixed = await runCli([...args, '--allow-mixed-code']);
    expect(mixed.status, mixed.stderr).toBe(0);
    expect(json(path.join(out, 'metadata.json')).mixedCode).toEqual([OTHER]);
    expect(readFileSync(path.join(out, 'report.md'), 'utf8')).toMatch(/Mixed code.*git:0123456789abcdef/);
  }, 600_000);

  it('compare resumes only cells of its own code: a stored cell of other code is refused in one line', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-code-compare-'));
    const out = path.join(tmp, 'out');
    const args = ['compare', '--lambda', '0.5', '--d', '2', '--n', '10', '--jobs', '1000', '--replications', '3'];
    const rest = ['--no-trajectory', '--out', out, '--threads', '1', '--no-progress'];
    const first = await runCli([...args, ...rest]);
    expect(first.status, first.stderr).toBe(0);
    const cells = readdirSync(path.join(out, 'cells')).map((f) => path.join(out, 'cells', f));
    expect(cells.length).toBeGreaterThan(0);
    for (const c of cells) expect(json(c).code).toBe(codeIdentity());
    writeFileSync(cells[0], JSON.stringify({ ...json(cells[0]), code: OTHER }));
    const refused = await runCli([...args, ...rest]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/stored cell .* computed by other code \(git:0123456789abcdef.*--allow-mixed-code/);
  }, 600_000);

  it('merge refuses shards of other code in one line; --allow-mixed-code merges and names it', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-code-merge-'));
    const file = writeTinyExperiment(tmp, { jobs: 200, seed: 6 });
    const out = path.join(tmp, 'out');
    for (const i of [1, 2]) {
      const r = await runCli(['run', file, '--shard', `${i}/2`, '--out', out, '--threads', '1', '--no-progress']);
      expect(r.status, r.stderr).toBe(0);
    }
    const manifest = path.join(out, 'shards', readdirSync(path.join(out, 'shards')).sort()[1], 'shard.json');
    expect(json(manifest).code).toBe(codeIdentity());
    writeFileSync(manifest, JSON.stringify({ ...json(manifest), code: OTHER }));
    const refused = await runCli(['merge', out, '--no-progress']);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/shard .* was computed by other code/);
    const merged = await runCli(['merge', out, '--no-progress', '--allow-mixed-code']);
    expect(merged.status, merged.stderr).toBe(0);
    expect(json(path.join(out, 'metadata.json')).mixedCode).toContain(OTHER);
  }, 600_000);
});
