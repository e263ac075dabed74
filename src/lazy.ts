/**
 * Heavy dependencies, loaded on first use instead of at import time. mathjs alone takes ~0.5–1.5 s of CPU to load, and
 * most commands (`--help`, `fixed-point` for SQ(d), `simulate`) never call it; the @stdlib functions take ~0.15 s together.
 * Each accessor returns the module, loading it (through Node's require, synchronously) the first time; each function
 * wrapper loads its package on its first call. Types come from the packages as usual (`import type`).
 * A leaf module like errors.ts: every room may import it. Its browser twin, lazy.browser.ts (same exports, static
 * imports), replaces it in the explorer's bundle (scripts/build-explorer.ts), where there is no `require`.
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { STDLIB_PACKAGES } from './stdlibPackages.ts';
import type * as MathJs from 'mathjs';
import type * as RandomForest from 'ml-random-forest';
import type MultivariateLinearRegression from 'ml-regression-multivariate-linear';
import type Erfc from '@stdlib/math-base-special-erfc';
import type Erfcinv from '@stdlib/math-base-special-erfcinv';
import type Gamma from '@stdlib/math-base-special-gamma';
import type Gammainc from '@stdlib/math-base-special-gammainc';
import type Gammaln from '@stdlib/math-base-special-gammaln';
import type TQuantile from '@stdlib/stats-base-dists-t-quantile';
import type TCdf from '@stdlib/stats-base-dists-t-cdf';
import type * as Zod from 'zod';
import type * as Marked from 'marked';

const require = createRequire(import.meta.url);

function onFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}

/**
 * A value built by `build` on its first use (a property read, a call, `instanceof`, …), not when the module defining
 * it loads: a Proxy standing for it. The model room's zod schemas are such values, so a thread that imports the
 * model's helpers but parses no input (a worker of the pool: its model is validated already) never loads zod nor
 * builds a schema (~0.1 s of CPU per worker). The proxy is not the value itself (`===` tells them apart); everything
 * else passes through.
 */
export function onFirstTouch<T extends object>(build: () => T): T {
  let value: T | undefined;
  const real = (): T => (value ??= build());
  // an object target (typeof says 'object', as of a schema); the target itself holds nothing
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(real(), key),
    set: (_, key, v) => Reflect.set(real(), key, v),
    has: (_, key) => Reflect.has(real(), key),
    ownKeys: () => Reflect.ownKeys(real()),
    // reported configurable: the target (which holds none of them) would refuse a non-configurable one
    getOwnPropertyDescriptor: (_, key) => {
      const d = Reflect.getOwnPropertyDescriptor(real(), key);
      return d && { ...d, configurable: true };
    },
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}

/** Defined (true) inside the bundles of scripts/build-cli.ts only; undeclared (typeof 'undefined') elsewhere. */
declare const SUPERMARKET_BUNDLE: boolean | undefined;

/**
 * dist/vendor/zod.mjs beside the compiled lazy.js (scripts/build-zod.ts, built with the CLI bundles): zod's classic API in
 * one module (~0.03 s of CPU to load in a thread, where the package's ~100 modules took ~0.1 s), which the CLI's
 * bundles import in place of the package (scripts/build-cli.ts).
 */
const ZOD_BUNDLE = fileURLToPath(new URL('./vendor/zod.mjs', import.meta.url));

/**
 * zod's `z`, loaded on first use: its ES module build (the file its package.json exports to `import`, loaded through
 * Node's require of an ES module, by path: `require('zod')` would load its CommonJS build), the very instance
 * `import { z } from 'zod'` gives the rooms that import it (claims, experiments), so their schemas and the model's
 * compose. Inside the CLI's bundles, where that import is of dist/vendor/zod.mjs, that file (`ZOD_BUNDLE`).
 */
export const z: typeof Zod.z = onFirstTouch(() => {
  if (typeof SUPERMARKET_BUNDLE !== 'undefined') return (require(ZOD_BUNDLE) as typeof Zod).z;
  const pkg = require.resolve('zod/package.json');
  const entry = (require(pkg) as { exports: { '.': { import: string } } }).exports['.'].import;
  return (require(path.join(path.dirname(pkg), entry)) as typeof Zod).z;
});

