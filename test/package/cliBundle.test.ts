/**
 * The CLI's bundles (scripts/build-cli.ts → dist/bundle/cli.js, dist/bundle/worker.js and their shared chunks;
 * bin/supermarket.js runs the first when built): the same modules in one file each, so a `compare` run through them gives the unbundled dist/'s numbers
 * (code identity included: each bundled module keeps its own import.meta.url, so the identity is dist/'s), and its
 * pool's workers run the worker bundle (the unbundled worker file is removed from the copy: a bundle that started it
 * would fail).
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const tmp = mkdtempSync(path.join(os.tmpdir(), 'sm-cli-bundle-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Newest modification time (ms) of the files under `dir`. */
function newest(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => statSync(path.join(e.parentPath, e.name)).mtimeMs),
  );
}

/** results.json of a report folder, timing fields aside. */
function numbers(dir: string): string {
  const r = JSON.parse(readFileSync(path.join(dir, 'results.json'), 'utf8')) as unknown;
  // results.json names its code identity (`code`), which the bundle changes (it adds to dist/): checked on its own below
  const left = new Set(['wallSeconds', 'eventsPerSecond', 'seconds', 'code']);
  return JSON.stringify(r, (k, v: unknown) => (left.has(k) ? undefined : v));
}

describe('the CLI bundles', () => {
  it('give the unbundled CLI’s numbers and code identity, with the workers from the worker bundle', { timeout: 600_000 }, async () => {
    // the current sources compiled (as test/package/pack.test.ts: unless dist/ is newer than all of them)
    const info = path.join(ROOT, 'dist', '.tsbuildinfo');
    const sources = Math.max(newest(path.join(ROOT, 'src')), statSync(path.join(ROOT, 'package.json')).mtimeMs);
    if (!existsSync(info) || statSync(info).mtimeMs <= sources)
      execFileSync(NPM, ['run', 'build', '--silent'], { cwd: ROOT, stdio: 'ignore' });
    // a copy of the package's layout: dist/, bin/, package.json and lockfile, the same node_modules
    const pkg = path.join(tmp, 'pkg');
    cpSync(path.join(ROOT, 'dist'), path.join(pkg, 'dist'), { recursive: true });
    cpSync(path.join(ROOT, 'bin'), path.join(pkg, 'bin'), { recursive: true });
    for (const f of ['package.json', 'package-lock.json']) cpSync(path.join(ROOT, f), path.join(pkg, f));
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'), 'dir');
    const dist = path.join(pkg, 'dist');
    rmSync(path.join(dist, 'bundle'), { recursive: true, force: true });

    const args = ['compare', '--lambda', '0.7', '--d', '2', '--n', '10,20', '--jobs', '3000', '--replications', '3'];
    const run = (entry: string, out: string) =>
      execFileSync(process.execPath, [entry, ...args, '--threads', '2', '--out', out, '--fresh', '--no-progress'], {
        cwd: pkg,
        stdio: 'ignore',
      });
    // unbundled first (bin/supermarket.js falls back to dist/cli/main.js), then bundled, into the same dist/
    run(path.join(pkg, 'bin', 'supermarket.js'), path.join(tmp, 'plain'));
    const { buildCli } = await import('../../scripts/build-cli.ts');
    const built = await buildCli(path.join(dist, 'bundle'), dist);
    expect(built.map((b) => path.basename(b.outfile))).toEqual(expect.arrayContaining(['cli.js', 'worker.js']));
    rmSync(path.join(dist, 'cli', 'workers', 'simulateWorker.js'));
    run(path.join(pkg, 'bin', 'supermarket.js'), path.join(tmp, 'bundled'));

    expect(numbers(path.join(tmp, 'bundled'))).toBe(numbers(path.join(tmp, 'plain')));
    // the code identity is the copy's dist/ as it is now (each bundled module's import.meta.url is its own file's)
    const { codeIdentityOf } = await import('../../src/version.ts');
    const meta = JSON.parse(readFileSync(path.join(tmp, 'bundled', 'metadata.json'), 'utf8')) as { code: string };
    expect(meta.code).toBe(codeIdentityOf(dist, pkg));
  });
});
