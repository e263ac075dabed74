/** The simulator room: finite-n simulation of the whole policy space, trace replay, transients, random streams and interval estimates. */
export { simulate, type SimulateOptions, type SimulationResult, type ReplicationResult, type Percentiles } from './simulate.ts';
export { simulateReplay, type ReplayOptions, type ReplayResult, type ReplayWorkload } from './replay.ts';
export { simulateTrajectory, type TrajectoryOptions, type TrajectoryResult } from './trajectory.ts';
export { tInterval, type Estimate } from './estimate/tInterval.ts';
export { batchEstimate, lag1Autocorrelation, type BatchEstimate } from './estimate/batchMeans.ts';
export { quantiles } from './estimate/quantile.ts';
export { Rng, streamSeed, fnv1a, seedFromKey, MAX_UNIFORM_BOUND } from './rng.ts';
export { raceIsExact, fallbackWarmup, defaultWorkloadGrid } from './options.ts';
export type { EngineKind } from './core.ts';
