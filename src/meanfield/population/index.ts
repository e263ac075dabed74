/**
 * Generic density-dependent population models (theory.md §6): a JSON model file of state variables and transitions
 * (jump ℓ, rate β_ℓ(x) as a mathjs expression) gives the drift, its symbolic Jacobian and Hessian, the fixed point,
 * the transient and the refined 1/n correction. File format: models/README.md. Pure: no I/O.
 */
export {
  parsePopulationModel,
  MAX_POPULATION_SIZE,
  type PopulationModel,
  type PopulationTransition,
} from '../../model/population/parse.ts';
export { populationModelSchema, type PopulationModelFile } from '../../model/population/schema.ts';
export { populationDrift, requireSmoothModel, type PopulationDrift } from './drift.ts';
export { evaluateObservables, refineObservables } from './observables.ts';
export {
  bindingTruncation,
  populationFixedPoint,
  TRUNCATION_TOLERANCE,
  type PopulationFixedPointOptions,
  type PopulationFixedPointResult,
} from './fixedPoint.ts';
export {
  populationTransient,
  populationRefinedTransient,
  type PopulationTransientOptions,
  type PopulationTransientResult,
  type PopulationRefinedTransientResult,
} from './transient.ts';
export { populationRefined, refinedAt, type PopulationRefinedResult } from './refined.ts';
export { solveLyapunovDense } from '../../numerics/lyapunovDense.ts';
export { populationSecondOrder, secondOrderAt, type PopulationSecondOrderResult } from './secondOrder.ts';
