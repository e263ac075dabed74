/**
 * The public API of supermarket-lab, the package's one entry: `import { parseModel, solveMeanField, simulate } from 'supermarket-lab'`.
 * A curated list: the model, the mean-field entry (plus the SQ(d) transient and refined 1/n term), the simulators, the
 * comparison, the typed errors and the types they take and return. Everything else is internal and may change.
 * Time is in mean service times (E[S] = 1 unless the service law says otherwise); theory and sources: docs/theory.md.
 */

// errors: every library failure is a SupermarketError subclass with a one-line message
export { SupermarketError, InvalidModelError, UnstableModelError, ConvergenceError, SolverError } from './errors.ts';

// model: validated, frozen model descriptions
export {
  parseModel,
  validateModel,
  SELECTION_TABLE,
  DISCIPLINE_TABLE,
  type SelectionRow,
  type DisciplineRow,
  type ServerModel,
  type RankKey,
  checkServers,
  load,
  meanServiceTime,
  SELECTIONS,
  DISCIPLINES,
  SAMPLINGS,
  DEFAULT_CONVENTIONS,
  type SupermarketModel,
  type ModelInput,
  type UntypedModelInput,
  type ServiceSpecInput,
  type PredictionSpecInput,
  type Selection,
  type Discipline,
  type Sampling,
  type ServiceSpec,
  type PredictionSpec,
  type Conventions,
} from './model/index.ts';

// mean field: one entry for every model, plus the SQ(d) transient and the refined 1/n correction
export { solveMeanField, type MeanFieldSolution, type SolveOptions, type SolutionKind } from './meanfield/solve.ts';
export {
  solveMeanFieldTransient,
  meanFieldCapabilities,
  requireStable,
  isClassicModel,
  type MeanFieldCapabilities,
  type MeanFieldTransient,
  type MeanFieldTransientOptions,
  type FixedPointSolverId,
  type TransientSolverId,
  type ResponseTimeSolverId,
  solveResponseTime,
  type ResponseTimeLaw,
  type ResponseTimeQuantile,
  type ResponseTimeOptions,
  type SolverCapability,
  type TermCapability,
  type Unavailable,
  solveTransient,
  refine,
  refinedEstimate,
  type RefinedEstimate,
  simulationWarmup,
  cappedWarmupWarning,
  type TransientOptions,
  type TransientResult,
  type RefinedCorrection,
} from './meanfield/index.ts';
// dispatcher memory (theory.md §12): π₀ per scheme, the reduction theorem, the cavity-ODE transient
export {
  memoryEmptyProbability,
  memoryReduction,
  probesPerArrival,
  solveMemoryTransient,
  type MemoryReduction,
} from './meanfield/memory/index.ts';

// simulation: finite-n engines, trace replay, transients
export {
  simulate,
  simulateReplay,
  simulateTrajectory,
  type SimulateOptions,
  type SimulationResult,
  type ReplayOptions,
  type ReplayResult,
  type ReplayWorkload,
  type TrajectoryOptions,
  type TrajectoryResult,
} from './sim/index.ts';
export type { Estimate } from './stats/index.ts';

// comparison: simulation against the mean field over n
export { runComparison, type ComparisonConfig, type ComparisonHooks, type ComparisonResult, type CellResult } from './compare/index.ts';

export { VERSION } from './version.ts';
