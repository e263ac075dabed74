import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { odeCommand } from '../../src/cli/commands/ode.ts';
import { suggestOptions, unknownOptionMessage } from '../../src/cli/options.ts';

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
