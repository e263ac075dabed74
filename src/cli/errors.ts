/**
 * One rule for every refusal and failure of the CLI, whoever detects it (commander while parsing, an option parser, the
 * model schema, a command's own checks, a solver): one line on stderr, `supermarket: error: <what>`, and the exit code
 * of its kind (`EXIT`, README "Exit codes", every command's --help):
 * - 2, bad input (`EXIT.badInput`): the command line or a file it names is refused: an unknown option or command, a
 *   missing or repeated option or argument, a bad flag value, a model the schema refuses (d > n, ρ ≥ 1, a bad
 *   `--service`), a question the model has no solver for, a path that is missing or of the wrong kind (PathError;
 *   ENOENT, ENOTDIR, EISDIR), a file whose content is wrong, stored cells of other code, a locked output folder;
 * - 3 (`EXIT.notConverged`): a valid model whose solver ran and did not converge (ConvergenceError, SolverError);
 * - 1 (`EXIT.system`): the machine failed an operation on good input: a file-system error other than a wrong path
 *   (permission, a full disk, a read-only file system, I/O), standard output that cannot be written, an optional
 *   dependency that is not installed;
 * - 70 (`EXIT.internal`): an internal failure (a bug; SUPERMARKET_DEBUG=1 adds the stack); 130 on Ctrl-C.
 * Before 2026-12-03 commander's refusals said `supermarket <command>: error:` and exited 1 with every bad flag value and
 * path error, while the model's refusals said `supermarket: error:` and exited 2.
 */
import { InvalidArgumentError, type Command } from 'commander';
import { ConvergenceError, FileSystemError, InterruptedError, PathError, SolverError, SupermarketError } from '../errors.ts';
import { heldLocks, releaseLocksSince } from '../runs/lock.ts';

/** The exit codes of the CLI, one per kind of refusal or failure (this module's doc, README "Exit codes"). */
export const EXIT = { badInput: 2, notConverged: 3, system: 1, internal: 70, interrupted: 130 } as const;

/** The exit code of a solver that ran on a valid model and did not converge (`EXIT.notConverged`). */
export const NOT_CONVERGED_EXIT = EXIT.notConverged;

/** The prefix of every refusal line on stderr, whoever refuses (commander or the command). */
export const REFUSAL_PREFIX = 'supermarket: ';

/** The exit codes as every command's --help ends (program.ts), in lines of < 80 columns. */
export const EXIT_CODES_HELP =
  'Exit codes: 0 done; 2 bad input (a refused option, value, model, path or file);\n' +
  '  3 a solver did not converge; 1 a file-system or output failure;\n' +
  '  70 an internal error; 130 interrupted.';

