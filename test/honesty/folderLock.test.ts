/**
 * Issue 21 item 9: two runs into one folder. The second refuses in one line (non-zero exit) while the first holds the
 * folder's lock; a lock whose process is gone is taken over; the lock goes when the run ends, or on SIGTERM.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LOCK_FILE, lockFolder } from '../../src/runs/lock.ts';
import { runCli } from '../cli/runCli.ts';
import { writeTinyExperiment } from '../experiments/tinyExperiment.ts';

const MAIN = path.resolve(import.meta.dirname, '../../src/cli/main.ts');

/** A lock file in `dir` owned by a live process of this host (a sleeping child), as a concurrent run leaves it. */
function foreignLock(dir: string) {
  const sleeper = spawn('sleep', ['60']);
  mkdirSync(dir, { recursive: true });
  const owner = { pid: sleeper.pid, host: os.hostname(), command: 'supermarket run other.json', startedAt: new Date().toISOString() };
  writeFileSync(path.join(dir, LOCK_FILE), JSON.stringify(owner));
  return sleeper;
}

describe('one run per output folder (issue 21 item 9)', () => {
  it('run and compare into a folder another live run holds refuse in one line; a dead owner’s lock is taken over', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-lock-'));
    const file = writeTinyExperiment(tmp, { jobs: 200, seed: 3 });
    const out = path.join(tmp, 'out');
    const sleeper = foreignLock(out);
    try {
      const r = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress']);
      expect(r.status).not.toBe(0);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/is in use by another run \(pid \d+ on .*supermarket run other\.json\)/);
      expect(existsSync(path.join(out, 'index.html'))).toBe(false);
      const c = await runCli(['compare', '--lambda', '0.5', '--d', '2', '--n', '10', '--out', out, '--no-progress']);
      expect(c.status).not.toBe(0);
      expect(c.stderr).toMatch(/is in use by another run/);
    } finally {
      sleeper.kill();
      await new Promise((resolve) => sleeper.on('close', resolve));
    }
    // the owner is gone: the lock is stale, the run takes the folder over and leaves no lock behind
    const again = await runCli(['run', file, '--out', out, '--threads', '1', '--no-progress']);
    expect(again.status, again.stderr).toBe(0);
    expect(existsSync(path.join(out, LOCK_FILE))).toBe(false);
  }, 600_000);

  it('lockFolder: exclusive across owners, names the holder (pid, host, command, start), released once', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'sm-lock2-'));
    const lock = lockFolder(dir, 'supermarket run a.json');
    const owner = JSON.parse(readFileSync(lock.file, 'utf8'));
    expect(owner).toMatchObject({ pid: process.pid, host: os.hostname(), command: 'supermarket run a.json' });
    expect(typeof owner.startedAt).toBe('string');
    lock.release();
    lock.release();
    expect(existsSync(lock.file)).toBe(false);
  });

  it('SIGTERM releases the lock of a running `run` (exit 143)', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-lock3-'));
    const file = writeTinyExperiment(tmp, { jobs: 2_000_000, seed: 4 });
    const out = path.join(tmp, 'out');
    const child = spawn(process.execPath, ['--import', 'tsx', MAIN, 'run', file, '--out', out, '--threads', '1', '--no-progress']);
    const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const lockFile = path.join(out, LOCK_FILE);
    for (let i = 0; i < 1200 && !existsSync(lockFile); i++) await new Promise((r) => setTimeout(r, 100));
    expect(existsSync(lockFile)).toBe(true);
    child.kill('SIGTERM');
    expect(await closed).toBe(143);
    expect(existsSync(lockFile)).toBe(false);
  }, 600_000);
});
