/** Learned size predictions from trace features, and predictor quality. */
export { learnPredictions, type LearnOptions, type LearnResult, type LearnModel } from './learnPredictions.ts';
export { predictionQuality, type PredictionQuality } from './quality.ts';
export { buildFeatures, logTarget, type FeatureMatrix } from './features.ts';
