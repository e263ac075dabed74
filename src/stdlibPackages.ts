/**
 * The @stdlib packages the library calls (through src/lazy.ts), each a function (`module.exports = fn`): the list
 * `npm run build` bundles into dist/vendor/stdlib.cjs (scripts/build-stdlib.ts), so a thread loads one file instead of
 * the packages' hundreds of small modules. A leaf module: no import.
 */
export const STDLIB_PACKAGES = [
  '@stdlib/stats-base-dists-t-quantile',
  '@stdlib/stats-base-dists-t-cdf',
  '@stdlib/math-base-special-gamma',
  '@stdlib/math-base-special-gammainc',
  '@stdlib/math-base-special-gammaln',
  '@stdlib/math-base-special-erfc',
  '@stdlib/math-base-special-erfcinv',
] as const;
