/**
 * The only file of src/traces that touches the file system: reads a trace (gunzipping `.gz`), picks the reader by
 * `format` or by the file name, and hands the text to the pure parsers.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { InvalidModelError, SupermarketError } from '../errors.ts';
import type { OnMalformed, SwimSize } from './job.ts';
import { parseSwf, type SwfTrace } from './swf.ts';
import { parseSwim, type SwimTrace } from './swim.ts';

export type TraceFormat = 'swf' | 'swim';
export type Trace = SwfTrace | SwimTrace;

export interface LoadTraceOptions {
  /** Reader; default from the name: `*.swf` / `*.swf.gz` → swf, `*.tsv` → swim. */
  format?: TraceFormat;
  onMalformed?: OnMalformed;
  /** SWF only: keep these statuses (e.g. [1]). */
  status?: readonly number[];
  /** SWIM only: size definition (default 'B'). */
  size?: SwimSize;
}

/** Reader chosen for a file name, or undefined if the name does not say. */
export function formatFromName(path: string): TraceFormat | undefined {
  const name = basename(path).toLowerCase().replace(/\.gz$/, '');
  if (name.endsWith('.swf')) return 'swf';
  if (name.endsWith('.tsv')) return 'swim';
  return undefined;
}

/**
 * Reads the file as UTF-8 text, gunzipping it when its name ends in `.gz`.
 * @throws {SupermarketError} "cannot gunzip PATH: …" when zlib refuses the bytes (a download cut short: "unexpected end
 *   of file"; not gzip at all: "incorrect header check"). Node's fs errors pass through.
 */
export function readTraceText(path: string): string {
  const bytes = readFileSync(path);
  if (!path.endsWith('.gz')) return bytes.toString('utf8');
  try {
    return gunzipSync(bytes).toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string' || !code.startsWith('Z_')) throw error;
    throw new SupermarketError(`cannot gunzip ${path}: ${(error as Error).message} (a truncated download, or not gzip)`, { cause: error });
  }
}

/**
 * Reads and parses a trace file. `source` in the result (and in error messages) is the file's base name.
 * @throws {InvalidModelError} if the format is neither given nor implied by the name, or SWF/SWIM-only options
 *   are given for the other format.  @throws {TraceFormatError} from the parser.  @throws {SupermarketError} for a
 *   `.gz` that does not gunzip (`readTraceText`).  Node's fs errors pass through.
 */
export function loadTrace(path: string, options: LoadTraceOptions = {}): Trace {
  const format = options.format ?? formatFromName(path);
  // a missing file is named as missing first (Node's ENOENT), whatever its name implies
  const text = format ? undefined : readTraceText(path);
  if (!format)
    throw new InvalidModelError(
      `cannot tell the trace format of ${JSON.stringify(path)} from its name (.swf, .swf.gz or .tsv); give the format, swf or swim (--format on the command line)`,
    );
  if (format === 'swim' && options.status) throw new InvalidModelError('the status filter applies to SWF traces only');
  if (format === 'swf' && options.size) throw new InvalidModelError('the size definition (B | D) applies to SWIM traces only');
  const body = text ?? readTraceText(path);
  const source = basename(path);
  return format === 'swf'
    ? parseSwf(body, { source, onMalformed: options.onMalformed, status: options.status })
    : parseSwim(body, { source, onMalformed: options.onMalformed, size: options.size });
}
