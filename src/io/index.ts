/**
 * File input and output shared by the report writers, the experiment cell store and the CLI: atomic writes and
 * the JSON file loader. Imports nothing of ours but src/errors.ts.
 */
export * from './atomic.ts';
export * from './json.ts';
