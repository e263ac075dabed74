/**
 * LWL(d) = LL(d) mean field (theory.md §4): equilibrium workload ccdf (Picard on the FPE with FFT convolution, or the
 * phase-type ODE), FIFO waiting and response times, exponential closed forms, and the transient from empty.
 */
export { lwlFixedPoint, type LwlResult } from './fixedPoint.ts';
export {
  lwlWorkloadCcdf,
  GRID_ERROR_BOUND_FACTOR,
  type LwlOptions,
  type LwlMethod,
  type LwlDiagnostics,
  type LwlWorkloadResult,
} from './workload.ts';
export {
  lwlExponentialClosedForm,
  lwlExponentialWorkloadCcdf,
  lwlExponentialResponseCcdf,
  type LwlExponentialClosedForm,
} from './closedForm.ts';
export { lwlTransient, lwlTransientGrid, type LwlTransientOptions, type LwlTransientResult } from './transient.ts';
export { isHeavyTailed, defaultHorizon, DEFAULT_STEP, DEFAULT_HORIZON, HEAVY_TAIL_HORIZON } from './parameters.ts';
