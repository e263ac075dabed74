/**
 * Validation of parsed JSON files (experiment, conjecture and population-model files) against their zod schemas,
 * with one rule for messages: every problem named by its JSON path.
 */
import type { z } from 'zod';
import { InvalidModelError } from '../errors.ts';

/** A zod issue path as JSON-path text: `grid.lambda[1]`, or `(top level)`. */
export function jsonPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  return path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '');
}

/**
 * Validates `json` against `schema`.
 * @param label file name (or kind) used in messages.
 * @returns the parsed value (defaults filled).
 * @throws {InvalidModelError} `label: path: message; path: message` listing at most 10 problems.
 */
export function validateJson<S extends z.ZodType>(schema: S, json: unknown, label: string): z.infer<S> {
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const problems = result.error.issues.slice(0, 10).map((i) => `${jsonPath(i.path)}: ${i.message}`);
  throw new InvalidModelError(`${label}: ${problems.join('; ')}`);
}
