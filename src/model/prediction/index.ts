/** Prediction models Y given the true size (theory.md §1 "Predictions", §7). */
export { predictionModel, type PredictionModel } from './predictionModel.ts';
export type { PredictionSpec } from '../model.ts';
