/**
 * Atomic file output: write to a temporary file in the same folder, then rename over the target, so a crash or
 * Ctrl-C never leaves a half-written result (rename is atomic within a file system). A rename replaces only a regular
 * file or nothing: a device or a FIFO (/dev/null, /dev/stdout, a named pipe) is written into, a symbolic link is
 * followed (its target is written atomically, the link stays), a socket or a link to nothing is refused. The CLI checks
 * output targets before it computes anything (`unwritableReason`), and a write that fails anyway (a full disk) says why
 * in one line.
 */
import {
  accessSync,
  closeSync,
  constants,
  lstatSync,
  mkdirSync,
  openSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import path from 'node:path';
import { FileSystemError, PathError } from '../errors.ts';
import { jsonText } from './jsonText.ts';

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

/** The entry at `p` itself (a link is not followed), or undefined when nothing is there. */
function lstatOf(p: string): Stats | undefined {
  try {
    return lstatSync(p);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/** How a file target is written: renamed over (absent or a regular file), written into (a device, a FIFO), or refused. */
type Target = { how: 'rename' | 'into'; path: string } | { how: 'refuse'; why: string };

/**
 * Where and how `file` is written: a symbolic link is resolved to its target (written the same way as the target);
 * a regular file or nothing is replaced by rename; a character or block device or a FIFO is written into; a folder,
 * a socket or a link to nothing is refused, with the reason.
 */
function fileTarget(file: string): Target {
  const link = lstatOf(file);
  let target = file;
  if (link?.isSymbolicLink()) {
    try {
      target = realpathSync(file);
    } catch {
      return { how: 'refuse', why: `${file} is a symbolic link to nothing (${readlinkSafe(file)}); remove it or give its target` };
    }
  }
  const s = target === file ? link : statOf(target);
  if (!s || s.isFile()) return { how: 'rename', path: target };
  if (s.isDirectory()) return { how: 'refuse', why: `${file} is a folder, not a file` };
  if (s.isCharacterDevice() || s.isBlockDevice() || s.isFIFO()) return { how: 'into', path: target };
  return { how: 'refuse', why: `${file} is a socket or another special file, not a file to write` };
}

function readlinkSafe(file: string): string {
  try {
    return readlinkSync(file);
  } catch {
    return '?';
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
  let abs = path.resolve(target);
  if (kind === 'file') {
    const t = fileTarget(abs);
    if (t.how === 'refuse') return t.why.replace(abs, target);
    if (t.how === 'into') {
      try {
        accessSync(t.path, constants.W_OK);
        return undefined;
      } catch {
        return `no permission to write ${target}`;
      }
    }
    abs = t.path;
  }
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
 * @throws {PathError} "cannot write <file>: <why>" when the path is wrong (a folder, a socket, a link to nothing);
 * {FileSystemError} the same line when the machine fails the write (permission, a full disk, a read-only file system,
 * I/O: the CLI exits 1), with the system error as `cause`.
 */
export function writeFileAtomic(file: string, data: string | Uint8Array): void {
  // a path that is wrong (a folder, a socket, a link to nothing, a missing part) is bad input; anything else the machine's
  const fail = (why: string, cause?: unknown): never => {
    throw new (cause === undefined || wrongPath(cause) ? PathError : FileSystemError)(`cannot write ${file}: ${why}`, { cause });
  };
  let target: Target;
  try {
    target = fileTarget(file);
  } catch (error) {
    return fail(systemReason(error), error);
  }
  if (target.how === 'refuse') return fail(target.why);
  if (target.how === 'into') {
    // a device or a FIFO: written into, never replaced (a rename would leave a regular file in its place)
    try {
      writeFileSync(target.path, data);
      return;
    } catch (error) {
      return fail(systemReason(error), error);
    }
  }
  const real = target.path;
  const tmp = `${real}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(path.dirname(real), { recursive: true });
    writeFileSync(tmp, data);
    renameSync(tmp, real);
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
    why ??= systemReason(error);
    return fail(why, error);
  }
}

/** A system error of a path that is missing or of the wrong kind (bad input), not a failure of the machine. */
function wrongPath(error: unknown): boolean {
  return ['ENOENT', 'ENOTDIR', 'EISDIR', 'EEXIST', 'ENAMETOOLONG', 'ELOOP'].includes(String((error as NodeJS.ErrnoException).code));
}

/** A system error in words: "ENOSPC: no space left on device, write" → "no space left on device". */
function systemReason(error: unknown): string {
  return (error as Error).message.replace(/^[A-Z]+: /, '').split(',')[0];
}

/** Writes `value` as indented JSON (infinite estimates in the encoding of io/json.ts) atomically (`writeFileAtomic`). */
export function writeJsonAtomic(file: string, value: unknown): void {
  writeFileAtomic(file, `${jsonText(value, 2)}\n`);
}
