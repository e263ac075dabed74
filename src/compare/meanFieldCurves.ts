/**
 * Mean-field curves a comparison report draws beside its cells, for SQ(d) FIFO with exponential sizes (the model with
 * the refined term): the response-time ccdf P(T > t) at the fixed point, and E[T] against λ for several d with the
 * heavy-traffic asymptote log(1/(1 − λ))/log d (Mitzenmacher 2001; theory.md §2). Plain data for `report`.
 */
import { fifoQueueLengthTwin, type SupermarketModel } from '../model/index.ts';
import { responseTimeCcdf, responseTimeQuantile, solveSqdFixedPoint, type FixedPointResult } from '../meanfield/index.ts';

/** P(T > t) of the mean field on a grid of `times` (model time units) up to its 1 − 1e-4 quantile. */
export interface ResponseTimeCurve {
  readonly times: number[];
  readonly ccdf: number[];
  readonly source: string;
  /** Solver name and kind of the law (quantileCells.ts; absent in results stored before). */
  readonly solver?: string;
  readonly kind?: string;
  /** t_p of the mean field at p = 0.5, 0.95, 0.99 (absent in results stored before). */
  readonly quantiles?: { readonly p: number; readonly value: number }[];
}

/**
 * The mean-field response-time ccdf of SQ(d) FIFO exponential at its fixed point `fp` on `points` + 1 instants from 0
 * to the 1 − 1e-4 quantile: P(T > t) = Σ_m e^{−t} t^m/m! · (s_m*)^d (`responseTimeCcdf`).
 */
export function responseTimeCurve(fp: FixedPointResult, points = 80): ResponseTimeCurve {
  const d = fp.provenance.model.d;
  const tMax = responseTimeQuantile(fp, d, 1 - 1e-4);
  const times = Array.from({ length: points + 1 }, (_, j) => (j * tMax) / points);
  return {
    times,
    ccdf: responseTimeCcdf(fp, d, times),
    source: 'P(T > t) = Σ_m e^(−t) t^m/m! · (s_m*)^d (FIFO, exponential sizes; theory.md §2)',
  };
}

/** E[T] of the mean field against λ for one d, with the heavy-traffic asymptote E[S]·log(1/(1 − ρ))/log d. */
export interface LoadCurve {
  readonly d: number;
  /** λ per server, ρ/E[S] for ρ on `LOAD_GRID`. */
  readonly lambda: number[];
  /** E[T] in model time units. */
  readonly meanResponseTime: number[];
  /** E[S]·log(1/(1 − ρ))/log d (model time units; NaN for d = 1). */
  readonly heavyTraffic: number[];
}

/** The load grid of the load curves: ρ = 0.05 … 0.95 by 0.05, then 1 − ρ halving down to 1/1024 (heavy traffic in view). */
export const LOAD_GRID: readonly number[] = [
  ...Array.from({ length: 19 }, (_, j) => (j + 1) / 20),
  ...Array.from({ length: 6 }, (_, j) => 1 - 0.05 / 2 ** (j + 1)),
];

/**
 * E[T](λ) of SQ(d) FIFO exponential (fixed point in closed form) for each d of `ds` at λ = ρ/E[S] for ρ on
 * `LOAD_GRID`, from `model` (its sampling and service kept, λ and d replaced; PS or LAS with exponential sizes through
 * FIFO's queue lengths, `fifoQueueLengthTwin`, whose E[T] they share): with E[S] ≠ 1 (`--service exp@2`) the grid
 * stays inside the stable loads and the times are in the model's time units.
 */
export function loadCurves(given: SupermarketModel, ds: readonly number[]): LoadCurve[] {
  const model = fifoQueueLengthTwin(given) ?? given;
  const meanS = model.service.mean;
  return ds.map((d) => ({
    d,
    lambda: LOAD_GRID.map((rho) => rho / meanS),
    meanResponseTime: LOAD_GRID.map((rho) => solveSqdFixedPoint({ ...model, d, lambda: rho / meanS } as SupermarketModel).meanResponseTime),
    heavyTraffic: LOAD_GRID.map((rho) => (d > 1 ? (meanS * Math.log(1 / (1 - rho))) / Math.log(d) : Number.NaN)),
  }));
}
