/** Exact small-n solutions: the n-server chain on sorted occupancy vectors, truncated with a reported bound. */
export { solveExact, type ExactOptions, type ExactResult } from './solveExact.ts';
export { buildExactChain, stateCount, stateSpaceBytes, type ExactChain } from './stateSpace.ts';