/** Error codes of a path that does not exist or is of the wrong kind: bad input, not a failure of the machine. */
const WRONG_PATH = new Set(['ENOENT', 'ENOTDIR', 'EISDIR', 'ENAMETOOLONG']);

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
 * Commander's wording of a bad value, as our own refusals say it: `error: option '--lambda <λ>' argument 'abc' is
 * invalid. not a number: "abc"` becomes `error: --lambda: "abc" is not a number`; any other reason of an option's parser
 * follows the option's name (`error: --n: expected an integer ≥ 1, got "2.5"`), commander's choices likewise
 * (`error: --sampling: "x" is not one of: with-replacement, without-replacement`), and a bad argument value names the
 * argument (`error: <file>: …`). Any other line is returned as it is.
 * @param line commander's message (it starts "error: ").
 */
export function refusalLine(line: string): string {
  const option =
    /^error: option '(?:-\w, )?(--?[\w-]+)[^']*' (?:argument|value) '([\s\S]*?)'(?: from env '[^']*')? is invalid\. ([\s\S]*)$/.exec(
      line.trim(),
    );
  const argument = /^error: command-argument value '([\s\S]*?)' is invalid for argument '([^']*)'\. ([\s\S]*)$/.exec(line.trim());
  const m = option ?? (argument && [argument[0], `<${argument[2]}>`, argument[1], argument[3]]);
  if (!m) return line;
  const [, name, value, reason] = m;
  const text = JSON.stringify(value);
  const choices = /^Allowed choices are ([\s\S]*?)\.?$/.exec(reason);
  const said = /^not a number: /.test(reason) ? `${text} is not a number` : choices ? `${text} is not one of: ${choices[1]}` : reason;
  return `error: ${name}: ${said}`;
}

/**
 * Makes commander's own refusals of `cmd` (an unknown option or command, a missing argument, a bad or repeated flag
 * value, help shown for a missing command) exit `EXIT.badInput` like every other bad input, and print `refusalJson` too
 * when `refusalsAsJson` is on; help and version (exit 0) stay as they are. Commander prints the line itself, through the
 * command's `outputError` (program.ts: `REFUSAL_PREFIX`).
 */
export function commanderRefusals(cmd: Command): Command {
  return cmd.exitOverride((error) => {
    if (error.exitCode === 0) return; // commander exits 0 after help or version
    refusalJson(refusalLine(error.message), EXIT.badInput);
    process.exit(EXIT.badInput);
  });
}

export function reportFatal(error: unknown): never {
  const debug = process.env.SUPERMARKET_DEBUG === '1';
  const fail = (text: string, exitCode: number): never => {
    // one line whatever the message holds (JSON.parse quotes the file, newlines and all)
    const line = text.replace(/\s*\n\s*/g, ' ');
    refusalJson(line, exitCode);
    process.stderr.write(`${REFUSAL_PREFIX}${line}\n`);
    if (debug && error instanceof Error) process.stderr.write(`${error.stack}\n`);
    process.exit(exitCode);
  };
  // Ctrl-C: the SIGINT handler said what was kept; the work that stopped short ends with 130, without a line
  if (error instanceof InterruptedError) process.exit(EXIT.interrupted);
  if (error instanceof FileSystemError) return fail(`error: ${error.message}`, EXIT.system);
  if (error instanceof PathError) return fail(`error: ${error.message}`, EXIT.badInput);
  if (error instanceof ConvergenceError || error instanceof SolverError) return fail(`error: ${error.message}`, EXIT.notConverged);
  if (error instanceof SupermarketError) return fail(`error: ${error.message}`, EXIT.badInput);
  if (error instanceof InvalidArgumentError) return fail(`error: ${error.message}`, EXIT.badInput);
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  // a command's package missing from an install with --omit=optional (the library needs none of them)
  const missing = /Cannot find (?:package|module) '([^']+)'/.exec((error as Error | undefined)?.message ?? '')?.[1];
  if ((code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && missing)
    return fail(
      `error: ${missing} is not installed: this command needs the optional dependencies (reinstall without --omit=optional)`,
      EXIT.system,
    );
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) {
    const e = error as NodeJS.ErrnoException;
    // e.message is "CODE: what happened, syscall 'path'": keep what happened; a read of a folder names no path
    const what = /^[A-Z]+: ([^,]+)/.exec(e.message)?.[1] ?? code;
    // a path that is missing or of the wrong kind is bad input; permission, a full disk, I/O: the machine failed
    return fail(
      `error: cannot ${e.syscall ?? 'access'}${e.path ? ` ${e.path}` : ''}: ${code} (${what})`,
      WRONG_PATH.has(code) ? EXIT.badInput : EXIT.system,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return fail(`internal error: ${message.split('\n')[0]} (rerun with SUPERMARKET_DEBUG=1 for the stack trace)`, EXIT.internal);
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
      process.stderr.write(`${REFUSAL_PREFIX}error: cannot write ${stream}: ${what}${error.code ? ` (${error.code})` : ''}\n`);
    } catch {
      /* stderr is gone too: the exit code says it */
    }
  }
  process.exit(EXIT.system);
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
    process.exit(EXIT.interrupted);
  };
  process.once('SIGINT', onInterrupt);
  try {
    return await work();
  } finally {
    process.removeListener('SIGINT', onInterrupt);
  }
}
