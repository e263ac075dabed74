import { describe, expect, it, vi } from 'vitest';
import { buildProgram, COMMANDS } from '../../src/cli/program.ts';

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** Runs the CLI in this process; commander's help output and exit are captured. */
async function help(args: string[]): Promise<{ status: number; stdout: string }> {
  let stdout = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const exit = vi.spyOn(process, 'exit').mockImplementation(((code?: number) => {
    throw new Exit(code ?? 0);
  }) as never);
  let status = 0;
  try {
    await buildProgram().parseAsync(['node', 'supermarket', ...args]);
  } catch (error) {
    if (!(error instanceof Exit)) throw error;
    status = error.code;
  } finally {
    out.mockRestore();
    exit.mockRestore();
  }
  return { status, stdout };
}

describe('the lazy program', () => {
  it('supermarket --help lists every command with its usage and summary, loading none', async () => {
    const r = await help(['--help']);
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
      const r = await help(args);
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('Usage: supermarket fixed-point [options]');
      expect(r.stdout).toContain('--lambda');
      expect(r.stdout).toContain('Gast–Van Houdt');
    }
  });

  it('each entry loads a command of its own name', async () => {
    for (const c of COMMANDS) expect((await c.load()).name()).toBe(c.name);
  });
});

/** Runs the CLI in this process and captures stderr and the exit code. */
async function run(args: string[]): Promise<{ status: number; stderr: string }> {
  let stderr = '';
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  const exit = vi.spyOn(process, 'exit').mockImplementation(((code?: number) => {
    throw new Exit(code ?? 0);
  }) as never);
  let status = 0;
  try {
    await buildProgram().parseAsync(['node', 'supermarket', ...args]);
  } catch (error) {
    if (!(error instanceof Exit)) throw error;
    status = error.code;
  } finally {
    err.mockRestore();
    exit.mockRestore();
  }
  return { status, stderr };
}

describe('mistyped options', () => {
  it('supermarket simulate --lamda 0.9 names the unknown option with a suggestion, not a missing --lambda', async () => {
    const r = await run(['simulate', '--lamda', '0.9', '--d', '2', '--n', '10']);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe("supermarket simulate: error: unknown option '--lamda' (did you mean --lambda?)");
  });

  it('supermarket ode --bogus names it without a suggestion when nothing is close', async () => {
    const r = await run(['ode', '--lambda', '0.9', '--d', '2', '--t-end', '1', '--dt', '0.5', '--bogus']);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe("supermarket ode: error: unknown option '--bogus'");
  });
});
