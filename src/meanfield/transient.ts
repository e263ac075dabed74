/**
 * Transient mean-field trajectories of SQ(d), exponential sizes, FIFO, integrated with odex, and the warm-up
 * time they imply for simulations. Source: theory.md §2 (ODE, "Relaxation", "odex pitfalls") and §8 ("Warm-up");
 * Vvedenskaya, Dobrushin, Karpelevich 1996; Mitzenmacher 2001.
 */
import { checkTimeGrid } from '../model/timeGrid.ts';
import { InvalidModelError } from '../errors.ts';
import { fifoQueueLengthTwin, type SupermarketModel } from '../model/model.ts';
import { VERSION, codeId } from '../version.ts';
import { clampToRange } from '../numerics/clamp.ts';
import { odexCounts, odexIntegration, sampleTrajectory } from '../numerics/odex.ts';
import { integrateSqd } from './ode.ts';
import { computeF1, sqdHessianTerm } from './refined.ts';
import { sqdClosedFormTail, sqdDrift, sqdJacobianBands, sqdTruncationLevel } from './sqd.ts';
import { requirePoissonRefined, sqdParameters, truncatedTransient, type TruncatedTransient } from './support.ts';

export { relaxationTime } from './relaxation.ts';

export interface TransientOptions {
  /** Output instants, strictly increasing, finite, ≥ 0, model time units; times[0] is the start. */
  times: number[];
  /** Initial tail s_0..s_K' (tail[0] = 1, values in [0, 1], non-increasing). Default: the empty system. */
  from?: number[];
  /** K (integer ≥ 1 and ≥ K'); default chosen as documented on `solveTransient`. */
  truncationLevel?: number;
  /** odex relative and absolute tolerance (default 1e−10). */
  tolerance?: number;
  /** odex step budget (default max(10⁴, 50 × horizon in service times)). */
  maxSteps?: number;
  /** Sees the fraction of the horizon integrated after every accepted step (for progress output; a re-integration at a larger K starts again at 0). */
  onProgress?: (fraction: number) => void;
}

/** The SQ(d) transient: `times` (copy), `tail` rows s_0..s_K, `meanQueueLength` per instant, odex diagnostics, provenance. */
export type TransientResult = TruncatedTransient;

/**
 * Right-hand-side evaluations odex makes on the SQ(d) ODE over `horizon` service times, an upper estimate for a
 * truncation sized from the horizon (ρ ≥ 1): about 32·ρ·d per service time. Measured at K = 600–2300: 29 (ρ = 1, d = 2),
 * 51 (1.2, 2), 76 (1.2, 3), 124 (2, 2), 154 (1.5, 5), 253 (4, 2) per service time, linear in the horizon; odex is
 * explicit, so its step is stability-bound. Each evaluation costs O(K).
 */
export function sqdTransientEvaluations(rho: number, d: number, horizon: number): number {
  return 32 * rho * Math.max(1, d) * horizon;
}

/**
 * The truncation level `solveTransient` starts with at ρ < 1 (its default): from below the fixed point K = min(K*, K' +
 * R), the ODE staying below s*; from above it, max(K*, 2K' + 10), doubled up to `cap` = max(K*, K' + R) while the top
 * level loses arrivals (`cap` = K when no doubling can happen). K* is where s*_K < 1e−12, K' the start's top level, R
 * the reach of Poisson(ρ·d·horizon).
 */
export function sqdTransientTruncation(rho: number, d: number, from: readonly number[], horizon: number): { K: number; cap: number } {
  const Kfrom = from.length - 1;
  const Kstar = sqdTruncationLevel(rho, d, 1e-12, 1e7);
  const reach = Kfrom + poissonReach(rho * d * horizon);
  const star = sqdClosedFormTail(rho, d, Math.max(Kfrom, 1));
  if (from.every((v, i) => v <= star[i] + 1e-15)) {
    const K = Math.max(1, Kfrom, Math.min(Kstar, reach));
    return { K, cap: K };
  }
  const cap = Math.max(Kstar, reach);
  return { K: Math.min(cap, Math.max(Kstar, 2 * Kfrom + 10)), cap };
}

