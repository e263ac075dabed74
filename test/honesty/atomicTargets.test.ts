/**
 * Issue 21 item 10: an atomic write renames only over a regular file or nothing. A FIFO or a device is written into,
 * a symbolic link is followed (the link stays, its target gets the data), a full disk is one line; stdout on a full
 * disk is one line and exit 1, never a stack trace.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, lstatSync, mkdtempSync, openSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileSystemError, PathError } from '../../src/errors.ts';
import { unwritableReason, writeFileAtomic } from '../../src/io/index.ts';
import { runCli } from '../cli/runCli.ts';

const MAIN = path.resolve(import.meta.dirname, '../../src/cli/main.ts');
const linux = process.platform === 'linux';

describe('atomic writes keep what they write into (issue 21 item 10)', () => {
  it('a symbolic link stays a link and its target gets the data (simulate --per-job LINK)', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-link-'));
    const target = path.join(tmp, 'jobs.csv');
    writeFileSync(target, 'old');
    const link = path.join(tmp, 'link.csv');
    symlinkSync(target, link);
    const r = await runCli([
      'simulate',
      '--lambda',
      '0.5',
      '--d',
      '2',
      '--n',
      '4',
      '--jobs',
      '200',
      '--replications',
      '2',
      '--per-job',
      link,
    ]);
    expect(r.status, r.stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(target, 'utf8')).toMatch(/^arrival|,/);
    // a link to nothing is refused in one line, before any work
    const dangling = path.join(tmp, 'dangling.csv');
    symlinkSync(path.join(tmp, 'missing', 'x.csv'), dangling);
    expect(unwritableReason(dangling, 'file')).toMatch(/symbolic link to nothing/);
    expect(() => writeFileAtomic(dangling, 'x')).toThrow(/^cannot write .*dangling\.csv: .*symbolic link to nothing/);
  });

  it.skipIf(!linux)('a FIFO is written into, not replaced by a regular file', async () => {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-fifo-'));
    const fifo = path.join(tmp, 'pipe');
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
    const reader = spawn('cat', [fifo]);
    let got = '';
    reader.stdout.on('data', (b) => (got += String(b)));
    const done = new Promise((resolve) => reader.on('close', resolve));
    writeFileAtomic(fifo, 'through the pipe\n');
    await done;
    expect(got).toBe('through the pipe\n');
    expect(statSync(fifo).isFIFO()).toBe(true);
  });

  it.skipIf(!linux || !existsSync('/dev/full'))(
    'a device is written into: /dev/null stays a device, /dev/full says "no space" in one line',
    () => {
      writeFileAtomic('/dev/null', 'nothing');
      expect(statSync('/dev/null').isCharacterDevice()).toBe(true);
      expect(unwritableReason('/dev/null', 'file')).toBeUndefined();
      expect(() => writeFileAtomic('/dev/full', 'x')).toThrow(/^cannot write \/dev\/full: no space left on device$/);
      expect(statSync('/dev/full').isCharacterDevice()).toBe(true);
    },
  );

  it.skipIf(!linux || !existsSync('/dev/full'))(
    'a file written on a full disk (--per-job /dev/full) is the machine failing, exit 1 as README "Exit codes" says, not 2',
    async () => {
      // trial: it exited 2 ("bad input") though the command line was good and only the disk failed
      expect(() => writeFileAtomic('/dev/full', 'x')).toThrow(FileSystemError);
      const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-kind-'));
      expect(() => writeFileAtomic(tmp, 'x')).toThrow(PathError); // a folder given as a file stays bad input
      const args = ['simulate', '--lambda', '0.5', '--d', '2', '--n', '4', '--jobs', '200', '--replications', '2', '--no-progress'];
      const r = await runCli([...args, '--per-job', '/dev/full']);
      expect(r.status).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual(['supermarket: error: cannot write /dev/full: no space left on device']);
      const j = await runCli([...args, '--per-job', '/dev/full', '--json']);
      expect(JSON.parse(j.stdout.trim().split('\n').at(-1)!)).toEqual({
        failed: 'cannot write /dev/full: no space left on device',
        exitCode: 1,
      });
    },
    120_000,
  );

  it.skipIf(!linux || !existsSync('/dev/full'))(
    'stdout on a full disk (> /dev/full) is one line on stderr and exit 1, no stack trace',
    () => {
      const full = openSync('/dev/full', 'w');
      try {
        const r = spawnSync(process.execPath, ['--import', 'tsx', MAIN, 'mg1', '--lambda', '0.5'], {
          stdio: ['ignore', full, 'pipe'],
          encoding: 'utf8',
          timeout: 120_000,
        });
        expect(r.status).toBe(1);
        expect(r.stderr.trim().split('\n')).toEqual(['supermarket: error: cannot write standard output: no space left on device (ENOSPC)']);
      } finally {
        closeSync(full);
      }
    },
    130_000,
  );
});
