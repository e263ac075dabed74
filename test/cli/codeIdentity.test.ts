import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeIdentity } from '../../src/runs/codeIdentity.ts';
import { runCli } from './runCli.ts';

const json = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

// every result file and --json output names the code that computed it, as `run` does (README §Slurm)
describe('code identity in table, conjecture and compare results', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'code-identity-'));

  it('table: results.json, metadata.json and --json carry it, also when every cell is read back from the store', async () => {
    const out = path.join(dir, 'table');
    const args = ['table', '--d', '2', '--lambda', '0.5', '--n', '2,3', '--runs', '2', '--events-per-run', '2000'];
    const rest = ['--threads', '1', '--no-progress', '--json', '--out', out];
    const first = await runCli([...args, ...rest]);
    expect(first.status, first.stderr).toBe(0);
    const mine = codeIdentity();
    // keyed by the code's content, not by a git commit (a docs-only commit forced --fresh: test/runs/codeIdentity.test.ts)
    expect(mine).toMatch(/^(src|dist):[0-9a-f]{16}$/);
    expect(JSON.parse(first.stdout).code).toBe(mine);
    expect(json(path.join(out, 'results.json')).code).toBe(mine);
    expect(json(path.join(out, 'metadata.json')).code).toBe(mine);
    expect(json(path.join(out, 'results.json')).settings.seed).toBe(1);

    const again = await runCli([...args, ...rest]);
    expect(again.status, again.stderr).toBe(0);
    const resumed = JSON.parse(again.stdout);
    expect(resumed.run.resumedCells).toBe(2);
    expect(resumed.run.events).toBe(0);
    expect(resumed.code).toBe(mine);
    expect(json(path.join(out, 'results.json')).code).toBe(mine);

    // a stored cell of other code is refused, so a rebuilt table never names this code over another code's cells
    const cells = path.join(out, 'cells');
    const file = path.join(
      cells,
      readdirSync(cells).find((f) => f.endsWith('.json'))!,
    );
    // other code is other content (a code identity is a hash of the code that runs: runs/codeIdentity.ts)
    writeFileSync(file, JSON.stringify({ ...json(file), code: 'dist:0000000000000000' }));
    const mixed = await runCli([...args, ...rest]);
    expect(mixed.status).toBe(2);
    expect(mixed.stderr.trim().split('\n')).toHaveLength(1);
    expect(mixed.stderr).toMatch(/was computed by other code \(dist:0{16}; this is (src|dist):[0-9a-f]{16}\)/);
    // --allow-mixed-code uses it, and is set for that command only: the next table refuses again (table read the flag
    // an earlier command of the same process had left, so this test passed or failed by the order of test files)
    const allowed = await runCli([...args, ...rest, '--allow-mixed-code']);
    expect(allowed.status, allowed.stderr).toBe(0);
    expect((await runCli([...args, ...rest])).status).toBe(2);
    // a cell of a git-keyed run (before 2026-12-03) is refused too, saying why
    writeFileSync(file, JSON.stringify({ ...json(file), code: 'git:0000000000000000000000000000000000000000' }));
    const git = await runCli([...args, ...rest]);
    expect(git.status).toBe(2);
    expect(git.stderr).toMatch(/\(git:0{40}, keyed by its git commit before cells were keyed by the code’s content; this is /);
  });

  it('conjecture: results.json and --json carry it and the simulations’ seeds', async () => {
    const file = path.join(dir, 'c.json');
    writeFileSync(
      file,
      JSON.stringify({
        name: 'c',
        claim: 'T(jsq, fifo) < T(random, fifo)',
        grid: { lambda: [0.5], d: [2] },
        evaluation: { n: 4, jobs: 500, replications: 2, prefer: 'simulation' },
      }),
    );
    const out = path.join(dir, 'conjecture');
    const r = await runCli(['conjecture', file, '--out', out, '--threads', '1', '--no-progress', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const mine = codeIdentity();
    const printed = JSON.parse(r.stdout);
    expect(printed.code).toBe(mine);
    expect(printed.simulations.length).toBeGreaterThan(0);
    for (const s of printed.simulations) expect(Number.isInteger(s.seed)).toBe(true);
    const results = json(path.join(out, 'results.json'));
    expect(results.code).toBe(mine);
    expect(results.simulations.map((s: { options: { seed: number } }) => s.options.seed)).toEqual(
      printed.simulations.map((s: { seed: number }) => s.seed),
    );
    expect(json(path.join(out, 'metadata.json')).code).toBe(mine);
  });

  it('compare: --json and results.json carry it (they had none: only metadata.json named the code)', async () => {
    const out = path.join(dir, 'compare');
    const args = ['compare', '--lambda', '0.7', '--d', '2', '--n', '10', '--jobs', '2000', '--replications', '2'];
    const r = await runCli([...args, '--exact-n', 'none', '--no-trajectory', '--threads', '1', '--no-progress', '--out', out, '--json']);
    expect(r.status, r.stderr).toBe(0);
    const mine = codeIdentity();
    expect(JSON.parse(r.stdout).code).toBe(mine);
    expect(json(path.join(out, 'results.json')).code).toBe(mine);
    expect(json(path.join(out, 'metadata.json')).code).toBe(mine);
  });
});