/** Level L with P(Poisson(μ) ≥ L) ≤ e^{−32} ≈ 1e−14 (Chernoff bound exp(−x²/(2(μ + x/3))), x = L − μ). */
export function poissonReach(mu: number): number {
  return Math.ceil(mu + 8 * Math.sqrt(mu) + 30);
}

function checkFrom(from: number[]): void {
  if (from.length < 1 || Math.abs(from[0] - 1) > 1e-12) {
    throw new InvalidModelError(`from must be a tail s_0..s_K with s_0 = 1, got s_0 = ${from[0]}`);
  }
  for (let i = 1; i < from.length; i++) {
    if (!(from[i] >= 0 && from[i] <= from[i - 1])) {
      throw new InvalidModelError(`from[${i}] = ${from[i]} must lie in [0, from[${i - 1}] = ${from[i - 1]}]`);
    }
  }
}

/**
 * Mean-field trajectory s(t) of SQ(d), ds_i/dt = ρ(s_{i−1}^d − s_i^d) − (s_i − s_{i+1}) in service-time units,
 * sampled at the caller's instants through odex's dense output (not `grid()`, which drifts).
 *
 * Truncation (s_{K+1} = 0, arrivals at level K lost). A server at level k receives arrivals at rate at most ρd
 * (ρ when d = 1), so over a horizon H a queue grows by at most Poisson(ρdH) jobs; let R be that law's 1e−14
 * quantile. Default K: if `from` lies below the fixed point (e.g. empty), the ODE is cooperative, so s(t) stays
 * below s* and K = min(K*, K' + R) with K* the level where s_K* < 1e−12. Otherwise K starts at
 * max(K*, 2K' + 10) and doubles (re-integrating) until the arrivals lost at level K, ≤ ρ·H·max_t s_K(t)^d, are
 * below 1e−12, or K reaches max(K*, K' + R).
 * For d = 1 the min keeps K bounded by the horizon (K* ≈ 2,600 at ρ = 0.99); odex is explicit, so d = 1 at long
 * horizons is slow: prefer closed forms there. `diagnostics.topLevelMass` reports max s_K over the samples.
 * Service mean ≠ 1: integrated in τ = t/E[S] with ρ = λ·E[S]; `times` stay in model time units.
 * Source: theory.md §2; Vvedenskaya et al. 1996; Mitzenmacher 2001.
 * @param model supported SQ(d) model. @param options `times`, `from`, `truncationLevel`, `tolerance`, `maxSteps`.
 * @returns `times`, `tail` (times.length rows, each length K + 1, projected onto [0, 1]: numerics/clamp.ts),
 *   `meanQueueLength`, odex `diagnostics`.
 * @throws {InvalidModelError} on unsupported models, bad times/from/options, or K smaller than `from` needs.
 * @throws {UnstableModelError} if λ ≤ 0 or ρ ≥ 1.
 * @throws {SolverError} if odex fails or ends without Converged (e.g. MaxStepsExceeded).
 * @example solveTransient(m, { times: [0, 1000] }).tail[1][1] // ≈ ρ at d = 2, ρ = 0.9 (within 1e−8)
 */
