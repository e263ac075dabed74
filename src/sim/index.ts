/** The simulator room: finite-n JSQ(d) simulation, transients, random streams and interval estimates. */
export { simulate, type SimulateOptions, type SimulationResult, type ReplicationResult } from './simulate.ts';
export { simulateTrajectory, type TrajectoryOptions, type TrajectoryResult } from './trajectory.ts';
export { tInterval, type Estimate } from './estimate/tInterval.ts';
export { Rng, streamSeed, MAX_UNIFORM_BOUND } from './rng.ts';
export { raceIsExact, fallbackWarmup } from './options.ts';
export type { EngineKind } from './core.ts';
