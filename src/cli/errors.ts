/**
 * Turns any error into one readable line on stderr and a non-zero exit code: 2 for bad input or a model the
 * tool cannot solve (SupermarketError), 1 for a file-system error (cannot write the report), 70 for an internal failure. SUPERMARKET_DEBUG=1 adds the stack.
 */
import { SupermarketError } from '../errors.ts';

export function reportFatal(error: unknown): never {
  const debug = process.env.SUPERMARKET_DEBUG === '1';
  if (error instanceof SupermarketError) {
    process.stderr.write(`supermarket: error: ${error.message}\n`);
    if (debug) process.stderr.write(`${error.stack}\n`);
    process.exit(2);
  }
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
    const e = error as NodeJS.ErrnoException;
    process.stderr.write(`supermarket: error: cannot ${e.syscall ?? 'access'} ${e.path ?? ''}: ${code} (${e.message.split(':')[0]})\n`);
    process.exit(1);
  }
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`supermarket: internal error: ${message.split('\n')[0]} (rerun with SUPERMARKET_DEBUG=1 for the stack trace)\n`);
  if (debug && error instanceof Error) process.stderr.write(`${error.stack}\n`);
  process.exit(70);
}

/** Wraps a commander action so that thrown errors become one line and an exit code. */
export function action<A extends unknown[]>(fn: (...args: A) => void | Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    try {
      await fn(...args);
    } catch (error) {
      reportFatal(error);
    }
  };
}
