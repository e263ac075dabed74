/**
 * The browser twins the explorer's bundle swaps in (scripts/build-explorer.ts) stand for their Node modules: the same
 * export names, the same functions where they are shared (the stdlib special functions), the same package version.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as lazy from '../../src/lazy.ts';
import * as lazyBrowser from '../../src/lazy.browser.ts';
import { VERSION } from '../../src/version.ts';

describe('browser twins', () => {
  it('lazy.browser.ts exports what lazy.ts exports, and its functions give the same values', () => {
    expect(Object.keys(lazyBrowser).sort()).toEqual(Object.keys(lazy).sort());
    expect(lazyBrowser.gammaln(7.5)).toBe(lazy.gammaln(7.5));
    expect(lazyBrowser.tQuantile(0.975, 4)).toBe(lazy.tQuantile(0.975, 4));
    expect(lazyBrowser.erfcinv(0.3)).toBe(lazy.erfcinv(0.3));
    expect(
      lazyBrowser.mathjs().det([
        [2, 1],
        [1, 2],
      ]),
    ).toBe(3);
    expect(() => lazyBrowser.mlRandomForest()).toThrow('not part of the browser bundle');
  });

  it('version.browser.ts is defined at build time from the same package.json', () => {
    const source = readFileSync('scripts/build-explorer.ts', 'utf8');
    expect(source).toContain('__SUPERMARKET_VERSION__: JSON.stringify(pkg.version)');
    expect(VERSION).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version);
  });
});

describe('the library in a browser', () => {
  it("bundles the package's public entry (src/index.ts) for the browser: no node: module reached once the twins stand in", async () => {
    const { build } = await import('esbuild');
    const { browserTwins } = await import('../../scripts/build-explorer.ts');
    const result = await build({
      entryPoints: ['src/index.ts'],
      bundle: true,
      write: false,
      platform: 'browser', // a node: import is a build error here
      format: 'esm',
      define: { __SUPERMARKET_VERSION__: '"test"' },
      plugins: [browserTwins],
      metafile: true,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs).toContain('src/lazy.browser.ts');
    expect(inputs).toContain('src/version.browser.ts');
    expect(inputs).not.toContain('src/lazy.ts');
    expect(inputs.filter((f) => /^src\/(report|cli|learn)\//.test(f))).toEqual([]);
  }, 600_000);
});
