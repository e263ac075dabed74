/**
 * The one JSON file loader of the project: experiment, conjecture (claim) and population-model files are read here,
 * so every such file fails the same way, in one line naming the file (and, through the schema, the JSON path).
 */
import { readFileSync } from 'node:fs';
import { InvalidModelError, PathError } from '../errors.ts';

/**
 * Reads and parses a JSON file, then validates it.
 * @param file path of the file. @param what what the file is, for messages ("experiment", "conjecture", "model").
 * @param parse validator of the parsed value, given the file name as label (e.g. `parseExperiment`); its
 *   InvalidModelError should name the JSON path (`parseWithSchema` in src/model/schema.ts does).
 * @returns what `parse` returns.
 * @throws {PathError} `<what> file not found: <file>`, `cannot read <what> file <file>: …`.
 * @throws {InvalidModelError} `<file>: not valid JSON (…)`, or whatever `parse` throws.
 */
export function loadJsonFile<T>(file: string, what: string, parse: (json: unknown, label: string) => T): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new PathError(`${what} file not found: ${file}`);
    throw new PathError(`cannot read ${what} file ${file}: ${e.message}`);
  }
  let json: unknown;
  try {
    json = parseJsonText(text);
  } catch (error) {
    throw new InvalidModelError(`${file}: not valid JSON (${(error as Error).message})`);
  }
  return parse(json, file);
}

/**
 * JSON has no Infinity (JSON.stringify writes null and loses why). The project's one encoding of an estimate that is
 * infinite in theory (an object with `infinite: true`, stats/tInterval.ts `infiniteEstimate`):
 * `{ mean: null, ci95: null, halfWidth: null, infinite: true, reason, sampleMean, replications }`. `jsonText` writes
 * it, `parseJsonText` reads it back as mean = ci95 = halfWidth = +∞. Every JSON file and `--json` output uses them.
 * A finite estimate whose interval is open at an end (a percentile whose cdf interval reaches level 1: upper end +∞)
 * is written with that end and halfWidth null and `ci95Infinite: true`, read back as ±∞ (null lower −∞, upper +∞).
 */
function encodeInfinite(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && (value as { infinite?: unknown }).infinite === true && 'mean' in value) {
    return { ...value, mean: null, ci95: null, halfWidth: null };
  }
  if (isOpenInterval(value)) {
    const v = value as { ci95: [number, number]; halfWidth?: number };
    const { ci95, halfWidth } = v;
    return {
      ...v,
      ci95: ci95.map((x) => (Number.isFinite(x) ? x : null)),
      ...(halfWidth === undefined ? {} : { halfWidth: Number.isFinite(halfWidth) ? halfWidth : null }),
      ci95Infinite: true,
    };
  }
  return value;
}

/** A finite estimate whose interval has an infinite end (a percentile's `cdfSectioningInterval` reaching level 1). */
function isOpenInterval(value: unknown): boolean {
  if (value === null || typeof value !== 'object' || !('mean' in value)) return false;
  const ci95 = (value as { ci95?: unknown }).ci95;
  return Array.isArray(ci95) && ci95.length === 2 && ci95.some((x) => typeof x === 'number' && !Number.isFinite(x) && !Number.isNaN(x));
}

function decodeInfinite(_key: string, value: unknown): unknown {
  if (value !== null && typeof value === 'object' && (value as { infinite?: unknown }).infinite === true) {
    const v = value as { mean?: unknown };
    if (v.mean === null) return { ...value, mean: Infinity, ci95: [Infinity, Infinity], halfWidth: Infinity };
  }
  if (value !== null && typeof value === 'object' && (value as { ci95Infinite?: unknown }).ci95Infinite === true) {
    const { ci95Infinite: _, ...rest } = value as { ci95Infinite: true; ci95: [number | null, number | null]; halfWidth?: number | null };
    return {
      ...rest,
      ci95: [rest.ci95[0] ?? -Infinity, rest.ci95[1] ?? Infinity],
      ...(rest.halfWidth === undefined ? {} : { halfWidth: rest.halfWidth ?? Infinity }),
    };
  }
  return value;
}

/**
 * Whether JSON text may hold an estimate marked infinite: it names a key "infinite" (also true of other such keys, and
 * of none when false: then the encoding changes nothing). The replacer and reviver above cost a call per value, about
 * half of the time of writing or reading a stored cell or results.json, so text without the key goes without them.
 */
function mayHoldInfinite(text: string): boolean {
  return text.includes('"infinite"') || text.includes('"ci95Infinite"');
}

/** Whether JSON.stringify's text may have written an infinite interval end as null (`null]` or `[null`, any spacing). */
function mayHoldOpenInterval(text: string): boolean {
  return /null\s*\]|\[\s*null/.test(text);
}

/** JSON text of `value` with infinite estimates in the project's encoding (above). @param indent as JSON.stringify's. */
export function jsonText(value: unknown, indent?: number): string {
  const plain = JSON.stringify(value, null, indent);
  // no object marked infinite, no key "infinite" in the text: the replacer would have returned every value unchanged
  return plain !== undefined && (mayHoldInfinite(plain) || mayHoldOpenInterval(plain))
    ? JSON.stringify(value, encodeInfinite, indent)
    : plain;
}

/** Parses JSON text, reading infinite estimates (above) back as +∞. @throws {SyntaxError} as JSON.parse. */
export function parseJsonText(text: string): unknown {
  return mayHoldInfinite(text) ? JSON.parse(text, decodeInfinite) : JSON.parse(text);
}
