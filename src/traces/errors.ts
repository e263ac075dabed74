/**
 * Errors of the trace readers. A subclass of the project's SupermarketError, so the CLI prints it as one line and
 * exits with code 2.
 */
import { SupermarketError } from '../errors.ts';

/**
 * A record of a trace file does not have the expected shape. The message names the file, the 1-based line
 * number, what was expected and what was found, e.g.
 * `KTH.swf:31: expected 18 whitespace-separated fields (SWF), found 17`.
 */
export class TraceFormatError extends SupermarketError {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly expected: string,
    readonly found: string,
  ) {
    super(`${file}:${line}: expected ${expected}, found ${found}`);
  }
}
