/**
 * The error family of supermarket-lab (after rmf_tool's RmfError, with messages a user can act on).
 * Pure modules (model, meanfield, sim, compare) throw these; the CLI prints `error.message` as one line
 * on stderr and exits non-zero. Every message names the field, the value and the bound it broke.
 */
export class SupermarketError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The work was interrupted (Ctrl-C) and stopped short of what it would claim, e.g. a report folder left without its
 * index.html (`writeReportFolder`). The CLI has said so already (its SIGINT handler): it exits 130 without a line.
 */
export class InterruptedError extends SupermarketError {}

/**
 * A file or folder the user named cannot be used as asked: missing, a folder where a file is wanted, unreadable. Bad
 * input: the CLI exits 2 for it, as for every bad input (a bad flag value, a file whose content is wrong; cli/errors.ts).
 */
export class PathError extends SupermarketError {}

/**
 * The machine failed a file operation on good input: a write refused at write time (permission), a full disk, a
 * read-only file system, an I/O error. Not bad input: the CLI exits 1 for it (cli/errors.ts `EXIT.system`), where a
 * path that is missing or of the wrong kind is a PathError (exit 2).
 */
export class FileSystemError extends SupermarketError {}

/** A model description or option is malformed: wrong type, NaN, out of range, unknown name. */
export class InvalidModelError extends SupermarketError {}

/** The exact solver's level cap cannot reach the truncation bound (load too close to 1 for the n asked): a skip in sweeps. */
export class LevelCapError extends InvalidModelError {}

/** The load ρ = λ·E[S] is ≥ 1 (or λ ≤ 0), so no stationary regime exists. */
export class UnstableModelError extends SupermarketError {}

/** An iterative solver (Newton, Picard, Lyapunov) stopped without meeting its tolerance. */
export class ConvergenceError extends SupermarketError {
  constructor(
    message: string,
    readonly residual: number,
    readonly iterations: number,
  ) {
    super(`${message} (residual ${residual.toExponential(2)} after ${iterations} iterations)`);
  }

  /** The error again from its whole message (e.g. as a worker thread sent it), residual and iterations unknown (NaN). */
  static fromMessage(message: string): ConvergenceError {
    const error = new ConvergenceError('', Number.NaN, Number.NaN);
    error.message = message;
    return error;
  }
}

/** A numerical library failed (odex outcome not Converged, singular matrix); the library's error is `cause`. */
export class SolverError extends SupermarketError {}

/** A finite state space (exact small-n solver) is too large to hold in memory; the message names its size. */
export class StateSpaceTooLargeError extends SupermarketError {
  constructor(
    message: string,
    readonly states: number,
    readonly bytes: number,
  ) {
    super(message);
  }
}
