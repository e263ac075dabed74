/**
 * The statistics room (ground floor): interval estimates (Student t), batch means, quantiles, the seeded random
 * streams and seed derivation. Imports nothing of ours but the typed errors.
 */
export {
  tInterval,
  openEndNote,
  openEndNotes,
  openEndWhy,
  OPEN_END_WHY,
  sectioningInterval,
  cdfSectioningInterval,
  feasible,
  monotoneFractions,
  unresolvedFraction,
  tiedFraction,
  infiniteEstimate,
  isInfinite,
  unsettledEstimate,
  withoutInterval,
  isUnsettled,
  oneInterval,
  precisionReached,
  type Estimate,
  type PrecisionTarget,
} from './tInterval.ts';
export { mser, batchMeansOf, headTailMeans, type MserResult, type HeadTailMeans } from './mser.ts';
export { wilsonInterval, coverageBand } from './binomial.ts';
export { batchEstimate, batchLag1, fewBatchesNote, lag1Autocorrelation, MIN_LAG1_BATCHES, type BatchEstimate } from './batchMeans.ts';
export { percentileName, pooledQuantiles, quantiles } from './quantile.ts';
export { countAtMost, bracketIndex, interpolateAt, interpolateLinear } from './bisect.ts';
export { Rng, streamSeed, fnv1a, cellSeed, MAX_MASTER_SEED, MAX_UNIFORM_BOUND } from './rng.ts';
export { estimateDecimals, estimateIntervalText, formatCount, plusMinus } from './count.ts';
export {
  weightedLeastSquares,
  fixedCoefficientFit,
  standardErrorOfMean,
  studentOrNormalQuantile,
  type WeightedFit,
  type FixedCoefficientFit,
} from './leastSquares.ts';
