/**
 * Turns any error into one readable line on stderr and a non-zero exit code: 2 for bad input or a model the
 * tool has no solver for (SupermarketError), 3 for a valid model whose solver ran and did not converge
 * (ConvergenceError: an iteration missed its tolerance; SolverError: a numerical library failed), 1 for a bad flag
 * value found in a command's action (commander's
 * InvalidArgumentError, the exit commander gives a bad value while parsing) and for every path error: a file-system
 * error (cannot write the report) or an input path that is missing, a folder or unreadable (PathError), as a folder
 * operand refused while parsing is; 70 for an internal failure. SUPERMARKET_DEBUG=1 adds the stack.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { ConvergenceError, PathError, SolverError, SupermarketError } from '../errors.ts';
import { heldLocks, releaseLocksSince } from '../runs/lock.ts';

/** The exit code of a solver that ran on a valid model and did not converge (README "Bad input"). */
export const NOT_CONVERGED_EXIT = 3;

/** Set by `refusalsAsJson`: a refusal also goes to stdout as JSON. */
let jsonRefusal = false;

/**
 * Every command with `--json` calls this as it starts (program.ts, with whether --json was given): from then on a
 * refusal also prints `{ "failed": "<the stderr line's reason>", "exitCode": c }` on stdout (`refusalJson`), so a script
 * reading stdout gets JSON (the shape of `mg1 --all`'s failed rows, README "JSON formats"); the stderr line and exit
 * code are unchanged. Covers the refusals of the action (`reportFatal`) and commander's own (a bad flag value, an
 * unknown option, a missing argument: `jsonCommanderRefusals`).
 */
export function refusalsAsJson(on = true): void {
  jsonRefusal = on;
}

/** With `refusalsAsJson` on, writes the refusal `{ failed, exitCode }` on stdout (one line); else nothing. */
function refusalJson(line: string, exitCode: number): void {
  if (jsonRefusal) process.stdout.write(`${JSON.stringify({ failed: line.trim().replace(/^error: /, ''), exitCode })}\n`);
}

/**
 * Makes commander's own refusals of `cmd` (printed by commander on stderr, then its exit) print `refusalJson` too
 * when `refusalsAsJson` is on; help and version (exit 0) print nothing more.
 */
export function jsonCommanderRefusals(cmd: Command): Command {
  return cmd.exitOverride((error) => {
    if (error.exitCode !== 0) refusalJson(error.message, error.exitCode);
    // returning lets commander exit with error.exitCode, as without the override
  });
}

export function reportFatal(error: unknown): never {
  const debug = process.env.SUPERMARKET_DEBUG === '1';
  const fail = (text: string, exitCode: number): never => {
    // one line whatever the message holds (JSON.parse quotes the file, newlines and all)
    const line = text.replace(/\s*\n\s*/g, ' ');
    refusalJson(line, exitCode);
    process.stderr.write(`supermarket: ${line}\n`);
    if (debug && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exit(exitCode);
  };
  if (error instanceof PathError) return fail(`error: ${error.message}`, 1);
  if (error instanceof ConvergenceError || error instanceof SolverError) return fail(`error: ${error.message}`, NOT_CONVERGED_EXIT);
  if (error instanceof SupermarketError) return fail(`error: ${error.message}`, 2);
  if (error instanceof InvalidArgumentError) return fail(`error: ${error.message}`, 1);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // a command's package missing from an install with --omit=optional (the library needs none of them)
  const missing = /Cannot find (?:package|module) '([^']+)'/.exec((error as Error | undefined)?.message ?? '')?.[1];
  if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && missing)
    return fail(`error: ${missing} is not installed: this command needs the optional dependencies (reinstall without --omit=optional)`, 1);
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
    const e = error as NodeJS.ErrnoException;
    // e.message is "CODE: what happened, syscall 'path'": keep what happened; a read of a folder names no path
    const what = /^[A-Z]+: ([^,]+)/.exec(e.message)?.[1] ?? code;
    return fail(`error: cannot ${e.syscall ?? 'access'}${e.path ? ` ${e.path}` : ''}: ${code} (${what})`, 1);
  }
  const message = error instanceof Error ? error.message : String(error);
  return fail(`internal error: ${message.split('\n')[0]} (rerun with SUPERMARKET_DEBUG=1 for the stack trace)`, 70);
}

/**
 * A write to stdout or stderr failed: EPIPE (the reader stopped early, `… | head`) ends the process quietly with 0, as
 * Unix tools do; anything else (ENOSPC on `> /dev/full`, EIO) is one line on stderr (if stderr still takes it) and
 * exit 1, never a stack trace.
 */
export function stdioFailure(stream: 'standard output' | 'standard error', error: NodeJS.ErrnoException): never {
  if (error.code === 'EPIPE') process.exit(0);
  const what = /^[A-Z]+: ([^,]+)/.exec(error.message)?.[1] ?? error.message;
  if (stream === 'standard output') {
    try {
      process.stderr.write(`supermarket: error: cannot write ${stream}: ${what}${error.code ? ` (${error.code})` : ''}\n`);
    } catch {
      /* stderr is gone too: the exit code says it */
    }
  }
  process.exit(1);
}

/** Wraps a commander action so that thrown errors become one line and an exit code. */
export function action<A extends unknown[]>(fn: (...args: A) => void | Promise<void>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    const locks = heldLocks();
    try {
      await fn(...args);
    } catch (error) {
      reportFatal(error);
    } finally {
      releaseLocksSince(locks); // the output folders the command locked (runs/lock.ts)
      jsonRefusal = false; // for this command only (tests run several in one process)
    }
  };
}

/**
 * Runs `work` with a Ctrl-C handler that says on stderr what was kept (`kept()`, read at the interrupt: where the
 * finished cells are and how to resume, or that nothing was stored) and ends the process with 130, as a shell expects.
 * Registered before `withPool`'s own handler, so it speaks first. Only for work that leaves this thread free (worker
 * threads): a synchronous loop in this thread holds the signal until it ends.
 * @param stop called before the message (e.g. to clear a progress line).
 */
export async function withInterruptMessage<T>(kept: () => string, work: () => Promise<T>, stop?: () => void): Promise<T> {
  const onInterrupt = () => {
    stop?.();
    process.stderr.write(`\ninterrupted: ${kept()}\n`);
    process.exit(130);
  };
  process.once('SIGINT', onInterrupt);
  try {
    return await work();
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
}
