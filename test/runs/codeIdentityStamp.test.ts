/**
 * The code identity stamped at build time (version.ts `writeCodeIdentityStamp` → dist/code-identity.json, read by
 * `stampedCodeIdentity` in place of hashing the code at each start): it is `codeIdentityOf`'s value, used only while
 * every file it was computed from is unchanged, so the rule of test/runs/codeIdentity.test.ts holds (a change to the
 * code that runs changes the identity; a docs-only change keeps it).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { codeIdentityOf, IDENTITY_STAMP, stampedCodeIdentity, writeCodeIdentityStamp } from '../../src/version.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'code-stamp-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A package folder: package.json, a lockfile (or none), dist/ with code and a type declaration. */
function makePackage(name: string, lock = true): string {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, 'dist', 'sim'), { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ name: 'supermarket-lab', version: '0.1.0', dependencies: {} }));
  if (lock) writeFileSync(path.join(dir, 'package-lock.json'), JSON.stringify({ lockfileVersion: 3, packages: { '': {} } }));
  writeFileSync(path.join(dir, 'dist', 'index.js'), 'export const x = 1;\n');
  writeFileSync(path.join(dir, 'dist', 'sim', 'engine.js'), 'export const run = () => 2;\n');
  writeFileSync(path.join(dir, 'dist', 'index.d.ts'), 'export declare const x: number;\n');
  return dir;
}

const dist = (dir: string) => path.join(dir, 'dist');
/** Sets a file's modification time `seconds` later than now, as an edit made after the build would. */
const later = (file: string, seconds = 5) => utimesSync(file, new Date(), new Date(Date.now() + seconds * 1000));

describe('the build-time code identity stamp', () => {
  it('is codeIdentityOf of dist/, and the stamp file itself is not part of the hash', () => {
    const dir = makePackage('same');
    const before = codeIdentityOf(dist(dir), dir);
    expect(writeCodeIdentityStamp(dist(dir), dir)).toBe(before);
    expect(codeIdentityOf(dist(dir), dir)).toBe(before);
    expect(stampedCodeIdentity(dist(dir), dir)).toBe(before);
  });

  it('is read instead of hashing while nothing changed: a stamp naming another code is taken as it is', () => {
    const dir = makePackage('read');
    writeCodeIdentityStamp(dist(dir), dir);
    const file = path.join(dist(dir), IDENTITY_STAMP);
    const stamp = JSON.parse(readFileSync(file, 'utf8')) as { code: string; fingerprint: string };
    writeFileSync(file, JSON.stringify({ ...stamp, code: 'dist:feedfeedfeedfeed' }));
    expect(stampedCodeIdentity(dist(dir), dir)).toBe('dist:feedfeedfeedfeed');
  });

  it('is not used once a code file is edited, added or removed, or the lockfile or package.json changes', () => {
    const cases: [string, (dir: string) => void][] = [
      ['edited', (dir) => writeFileSync(path.join(dist(dir), 'sim', 'engine.js'), 'export const run = () => 3;\n')],
      [
        'same size',
        (dir) => (writeFileSync(path.join(dist(dir), 'index.js'), 'export const x = 2;\n'), later(path.join(dist(dir), 'index.js'))),
      ],
      ['added', (dir) => writeFileSync(path.join(dist(dir), 'sim', 'new.js'), 'export {};\n')],
      ['removed', (dir) => rmSync(path.join(dist(dir), 'sim', 'engine.js'))],
      [
        'lockfile',
        (dir) => (
          writeFileSync(
            path.join(dir, 'package-lock.json'),
            '{"lockfileVersion":3,"packages":{"":{},"node_modules/zod":{"version":"4.6.8"}}}',
          ),
          later(path.join(dir, 'package-lock.json'))
        ),
      ],
      [
        'package.json',
        (dir) => (
          writeFileSync(path.join(dir, 'package.json'), '{"name":"supermarket-lab","version":"0.2.0"}'),
          later(path.join(dir, 'package.json'))
        ),
      ],
    ];
    for (const [name, change] of cases) {
      const dir = makePackage(`changed-${name.replace(/\W/g, '-')}`);
      writeCodeIdentityStamp(dist(dir), dir);
      change(dir);
      expect(stampedCodeIdentity(dist(dir), dir), name).toBeUndefined();
    }
  });

  it('a type declaration or the docs leave it valid (they are not code); without a lockfile there is none', () => {
    const dir = makePackage('docs');
    const code = writeCodeIdentityStamp(dist(dir), dir);
    writeFileSync(path.join(dist(dir), 'index.d.ts'), '/** documented */ export declare const x: number;\n');
    writeFileSync(path.join(dir, 'README.md'), '# readme\n');
    expect(stampedCodeIdentity(dist(dir), dir)).toBe(code);

    const installed = makePackage('installed', false);
    expect(writeCodeIdentityStamp(dist(installed), installed)).toBeNull();
    expect(stampedCodeIdentity(dist(installed), installed)).toBeUndefined();
  });
});
