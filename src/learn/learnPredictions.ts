/**
 * Learned size predictions, as in the real-trace part of Mitzenmacher & Dell'Amico (TPDS 2022, arXiv 1905.12155):
 * regress ln size on features known at submission over the first part of a trace (chronological split), predict
 * the rest, and report the predictor's quality beside the trace's own user estimate.
 * Models: mljs RandomForestRegression (ml-random-forest 2.1: CART trees on bootstrap samples, feature subsets per
 * tree) and ordinary least squares (ml-regression-multivariate-linear) as the baseline.
 */
import { mlMultivariateLinear, mlRandomForest } from '../lazy.ts';
import { InvalidModelError } from '../errors.ts';
import type { TraceJob } from '../traces/job.ts';
import type { TraceClock } from '../traces/swf.ts';
import { buildFeatures } from './features.ts';
import { predictionQuality, type PredictionQuality } from './quality.ts';

export type LearnModel = 'random-forest' | 'linear';

export interface LearnOptions {
  /** 'random-forest' (default) or 'linear'. */
  model?: LearnModel;
  /** Share of leading jobs used for training, in (0, 1); default 0.5. */
  trainFraction?: number;
  /** Seed (32-bit integer) for the training subsample and the forest; default 1. */
  seed?: number;
  /** Random forest: number of trees (default 16), maximum depth (default 8), minimum leaf size (default 5). */
  trees?: number;
  maxDepth?: number;
  minLeafSize?: number;
  /**
   * Random forest: the training part is subsampled (seeded, without replacement) to at most this many jobs
   * (default 800), since mljs's CART scans every split point (cost ~ samples² · features per tree; 800 × 8 takes
   * ~0.15 s per tree). The linear model uses
   * the whole training part.
   */
  maxTrainSamples?: number;
  /** SWF: the trace's `clock` (header UnixStartTime, TimeZoneString) for the hour-of-day and day-of-week features; default log-relative. */
  clock?: TraceClock;
}

export interface LearnResult {
  /** Predicted sizes for the test part, length testCount, index i = jobs[trainCount + i], unit of `size`. */
  predictions: Float64Array;
  trainCount: number;
  testCount: number;
  /** Rows actually used to fit (≤ trainCount). */
  fitCount: number;
  quality: { learned: PredictionQuality; userEstimate?: PredictionQuality };
  model: LearnModel;
  seed: number;
  features: string[];
  /** What the hour-of-day and day-of-week features count from (local time in a zone, or log-relative); '' for SWIM. */
  timeOfDay: string;
  options: Required<Omit<LearnOptions, 'model' | 'seed' | 'clock'>>;
}

/** mulberry32: a tiny seeded 32-bit generator, used only to pick the training subsample. */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** `k` distinct indices of [0, n), sorted, by a partial Fisher–Yates shuffle. */
function sampleIndices(n: number, k: number, seed: number): number[] {
  const idx = Array.from({ length: n }, (_, i) => i);
  if (k >= n) return idx;
  const rand = mulberry32(seed);
  for (let i = 0; i < k; i++) {
    const j = i + Math.floor(rand() * (n - i));
    [idx[i], idx[j]] = [idx[j], idx[i]];
  }
  return idx.slice(0, k).sort((a, b) => a - b);
}

function positiveInteger(name: string, x: number): number {
  if (!Number.isInteger(x) || x < 1) throw new InvalidModelError(`${name} must be an integer ≥ 1, got ${x}`);
  return x;
}

/**
 * Trains on the first ⌊trainFraction·m⌋ jobs (chronological) and predicts the sizes of the rest.
 * Target: ln max(S, 1); prediction exp(ŷ) (a geometric-mean, i.e. median-type, estimate). Features: see
 * features.ts. Deterministic for a given seed.
 * @param jobs parsed jobs in chronological order, all SWF or all SWIM, at least 4.
 * @param options see `LearnOptions`.
 * @returns test-part predictions, split sizes, quality of the learned predictor and, for traces with one, of the
 *   user estimate on the same test jobs.
 * @throws {InvalidModelError} on bad options, fewer than 2 jobs in either part, or no usable feature.
 */
export function learnPredictions(jobs: readonly TraceJob[], options: LearnOptions = {}): LearnResult {
  const model = options.model ?? 'random-forest';
  if (model !== 'random-forest' && model !== 'linear')
    throw new InvalidModelError(`model must be 'random-forest' or 'linear', got ${JSON.stringify(model)}`);
  const trainFraction = options.trainFraction ?? 0.5;
  if (!(trainFraction > 0 && trainFraction < 1)) throw new InvalidModelError(`trainFraction must lie in (0, 1), got ${trainFraction}`);
  const seed = options.seed ?? 1;
  if (!Number.isInteger(seed) || Math.abs(seed) >= 2 ** 31) throw new InvalidModelError(`seed must be a 32-bit integer, got ${seed}`);
  const trees = positiveInteger('trees', options.trees ?? 16);
  const maxDepth = positiveInteger('maxDepth', options.maxDepth ?? 8);
  const minLeafSize = positiveInteger('minLeafSize', options.minLeafSize ?? 5);
  const maxTrainSamples = positiveInteger('maxTrainSamples', options.maxTrainSamples ?? 800);
  const m = jobs.length;
  const trainCount = Math.floor(trainFraction * m);
  const testCount = m - trainCount;
  if (trainCount < 2 || testCount < 2)
    throw new InvalidModelError(`need at least 2 jobs in each part, got ${trainCount} training and ${testCount} test jobs`);

  const { names, rows, target, timeOfDay } = buildFeatures(jobs, trainCount, options.clock);
  if (names.length === 0) throw new InvalidModelError('no feature varies over the training part');
  const testRows = rows.slice(trainCount);
  let logPred: number[];
  let fitCount: number;
  if (model === 'linear') {
    const X = rows.slice(0, trainCount);
    const y = Array.from(target.subarray(0, trainCount), (v) => [v]);
    const ols = new (mlMultivariateLinear())(X, y, { intercept: true, statistics: false });
    logPred = (ols.predict(testRows) as number[][]).map((r) => r[0]);
    fitCount = trainCount;
  } else {
    const pick = sampleIndices(trainCount, maxTrainSamples, seed);
    const forest = new (mlRandomForest().RandomForestRegression)({
      nEstimators: trees,
      maxFeatures: 1.0,
      replacement: false,
      useSampleBagging: true,
      noOOB: true,
      seed,
      treeOptions: { maxDepth, minNumSamples: minLeafSize },
    });
    forest.train(
      pick.map((i) => rows[i]),
      pick.map((i) => target[i]),
    );
    logPred = forest.predict(testRows);
    fitCount = pick.length;
  }
  const predictions = Float64Array.from(logPred, Math.exp);
  const actual = new Float64Array(testCount);
  const user = new Float64Array(testCount);
  let hasUser = false;
  for (let i = 0; i < testCount; i++) {
    const j = jobs[trainCount + i];
    actual[i] = j.size;
    user[i] = j.userEstimate ?? NaN;
    if (j.userEstimate !== undefined) hasUser = true;
  }
  return {
    predictions,
    trainCount,
    testCount,
    fitCount,
    quality: { learned: predictionQuality(actual, predictions), ...(hasUser ? { userEstimate: predictionQuality(actual, user) } : {}) },
    model,
    seed,
    features: names,
    timeOfDay,
    options: { trainFraction, trees, maxDepth, minLeafSize, maxTrainSamples },
  };
}
