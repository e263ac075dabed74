/**
 * Service-time distributions: the runtime laws behind `ServiceSpec` (sample, moments, ccdf, density, quantile,
 * partial moments, exact phase-type forms) and the two-moment phase-type fit. Source: theory.md §1 "Sizes", §3.
 */
import { byKind, type KindTable, type ServiceSpec } from '../model.ts';
import { BoundedParetoDistribution } from './boundedPareto.ts';
import { DeterministicDistribution } from './deterministic.ts';
import type { ServiceDistribution } from './distribution.ts';
import { EmpiricalDistribution } from './empirical.ts';
import { ErlangDistribution } from './erlang.ts';
import { ExponentialDistribution } from './exponential.ts';
import { HyperexponentialDistribution } from './hyperexponential.ts';
import { LognormalDistribution } from './lognormal.ts';
import { ParetoDistribution } from './pareto.ts';
import { WeibullDistribution } from './weibull.ts';

export type { PhaseType, ServiceDistribution, UniformSource } from './distribution.ts';
export type { ServiceSpec } from '../model.ts';
export { phaseTypeFit } from './phaseTypeFit.ts';
export { balancedH2, type BalancedH2 } from './hyperexponential.ts';
export { erlangPhaseType } from './erlang.ts';
export { normalCdf, normalQuantile, standardNormal } from './support.ts';
export {
  BoundedParetoDistribution,
  DeterministicDistribution,
  EmpiricalDistribution,
  ErlangDistribution,
  ExponentialDistribution,
  HyperexponentialDistribution,
  LognormalDistribution,
  ParetoDistribution,
  WeibullDistribution,
};

/**
 * The runtime distribution of a service spec, rescaled to `spec.mean` (time units).
 * @param spec a validated `ServiceSpec` (as produced by `parseModel`); checked again here.
 * @returns a `ServiceDistribution` whose `mean` equals spec.mean.
 * @throws {InvalidModelError} if a parameter is out of range (each family's constructor names field, value and bound),
 *   or the kind is unknown.
 * @example serviceDistribution({ kind: 'weibull', shape: 0.5, mean: 1 }).secondMoment // 6
 */
export function serviceDistribution(spec: ServiceSpec): ServiceDistribution {
  return byKind('service', SERVICE_LAWS, spec);
}

/**
 * The unit of the model's times (E[T], response-time quantiles, workloads, the clock of a transient), as every output
 * names it: "mean service times" when E[S] = 1, else "time units (E[S] = m)" (e.g. `--service exp@2`: E[T] = 2 is
 * one mean service time). Axis titles of the figures and the data beside them use it.
 * @param spec the service spec (its `mean`, time units). @example timeUnit({ kind: 'exponential', mean: 2 }) // "time units (E[S] = 2)"
 */
export function timeUnit(spec: Pick<ServiceSpec, 'mean'>): string {
  return spec.mean === 1 ? 'mean service times' : `time units (E[S] = ${spec.mean})`;
}

/** The law of each service kind, in the order of SERVICE_KINDS (the error message lists them so). */
const SERVICE_LAWS: KindTable<ServiceSpec, ServiceDistribution> = {
  exponential: ExponentialDistribution,
  deterministic: DeterministicDistribution,
  erlang: ErlangDistribution,
  hyperexponential: HyperexponentialDistribution,
  weibull: WeibullDistribution,
  lognormal: LognormalDistribution,
  'bounded-pareto': BoundedParetoDistribution,
  pareto: ParetoDistribution,
  empirical: EmpiricalDistribution,
};
