/**
 * The fresh-user report of 2026-12-03 (14:34): `supermarket bogus --json` printed no JSON, `supermarket` alone printed
 * the 61-line help, and commander said "argument 'abc' is invalid. not a number" where our refusals name the flag.
 */
import { describe, expect, it } from 'vitest';
import { refusalLine } from '../../src/cli/errors.ts';
import { COMMANDS, shortUsage } from '../../src/cli/program.ts';
import { runCli } from './runCli.ts';

describe('every refusal under --json is one JSON line, a refusal before any command included', () => {
  it.each([
    ['bogus --json', "unknown command 'bogus'"],
    ['--bogus --json', "unknown option '--bogus'"],
  ])('supermarket %s prints { failed, exitCode: 2 } on stdout and one line on stderr', async (args, failed) => {
    const r = await runCli(args);
    expect(r.status).toBe(2);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(r.stdout)).toEqual({ failed, exitCode: 2 });
    expect(r.stderr).toBe(`supermarket: error: ${failed}\n`);
  });

  it('the setting lasts one command: a refusal without --json after one with it prints nothing on stdout', async () => {
    await runCli('bogus --json');
    const r = await runCli('bogus');
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
  });
});

describe('supermarket alone: a short usage, the command list and where the full help is', () => {
  it('prints one line per command and "supermarket <command> --help" on stderr, exit 2; --help keeps the full help', async () => {
    const r = await runCli([]);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(shortUsage());
    const lines = r.stderr.trim().split('\n');
    expect(lines.length).toBeLessThanOrEqual(30);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    for (const c of COMMANDS) expect(r.stderr).toMatch(new RegExp(`^  ${c.name} +\\S`, 'm'));
    expect(r.stderr).toMatch(/^supermarket <command> --help /m);
    const full = await runCli('--help');
    expect(full.status).toBe(0);
    expect(full.stdout).toMatch(/Exit codes: 0 done/);
    expect(full.stdout.split('\n').length).toBeGreaterThan(lines.length);
  });
});

describe('a bad flag value is one line in our own words (commander said "argument \'abc\' is invalid. not a number")', () => {
  it('fixed-point --lambda abc says --lambda: "abc" is not a number, in text and in --json', async () => {
    const r = await runCli('fixed-point --lambda abc --d 2');
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('supermarket: error: --lambda: "abc" is not a number\n');
    const j = await runCli('fixed-point --lambda abc --d 2 --json');
    expect(JSON.parse(j.stdout)).toEqual({ failed: '--lambda: "abc" is not a number', exitCode: 2 });
  });

  it.each([
    [`error: option '--lambda <λ>' argument 'abc' is invalid. not a number: "abc"`, 'error: --lambda: "abc" is not a number'],
    [
      `error: option '--n <n>' argument '2.5' is invalid. expected an integer ≥ 1, got "2.5"`,
      'error: --n: expected an integer ≥ 1, got "2.5"',
    ],
    [
      `error: option '--sampling <how>' argument 'x' is invalid. Allowed choices are with-replacement, without-replacement.`,
      'error: --sampling: "x" is not one of: with-replacement, without-replacement',
    ],
    [`error: option '-s, --seed <seed>' argument 'q' is invalid. not a number: "q"`, 'error: --seed: "q" is not a number'],
    [`error: command-argument value 'x' is invalid for argument 'file'. no such file`, 'error: <file>: no such file'],
    [`error: unknown command 'bogus'`, `error: unknown command 'bogus'`],
  ])('refusalLine(%s)', (commander, ours) => {
    expect(refusalLine(commander)).toBe(ours);
  });
});
