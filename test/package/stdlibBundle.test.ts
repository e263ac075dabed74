/**
 * The @stdlib bundle `npm run build` writes (scripts/build-stdlib.ts → dist/vendor/stdlib.cjs, which src/lazy.ts loads
 * instead of the packages' hundreds of modules) holds every function lazy.ts calls, and each gives the package's
 * values bit for bit: a report's numbers do not depend on whether the bundle was built.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { STDLIB_PACKAGES } from '../../src/stdlibPackages.ts';

const require = createRequire(import.meta.url);
const dir = mkdtempSync(path.join(os.tmpdir(), 'sm-stdlib-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the @stdlib bundle', () => {
  it('exports every package lazy.ts calls, each the same function values as the package', async () => {
    const { buildStdlib } = await import('../../scripts/build-stdlib.ts');
    const { outfile } = await buildStdlib(path.join(dir, 'stdlib.cjs'));
    const bundle = require(outfile) as Record<string, (...args: number[]) => number>;
    expect(Object.keys(bundle).sort()).toEqual([...STDLIB_PACKAGES].sort());
    // arguments that reach the functions' several branches (small and large ν, tails, the incomplete gamma's series
    // and continued fraction)
    const args: Record<string, number[][]> = {
      '@stdlib/stats-base-dists-t-quantile': [
        [0.975, 1],
        [0.975, 9],
        [0.995, 39],
        [0.6, 1e6],
        [1e-9, 3.5],
      ],
      '@stdlib/stats-base-dists-t-cdf': [
        [2.1, 9],
        [-3, 1],
        [0.4, 250],
        [40, 2.5],
      ],
      '@stdlib/math-base-special-gamma': [[0.5], [7.5], [-2.5], [171.2]],
      '@stdlib/math-base-special-gammainc': [
        [3, 2.5],
        [0.1, 40],
        [80, 75],
        [2, 3, 1, 1],
      ],
      '@stdlib/math-base-special-gammaln': [[7.5], [1e-8], [1e6]],
      '@stdlib/math-base-special-erfc': [[0.3], [-1.2], [6.5]],
      '@stdlib/math-base-special-erfcinv': [[0.3], [1.9999], [1e-12]],
    };
    for (const p of STDLIB_PACKAGES) {
      const fromPackage = require(p) as (...a: number[]) => number;
      for (const a of args[p]) expect(Object.is(bundle[p](...a), fromPackage(...a)), `${p}(${a.join(', ')})`).toBe(true);
    }
  });

  it('is what `npm run build` writes where lazy.ts looks for it (dist/vendor/stdlib.cjs beside dist/lazy.js)', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.build).toContain('tsx scripts/build-stdlib.ts');
    const source = readFileSync('scripts/build-stdlib.ts', 'utf8');
    expect(source).toContain("path.join(root, 'dist', 'vendor', 'stdlib.cjs')");
    expect(readFileSync('src/lazy.ts', 'utf8')).toContain("new URL('./vendor/stdlib.cjs', import.meta.url)");
  });
});
