/**
 * Cavity-queue methods (theory.md §5): LWL(d) under any discipline from the workload ccdf F̄, and the JSQ(d) cavity
 * fixed point for general sizes or disciplines. Simulation estimates with CIs, labelled method 'cavity'.
 */
export { lwlCavity, type LwlCavityOptions, type LwlCavityResult } from './lwlCavity.ts';
export { lpwCavity, type LpwCavityOptions, type LpwCavityResult } from './lpwCavity.ts';
export { jsqCavity, type JsqCavityOptions, type JsqCavityResult } from './jsqCavity.ts';
export { type WorkloadCcdfTable, idleAcceptance, ExponentialLwlAcceptance, TableLwlAcceptance } from './lwlAcceptance.ts';
export { runCavityQueue, type AcceptanceRule, type CavityRunOptions, type CavityRunResult } from './cavityQueue.ts';
export { CavityScheduler } from './scheduler.ts';
export { batchRatioEstimate, lag1Autocorrelation } from './cavityEstimate.ts';
export { ResponseTimeSample } from './responseSample.ts';
