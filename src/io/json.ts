/**
 * The one JSON file loader of the project: experiment, conjecture (claim) and population-model files are read here,
 * so every such file fails the same way, in one line naming the file (and, through the schema, the JSON path).
 */
import { readFileSync } from 'node:fs';
import { InvalidModelError, PathError } from '../errors.ts';
import { parseJsonText } from './jsonText.ts';

export * from './jsonText.ts';

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
