/**
 * The browser twin of lazy.ts, for the explorer's bundle (scripts/build-explorer.ts maps lazy.ts here): the same
 * accessors over static imports, since a browser has no `require` (the bundler inlines each package once; the cost
 * lazy.ts avoids is start-up time of a CLI, which the page pays once), except the learn room's ML packages, the
 * report's marked and the CLI's cli-progress, which the explorer does not use and which stay out (their accessors throw). test/explorer/browserTwins.test.ts checks that
 * both files export the same names.
 */
import * as mathjsModule from 'mathjs';
import type * as RandomForest from 'ml-random-forest';
import type MultivariateLinearRegression from 'ml-regression-multivariate-linear';
import type * as Marked from 'marked';
import erfcFunction from '@stdlib/math-base-special-erfc';
import erfcinvFunction from '@stdlib/math-base-special-erfcinv';
import gammaFunction from '@stdlib/math-base-special-gamma';
import gammaincFunction from '@stdlib/math-base-special-gammainc';
import gammalnFunction from '@stdlib/math-base-special-gammaln';
import tQuantileFunction from '@stdlib/stats-base-dists-t-quantile';
import tCdfFunction from '@stdlib/stats-base-dists-t-cdf';
import { z as zodZ } from 'zod';

/** Built at once: the page pays its start-up once (lazy.ts builds on first use, for the CLI's worker threads). */
export function onFirstTouch<T extends object>(build: () => T): T {
  return build();
}
export const z = zodZ;
export const mathjs = (): typeof mathjsModule => mathjsModule;
/** The learn room (prediction models from traces) is not in the browser bundle: its ML packages stay out. */
const notInBrowser = (name: string) => (): never => {
  throw new Error(`${name} is not part of the browser bundle (learn room, report files, progress bar); use the CLI`);
};
export const mlRandomForest: () => typeof RandomForest = notInBrowser('ml-random-forest');
export const mlMultivariateLinear: () => typeof MultivariateLinearRegression = notInBrowser('ml-regression-multivariate-linear');
/** The report's page and the CLI's progress bar are not in the browser bundle either. */
export const marked: () => typeof Marked = notInBrowser('marked');
export const cliProgress: () => unknown = notInBrowser('cli-progress');
export const tQuantile = tQuantileFunction;
export const tCdf: (x: number, degreesOfFreedom: number) => number = tCdfFunction;
export const gamma = gammaFunction;
export const gammainc = gammaincFunction;
export const gammaln = gammalnFunction;
export const erfc = erfcFunction;
export const erfcinv = erfcinvFunction;
