/**
 * The mean-field room. One entry, `solveMeanField(model, options)` (solve.ts): the n → ∞ limit of any parsed model
 * with a solver, in one solution shape. One warm-up rule, `simulationWarmup` (warmup.ts). Below them: fixed points, transients, relaxation and warm-up, response-time laws and the refined
 * (1/n) correction for SQ(d) = JSQ(d) with exponential sizes and FIFO. Pure: no I/O; failures throw the typed
 * errors of src/errors.ts. Source: theory.md §2, §6, §8, §10.
 */
export { sqdDrift, sqdJacobian, sqdJacobianBands, sqdClosedFormTail, sqdTruncationLevel, DEFAULT_MAX_TRUNCATION_LEVEL } from './sqd.ts';
export { newtonSolve, type NewtonOptions, type NewtonResult } from '../numerics/newton.ts';
export {
  solveSqdFixedPoint,
  FIXED_POINT_RESIDUAL_TOLERANCE,
  type FixedPointResult,
  type FixedPointOptions,
  type FixedPointMethod,
} from './fixedPoint.ts';
export {
  responseTimeCcdf,
  responseTimeQuantile,
  solveResponseTime,
  checkQuantileProbabilities,
  DEFAULT_QUANTILES,
  type ResponseTimeLaw,
  type ResponseTimeQuantile,
  type ResponseTimeOptions,
} from './responseTime.ts';
export {
  solveTransient,
  refinedTransient,
  refinedTransientAt,
  type TransientOptions,
  type TransientResult,
  type RefinedTransientResult,
} from './transient.ts';
export {
  simulationWarmup,
  warmupTime,
  cappedWarmupWarning,
  FIXED_POINT_FLOOR_TAUS,
  MAX_SCV_FACTOR,
  START_CHOICES,
  DEFAULT_START,
  type SimulationStart,
  type StartChoice,
  type SimulationWarmup,
  type SimulationWarmupOptions,
  type PopulationWarmupOptions,
  type WarmupOptions,
  type WarmupResult,
} from './warmup.ts';
export { relaxationTime } from './relaxation.ts';
export {
  refine,
  refinedEstimate,
  type RefinedEstimate,
  firstOrderTrust,
  FIRST_ORDER_RANGE,
  type FirstOrderTrust,
  computeQ,
  computeW,
  computeV,
  computeF1,
  sqdHessianTerm,
  lyapunovResidual,
  LYAPUNOV_RESIDUAL_TOLERANCE,
  type RefinedCorrection,
} from './refined.ts';
export { sqdParameters, type SqdParameters } from './support.ts';
export { solveTridiagonal, largestEigenvalueTridiagonal, tridiagonalToDense, type Tridiagonal } from '../numerics/tridiagonal.ts';
export { solveLyapunovTridiagonal } from '../numerics/lyapunov.ts';
export * from './lwl/index.ts';
export * from './phaseType/index.ts';
export * from './cavity/index.ts';
export * from './population/index.ts';
export * from './memory/index.ts';
export {
  meanFieldCapabilities,
  fifoQueueLengthTwin,
  memoryFifoTwin,
  requireStable,
  isSqdModel,
  isClassicModel,
  type MeanFieldCapabilities,
  type FixedPointSolverId,
  type TransientSolverId,
  type ResponseTimeSolverId,
  type SolverCapability,
  type TermCapability,
  type Unavailable,
} from './capabilities.ts';
export {
  meanQueueLengthUnit,
  solveMeanField,
  solveMeanFieldTransient,
  type MeanFieldTransient,
  type MeanFieldTransientOptions,
  type MeanFieldSolution,
  type SolutionKind,
  type SolutionConvergence,
  type SolutionProvenance,
  type SolutionCcdf,
  type SolveOptions,
} from './solve.ts';
export { mg1, type Mg1Result, type Mg1Options } from './mg1/index.ts';
export * from './exact/index.ts';
export {
  refineSecondOrder,
  secondOrderEstimate,
  secondOrderRatio,
  secondOrderTrust,
  symmetrise,
  SECOND_ORDER_RANGE,
  type SecondOrderCorrection,
} from './refinedSecondOrder.ts';
