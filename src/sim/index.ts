/** The simulator room: finite-n simulation of the whole policy space, trace replay, transients and the Gillespie population simulator. Estimates and random streams live in ../stats. */
export {
  simulate,
  planSimulation,
  runReplications,
  SimulationCollector,
  simulationJson,
  percentilesJson,
  meansOutsideInterval,
  POOLED_SAMPLE_CAP,
  MSER_MARGIN,
  INITIAL_BIAS_LEVEL,
  MIN_SEQUENTIAL_UNITS,
  MIN_TAIL_JOBS_PER_SECTION,
  percentileSectionShortfall,
  percentileSectionWarning,
  MAX_BATCH_LAG1,
  type SimulateOptions,
  type SimulationPlan,
  type ReplicationPart,
  type SimulationResult,
  type SimulationStartState,
  type ReplicationResult,
  type Percentiles,
  type ClassEstimate,
  type MserCheck,
  type InitialBiasCheck,
  type PrecisionOutcome,
  type InfiniteEstimate,
  type MeanOutsideInterval,
} from './simulate.ts';
export { simulateReplay, type ReplayOptions, type ReplayResult, type ReplayWorkload } from './replay.ts';
export {
  collectTrajectory,
  planTrajectory,
  runTrajectoryReplications,
  simulateTrajectory,
  type TrajectoryOptions,
  type TrajectoryPart,
  type TrajectoryPlan,
  type TrajectoryResult,
} from './trajectory.ts';
export { raceIsExact, defaultWorkloadGrid, ENGINE_CHOICES, type EngineChoice } from './options.ts';
export {
  MAX_EVENTS,
  ODE_LEVEL_COST,
  expectedEvents,
  checkEventBudget,
  heavyTailBudgetWarnings,
  type HeavyTailBudget,
  type RunSize,
} from './budget.ts';
export {
  simulatePopulation,
  type PopulationSimulationOptions,
  type PopulationSimulationResult,
  type PopulationReplication,
} from './population.ts';
export type { EngineKind } from './core.ts';
