/**
 * Output targets (src/io/atomic.ts): `unwritableReason` sees a bad target before any work, and `writeFileAtomic`
 * fails with one line naming the file and why, leaving no temporary file behind.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PathError } from '../../src/errors.ts';
import { unwritableReason, writeFileAtomic } from '../../src/io/index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'atomic-'));
const folder = path.join(dir, 'folder');
const file = path.join(dir, 'file.txt');
mkdirSync(folder);
writeFileSync(file, 'x');

describe('unwritableReason(target, kind)', () => {
  it('accepts a new file in a new folder, an existing file, an existing or new folder', () => {
    expect(unwritableReason(path.join(dir, 'new', 'deeper', 'a.csv'), 'file')).toBeUndefined();
    expect(unwritableReason(file, 'file')).toBeUndefined();
    expect(unwritableReason(folder, 'folder')).toBeUndefined();
    expect(unwritableReason(path.join(folder, 'report'), 'folder')).toBeUndefined();
  });

  it('names a folder given as a file, a file given as a folder, and a file among the parents', () => {
    expect(unwritableReason(folder, 'file')).toBe(`${folder} is a folder, not a file`);
    expect(unwritableReason(file, 'folder')).toBe(`${file} is a file, not a folder`);
    expect(unwritableReason(path.join(file, 'sub', 'a.csv'), 'file')).toBe(`${file} is a file, not a folder`);
    expect(unwritableReason(path.join(file, 'report'), 'folder')).toBe(`${file} is a file, not a folder`);
  });

  it.skipIf(process.getuid?.() === 0)('names a folder without write permission (not as root, who may write anywhere)', async () => {
    const { chmodSync } = await import('node:fs');
    const locked = path.join(dir, 'locked');
    mkdirSync(locked);
    chmodSync(locked, 0o555);
    expect(unwritableReason(path.join(locked, 'a.csv'), 'file')).toBe(`no permission to write in ${locked}`);
    chmodSync(locked, 0o755);
  });
});

describe('unwritableReason probes for real (access() passes /proc, which takes no new file)', () => {
  it.skipIf(process.platform !== 'linux')('refuses a file or a folder in /proc, as a file or a folder', () => {
    expect(unwritableReason('/proc/x.csv', 'file')).toMatch(/^cannot create a file in \/proc \(|^no permission to write in \/proc$/);
    expect(unwritableReason('/proc/report', 'folder')).toMatch(/^cannot create a file in \/proc \(|^no permission to write in \/proc$/);
  });

  it('leaves no probe file behind in a writable folder', () => {
    const before = readdirSync(folder).sort();
    expect(unwritableReason(path.join(folder, 'b.csv'), 'file')).toBeUndefined();
    expect(readdirSync(folder).sort()).toEqual(before);
  });
});

describe('writeFileAtomic(file, data)', () => {
  it('writes through missing folders', () => {
    const target = path.join(dir, 'made', 'here.txt');
    writeFileAtomic(target, 'hello');
    expect(readFileSync(target, 'utf8')).toBe('hello');
  });

  it('on a folder target throws one line "cannot write … is a folder" and leaves no .tmp file', () => {
    expect(() => writeFileAtomic(folder, 'data')).toThrow(new PathError(`cannot write ${folder}: ${folder} is a folder, not a file`));
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('under a file as parent throws one line "… is a file, not a folder" (not "cannot mkdir … EEXIST")', () => {
    const target = path.join(file, 'sub', 'a.csv');
    expect(() => writeFileAtomic(target, 'data')).toThrow(new PathError(`cannot write ${target}: ${file} is a file, not a folder`));
  });
});
