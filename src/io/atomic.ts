/**
 * Atomic file output: write to a temporary file in the same folder, then rename over the target, so a crash or
 * Ctrl-C never leaves a half-written result (rename is atomic within a file system).
 */
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}

export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, `${JSON.stringify(value, null, 2)}\n`);
}
