/**
 * Exit codes (README "Bad input"): 2 for a model the schema refuses or a question it has no solver for, 3 for a valid
 * model whose solver ran and did not converge (ConvergenceError, SolverError), one line on stderr either way.
 */
import { describe, expect, it } from 'vitest';
import { ConvergenceError } from '../../src/errors.ts';
import { EXIT, EXIT_CODES_HELP, NOT_CONVERGED_EXIT } from '../../src/cli/errors.ts';
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
    expect(r.stderr.trim()).toMatch(new RegExp(`^supermarket: error: ${out.failed.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    return out;
  };

  it("commander's own refusals (unknown option, bad value) and the action's (unstable model, missing file)", async () => {
    // before: only fixed-point printed JSON; simulate --lambda 1.2 --json and every commander refusal left stdout empty
    const withJson: string[] = [];
    for (const c of COMMANDS) if ((await c.load()).options.some((o) => o.long === '--json')) withJson.push(c.name);
    expect(withJson.length).toBeGreaterThanOrEqual(12);
    for (const name of withJson) {
      const r = await runCli(`${name} --json --nope`);
      expect(r.status, name).toBe(2);
      expect(refusal(r).failed).toBe("unknown option '--nope'");
    }
    for (const [args, status] of [
      ['simulate --lambda 1.2 --d 2 --n 10 --json', 2],
      ['simulate --lambda 0.5 --d 2 --n abc --json', 2],
      ['compare --lambda 1.2 --d 2 --n 10 --json', 2],
      ['replay /nonexistent/trace.swf --n 2 --json', 2],
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
    expect(bad.status).toBe(2);
    expect(bad.stdout).toBe('');
    const help = await runCli('simulate --help --json');
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: supermarket simulate/);
    expect(help.stdout).not.toMatch(/"failed"/);
  }, 600_000);
});

describe('one prefix and one exit code for every bad-input refusal, whoever detects it (cli/errors.ts EXIT)', () => {
  // fresh-user trial: commander's refusals said "supermarket simulate: error: …" and exited 1, the commands' own checks
  // "supermarket: error: …" and exited 2 (a path error 1): a script could not tell bad input from a failure by the code
  const refused = (r: { status: number; stdout: string; stderr: string }, what: string) => {
    expect(r.status, `${what}: ${r.stderr}`).toBe(EXIT.badInput);
    expect(r.stderr, what).toMatch(/^supermarket: error: \S/);
    expect(r.stderr.trim().split('\n'), what).toHaveLength(1);
  };

  it('every command: an unknown option, and --help ends with the exit codes', async () => {
    for (const c of COMMANDS) {
      refused(await runCli(`${c.name} --nope`), `${c.name} --nope`);
      const help = await runCli(`${c.name} --help`);
      expect(help.status).toBe(0);
      expect(help.stdout.trim().endsWith(EXIT_CODES_HELP), c.name).toBe(true);
    }
    const top = await runCli('--help');
    expect(top.stdout).toContain(EXIT_CODES_HELP);
  }, 600_000);

  it.each([
    ['commander: an unknown command', 'nocommand'],
    ['commander: a missing required option', 'ode --lambda 0.9 --d 2 --t-end 1'],
    ['commander: a missing argument', 'replay'],
    ['an option parser: a bad flag value', 'simulate --lambda 0.5 --d 0 --n 10'],
    ['an option parser: an option given twice', 'simulate --lambda 0.5 --d 2 --n 10 --seed 1 --seed 2'],
    ['the model schema: d > n', 'simulate --lambda 0.5 --d 3 --n 2'],
    ['the model schema: ρ ≥ 1', 'fixed-point --lambda 1.2 --d 2'],
    ['a missing input file (PathError)', 'trace /nonexistent/trace.swf'],
    ['a missing input file (the file system: ENOENT)', 'replay /nonexistent/trace.swf --n 2'],
    ['a command action: a setting with no effect', 'explore --out /tmp/never-honest --no-open --port 9000'],
  ])('%s', async (what, args) => refused(await runCli(args), what));

  it('no command at all: the help on stderr, exit 2', async () => {
    const r = await runCli([]);
    expect(r.status).toBe(EXIT.badInput);
    expect(r.stderr).toMatch(/^Usage: supermarket/);
  });

  it('the codes: 2 bad input, 3 not converged, 1 the machine, 70 internal', () => {
    expect(EXIT).toEqual({ badInput: 2, notConverged: 3, system: 1, internal: 70, interrupted: 130 });
  });
});
