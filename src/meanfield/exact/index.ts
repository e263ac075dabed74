/** Exact small-n solutions: the n-server chain on sorted occupancy vectors, truncated with a reported bound (random routing: the M/M/1 closed form). */
export { solveExact, type ExactOptions, type ExactProgress, type ExactResult } from './solveExact.ts';
export { buildExactChain, stateCount, stateSpaceBytes, type ExactChain } from './stateSpace.ts';
