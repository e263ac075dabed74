/**
 * Cells are keyed by what decides their numbers (runs/codeIdentity.ts, version.ts `codeIdentityOf`): the code folder
 * that runs, the package's version and its runtime dependencies. Fresh-user trial: they were keyed by the git commit,
 * so a docs-only commit refused every stored cell (`--fresh` needed) while the numbers could not have changed.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { CellStore, settingsHash } from '../../src/runs/cellStore.ts';
import { allowMixedCode, codeIdentity, codeIdentityOf } from '../../src/runs/codeIdentity.ts';

const root = mkdtempSync(path.join(os.tmpdir(), 'code-id-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** A package folder: package.json, a lockfile (or none), dist/ with code, types and a map, README and docs. */
function makePackage(name: string, lock = true): string {
  const dir = path.join(root, name);
  mkdirSync(path.join(dir, 'dist', 'sim'), { recursive: true });
  mkdirSync(path.join(dir, 'docs'), { recursive: true });
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'supermarket-lab', version: '0.1.0', dependencies: { zod: '4.6.7' }, devDependencies: { vitest: '4' } }),
  );
  if (lock)
    writeFileSync(
      path.join(dir, 'package-lock.json'),
      JSON.stringify({
        lockfileVersion: 3,
        packages: {
          '': { name: 'supermarket-lab', version: '0.1.0' },
          'node_modules/zod': { version: '4.6.7', integrity: 'sha512-zod' },
          'node_modules/vitest': { version: '4.1.12', integrity: 'sha512-vitest', dev: true },
        },
      }),
    );
  mkdirSync(path.join(dir, 'node_modules', 'zod'), { recursive: true });
  writeFileSync(path.join(dir, 'node_modules', 'zod', 'package.json'), JSON.stringify({ name: 'zod', version: '4.6.7' }));
  writeFileSync(path.join(dir, 'dist', 'index.js'), 'export const x = 1;\n');
  writeFileSync(path.join(dir, 'dist', 'sim', 'engine.js'), 'export const run = () => 2;\n');
  writeFileSync(path.join(dir, 'dist', 'index.d.ts'), 'export declare const x: number;\n');
  writeFileSync(path.join(dir, 'dist', 'index.js.map'), '{}');
  writeFileSync(path.join(dir, 'README.md'), '# readme\n');
  writeFileSync(path.join(dir, 'docs', 'theory.md'), '# theory\n');
  return dir;
}

const id = (dir: string) => codeIdentityOf(path.join(dir, 'dist'), dir);

describe('the code identity is a hash of what decides the numbers (codeIdentityOf)', () => {
  it('dist:<16 hex>, the same for the same content in another folder (no git asked)', () => {
    const a = makePackage('a');
    expect(id(a)).toMatch(/^dist:[0-9a-f]{16}$/);
    const copy = path.join(root, 'a-copy');
    cpSync(a, copy, { recursive: true });
    expect(id(copy)).toBe(id(a));
  });

  it('a docs-only change keeps it: README, docs/, tests, type declarations, source maps, dev dependencies', () => {
    const dir = makePackage('docs');
    const before = id(dir);
    writeFileSync(path.join(dir, 'README.md'), '# readme, reworded\n');
    writeFileSync(path.join(dir, 'docs', 'theory.md'), '# theory, a new section\n');
    mkdirSync(path.join(dir, 'test'));
    writeFileSync(path.join(dir, 'test', 'a.test.ts'), 'it();\n');
    writeFileSync(path.join(dir, 'dist', 'index.d.ts'), '/** documented */ export declare const x: number;\n');
    writeFileSync(path.join(dir, 'dist', 'index.js.map'), '{"version":3}');
    const lock = path.join(dir, 'package-lock.json');
    writeFileSync(
      lock,
      JSON.stringify({
        lockfileVersion: 3,
        packages: {
          '': { name: 'supermarket-lab', version: '0.1.0', devDependencies: { vitest: '5' } },
          'node_modules/zod': { version: '4.6.7', integrity: 'sha512-zod' },
          'node_modules/vitest': { version: '5.0.0', integrity: 'sha512-vitest5', dev: true },
        },
      }),
    );
    expect(id(dir)).toBe(before);
  });

  it('a change to the code that runs (an uncommitted edit: a dirty tree), the version or a runtime dependency changes it', () => {
    const dir = makePackage('code');
    const before = id(dir);
    writeFileSync(path.join(dir, 'dist', 'sim', 'engine.js'), 'export const run = () => 3;\n');
    const edited = id(dir);
    expect(edited).not.toBe(before);
    writeFileSync(path.join(dir, 'dist', 'sim', 'engine.js'), 'export const run = () => 2;\n');
    expect(id(dir)).toBe(before); // the content decides, not when or how it changed
    writeFileSync(path.join(dir, 'dist', 'sim', 'new.js'), 'export {};\n');
    expect(id(dir)).not.toBe(before);

    const version = makePackage('version');
    const base = id(version);
    writeFileSync(
      path.join(version, 'package.json'),
      JSON.stringify({ name: 'supermarket-lab', version: '0.2.0', dependencies: { zod: '4.6.7' } }),
    );
    expect(id(version)).not.toBe(base);

    const dep = makePackage('dep');
    const locked = id(dep);
    writeFileSync(
      path.join(dep, 'package-lock.json'),
      JSON.stringify({ lockfileVersion: 3, packages: { '': {}, 'node_modules/zod': { version: '4.6.8', integrity: 'sha512-zod2' } } }),
    );
    expect(id(dep)).not.toBe(locked);
  });

  it('without a lockfile (an npm install of the package): the installed versions of its dependencies', () => {
    const dir = makePackage('installed', false);
    const before = id(dir);
    writeFileSync(path.join(dir, 'README.md'), 'other words\n');
    expect(id(dir)).toBe(before);
    writeFileSync(path.join(dir, 'node_modules', 'zod', 'package.json'), JSON.stringify({ name: 'zod', version: '4.7.0' }));
    expect(id(dir)).not.toBe(before);
  });

  it("this process's identity is its code folder's: src:<hash> from the sources, no git commit", () => {
    expect(codeIdentity()).toMatch(/^(src|dist):[0-9a-f]{16}$/);
    expect(codeIdentity()).toBe(codeIdentityOf(path.resolve(import.meta.dirname, '../../src'), path.resolve(import.meta.dirname, '../..')));
  });
});

describe('resume still refuses cells of other code (one rule: checkSameCode)', () => {
  it('a cell stored by a git-keyed run is refused in one line that says why; one of this code resumes', () => {
    const dir = path.join(root, 'cells');
    const store = new CellStore<number>(dir);
    store.put('k', { jobs: 1 }, 7);
    expect(new CellStore<number>(dir).get('k', { jobs: 1 })).toBe(7);
    const file = new CellStore<number>(dir).fileOf('k');
    const git = 'git:0123456789abcdef0123456789abcdef01234567';
    writeFileSync(file, JSON.stringify({ key: 'k', settings: settingsHash({ jobs: 1 }), code: git, value: 7 }));
    allowMixedCode(false);
    expect(() => new CellStore<number>(dir).get('k', { jobs: 1 })).toThrow(
      /computed by other code \(git:0123456789abcdef0123456789abcdef01234567, keyed by its git commit before cells were keyed by the code’s content; this is (src|dist):/,
    );
  });
});
