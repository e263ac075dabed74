/** The simulator room: finite-n simulation of the whole policy space, trace replay, transients and the Gillespie population simulator. Estimates and random streams live in ../stats. */
export { simulate, type SimulateOptions, type SimulationResult, type ReplicationResult, type Percentiles } from './simulate.ts';
export { simulateReplay, type ReplayOptions, type ReplayResult, type ReplayWorkload } from './replay.ts';
export { simulateTrajectory, type TrajectoryOptions, type TrajectoryResult } from './trajectory.ts';
export { raceIsExact, fallbackWarmup, defaultWorkloadGrid } from './options.ts';
export type { EngineKind } from './core.ts';