export function solveTransient(model: SupermarketModel, options: TransientOptions): TransientResult {
  const { rho, d, meanService } = sqdParameters(model);
  const times = checkTimeGrid(options?.times);
  const from = options.from ?? [1];
  checkFrom(from);
  const tolerance = options.tolerance ?? 1e-10;
  if (!(tolerance > 0 && tolerance < 1)) throw new InvalidModelError(`tolerance must lie in (0, 1), got ${tolerance}`);
  const tau0 = times[0] / meanService;
  const tauEnd = times[times.length - 1] / meanService;
  const horizon = tauEnd - tau0;
  const Kfrom = from.length - 1;
  const maxSteps = options.maxSteps ?? Math.max(10_000, Math.ceil(50 * horizon));
  if (!Number.isInteger(maxSteps) || maxSteps < 1) throw new InvalidModelError(`maxSteps must be an integer ≥ 1, got ${maxSteps}`);
  const taus = times.map((t) => t / meanService);

  /** One integration at truncation level K; returns the samples, odex stats and max_t s_K(t) over all steps. */
  const run = (K: number) => {
    const y0 = new Array<number>(K).fill(0);
    for (let i = 1; i <= Kfrom; i++) y0[i - 1] = from[i];
    const tail: number[][] = [[1, ...y0]];
    let top = y0[K - 1];
    const stats = sampleTrajectory(
      taus,
      y0,
      (t0, tEnd, observer) => integrateSqd(rho, d, y0, t0, tEnd, tolerance, maxSteps, observer),
      (at) => tail.push([1, ...Array.from({ length: K }, (_, i) => at(i))]),
      (y, tau) => {
        top = Math.max(top, y[K - 1]);
        options.onProgress?.(horizon > 0 ? (tau - tau0) / horizon : 1);
      },
    );
    return { K, tail, stats, top };
  };

  let result: ReturnType<typeof run>;
  if (options.truncationLevel !== undefined) {
    const K = options.truncationLevel;
    if (!Number.isInteger(K) || K < Math.max(1, Kfrom)) {
      throw new InvalidModelError(`truncationLevel must be an integer ≥ max(1, from.length − 1 = ${Kfrom}), got ${K}`);
    }
    result = run(K);
  } else {
    const { K: K0, cap } = sqdTransientTruncation(rho, d, from, horizon);
    let K = K0;
    result = run(K);
    // Started above the fixed point (cap > K): grow K until the arrivals lost at level K, at most ρ·H·max_t s_K(t)^d,
    // are below 1e−12, or K reaches the Poisson bound (which needs no check).
    while (K < cap && rho * horizon * result.top ** d > 1e-12) {
      K = Math.min(cap, 2 * K);
      result = run(K);
    }
  }
  return truncatedTransient(model, times, result.tail, result.stats, {
    truncationLevel: result.K,
    topLevelMass: result.top,
    tolerance,
    maxSteps,
    equation: 'ds_i/dt = ρ(s_{i-1}^d - s_i^d) - (s_i - s_{i+1}), s_0 = 1, s_{K+1} = 0, t in units of E[S]',
    source: 'theory.md §2; Vvedenskaya, Dobrushin, Karpelevich 1996; Mitzenmacher 2001; odex (Hairer–Wanner ODEX)',
  });
}

export interface RefinedTransientResult {
  /** The mean-field transient (same instants, same truncation level K). */
  meanField: TransientResult;
  /** V[j] = 1/n coefficient of E[s^(n)(times[j])], length K + 1 (V[j][0] = 0), for the model's sampling. */
  V: number[][];
  /** sumV[j] = Σ_i V[j][i]: the 1/n coefficient of E[Q_n(times[j])] (jobs per server). */
  sumV: number[];
  diagnostics: { nStep: number; nAccept: number; nReject: number; nEval: number; truncationLevel: number };
  provenance: { equation: string; source: string; version: string; code: string };
}

