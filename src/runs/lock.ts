/**
 * One run per output folder: `lockFolder` creates `<dir>/.supermarket.lock` exclusively (O_CREAT | O_EXCL) holding
 * the pid, host, command and start time of the run that writes the folder. A second run into the same folder refuses
 * in one line naming the first; a lock whose process is gone (same host, pid not alive) is stale and taken over. The
 * lock is released when the run ends, on exit, and on SIGINT or SIGTERM.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SupermarketError } from '../errors.ts';

/** The lock file's name inside the folder it guards. */
export const LOCK_FILE = '.supermarket.lock';

/** What the lock file holds (JSON). */
export interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly command: string;
  readonly startedAt: string;
}

/** A held lock: `release()` removes the lock file (once; later calls do nothing). */
export interface FolderLock {
  readonly file: string;
  release(): void;
}

/** Locks this process holds, by lock file: a second `lockFolder` of one folder in one process nests. */
const heldHere = new Map<string, () => void>();

/** A lock file that could not be read as JSON is taken for stale once it is this old (a run died while writing it). */
const UNREADABLE_STALE_MS = 10_000;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // exists, owned by someone else
  }
}

function readOwner(file: string): LockOwner | undefined {
  try {
    const o = JSON.parse(readFileSync(file, 'utf8')) as LockOwner;
    return typeof o?.pid === 'number' && typeof o.host === 'string' ? o : undefined;
  } catch {
    return undefined;
  }
}

/** Why the lock at `file` is stale (its run is gone), or undefined when it may still be held. */
function staleReason(file: string, owner: LockOwner | undefined): string | undefined {
  if (!owner) {
    try {
      return Date.now() - statSync(file).mtimeMs > UNREADABLE_STALE_MS ? 'unreadable and old' : undefined;
    } catch {
      return 'gone';
    }
  }
  if (owner.host === os.hostname() && !alive(owner.pid)) return `pid ${owner.pid} is not running`;
  return undefined;
}

/**
 * Takes the lock of output folder `dir` (created if missing) for `command`.
 * @returns the held lock; it is released by `release()`, on process exit and on SIGINT/SIGTERM.
 * @throws {SupermarketError} one line: "<dir> is in use by another run (pid …, host …, since …: <command>); …".
 */
export function lockFolder(dir: string, command: string): FolderLock {
  mkdirSync(dir, { recursive: true });
  const file = path.join(path.resolve(dir), LOCK_FILE);
  // within one process a second lock of the folder is the first: `merge` holds the folder and reruns the shards'
  // command, which locks it again
  const held = heldHere.get(file);
  if (held) return { file, release: () => {} };
  const me: LockOwner = { pid: process.pid, host: os.hostname(), command, startedAt: new Date().toISOString() };
  let holding = false;
  const unlisten = () => {
    process.removeListener('exit', release);
    process.removeListener('SIGINT', onSignal);
    process.removeListener('SIGTERM', onSignal);
  };
  const release = () => {
    unlisten();
    if (!holding) return;
    holding = false;
    heldHere.delete(file);
    const owner = readOwner(file);
    if (owner?.pid === me.pid && owner.startedAt === me.startedAt) rmSync(file, { force: true });
  };
  // a signal releases the lock; when no other handler ends the process (a Ctrl-C handler prints what was kept and
  // exits), this one ends it with the shell's code for the signal. The handlers are in place before the lock file
  // exists, so a signal that comes as soon as the file appears still releases it.
  const onSignal = (signal: NodeJS.Signals) => {
    release();
    if (process.listenerCount(signal) === 0) process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.on('exit', release);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  try {
    for (let attempt = 0; ; attempt++) {
      let fd: number;
      try {
        fd = openSync(file, 'wx');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        const owner = readOwner(file);
        if (attempt === 0 && staleReason(file, owner) !== undefined) {
          rmSync(file, { force: true }); // its run is gone: take the folder over
          continue;
        }
        const who = owner
          ? `pid ${owner.pid} on ${owner.host}, since ${owner.startedAt}: ${owner.command}`
          : 'its lock file is being written';
        throw new SupermarketError(
          `${dir} is in use by another run (${who}); wait for it to finish or give another --out (if that run is gone, remove ${file})`,
        );
      }
      try {
        writeSync(fd, `${JSON.stringify(me)}\n`);
      } finally {
        closeSync(fd);
      }
      break;
    }
  } catch (error) {
    unlisten();
    throw error;
  }
  holding = true;
  heldHere.set(file, release);
  return { file, release };
}

/** The lock files this process holds now (for `releaseLocksSince`). */
export function heldLocks(): ReadonlySet<string> {
  return new Set(heldHere.keys());
}

/**
 * Releases the locks taken since `before` (a `heldLocks()` result): the CLI's action wrapper calls it when a command
 * ends, so a command takes its folder's lock in one line and never forgets to give it back.
 */
export function releaseLocksSince(before: ReadonlySet<string>): void {
  for (const [file, release] of [...heldHere]) if (!before.has(file)) release();
}

/** Runs `work` holding the lock of `dir` (`lockFolder`), released when it settles. */
export async function withFolderLock<T>(dir: string, command: string, work: () => Promise<T> | T): Promise<T> {
  const lock = lockFolder(dir, command);
  try {
    return await work();
  } finally {
    lock.release();
  }
}
