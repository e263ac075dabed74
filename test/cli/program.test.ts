import { describe, expect, it } from 'vitest';
import { COMMANDS, reflowDescription } from '../../src/cli/program.ts';
import { runCli } from './runCli.ts';

describe('the lazy program', () => {
  it('supermarket --help lists every command with its usage and summary, loading none', async () => {
    const r = await runCli(['--help']);
    expect(r.status).toBe(0);
    const flat = r.stdout.replace(/\s+/g, ' ');
    for (const c of COMMANDS) {
      expect(flat).toContain(`${c.name} ${c.usage}`);
      expect(flat).toContain(c.summary.slice(0, 30));
    }
    expect(new Set(COMMANDS.map((c) => c.name)).size).toBe(COMMANDS.length);
  });

  it('supermarket CMD --help and help CMD load that command: its own options and description appear', async () => {
    for (const args of [
      ['fixed-point', '--help'],
      ['help', 'fixed-point'],
    ]) {
      const r = await runCli(args);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('Usage: supermarket fixed-point [options]');
      expect(r.stdout).toContain('--lambda');
      expect(r.stdout).toContain('Gast–Van Houdt');
    }
  });

  it('a description written with hard line breaks is wrapped as paragraphs, not cut into short lines', async () => {
    expect(reflowDescription('one\ntwo\n\n  example\n- item\n1. first\n12 servers')).toBe(
      'one two\n\n  example\n- item\n1. first 12 servers',
    );
    // table's description broke its source lines at ≈ 118 columns; commander wrapped them again at 80, leaving
    // "FIFO: for every d, λ and n, E[Q] (jobs" alone on a line
    const r = await runCli(['table', '--help']);
    expect(r.status).toBe(0);
    const description = r.stdout.split('\n\nOptions:')[0].split('\n').slice(2);
    const short = description.filter((line, i) => line.length > 0 && line.length < 50 && (description[i + 1] ?? '').length > 0);
    expect(short).toEqual([]);
  });

  it('each entry loads a command of its own name', async () => {
    for (const c of COMMANDS) expect((await c.load()).name()).toBe(c.name);
  });
});

describe('mistyped options', () => {
  it('supermarket simulate --lamda 0.9 names the unknown option with a suggestion, not a missing --lambda', async () => {
    const r = await runCli(['simulate', '--lamda', '0.9', '--d', '2', '--n', '10']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe("supermarket: error: unknown option '--lamda' (did you mean --lambda?)");
  });

  it('supermarket ode --bogus names it without a suggestion when nothing is close', async () => {
    const r = await runCli(['ode', '--lambda', '0.9', '--d', '2', '--t-end', '1', '--dt', '0.5', '--bogus']);
    expect(r.status).toBe(2);
    expect(r.stderr.trim()).toBe("supermarket: error: unknown option '--bogus'");
  });
});
