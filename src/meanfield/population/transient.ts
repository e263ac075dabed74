/**
 * Mean-field trajectory dx/dt = f(x) of a population model, integrated with odex (Hairer–Wanner ODEX, explicit
 * extrapolation) and sampled at the caller's instants through the dense output (not `grid()`, which drifts).
 * Source: theory.md §2 ("odex pitfalls"), §6; Kurtz, J. Appl. Prob. 7(1), 1970 (x^(n)(t) → x(t)).
 */
import { checkTimeGrid } from '../../model/timeGrid.ts';
import { integrateOdex, odexCounts, odexIntegration, sampleTrajectory } from '../../numerics/odex.ts';
import { infNorm } from '../../numerics/newton.ts';
import { clampRowsToRange } from '../../numerics/clamp.ts';
import { InvalidModelError, SolverError } from '../../errors.ts';
import { VERSION, codeId } from '../../version.ts';
import { populationDrift, requireSmoothModel, type PopulationDrift } from './drift.ts';
import { evaluateObservables, refineObservables } from './observables.ts';
import type { PopulationModel } from '../../model/population/parse.ts';

// As in ../ode.ts: tsx applies tsconfig's 'odex' → types/odex.d.ts mapping at run time, so the code is loaded by
// file path and only the types come from 'odex'.

export interface PopulationTransientOptions {
  /** Output instants, strictly increasing, finite, ≥ 0 (model time units); times[0] is the start. */
  times: number[];
  /** Initial state (length K); default the model's `initial`. */
  from?: ArrayLike<number>;
  /** odex relative and absolute tolerance (default 1e−10). */
  tolerance?: number;
  /** odex step budget (default max(10⁴, 50 × horizon)). */
  maxSteps?: number;
  /** Sees the fraction of the horizon integrated after every accepted step (for progress output). */
  onProgress?: (fraction: number) => void;
}

export interface PopulationTransientResult {
  /** The requested instants (copy). */
  times: number[];
  /** x[j] = state at times[j] (length K, model variable order). */
  x: number[][];
  /** Observable name → its value at each instant (length times.length). */
  observables: Record<string, number[]>;
  variables: readonly string[];
  /** `clamped`: largest move of the projection of the states onto x ≥ 0 (integrator round-off; numerics/clamp.ts). */
  diagnostics: { nStep: number; nAccept: number; nReject: number; nEval: number; finalDriftNorm: number; clamped: number };
  provenance: {
    model: string;
    equation: string;
    source: string;
    version: string;
    code: string;
    options: { tolerance: number; maxSteps: number };
  };
}

/**
 * Integrates dx/dt = f(x) from t0 to tEnd, calling `observer` on every accepted step with odex's dense interpolant.
 * @returns odex counts and the last state. @throws {SolverError} if odex throws or ends without Converged (an
 *   EarlyReturn requested by the observer is fine).
 */
export function integratePopulation(
  drift: PopulationDrift,
  y0: ArrayLike<number>,
  t0: number,
  tEnd: number,
  tolerance: number,
  maxSteps: number,
  observer: (xOld: number, x: number, y: number[], dense: (i: number, t: number) => number) => boolean | void,
): { nStep: number; nAccept: number; nReject: number; nEval: number; y: number[]; t: number } {
  const K = drift.dimension;
  const state = new Float64Array(K);
  const out = new Float64Array(K);
  const f = (t: number, y: number[]): number[] => {
    for (let i = 0; i < K; i++) state[i] = y[i];
    drift.drift(state, out);
    for (let i = 0; i < K; i++) {
      if (!Number.isFinite(out[i])) {
        const rates = drift.rates(state);
        const bad = rates.findIndex((r) => !Number.isFinite(r));
        throw new SolverError(
          `drift component ${i} is ${out[i]} at t = ${t}${bad >= 0 ? `: the rate of ${drift.labels[bad]} is ${rates[bad]}` : ''} (a rate is undefined at this state)`,
        );
      }
    }
    return Array.from(out);
  };
  const r = integrateOdex(f, Array.from(y0), t0, tEnd, { tolerance, maxSteps, label: `the population model (K = ${K})` }, observer);
  if (!r.y.every(Number.isFinite)) throw new SolverError(`odex produced a non-finite state at t = ${r.t}`);
  return { ...odexCounts(r), y: r.y, t: r.t };
}

