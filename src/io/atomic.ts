/**
 * Atomic file output: write to a temporary file in the same folder, then rename over the target, so a crash or
 * Ctrl-C never leaves a half-written result (rename is atomic within a file system). The CLI checks output targets
 * before it computes anything (`unwritableReason`), and a write that fails anyway says why in one line.
 */
import { closeSync, mkdirSync, openSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import path from 'node:path';
import { SupermarketError } from '../errors.ts';
import { jsonText } from './json.ts';

/** The entry at `p`, or undefined when nothing is there (or a part of the path is not a folder). */
function statOf(p: string): Stats | undefined {
  try {
    return statSync(p);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * Why no file can be created in the existing folder `folder`, or undefined if one can: creates and removes a
 * uniquely named empty file there (access() alone passes /proc and /sys, which refuse new files).
 */
function cannotCreateIn(folder: string): string | undefined {
  const probe = path.join(folder, `.supermarket-probe.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2)}`);
  try {
    closeSync(openSync(probe, 'wx'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') return `no permission to write in ${folder}`;
    if (code === 'EROFS') return `${folder} is on a read-only file system`;
    return `cannot create a file in ${folder} (${(error as Error).message.replace(/^[A-Z]+: /, '').split(',')[0]})`;
  }
  rmSync(probe, { force: true });
  return undefined;
}

/**
 * Why `target` cannot be written as a `kind` ('file': written atomically, so its folder must take a new file too;
 * 'folder': files are written inside it), or undefined if it can, as far as can be seen before writing: the target
 * is not an entry of the other kind, the nearest existing ancestor is a folder (the missing folders in between are
 * created on write) and takes a new file (probed by creating and removing one). Relative paths are resolved against the working directory.
 */
export function unwritableReason(target: string, kind: 'file' | 'folder'): string | undefined {
  const abs = path.resolve(target);
  const self = statOf(abs);
  if (self && kind === 'file' && self.isDirectory()) return `${target} is a folder, not a file`;
  if (self && kind === 'folder' && !self.isDirectory()) return `${target} is a file, not a folder`;
  let ancestor = kind === 'folder' && self ? abs : path.dirname(abs);
  let found = statOf(ancestor);
  while (!found && ancestor !== path.dirname(ancestor)) {
    ancestor = path.dirname(ancestor);
    found = statOf(ancestor);
  }
  if (found && !found.isDirectory()) return `${ancestor} is a file, not a folder`;
  return cannotCreateIn(ancestor);
}

/**
 * Writes `data` to `file` atomically, creating missing folders. A failure leaves no temporary file behind.
 * @throws {SupermarketError} "cannot write <file>: <why>" (the reason `unwritableReason` sees, else the system's: disk
 * full, read-only file system, ...), with the system error as `cause`.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch (error) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      /* no temporary file could be made */
    }
    let why: string | undefined;
    try {
      why = unwritableReason(file, 'file');
    } catch {
      /* the system's reason below */
    }
    // a system message reads "ENOSPC: no space left on device, write": keep the words
    why ??= (error as Error).message.replace(/^[A-Z]+: /, '').split(',')[0];
    throw new SupermarketError(`cannot write ${file}: ${why}`, { cause: error });
  }
}

/** Writes `value` as indented JSON (infinite estimates in the encoding of io/json.ts) atomically (`writeFileAtomic`). */
export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, `${jsonText(value, 2)}\n`);
}
