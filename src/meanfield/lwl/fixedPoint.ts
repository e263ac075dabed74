/**
 * LWL(d) = LL(d) mean-field equilibrium with FIFO: workload ccdf, waiting and response times, any service law.
 * Source: theory.md §4 ("Equilibrium", "FIFO response", "Numerics"); Hellemans & Van Houdt, POMACS 2(2), 2018.
 */
import type { SupermarketModel } from '../../model/model.ts';
import { lwlParameters } from './parameters.ts';
import { fifoResponseCcdf } from './responseTime.ts';
import { type LwlOptions, type LwlWorkloadResult, solveWorkload, trapezoid } from './workload.ts';

export interface LwlResult extends LwlWorkloadResult {
  /** E[W] = ∫F̄^d dw (FIFO), time units. */
  meanWaitingTime: number;
  /** E[T] = E[S] + E[W] (FIFO), time units. */
  meanResponseTime: number;
  /** P(W > w_j) = F̄(w_j)^d on `grid` (length M + 1). */
  waitingTimeCcdf: number[];
  /** P(T > t) at `times` = `grid` (both length M + 1), FIFO, Stieltjes form (responseTime.ts). */
  responseTimeCcdf: { times: number[]; ccdf: number[] };
}

/**
 * LWL(d) FIFO mean-field equilibrium.
 * @param model `selection` 'lwl', `discipline` 'fifo', any `service`; `lambda` per server with ρ = λE[S] < 1.
 * @param options `LwlOptions`: step Δ (default 0.005·E[S]), horizon W (300·E[S]; 600·E[S] heavy tails), tolerance
 *   (1e−10), maxIterations (2000), method 'picard' | 'phase-type', andersonDepth (5), gridCheck (true), trimHorizon (true).
 * @returns the workload result (`grid`, `workloadCcdf`, `meanWorkload`) plus `meanWaitingTime`, `meanResponseTime`,
 *   `waitingTimeCcdf` and `responseTimeCcdf` (time units); `diagnostics.meanResponseTimeGridError` = |E[T]_Δ − E[T]_{Δ/2}|,
 *   `diagnostics.meanResponseTimeErrorBound` the bound on the returned E[T]'s grid error (`GRID_ERROR_BOUND_FACTOR` × it).
 * @throws {InvalidModelError} if selection is not 'lwl', or the discipline is not 'fifo' (response times under other
 *   disciplines need the cavity method, theory.md §5; the workload ccdf is available from `lwlWorkloadCcdf`), or an
 *   option is out of range. @throws {ConvergenceError} if Picard fails.
 * @example lwlFixedPoint(parseModel({ lambda: 0.9, d: 2, selection: 'lwl' })).meanResponseTime // ≈ 2.0503
 */
export function lwlFixedPoint(model: SupermarketModel, options: LwlOptions = {}): LwlResult {
  const params = lwlParameters(model, true);
  const { ccdf, K, step, result } = solveWorkload(model, params, options);
  const { d, rho, service } = params;
  const meanWaitingTime = trapezoid(ccdf, step, d);
  const response = fifoResponseCcdf(ccdf, d, rho, K, service, step);
  return {
    ...result,
    meanWaitingTime,
    meanResponseTime: service.mean + meanWaitingTime,
    waitingTimeCcdf: Array.from(ccdf, (v) => v ** d),
    responseTimeCcdf: { times: result.grid.slice(), ccdf: Array.from(response) },
  };
}
