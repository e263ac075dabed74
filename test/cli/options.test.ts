import { describe, expect, it } from 'vitest';
import { Command, InvalidArgumentError } from 'commander';
import { odeCommand } from '../../src/cli/commands/ode.ts';
import { suggestOptions, unknownOptionMessage } from '../../src/cli/options.ts';
import { COMMANDS, refuseRepeatedOptions } from '../../src/cli/program.ts';
import { runCli } from './runCli.ts';

describe('suggestOptions', () => {
  it('suggestOptions(flag, known) finds the option one typo away (deletion, swap, substitution)', () => {
    const known = ['--lambda', '--d', '--t-end', '--dt', '--json', '--csv'];
    expect(suggestOptions('--lamda', known)).toEqual(['--lambda']);
    expect(suggestOptions('--lmabda', known)).toEqual(['--lambda']);
    expect(suggestOptions('--jsn', known)).toEqual(['--json']);
    expect(suggestOptions('--t-edn', known)).toEqual(['--t-end']);
  });

  it('suggestOptions(flag, known) suggests nothing for a name far from every option', () => {
    expect(suggestOptions('--verbose', ['--lambda', '--d'])).toEqual([]);
    expect(suggestOptions('--x', ['--d'])).toEqual([]); // one letter: any option is one edit away, so none is a suggestion
  });
});

describe('unknownOptionMessage', () => {
  it('unknownOptionMessage(ode, args) names --lamda and suggests --lambda, though --lambda is then missing', () => {
    expect(unknownOptionMessage(odeCommand(), ['--lamda', '0.9', '--d', '2', '--t-end', '3', '--dt', '0.5'])).toBe(
      "unknown option '--lamda' (did you mean --lambda?)",
    );
  });

  it('unknownOptionMessage(ode, args) accepts known options, --opt=value forms, and anything after --', () => {
    expect(
      unknownOptionMessage(odeCommand(), ['--lambda=0.9', '--d', '2', '--t-end', '3', '--dt', '0.5', '--json', '--', '--x']),
    ).toBeUndefined();
  });

  it('wired as a preSubcommand hook, it stops `ode --lamda 0.9` with the suggestion instead of "required option --lambda"', async () => {
    const program = new Command('supermarket').exitOverride();
    const ode = odeCommand()
      .exitOverride()
      .configureOutput({ writeErr: () => {} });
    program.addCommand(ode);
    program.hook('preSubcommand', (p, sub) => {
      const m = unknownOptionMessage(sub, p.args.slice(1));
      if (m) sub.error(`error: ${m}`, { code: 'commander.unknownOption' });
    });
    await expect(
      program.parseAsync(['node', 'supermarket', 'ode', '--lamda', '0.9', '--d', '2', '--t-end', '3', '--dt', '0.5']),
    ).rejects.toThrow("error: unknown option '--lamda' (did you mean --lambda?)");
  });
});

describe('a single-valued option given twice is refused, not settled by keeping the last', () => {
  it('every option that takes one value, of every command, throws "given more than once" on its second value', async () => {
    let checked = 0;
    for (const entry of COMMANDS) {
      const cmd = refuseRepeatedOptions(await entry.load());
      for (const option of cmd.options) {
        if (!(option.required || option.optional) || option.variadic) continue;
        const key = option.attributeName();
        if (option.long === '--set') {
          // model's --set k=v accumulates: a second one adds a key
          cmd.setOptionValueWithSource(key, { a: 1 }, 'cli');
          expect(option.parseArg!('b=2', { a: 1 })).toEqual({ a: 1, b: 2 });
          continue;
        }
        cmd.setOptionValueWithSource(key, 'first', 'cli');
        expect(() => option.parseArg!('second', 'first'), `${entry.name} ${option.long}`).toThrow(
          new InvalidArgumentError('given more than once: give it once'),
        );
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  for (const [args, flag] of [
    ['simulate --lambda 0.5 --d 2 --n 20 --seed 1 --seed 2', '--seed'],
    ['run experiments/smoke.json --shard 1/4 --shard 2/4 --dry-run', '--shard'],
    ['fixed-point --lambda 0.5 --d 2 --selection jsq --selection random', '--selection'],
  ]) {
    it(`supermarket ${args} exits non-zero with one line naming ${flag}`, async () => {
      const r = await runCli(args);
      expect(r.status).not.toBe(0);
      expect(r.stdout).toBe('');
      // the flag named once: commander's wrapper (refusalLine) puts it first, the reason does not repeat it
      expect(r.stderr.trim().split('\n')).toEqual([`supermarket: error: ${flag}: given more than once: give it once`]);
    });
  }

  it('an option given once, and a value-less flag, still work (the default is no first value)', async () => {
    const r = await runCli('fixed-point --lambda 0.5 --d 2 --json --json');
    expect(r.status, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).meanResponseTime).toBeGreaterThan(1);
  });
});
