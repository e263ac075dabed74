/**
 * JSQ(d) with phase-type service, FIFO: the mean-field ODE over (queue length, phase of the job in service), its
 * fixed point (Newton, banded Jacobian) and transient (odex). Source: theory.md §3 [D].
 */
export { phaseTypeJsqFixedPoint, type PhaseTypeFixedPointOptions, type PhaseTypeFixedPointResult } from './fixedPoint.ts';
export { phaseTypeJsqTransient, type PhaseTypeTransientOptions, type PhaseTypeTransientResult } from './transient.ts';
export { phaseTypeParameters, type PhaseTypeParameters, type PhaseTypeFitLabel } from './phaseTypeModel.ts';
export { phaseTypeDrift, phaseTypeJacobianCumulative, arrivalFactor, tailOf, cumulativeFromLevels, levelsFromCumulative } from './drift.ts';
export { BandedMatrix } from '../../numerics/bandedMatrix.ts';