/**
 * Refined mean-field transient of SQ(d), exponential sizes, FIFO: E[s^(n)(t)] = s(t) + V(t)/n + O(1/n²) from a
 * deterministic initial state, by integrating with odex, next to the mean-field ODE, the linearised system
 *   dV/dt = F'(s)V + ½ F''(s)·W + f⁽¹⁾(s),   dW/dt = F'(s)W + WF'(s)ᵀ + Q(s),   V(0) = 0, W(0) = 0
 * (f⁽¹⁾ only for sampling without replacement, as in ./refined.ts; W(t)/n is the covariance of s^(n)(t)). As
 * t → ∞, V(t) tends to the stationary V of `refine`. Truncation level K as chosen by `solveTransient`; the system
 * has K(K + 2) unknowns.
 * Source: theory.md §6; Gast and Van Houdt, POMACS 1(2), 2017 (transient, Theorem 3.1); Gast, Bortolussi,
 * Tribastone, Perf. Eval. 2019 (the V, W ODEs; rmf_tool refinedRefined_transientRegime.py, drift_r).
 * @param model as `solveTransient`. @param options as `solveTransient`.
 * @param solved `solveTransient(model, options)` when the caller has solved it already (a comparison's figure does):
 *   used as `meanField` instead of integrating the same ODE a second time (same numbers, one odex run fewer).
 * @returns `meanField`, `V` (per instant, length K + 1), `sumV`, odex `diagnostics`.
 * @throws as `solveTransient`; {InvalidModelError} if `solved` was sampled at other instants than `options.times`.
 * @example refinedTransient(m, { times: [0, 300] }).sumV[1] // ≈ refine(m).sumV (3.9864 at d = 2, λ = 0.9)
 */