/**
 * Mean-field transient x(t) of a population model and its observables at the given instants.
 * @param model from `parsePopulationModel`. @param options `times`, `from` (default model.initial), `tolerance`,
 *   `maxSteps`.
 * @returns `times`, `x` (times.length rows of length K, projected onto x ≥ 0), `observables`, odex `diagnostics` (with ‖f(x(t_end))‖∞).
 * @throws {InvalidModelError} on bad times, from or options. @throws {SolverError} if odex fails.
 * @example populationTransient(jsq, { times: [0, 200] }).x[1] // ≈ the fixed point
 */
export function populationTransient(model: PopulationModel, options: PopulationTransientOptions): PopulationTransientResult {
  const times = checkTimeGrid(options?.times);
  const K = model.variables.length;
  const from = Array.from(options.from ?? model.initial);
  if (from.length !== K || !from.every(Number.isFinite))
    throw new InvalidModelError(`from must hold ${K} finite numbers (one per variable), got ${from.length}`);
  const tolerance = options.tolerance ?? 1e-10;
  if (!(tolerance > 0 && tolerance < 1)) throw new InvalidModelError(`tolerance must lie in (0, 1), got ${tolerance}`);
  const horizon = times[times.length - 1] - times[0];
  const maxSteps = options.maxSteps ?? Math.max(10_000, Math.ceil(50 * horizon));
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new InvalidModelError(`maxSteps must be an integer ≥ 1, got ${maxSteps}`);
  const drift = populationDrift(model);
  const x: number[][] = [from];
  const stats = sampleTrajectory(
    times,
    from,
    (t0, tEnd, observer) => integratePopulation(drift, from, t0, tEnd, tolerance, maxSteps, observer),
    (at) => x.push(Array.from({ length: K }, (_, i) => at(i))),
    options.onProgress && ((_y, t) => options.onProgress!(horizon > 0 ? (t - times[0]) / horizon : 1)),
  );
  // The variables are fractions of servers (models/README.md), never negative; odex round-off left −3.6e−26.
  const clamped = clampRowsToRange(x, 0, Infinity);
  const observables: Record<string, number[]> = {};
  x.forEach((row) => {
    for (const [name, v] of Object.entries(evaluateObservables(model, row))) (observables[name] ??= []).push(v);
  });
  const finalDriftNorm = infNorm(drift.drift(x[x.length - 1]));
  return {
    times: [...times],
    x,
    observables,
    variables: model.variables,
    diagnostics: { ...odexCounts(stats), finalDriftNorm, clamped },
    provenance: {
      model: model.name,
      equation: 'dx/dt = f(x) = sum_l l beta_l(x)',
      source: 'theory.md §6; Kurtz 1970; odex (Hairer–Wanner ODEX)',
      version: VERSION,
      code: codeId(),
      options: { tolerance, maxSteps },
    },
  };
}

export interface PopulationRefinedTransientResult {
  /** The mean-field transient (same instants). */
  meanField: PopulationTransientResult;
  /** V[j], length K: E[x^(n)(times[j])] ≈ x(times[j]) + V[j]/n. */
  V: number[][];
  /** Observable name → its 1/n coefficient at each instant: ∇g(x)·V + ½ g''(x):W. */
  observables: Record<string, number[]>;
  diagnostics: { nStep: number; nAccept: number; nReject: number; nEval: number };
  provenance: { model: string; equation: string; source: string; version: string; code: string };
}

