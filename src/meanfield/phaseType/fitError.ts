/**
 * The measured size of the two-moment phase-type fit's error (theory.md §3; issue 20 item 4). For JSQ(d) FIFO with a
 * size law that is not phase-type, the phase-type ODE on the fit (Tijms 2003: only E[S] and the SCV match) answers a
 * nearby model; for d ≥ 2 the whole law matters, so its E[T] is off by an amount no formula bounds. The JSQ cavity
 * (an estimate with a CI) is the default for these laws; the fit is an explicit option (`fixed-point --ph-fit`,
 * `solveMeanField(model, { phaseTypeFit: true })`) whose output states the error measured for its law family, and it is
 * refused for a family never measured. Numbers: `scripts/ph-fit-error.ts` (fit against the JSQ cavity's CI) and the
 * n = 1000 and 10 000 simulations of issue 20.
 */
import type { ServiceKind, SupermarketModel } from '../../model/index.ts';

/** The measured relative error (fit − reference)/reference of E[T] for one law family. */
export interface PhaseTypeFitError {
  /** Smallest and largest relative error measured (fractions, e.g. −0.13), over the CI ends of the reference. */
  readonly low: number;
  readonly high: number;
  /** Laws, loads and d where it was measured. */
  readonly grid: string;
  /** What it was measured against. */
  readonly reference: string;
  /**
   * Set when the model lies outside `grid` (its load, d or size parameter beyond the measured ones): why. The measured
   * range then bounds nothing (the error grows with load and variability), so no interval is given (`fitErrorRange`).
   */
  readonly outside?: string;
}

/** Where a family's error was measured: loads, d, and the size parameter's range (`parameter` of the service spec). */
interface MeasuredGrid {
  readonly lambda: readonly [number, number];
  readonly d: readonly number[];
  readonly parameters: { readonly [name: string]: readonly [number, number] };
}

const MEASURED_GRID: Partial<Record<ServiceKind, MeasuredGrid>> = {
  weibull: { lambda: [0.7, 0.95], d: [2, 3], parameters: { shape: [0.5, 2] } },
  lognormal: { lambda: [0.7, 0.95], d: [2, 3], parameters: { sigma: [0.5, 1.5] } },
  'bounded-pareto': { lambda: [0.7, 0.95], d: [2, 3], parameters: { alpha: [1.5, 1.5], ratio: [100, 100] } },
};

/** Why `model` lies outside the grid its family's error was measured on, or undefined when inside. */
function outsideGrid(model: SupermarketModel): string | undefined {
  const grid = MEASURED_GRID[model.service.kind];
  if (grid === undefined) return `${model.service.kind} was never measured`;
  const rho = model.lambda * model.service.mean; // the grid's λ is the load of unit-mean sizes
  if (rho < grid.lambda[0] || rho > grid.lambda[1]) return `load ρ = ${rho} is outside ${grid.lambda[0]}–${grid.lambda[1]}`;
  if (!grid.d.includes(model.d)) return `d = ${model.d} is not among ${grid.d.join(', ')}`;
  for (const [name, [lo, hi]] of Object.entries(grid.parameters)) {
    const value = (model.service as unknown as Record<string, number>)[name];
    if (!(value >= lo && value <= hi)) return `${name} ${value} is outside ${lo === hi ? lo : `${lo}–${hi}`}`;
  }
  return undefined;
}

const REFERENCE = 'the JSQ cavity (scripts/ph-fit-error.ts) and n = 1000, 10 000 simulations (issue 20)';

/** Measured per family (JSQ(d) FIFO); a family not listed has no measured error and its fit is refused. */
export const PH_FIT_MEASURED_ERROR: Partial<Record<ServiceKind, PhaseTypeFitError>> = {
  // shape 0.5: −6 % (λ 0.7), −11.5 % (0.9), −13 % (0.95, simulation), −16 % (d = 3, 0.9); shape 2: −0.2 to −0.8 %
  weibull: { low: -0.18, high: 0, grid: 'shape 0.5 and 2, λ 0.7–0.95, d 2 and 3', reference: REFERENCE },
  // σ 0.5: +0.3 to +1.3 %; σ 1: +3.8 % (λ 0.7), +6.5 % (0.9), +7.6 to +9.6 % (0.95); σ 1.5: +7.5 to +15 %
  lognormal: { low: 0, high: 0.17, grid: 'σ 0.5, 1 and 1.5, λ 0.7–0.95, d 2 and 3', reference: REFERENCE },
  // α 1.5, ratio 100: +18 % (λ 0.7), +27 % (0.9), +33 % (0.95), +23 % (d = 3, 0.9)
  'bounded-pareto': { low: 0.1, high: 0.36, grid: 'α 1.5 with ratio 100 only, λ 0.7–0.95, d 2 and 3', reference: REFERENCE },
};

/** The measured error of the fit for `model`'s size law, or undefined (never measured: the fit is refused). */
export function phaseTypeFitError(model: SupermarketModel): PhaseTypeFitError | undefined {
  const e = PH_FIT_MEASURED_ERROR[model.service.kind];
  if (e === undefined) return undefined;
  const outside = outsideGrid(model);
  return outside === undefined ? e : { ...e, outside };
}

/** A signed percentage: −0.14 → "−14 %", 0.09 → "+9 %" (`digits` decimals, default 0). */
export function signedPercent(x: number, digits = 0): string {
  return `${x < 0 ? '−' : '+'}${Math.abs(100 * x).toFixed(digits)} %`;
}

/** One line: "measured error of the two-moment PH fit for weibull sizes: −14 % to −5 % (…)". */
export function describePhaseTypeFitError(kind: ServiceKind, e: PhaseTypeFitError): string {
  return `measured error of the two-moment PH fit for ${kind} sizes: ${signedPercent(e.low)} to ${signedPercent(e.high)} of E[T] (${e.grid}; against ${e.reference}); larger outside that grid`;
}

/**
 * Where the true E[T] lies given the fit's `value` and its measured error (fit − true)/true ∈ [low, high]:
 * [value/(1 + high), value/(1 + low)] (time units); [0, ∞) when the model is outside the measured grid (`outside`):
 * the error there was never measured, so nothing narrower is supported.
 */
export function fitErrorRange(value: number, e: PhaseTypeFitError): [number, number] {
  if (e.outside !== undefined) return [0, Number.POSITIVE_INFINITY];
  return [value / (1 + e.high), value / (1 + e.low)];
}

/**
 * "measured error −18 % to +0 % of E[T] (grid; against …), i.e. E[T] in [4.6168, 5.6303]" for a fit's E[T] `value`;
 * outside the grid: "… (grid; against …); this model is outside that grid (load ρ = 0.99 …): no bound".
 */
export function describeFitErrorOf(value: number, e: PhaseTypeFitError): string {
  const measured = `measured error ${signedPercent(e.low)} to ${signedPercent(e.high)} of E[T] (${e.grid}; against ${e.reference})`;
  if (e.outside !== undefined) return `${measured}; this model is outside that grid (${e.outside}): no bound`;
  const [lo, hi] = fitErrorRange(value, e);
  return `${measured}, i.e. E[T] in [${lo.toFixed(4)}, ${hi.toFixed(4)}]`;
}
