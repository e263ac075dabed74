/**
 * `mg1 --all` with a discipline whose formula fails (a quadrature that misses its tolerance, as SPRPT over pareto:1.5
 * did before it was ∞): the table keeps that row with the reason, the other rows are printed, exit code 2. Before:
 * the first failure ended the command with one error line and no table at all.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { ConvergenceError } from '../../src/errors.ts';
import { mg1 } from '../../src/meanfield/mg1/index.ts';
import { mg1Command } from '../../src/cli/commands/mg1.ts';
import { runCli } from './runCli.ts';

// the M/G/1 formulas with PSPJF's quadrature failing (no module mock: test files share their fork's module cache)
const failingPspjf: typeof mg1 = (...args) => {
  if (args[0].discipline === 'pspjf')
    throw new ConvergenceError('M/G/1 pspjf quadrature: estimated relative error 3.3e+0 of E[T] exceeds 0.000001', 3.3, 10);
  return mg1(...args);
};
const program = () => new Command('supermarket').addCommand(mg1Command(failingPspjf));

afterEach(() => {
  process.exitCode = undefined;
});

describe('mg1 --all keeps the rows that failed', () => {
  it('text: the failed row says why, the others are there, stderr says how many failed, exit code 2', async () => {
    const r = await runCli('mg1 --lambda 0.5 --service exp --prediction exp --all', program());
    expect(process.exitCode).toBe(2);
    expect(r.stdout).toMatch(/pspjf +failed: M\/G\/1 pspjf quadrature: estimated relative error 3\.3e\+0/);
    expect(r.stdout).toMatch(/fifo\s+2\.000000/);
    expect(r.stdout).toMatch(/las\s+\d/);
    expect(r.stderr).toMatch(/1 of 9 disciplines failed \(pspjf\)/);
  });

  it('JSON: the failed row is { discipline, failed } in its place', async () => {
    const r = await runCli('mg1 --lambda 0.5 --service exp --prediction exp --all --json', program());
    expect(process.exitCode).toBe(2);
    const rows = JSON.parse(r.stdout).results;
    expect(rows).toHaveLength(9);
    expect(rows[5]).toEqual({ discipline: 'pspjf', failed: expect.stringMatching(/estimated relative error/) });
    expect(rows[0].meanResponseTime).toBe(2);
  });
});