export function refinedTransient(given: SupermarketModel, options: TransientOptions, solved?: TransientResult): RefinedTransientResult {
  const model = fifoQueueLengthTwin(given) ?? given; // PS/LAS with exponential sizes: FIFO's queue lengths (as `refine`)
  requirePoissonRefined(model, 'the refined transient V(t)/n');
  if (solved && !(solved.times.length === options.times.length && solved.times.every((t, j) => t === options.times[j])))
    throw new InvalidModelError('the refined transient: the given mean-field transient was sampled at other instants');
  const meanField = solved ?? solveTransient(model, options);
  const { rho, d, meanService } = sqdParameters(model);
  const K = meanField.diagnostics.truncationLevel;
  const { tolerance, maxSteps } = meanField.provenance.options;
  const times = meanField.times;
  const taus = times.map((t) => t / meanService);
  const withoutReplacement = model.sampling === 'without-replacement';
  const provenance = {
    equation: "E[s^(n)(t)] = s(t) + V(t)/n; dV/dt = F'V + F'':W/2 (+ f1 without replacement), dW/dt = F'W + WF'^T + Q, V(0) = W(0) = 0",
    source: 'theory.md §6; Gast and Van Houdt, POMACS 1(2), 2017; Gast, Bortolussi, Tribastone, Perf. Eval. 2019; rmf_tool',
    version: VERSION,
    code: codeId(),
  };
  if (d === 1) {
    // random routing: the drift is linear (F'' = 0, f⁽¹⁾ = 0), so dV/dt = F'V from V(0) = 0 gives V(t) ≡ 0 (the n
    // servers are independent M/M/1 queues: E[s^(n)(t)] = s(t) at every n). Integrating the K(K + 2) system to the
    // same zeros took minutes at λ = 0.9 (K in the hundreds; compare --d 1 sat in it, trial s14)
    const zeros = times.map(() => new Array<number>(K + 1).fill(0));
    return {
      meanField,
      V: zeros,
      sumV: zeros.map(() => 0),
      diagnostics: { nStep: 0, nAccept: 0, nReject: 0, nEval: 0, truncationLevel: K },
      provenance,
    };
  }
  const size = K * (K + 2);
  const y0 = new Array<number>(size).fill(0);
  for (let i = 1; i < meanField.tail[0].length; i++) y0[i - 1] = meanField.tail[0][i];
  const W: number[][] = Array.from({ length: K }, () => new Array<number>(K).fill(0));
  // scratch of the right-hand side, filled anew on each call (odex calls it ~4·10⁴ times at λ = 0.95: its arrays, one
  // set per call, were a third of its time; the numbers are the same)
  const s = new Float64Array(K);
  const drift = new Float64Array(K);
  const bands = { kind: 'tridiagonal' as const, lower: new Float64Array(K), diag: new Float64Array(K), upper: new Float64Array(K) };
  const { lower, diag, upper } = bands;
  const b = new Array<number>(K);
  const f1 = withoutReplacement ? new Array<number>(K) : undefined;
  const FW = (i: number, j: number) => diag[i] * W[i][j] + (i > 0 ? lower[i] * W[i - 1][j] : 0) + (i + 1 < K ? upper[i] * W[i + 1][j] : 0);
  const sPowD = new Float64Array(K);
  // f's result, one array overwritten whole on each call: odex copies it at once (odexCore.ts, F), so a new array of
  // K(K + 2) doubles per call was garbage only. An array packed with doubles, the kind the mean-field f returns (ode.ts: `Array.from` of a typed array): with a holey one
  // (`new Array(size)`) odex's step functions, compiled on the mean field's solve just before, met a second array map
  // and were deoptimised and compiled again (F, midex, acceptStep: "wrong map")
  const out = Array.from(new Float64Array(size).fill(0.5)).fill(0);
  const f = (_t: number, y: number[]): number[] => {
    for (let i = 0; i < K; i++) {
      s[i] = y[i];
      sPowD[i] = s[i] ** d;
    }
    sqdDrift(rho, d, s, drift);
    sqdJacobianBands(rho, d, s, bands);
    for (let i = 0; i < K; i++) for (let j = 0; j < K; j++) W[i][j] = y[2 * K + i * K + j];
    sqdHessianTerm(rho, d, s, W, b);
    if (f1) computeF1(rho, d, s, f1);
    for (let i = 0; i < K; i++) {
      out[i] = drift[i];
      out[K + i] =
        diag[i] * y[K + i] + (i > 0 ? lower[i] * y[K + i - 1] : 0) + (i + 1 < K ? upper[i] * y[K + i + 1] : 0) + b[i] + (f1 ? f1[i] : 0);
      // dW/dt is symmetric (W is): each pair once, FW(i, j) + FW(j, i) the same sum in either order
      for (let j = i; j < K; j++) out[2 * K + i * K + j] = out[2 * K + j * K + i] = FW(i, j) + FW(j, i);
      // Q(s) = Σ_ℓ ℓℓᵀβ_ℓ is diagonal for SQ(d): up- and down-crossing rates of level i + 1
      const up = rho * ((i === 0 ? 1 : sPowD[i - 1]) - sPowD[i]); // 1 ** d = 1
      out[2 * K + i * K + i] += up + s[i] - (i + 1 < K ? s[i + 1] : 0);
    }
    return out;
  };
  const V: number[][] = [[0, ...new Array<number>(K).fill(0)]];
  const stats = sampleTrajectory(
    taus,
    y0,
    odexIntegration(f, y0, {
      tolerance,
      maxSteps: 4 * maxSteps,
      label: `the refined SQ(d) transient (K = ${K})`,
      denseComponents: Array.from({ length: K }, (_, i) => K + i),
    }),
    (at) => V.push([0, ...Array.from({ length: K }, (_, i) => at(K + i))]),
  );
  return {
    meanField,
    V,
    sumV: V.map((row) => row.reduceRight((acc, v) => acc + v, 0)),
    diagnostics: { ...odexCounts(stats), truncationLevel: K },
    provenance,
  };
}

/**
 * Refined transient estimates at n: E[s_i^(n)(t)] ≈ s_i(t) + V_i(t)/n, E[Q_n(t)] ≈ Σ s_i(t) + ΣV(t)/n.
 * @throws {InvalidModelError} if n is not an integer ≥ 1.
 */
export function refinedTransientAt(result: RefinedTransientResult, n: number): { n: number; meanQueueLength: number[]; tail: number[][] } {
  if (!Number.isInteger(n) || n < 1) throw new InvalidModelError(`n must be an integer ≥ 1, got ${n}`);
  return {
    n,
    meanQueueLength: result.meanField.meanQueueLength.map((q, j) => q + result.sumV[j] / n),
    // projected onto [0, 1] like every tail output; E[Q](t) stays the expansion's own sum
    tail: result.meanField.tail.map((row, j) => {
      const refined = row.map((s, i) => s + result.V[j][i] / n);
      clampToRange(refined);
      return refined;
    }),
  };
}