/**
 * marked (Markdown to HTML: a report's index.html, report/page.ts), its ES module build through Node's require of an
 * ES module: ~0.02 s of CPU that a command spent at its start, before its first task, to use at its end.
 */
export const marked = onFirstUse<typeof Marked>('marked');
/**
 * cli-progress (the progress bar of cli/progress.ts), loaded when a bar is shown: not with --no-progress nor off a
 * terminal. Typed there: its types are a dev dependency, which the published declarations must not name.
 */
export const cliProgress = onFirstUse<unknown>('cli-progress');
/** mathjs (dense linear algebra, expression parsing and symbolic derivatives). */
export const mathjs = onFirstUse<typeof MathJs>('mathjs');
/** ml-random-forest. */
export const mlRandomForest = onFirstUse<typeof RandomForest>('ml-random-forest');
/** ml-regression-multivariate-linear (its default export, the regression class). */
export const mlMultivariateLinear = onFirstUse<typeof MultivariateLinearRegression>('ml-regression-multivariate-linear');

/**
 * dist/vendor/stdlib.cjs beside the compiled lazy.js, which `npm run build` writes (scripts/build-stdlib.ts): an object
 * from each of `STDLIB_PACKAGES` to its function, the same code in one file (~0.03 s of CPU to load in a thread, where
 * the packages' 417 small modules took ~0.22 s: a compare run's main thread for its intervals, the worker that solves
 * a model). From the TypeScript sources (tests, tsx) there is none and the packages load as they are.
 */
const STDLIB_BUNDLE = fileURLToPath(new URL('./vendor/stdlib.cjs', import.meta.url));

/** The bundle's exports once read (null: no bundle here). */
let stdlibBundle: Readonly<Record<string, unknown>> | null | undefined;

/** A function of `STDLIB_PACKAGES`, loaded on its first call: from the bundle when built, else the package. */
function onFirstCall<F extends (...args: never[]) => unknown>(specifier: (typeof STDLIB_PACKAGES)[number]): F {
  let loaded: F | undefined;
  const load = (): F => {
    stdlibBundle ??= existsSync(STDLIB_BUNDLE) ? (require(STDLIB_BUNDLE) as Record<string, unknown>) : null;
    return (loaded ??= (stdlibBundle?.[specifier] ?? require(specifier)) as F);
  };
  return ((...args: Parameters<F>) => load()(...args)) as F;
}

/** Student-t quantile, quantile(p, ν) (@stdlib/stats-base-dists-t-quantile). */
export const tQuantile = onFirstCall<typeof TQuantile>('@stdlib/stats-base-dists-t-quantile');
/** Student-t distribution function, cdf(x, ν) (@stdlib/stats-base-dists-t-cdf). */
export const tCdf: (x: number, degreesOfFreedom: number) => number = onFirstCall<typeof TCdf>('@stdlib/stats-base-dists-t-cdf');
/** Γ(x) (@stdlib/math-base-special-gamma). */
export const gamma = onFirstCall<typeof Gamma>('@stdlib/math-base-special-gamma');
/** Incomplete gamma function, gammainc(x, s, regularized?, upper?) (@stdlib/math-base-special-gammainc). */
export const gammainc = onFirstCall<typeof Gammainc>('@stdlib/math-base-special-gammainc');
/** ln Γ(x) (@stdlib/math-base-special-gammaln). */
export const gammaln = onFirstCall<typeof Gammaln>('@stdlib/math-base-special-gammaln');
/** Complementary error function (@stdlib/math-base-special-erfc). */
export const erfc = onFirstCall<typeof Erfc>('@stdlib/math-base-special-erfc');
/** Inverse complementary error function (@stdlib/math-base-special-erfcinv). */
export const erfcinv = onFirstCall<typeof Erfcinv>('@stdlib/math-base-special-erfcinv');
