/** Runs the CLI in this process for tests: stdout and stderr captured, process.exit turned into a status. */
import { vi } from 'vitest';
import { buildProgram } from '../../src/cli/program.ts';

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

export async function runCli(args: string[]): Promise<{ status: number; stdout: string; stderr: string }> {
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
    await buildProgram().parseAsync(['node', 'supermarket', ...args]);
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
