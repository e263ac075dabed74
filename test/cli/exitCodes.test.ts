/**
 * Exit codes (README "Bad input"): 2 for a model the schema refuses or a question it has no solver for, 3 for a valid
 * model whose solver ran and did not converge (ConvergenceError, SolverError), one line on stderr either way.
 */
import { describe, expect, it } from 'vitest';
import { ConvergenceError } from '../../src/errors.ts';
import { NOT_CONVERGED_EXIT } from '../../src/cli/errors.ts';
import { runCli } from './runCli.ts';
import { COMMANDS } from '../../src/cli/program.ts';

describe('exit codes', () => {
  it('a solver that does not converge exits 3 with one line; a refused model exits 2', async () => {
    expect(NOT_CONVERGED_EXIT).toBe(3);
    const slow = await runCli('ode --lambda 0.9 --d 2 --until-steady --t-end 1 --dt 0.5');
    expect(slow.status, slow.stderr).toBe(3);
    expect(slow.stderr.trim().split('\n')).toEqual([expect.stringMatching(/not within --tol .* by t = 1; raise --t-end or --tol/)]);
    const refused = await runCli('fixed-point --lambda 1.2 --d 2');
    expect(refused.status).toBe(2);
    const noSolver = await runCli('fixed-point --lambda 0.9 --d 1 --service pareto:1.5 --quantiles 0.5');
    expect(noSolver.status).toBe(2);
  });

  it('a ConvergenceError sent by a worker thread is rebuilt as one, message unchanged (so it exits 3 too)', () => {
    const original = new ConvergenceError('cavity: busy fraction off', 0.01, 40);
    const rebuilt = ConvergenceError.fromMessage(original.message);
    expect(rebuilt).toBeInstanceOf(ConvergenceError);
    expect(rebuilt.message).toBe(original.message);
    expect(rebuilt.name).toBe('ConvergenceError');
  });
});

describe('fixed-point --json refuses in JSON too', () => {
  it('stdout holds { failed, exitCode } beside the stderr line, for a refused model and a bad flag value alike', async () => {
    // trial: `fixed-point --lambda 0.9 --d 2 --service pareto:1.2 --json` exited 2 with stdout empty: a script got no JSON
    for (const args of ['--lambda 0.9 --d 2 --service pareto:1.2', '--lambda 1.2 --d 2']) {
      const r = await runCli(`fixed-point ${args} --json`);
      expect(r.status).toBe(2);
      const out = JSON.parse(r.stdout) as { failed: string; exitCode: number };
      expect(out.exitCode).toBe(2);
      expect(r.stderr.trim()).toBe(`supermarket: error: ${out.failed}`);
    }
    // without --json, and for the next command in this process, stdout stays empty
    const text = await runCli('fixed-point --lambda 1.2 --d 2');
    expect(text.status).toBe(2);
    expect(text.stdout).toBe('');
  });
});

describe('every --json command refuses in JSON too (one rule: cli/errors.ts refusalsAsJson, set in program.ts)', () => {
  const refusal = (r: { status: number; stdout: string; stderr: string }) => {
    const out = JSON.parse(r.stdout) as { failed: string; exitCode: number };
    expect(out.exitCode).toBe(r.status);
    expect(r.stderr.trim()).toMatch(new RegExp(`^supermarket( [a-z0-9-]+)?: error: ${out.failed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    return out;
  };

  it("commander's own refusals (unknown option, bad value) and the action's (unstable model, missing file)", async () => {
    // before: only fixed-point printed JSON; simulate --lambda 1.2 --json and every commander refusal left stdout empty
    const withJson: string[] = [];
    for (const c of COMMANDS) if ((await c.load()).options.some((o) => o.long === '--json')) withJson.push(c.name);
    expect(withJson.length).toBeGreaterThanOrEqual(12);
    for (const name of withJson) {
      const r = await runCli(`${name} --json --nope`);
      expect(r.status, name).toBe(1);
      expect(refusal(r).failed).toBe("unknown option '--nope'");
    }
    for (const [args, status] of [
      ['simulate --lambda 1.2 --d 2 --n 10 --json', 2],
      ['simulate --lambda 0.5 --d 2 --n abc --json', 1],
      ['compare --lambda 1.2 --d 2 --n 10 --json', 2],
      ['replay /nonexistent/trace.swf --n 2 --json', 1],
      ['mg1 --lambda 1.5 --json', 2],
    ] as const) {
      const r = await runCli(args);
      expect(r.status, args).toBe(status);
      refusal(r);
    }
  }, 600_000);

  it('without --json stdout stays empty; --help with --json prints help, no refusal', async () => {
    const text = await runCli('simulate --lambda 1.2 --d 2 --n 10');
    expect(text.status).toBe(2);
    expect(text.stdout).toBe('');
    const bad = await runCli('simulate --nope');
    expect(bad.status).toBe(1);
    expect(bad.stdout).toBe('');
    const help = await runCli('simulate --help --json');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: supermarket simulate/);
    expect(help.stdout).not.toMatch(/"failed"/);
  }, 600_000);
});
