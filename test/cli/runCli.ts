/** Runs the CLI in this process for tests: stdout and stderr captured, process.exit turned into a status. */
import { vi } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program.ts';

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/**
 * `supermarket ...args` in this process. @param args the arguments, or one string of them separated by spaces
 * (for arguments without spaces, e.g. 'simulate --lambda 0.5 --d 2 --n 20 --json'). @param program the program to run
 * (default: the whole CLI, `buildProgram()`; a test may pass one with a command built from a fake solver).
 */
export async function runCli(
  args: string[] | string,
  program: Command = buildProgram(),
): Promise<{ status: number; stdout: string; stderr: string }> {
  const argv = typeof args === 'string' ? args.trim().split(/\s+/) : args;
  let stdout = '';
  let stderr = '';
  const out = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  const err = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk);
    return true;
  });
  const exit = vi.spyOn(process, 'exit').mockImplementation(((code?: number) => {
    throw new Exit(code ?? 0);
  }) as never);
  let status = 0;
  try {
    await program.parseAsync(['node', 'supermarket', ...argv]);
  } catch (error) {
    if (error instanceof Exit) status = error.code;
    else throw error;
  } finally {
    out.mockRestore();
    err.mockRestore();
    exit.mockRestore();
  }
  return { status, stdout, stderr };
}
