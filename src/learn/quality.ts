/**
 * Quality of a size predictor, with the definitions of data/README.md: over the jobs with S > 0 and P > 0,
 * Pearson correlation of ln S and ln P, Spearman rank correlation, shares of over-, exact and under-estimates,
 * median P/S and median |ln P − ln S|.
 */
import { InvalidModelError } from '../errors.ts';
import { pairStatistics, type PairStatistics } from '../traces/traceStatistics.ts';

export interface PredictionQuality extends PairStatistics {
  /** Jobs left out because S ≤ 0 or P ≤ 0 (or P not finite). */
  excluded: number;
}

/**
 * @param actual true sizes S, length m (s or bytes); `predicted` P, length m, same unit, index i for the same job.
 * @returns `PredictionQuality`: count + excluded = m; shares in [0, 1]; correlations NaN if fewer than 2 pairs.
 * @throws {InvalidModelError} if the lengths differ.
 * @example predictionQuality([1, 2, 4], [2, 4, 8]).logCorrelation // 1 (and over = 1, medianAbsLogError = ln 2)
 */
export function predictionQuality(actual: ArrayLike<number>, predicted: ArrayLike<number>): PredictionQuality {
  if (actual.length !== predicted.length) {
    throw new InvalidModelError(`predictionQuality: actual has ${actual.length} values but predicted has ${predicted.length}`);
  }
  const q = pairStatistics(actual, predicted);
  return { ...q, excluded: actual.length - q.count };
}