/**
 * Refined mean-field transient of a population model from its deterministic initial state: E[X^(n)(t)] =
 * x(t) + V(t)/n + O(1/n²), integrating with odex the system dx/dt = f(x), dV/dt = F'(x)V + ½F''(x)·W,
 * dW/dt = F'(x)W + WF'(x)ᵀ + Q(x), V(0) = W(0) = 0 (K(K + 2) unknowns; symbolic Jacobian and Hessian of ./drift.ts).
 * As t → ∞, V(t) tends to the V of `populationRefined`.
 * Source: theory.md §6; Gast and Van Houdt, POMACS 1(2), 2017; Gast, Bortolussi, Tribastone, Perf. Eval. 2019
 * (rmf_tool refinedRefined_transientRegime.py, drift_r).
 * @param model from `parsePopulationModel` (C² rates, `requireSmoothModel`). @param options as `populationTransient`.
 * @returns `meanField`, `V` (per instant), `observables` (1/n coefficients per instant), odex `diagnostics`.
 * @throws as `populationTransient`; {InvalidModelError} if a rate or observable is not C².
 */
export function populationRefinedTransient(model: PopulationModel, options: PopulationTransientOptions): PopulationRefinedTransientResult {
  requireSmoothModel(model);
  const meanField = populationTransient(model, options);
  const K = model.variables.length;
  const drift = populationDrift(model);
  const { tolerance, maxSteps } = meanField.provenance.options;
  const times = meanField.times;
  const size = K * (K + 2);
  const y0 = new Array<number>(size).fill(0);
  meanField.x[0].forEach((v, i) => (y0[i] = v));
  const W: number[][] = Array.from({ length: K }, () => new Array<number>(K).fill(0));
  const f = (_t: number, y: number[]): number[] => {
    const x = Float64Array.from(y.slice(0, K));
    for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) W[i][j] = y[2 * K + i * K + j];
    const fx = drift.drift(x);
    const J = drift.jacobian(x);
    const b = drift.secondOrderTerm(x, W);
    const Q = drift.noise(x);
    const out = new Array<number>(size).fill(0);
    for (let i = 0; i < K; i++) {
      out[i] = fx[i];
      let v = b[i];
      for (let k = 0; k < K; k++) v += J[i][k] * y[K + k];
      out[K + i] = v;
    }
    for (let i = 0; i < K; i++) {
      for (let j = 0; j < K; j++) {
        let acc = Q[i][j];
        for (let k = 0; k < K; k++) acc += J[i][k] * W[k][j] + W[i][k] * J[j][k];
        out[2 * K + i * K + j] = acc;
      }
    }
    return out;
  };
  const V: number[][] = [new Array<number>(K).fill(0)];
  const Ws: number[][][] = [W.map((row) => row.map(() => 0))];
  const stats = sampleTrajectory(
    times,
    y0,
    odexIntegration(f, y0, { tolerance, maxSteps: 4 * maxSteps, label: `the refined transient of ${model.name} (K = ${K})` }),
    (at) => {
      V.push(Array.from({ length: K }, (_, i) => at(K + i)));
      Ws.push(Array.from({ length: K }, (_, i) => Array.from({ length: K }, (_, j) => at(2 * K + i * K + j))));
    },
  );
  const observables: Record<string, number[]> = {};
  V.forEach((v, j) => {
    for (const [name, o] of Object.entries(refineObservables(model, meanField.x[j], v, Ws[j])))
      (observables[name] ??= []).push(o.coefficient);
  });
  return {
    meanField,
    V,
    observables,
    diagnostics: odexCounts(stats),
    provenance: {
      model: model.name,
      equation: "E[X^(n)(t)] = x(t) + V(t)/n; dV/dt = F'V + F'':W/2, dW/dt = F'W + WF'^T + Q, V(0) = W(0) = 0",
      source: 'theory.md §6; Gast and Van Houdt, POMACS 1(2), 2017; Gast, Bortolussi, Tribastone, Perf. Eval. 2019; rmf_tool',
      version: VERSION,
      code: codeId(),
    },
  };
}
