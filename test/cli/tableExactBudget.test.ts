/**
 * The exact chain of a table cell has a work budget (--exact-max-work, state-sweeps): d = 3 without replacement,
 * λ = 0.95, n = 3 ran over 10 minutes (its Gauss–Seidel residual stuck near 1e-3); now the cell says "too large" once
 * the budget is spent, and the progress names the exact chains (it sat at 100 % of the events, silent).
 */
import { describe, expect, it } from 'vitest';
import { runCli } from './runCli.ts';

const args = ['table', '--d', '3', '--lambda', '0.95', '--n', '3', '--sampling', 'without-replacement', '--runs', '2'];
const rest = ['--events-per-run', '1000', '--threads', '1'];

describe('table: the exact chain within a work budget', () => {
  it('a chain over --exact-max-work reads "too large" and JSON says why; progress names each exact chain', async () => {
    const r = await runCli([...args, ...rest, '--exact-max-work', '1e7']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^\| 3 \|.*\| too large \|$/m);
    // without a terminal (as here) the bar prints deciles of the events: the exact chain gets its own line
    expect(r.stderr).toContain('table: exact chain 1/1 done (d = 3, λ = 0.95, n = 3)');
    const j = JSON.parse((await runCli([...args, ...rest, '--exact-max-work', '1e7', '--json', '--no-progress'])).stdout);
    expect(j.cells[0].exact.skipped).toMatch(/^solve too long \(> 1\.0e\+7 state-sweeps, --exact-max-work; \d+ states at level cap \d+\)$/);
  });

  it('the default budget is named in --help; a bad value is refused in one line', async () => {
    const help = await runCli(['table', '--help']);
    expect(help.stdout).toMatch(/--exact-max-work <W>/);
    const bad = await runCli([...args, ...rest, '--exact-max-work', '0']);
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});
