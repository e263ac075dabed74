/**
 * Response-time laws P(T > t) and quantiles of the mean field (n → ∞), from every fixed-point solver that has one
 * (theory.md §2–§5, §7). `solveResponseTime(model)` is the entry; `meanFieldCapabilities(model).responseTime` says which
 * solver answers (or why none). Per solver:
 * - SQ(d) FIFO exponential: a job that joins a server holding m jobs waits for m + 1 exponential services
 *   (Erlang(m + 1)), and it joins a server with at least m jobs with probability s_m^d, so
 *   P(T > t) = Σ_{m≥0} e^{−μt} (μt)^m/m! · (s_m*)^d, μ = 1/E[S] (Mitzenmacher, IEEE TPDS 12(10), 2001).
 * - phase-type JSQ(d) FIFO ODE (§3): the arrival joins level k w.p. s_k^d − s_{k+1}^d with the job in service in phase
 *   j w.p. x_{k,j}/x_k; T is then phase-type (the residual from phase j, k − 1 fresh sizes, its own), evaluated by
 *   uniformisation: P(T > t) = Σ_n Pois(n; Λt)·r_n, r_n the mass not absorbed after n uniformised steps.
 * - LWL(d) FIFO (§4): P(W > w) = F̄(w)^d, T = W + S: the closed form for exponential sizes of mean 1, else the FPE's
 *   Stieltjes form on its grid (lwl/responseTime.ts).
 * - M/G/1 FIFO (d = 1, §7): exp(−(μ − λ)t) for exponential sizes; the phase-type form for PH sizes; the LWL(1) FPE
 *   (the M/G/1 workload, Takács) for other laws with finite SCV.
 * - cavity solvers (§5; JSQ(d) other disciplines or laws, PS, LWL(d) non-FIFO, LPW(d), M/G/1 non-FIFO): the empirical
 *   law of the tagged jobs, pooled, with sectioning 95 % intervals over the independent units (restarts or batches).
 * - on request (`phaseTypeFit`, `fixed-point --ph-fit`), JSQ(d) FIFO with a non-phase-type law: the phase-type law of
 *   the two-moment fit (the same law whose E[T] `solveMeanField(model, { phaseTypeFit: true })` gives), each quantile
 *   and the ccdf with their error measured in the same call against the JSQ cavity's 95 % intervals.
 * - dispatcher memory (§12): the law of the model without memory at the reduced rate λπ₀^{1/d} (reduction theorem;
 *   FIFO at d ≥ 2, any work-conserving discipline at d = 1); T = S where π₀ = 0.
 * - redundancy-d, cancel-on-complete, exponential sizes (§16, redundancy.ts): independent replicas
 *   P(T > t) = (ρ + (1 − ρ)e^{(d−1)t/E[S]})^{−d/(d−1)} (Gardner et al. 2017); identical replicas Q_d(t) of the shot.
 */
import { ConvergenceError, InvalidModelError } from '../errors.ts';
import {
  lpwAsLwl,
  meanFieldFiniteness,
  refuseUnknownOptions,
  unknownPolicy,
  requireStable,
  type SupermarketModel,
} from '../model/index.ts';
import { serviceDistribution } from '../model/service/index.ts';
import { countAtMost, interpolateLinear } from '../stats/bisect.ts';
import { cdfSectioningInterval, feasible, sectioningInterval, type Estimate } from '../stats/tInterval.ts';
import { meanFieldCapabilities, type SolutionKind } from './capabilities.ts';
import { jsqCavity } from './cavity/jsqCavity.ts';
import { lpwCavity } from './cavity/lpwCavity.ts';
import { lwlCavity } from './cavity/lwlCavity.ts';
import { ResponseTimeSample } from './cavity/responseSample.ts';
import { heteroCavity, heteroLwlCavity } from './hetero/cavity.ts';
import { heteroMg1ClassModel } from './hetero/mg1.ts';
import { classSamplingProbabilities } from '../model/servers.ts';
import { solveSqdFixedPoint, type FixedPointResult } from './fixedPoint.ts';
import { lwlExponentialClosedForm, lwlExponentialResponseCcdf } from './lwl/closedForm.ts';
import { lwlFixedPoint } from './lwl/fixedPoint.ts';
import { lwlWorkloadCcdf } from './lwl/workload.ts';
import { describeMemory, memoryReduction, reducedModel } from './memory/reduction.ts';
import { phaseTypeJsqFixedPoint, type PhaseTypeFixedPointResult } from './phaseType/fixedPoint.ts';
import type { PhaseTypeFitError } from './phaseType/fitError.ts';
import { identicalRedundancyCcdf, independentRedundancy, independentRedundancyCcdf } from './redundancy.ts';

function checkD(fp: FixedPointResult, d: number): void {
  if (d !== fp.provenance.model.d) {
    throw new InvalidModelError(`d = ${d} does not match the fixed point's model d = ${fp.provenance.model.d}`);
  }
}

/** Precomputes ln(m!) for m = 0..K and d·ln s_m (−∞ where s_m = 0). */
function logTables(fp: FixedPointResult, d: number): { logFactorial: Float64Array; logWeight: Float64Array } {
  const K = fp.tail.length - 1;
  const logFactorial = new Float64Array(K + 1);
  const logWeight = new Float64Array(K + 1);
  for (let m = 0; m <= K; m++) {
    logFactorial[m] = m === 0 ? 0 : logFactorial[m - 1] + Math.log(m);
    const s = fp.tail[m];
    logWeight[m] = s > 0 ? d * Math.log(s) : -Infinity;
  }
  return { logFactorial, logWeight };
}

function ccdfAt(u: number, logFactorial: Float64Array, logWeight: Float64Array): number {
  if (u <= 0) return 1;
  const logU = Math.log(u);
  let sum = 0;
  for (let m = 0; m < logWeight.length; m++) {
    const w = logWeight[m];
    if (w === -Infinity) break; // the tail is non-increasing: every later s_m is 0 too
    const logTerm = -u + m * logU - logFactorial[m] + w;
    if (logTerm > -745) sum += Math.exp(logTerm);
  }
  return Math.min(1, Math.max(0, sum));
}

/**
 * Mean-field response-time ccdf P(T > t) = Σ_{m=0}^{K} e^{−t/E[S]} (t/E[S])^m/m! · (s_m*)^d, each Poisson
 * weight formed in log space (no overflow of t^m or m!, exact at t = 0). Levels above K are dropped; they
 * contribute at most s_{K+1}^d (below the fixed point's tail tolerance). d = 1 gives e^{−(1−ρ)t/E[S]}, and
 * ∫_0^∞ P(T > t) dt = E[T]. Source: theory.md §2.
 * @param fp fixed point from `solveSqdFixedPoint` (its tail s_0..s_K and model).
 * @param d servers sampled per arrival; must equal fp's model d.
 * @param times instants t in model time units (mean service times when service.mean = 1); t < 0 gives 1.
 * @returns P(T > t) per entry of `times` (same length), each in [0, 1].
 * @throws {InvalidModelError} if d differs from the model's d or some time is not finite.
 * @example responseTimeCcdf(solveSqdFixedPoint({ ...m, lambda: 0.5, d: 1 }), 1, [2]) // [e^{−1}] ≈ [0.3679]
 */
export function responseTimeCcdf(fp: FixedPointResult, d: number, times: number[]): number[] {
  checkD(fp, d);
  const meanService = fp.provenance.model.service.mean;
  const { logFactorial, logWeight } = logTables(fp, d);
  return times.map((t, j) => {
    if (!Number.isFinite(t)) throw new InvalidModelError(`times[${j}] must be a finite number, got ${t}`);
    return ccdfAt(t / meanService, logFactorial, logWeight);
  });
}

/**
 * Mean-field response-time quantile: the smallest t with P(T > t) ≤ 1 − p, by bracketing and bisection on
 * `responseTimeCcdf` (relative accuracy 1e−12). Source: theory.md §2.
 * @param fp fixed point from `solveSqdFixedPoint`. @param d must equal fp's model d.
 * @param p probability in (0, 1), e.g. 0.99 for the 99th percentile.
 * @returns t in model time units.
 * @throws {InvalidModelError} if p is outside (0, 1) or d differs from the model's d.
 * @example responseTimeQuantile(solveSqdFixedPoint({ ...m, lambda: 0.5, d: 1 }), 1, 0.5) // 2 ln 2 ≈ 1.3863
 */
export function responseTimeQuantile(fp: FixedPointResult, d: number, p: number): number {
  checkD(fp, d);
  if (!(p > 0 && p < 1)) throw new InvalidModelError(`p must lie in (0, 1), got ${p}`);
  const meanService = fp.provenance.model.service.mean;
  const { logFactorial, logWeight } = logTables(fp, d);
  const target = 1 - p;
  let lo = 0;
  let hi = Math.max(1, fp.meanResponseTime / meanService);
  while (ccdfAt(hi, logFactorial, logWeight) > target) {
    lo = hi;
    hi *= 2;
  }
  for (let it = 0; it < 200 && hi - lo > 1e-12 * hi; it++) {
    const mid = 0.5 * (lo + hi);
    if (ccdfAt(mid, logFactorial, logWeight) > target) lo = mid;
    else hi = mid;
  }
  return hi * meanService;
}

/** One quantile of a response-time law: t_p, the smallest t with P(T > t) ≤ 1 − p (time units). */
export interface ResponseTimeQuantile {
  readonly p: number;
  readonly value: number;
  /** Estimate kind: the pooled type-7 quantile with its sectioning 95 % interval over the units. */
  readonly estimate?: Estimate;
  /**
   * Approximation kind (the PH fit): its relative error (value − r)/r at the ends r of the reference's 95 % interval
   * (low at the upper end, high at the lower end), the reference solver and its estimate of t_p.
   */
  readonly measuredError?: {
    readonly low: number;
    readonly high: number;
    readonly reference: string;
    readonly referenceEstimate: Estimate;
  };
}

/** The response-time law of the mean field, as `solveResponseTime` returns it. */
export interface ResponseTimeLaw {
  /** 'exact' (closed form or numerical to `numericalError`), 'approximation' (PH fit), 'estimate' (cavity: CIs). */
  readonly kind: SolutionKind;
  /** Solver name as in reports, e.g. "SQ(d) closed form", and its equation and source. */
  readonly solver: string;
  readonly source: string;
  /** Instants t (time units, increasing) and P(T > t) at each. */
  readonly times: number[];
  readonly ccdf: number[];
  /** Estimate kind: the 95 % sectioning interval of each ccdf value, within [0, 1]. */
  readonly ccdfCi95?: [number, number][];
  readonly quantiles: ResponseTimeQuantile[];
  /** ∫_0^∞ P(T > t) dt of this law (its E[T], time units); the cavity's pooled job mean, with `meanEstimate`. */
  readonly meanResponseTime: number;
  readonly meanEstimate?: Estimate;
  /** Bound on the error of the ccdf values (grid solvers; absent where exact to round-off or an estimate). */
  readonly numericalError?: number;
  /** Estimate kind: tagged jobs behind the law, and the units (restarts or batches) of its intervals. */
  readonly jobs?: number;
  readonly units?: number;
  /** Approximation kind (the PH fit): the measured error of its E[T] for the law family (phaseType/fitError.ts). */
  readonly measuredError?: PhaseTypeFitError;
  /**
   * Approximation kind (the PH fit), when the ccdf is asked for: the largest distance of its ccdf from the reference's
   * 95 % band on the same grid (0 when inside everywhere), a probability.
   */
  readonly ccdfMeasuredError?: number;
}

export interface ResponseTimeOptions {
  /** Instants of the ccdf (time units, finite, ≥ 0); default 101 points from 0 to the 1 − 10⁻⁴ quantile. */
  readonly times?: readonly number[];
  /** Probabilities of the quantiles, each in (0, 1) (default 0.5, 0.95, 0.99). */
  readonly quantiles?: readonly number[];
  /** Seed of the cavity simulations (default 1). */
  readonly seed?: number;
  /**
   * Cavity run length: the measured time of the LWL cavity queue (default 2·10⁵, as `solveMeanField`) and the
   * iteration horizon of the JSQ and LPW cavities (their defaults 10⁵ and 2·10⁴), model time units.
   */
  readonly cavityHorizon?: number;
  /**
   * JSQ(d) FIFO with a non-phase-type law: the law of the two-moment phase-type fit (kind 'approximation') instead of
   * the JSQ cavity's, its quantiles and ccdf with the error measured against the cavity (which therefore still runs).
   * Refused (InvalidModelError) where `meanFieldCapabilities(model).phaseTypeFit` is unavailable or the cavity refuses.
   */
  readonly phaseTypeFit?: boolean;
  /**
   * Sees the fraction done and the stage of a long solve (the JSQ, LPW and per-class cavities' response-time samples,
   * as `solveMeanField`'s onProgress); for progress output. Changes no number.
   */
  readonly onProgress?: (fraction: number, stage: string) => void;
}

export const DEFAULT_QUANTILES: readonly number[] = [0.5, 0.95, 0.99];

/**
 * Checks quantile probabilities: each finite and in (0, 1).
 * @throws {InvalidModelError} naming the first bad one.
 */
export function checkQuantileProbabilities(ps: readonly number[]): number[] {
  for (const p of ps) if (!(p > 0 && p < 1)) throw new InvalidModelError(`a quantile probability must lie in (0, 1), got ${p}`);
  return [...ps];
}

/** A continuous, non-increasing ccdf with its mean (what the numerical solvers give). */
interface CcdfFunction {
  at(t: number): number;
  readonly mean: number;
  /** A time scale to start the quantile bracket from. */
  readonly scale: number;
  readonly numericalError?: number;
}

/** Smallest t with f(t) ≤ 1 − p, by doubling and bisection to relative 1e−13. */
function quantileOf(f: CcdfFunction, p: number): number {
  const target = 1 - p;
  let lo = 0;
  let hi = Math.max(f.scale, 1e-12);
  for (let i = 0; f.at(hi) > target; i++) {
    if (i > 200) throw new InvalidModelError(`no response-time quantile at p = ${p}: the ccdf stays above ${target}`);
    lo = hi;
    hi *= 2;
  }
  for (let it = 0; it < 300 && hi - lo > 1e-13 * hi; it++) {
    const mid = 0.5 * (lo + hi);
    if (f.at(mid) > target) lo = mid;
    else hi = mid;
  }
  return hi;
}

/** SQ(d) FIFO exponential: the Poisson mixture above, on a fixed point. */
function sqdLaw(fp: FixedPointResult): CcdfFunction {
  const d = fp.provenance.model.d;
  const meanService = fp.provenance.model.service.mean;
  const { logFactorial, logWeight } = logTables(fp, d);
  return { at: (t) => ccdfAt(t / meanService, logFactorial, logWeight), mean: fp.meanResponseTime, scale: fp.meanResponseTime };
}

/** Most uniformised steps of the phase-type law before it gives up (r_n still above 1e−16). */
const MAX_UNIFORMISATION_STEPS = 2_000_000;

/**
 * Phase-type JSQ(d) FIFO: the tagged job's remaining services (ℓ = 1..K + 1, its own included) and the phase of the
 * one in service, uniformised at Λ = max_j |A_jj|; r_n = mass not absorbed after n steps, until r_n < 1e−16.
 */
function phaseTypeLaw(r: PhaseTypeFixedPointResult, d: number): CcdfFunction {
  const { alpha, A } = r.phaseType;
  const m = alpha.length;
  const K = r.levels.length;
  const L = K + 1;
  const s = r.tail;
  let Lambda = 0;
  for (let j = 0; j < m; j++) Lambda = Math.max(Lambda, -A[j][j]);
  const exit = A.map((row) => Math.max(0, -row.reduce((a, b) => a + b, 0)) / Lambda);
  const P = A.map((row, i) => row.map((a, j) => (i === j ? 1 : 0) + a / Lambda));
  let v = new Float64Array(L * m);
  const joins = (k: number) => (s[k] ?? 0) ** d - (s[k + 1] ?? 0) ** d;
  for (let j = 0; j < m; j++) v[j] = joins(0) * alpha[j];
  for (let k = 1; k <= K; k++) {
    const x = r.levels[k - 1];
    const xk = x.reduce((a, b) => a + b, 0);
    if (!(xk > 0)) continue;
    const w = k === K ? s[K] ** d : joins(k);
    for (let j = 0; j < m; j++) v[k * m + j] = (w * x[j]) / xk;
  }
  const rs: number[] = [];
  let next = new Float64Array(L * m);
  let top = L - 1; // highest ℓ − 1 with mass
  for (let n = 0; ; n++) {
    let mass = 0;
    for (let i = 0; i < v.length; i++) mass += v[i];
    rs.push(mass);
    if (mass < 1e-16) break;
    if (n >= MAX_UNIFORMISATION_STEPS)
      throw new InvalidModelError(`phase-type response-time law: ${n} uniformised steps leave mass ${mass.toExponential(2)}`);
    next.fill(0);
    for (let l = 0; l <= top; l++) {
      let done = 0;
      for (let j = 0; j < m; j++) {
        const vj = v[l * m + j];
        if (vj === 0) continue;
        for (let jj = 0; jj < m; jj++) next[l * m + jj] += vj * P[j][jj];
        done += vj * exit[j];
      }
      if (l > 0 && done > 0) for (let jj = 0; jj < m; jj++) next[(l - 1) * m + jj] += done * alpha[jj];
    }
    while (top > 0 && next.subarray(top * m, (top + 1) * m).every((x) => x === 0)) top--; // mass only moves down
    [v, next] = [next, v];
  }
  const logFactorial = new Float64Array(rs.length);
  for (let n = 1; n < rs.length; n++) logFactorial[n] = logFactorial[n - 1] + Math.log(n);
  const mean = rs.reduce((a, b) => a + b, 0) / Lambda;
  return {
    at: (t) => {
      if (t <= 0) return 1;
      const u = Lambda * t;
      const logU = Math.log(u);
      let sum = 0;
      for (let n = 0; n < rs.length; n++) {
        const logTerm = -u + n * logU - logFactorial[n];
        if (logTerm > -745) sum += Math.exp(logTerm) * rs[n];
      }
      return Math.min(1, Math.max(0, sum));
    },
    mean,
    scale: mean,
  };
}

/** A ccdf tabulated on a grid (linear between points, 0 past the end), with its trapezoid mean. */
function gridLaw(times: number[], ccdf: number[], numericalError: number | undefined): CcdfFunction {
  let mean = 0;
  for (let j = 1; j < times.length; j++) mean += 0.5 * (ccdf[j] + ccdf[j - 1]) * (times[j] - times[j - 1]);
  const last = times[times.length - 1];
  return {
    at: (t) => (t <= 0 ? 1 : t > last ? 0 : interpolateLinear(times, ccdf, t)),
    mean,
    scale: mean,
    numericalError,
  };
}

/** Type-7 quantile of a sorted sample. */
function sortedQuantile(xs: Float64Array, p: number): number {
  const h = (xs.length - 1) * p;
  const k = Math.floor(h);
  return k + 1 < xs.length ? xs[k] + (h - k) * (xs[k + 1] - xs[k]) : xs[k];
}

/** Merges sorted arrays into one sorted array. */
function mergeSorted(parts: Float64Array[]): Float64Array {
  const total = parts.reduce((a, p) => a + p.length, 0);
  const out = new Float64Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out.sort();
}

/**
 * The empirical law of a cavity's tagged jobs: the pooled sample's ccdf on `times` (default 101 points to its
 * 1 − 10⁻⁴ quantile) and type-7 quantiles at `ps`, each with its sectioning 95 % interval over the units.
 * @param units one sorted sample per independent unit (restart or batch), response times in time units.
 * @throws {InvalidModelError} when fewer than 2 units hold jobs.
 */
export function sampleResponseTimeLaw(
  named: { kind: SolutionKind; solver: string; source: string },
  units: Float64Array[],
  times: readonly number[] | undefined,
  ps: number[],
): ResponseTimeLaw {
  const used = units.filter((u) => u.length > 0);
  if (used.length < 2) throw new InvalidModelError(`${named.solver}: fewer than 2 units with completed jobs; no response-time law`);
  const pooled = mergeSorted(used);
  const N = pooled.length;
  const above = (xs: Float64Array, t: number) => (xs.length - countAtMost(xs, t)) / xs.length;
  const grid = times ? [...times] : defaultTimes(sortedQuantile(pooled, 1 - 1e-4));
  const ccdf: number[] = [];
  const ccdfCi95: [number, number][] = [];
  for (const t of grid) {
    const e = feasible(
      sectioningInterval(
        used.map((u) => above(u, t)),
        above(pooled, t),
      ),
      0,
      1,
    );
    ccdf.push(e.mean);
    ccdfCi95.push(e.ci95);
  }
  // each quantile's interval inverts the units' cdf interval at the pooled quantile (cdfSectioningInterval, Woodruff
  // 1952): the units' own quantiles understate the spread of clustered tails
  const quantiles = ps.map((p) => {
    const centre = sortedQuantile(pooled, p);
    const fractions = used.map((u) => countAtMost(u, centre) / u.length);
    const estimate = feasible(
      cdfSectioningInterval(
        fractions,
        used.map((u) => u.length),
        centre,
        p,
        (levels) => levels.map((q) => sortedQuantile(pooled, q)),
      ),
    );
    return { p, value: estimate.mean, estimate };
  });
  const meanOf = (xs: Float64Array) => xs.reduce((a, b) => a + b, 0) / xs.length;
  const meanEstimate = feasible(
    sectioningInterval(
      used.map((u) => meanOf(u)),
      meanOf(pooled),
    ),
  );
  return {
    ...named,
    times: grid,
    ccdf,
    ccdfCi95,
    quantiles,
    meanResponseTime: meanEstimate.mean,
    meanEstimate,
    jobs: N,
    units: used.length,
  };
}

/** 101 instants from 0 to tMax. */
function defaultTimes(tMax: number): number[] {
  return Array.from({ length: 101 }, (_, j) => (j * tMax) / 100);
}

function checkTimes(times: readonly number[]): void {
  times.forEach((t, j) => {
    if (!(Number.isFinite(t) && t >= 0)) throw new InvalidModelError(`times[${j}] must be a finite number ≥ 0, got ${t}`);
  });
}

/** A numerical law on the requested or default grid with its quantiles. */
function functionLaw(
  named: { kind: SolutionKind; solver: string; source: string },
  f: CcdfFunction,
  times: readonly number[] | undefined,
  ps: number[],
): ResponseTimeLaw {
  const grid = times ? [...times] : defaultTimes(quantileOf(f, 1 - 1e-4));
  return {
    ...named,
    times: grid,
    ccdf: grid.map((t) => f.at(t)),
    quantiles: ps.map((p) => ({ p, value: quantileOf(f, p) })),
    meanResponseTime: f.mean,
    ...(f.numericalError !== undefined ? { numericalError: f.numericalError } : {}),
  };
}

/** Every field of `ResponseTimeOptions` (the compiler checks the list against the type): another key is refused. */
const RESPONSE_TIME_OPTION_KEYS = {
  times: true,
  quantiles: true,
  seed: true,
  cavityHorizon: true,
  phaseTypeFit: true,
  onProgress: true,
} as const satisfies Record<keyof ResponseTimeOptions, true>;

/**
 * The mean-field response-time law of `model`: P(T > t) on a grid and quantiles, by the solver
 * `meanFieldCapabilities(model).responseTime` names (module comment). Exact kinds are exact to round-off (closed forms,
 * uniformisation to 1e−16) or to `numericalError` (FPE grid); estimates carry 95 % sectioning intervals.
 * @param model a parsed model with ρ < 1. @param options `times`, `quantiles` (default 0.5, 0.95, 0.99), `seed`,
 *   `cavityHorizon`.
 * @returns a `ResponseTimeLaw` (times in model time units).
 * @throws {InvalidModelError} if the model has no response-time solver (the capability's reason), a probability is
 *   outside (0, 1) or a time is negative or not finite; @throws {UnstableModelError} if ρ ≥ 1; whatever the solver
 *   throws (ConvergenceError for a cavity that does not converge).
 * @example solveResponseTime(parseModel({ lambda: 0.5, d: 1 })).quantiles[0].value // 2 ln 2 ≈ 1.3863 (M/M/1)
 */
export function solveResponseTime(model: SupermarketModel, options: ResponseTimeOptions = {}): ResponseTimeLaw {
  refuseUnknownOptions('solveResponseTime', options, RESPONSE_TIME_OPTION_KEYS);
  const law = responseTimeLaw(model, options);
  // a heavy tail that makes the limit's E[T] infinite: the quantiles stand, the mean is ∞ (never the grid's or the
  // sample's finite average, which estimates nothing)
  if (meanFieldFiniteness(model).finite) return law;
  const { meanEstimate: _dropped, ...rest } = law;
  return { ...rest, meanResponseTime: Number.POSITIVE_INFINITY };
}

function responseTimeLaw(given: SupermarketModel, options: ResponseTimeOptions): ResponseTimeLaw {
  requireStable(given);
  const model = lpwAsLwl(given) ?? given; // LPW with exact predictions: LWL's law (lpwAsLwl)
  const ps = checkQuantileProbabilities(options.quantiles ?? DEFAULT_QUANTILES);
  if (options.times) checkTimes(options.times);
  if (options.phaseTypeFit) return phaseTypeFitLaw(model, options, ps);
  const cap = meanFieldCapabilities(given).responseTime;
  if (!cap.available) throw new InvalidModelError(cap.reason);
  const named = { kind: cap.kind, solver: cap.name, source: cap.source };
  const seed = options.seed ?? 1;
  const id = cap.id;
  const horizon = options.cavityHorizon ? { iterationHorizon: options.cavityHorizon } : {};
  const onProgress = options.onProgress;
  const progressOf = (stage: string) => (onProgress ? { onProgress: (f: number) => onProgress(f, stage) } : {});
  switch (id) {
    case 'sqd-closed-form':
      return functionLaw(named, sqdLaw(solveSqdFixedPoint(model)), options.times, ps);
    case 'mm1-closed-form': {
      const mu = 1 / serviceDistribution(model.service).mean;
      const rate = mu - model.lambda;
      return functionLaw(named, { at: (t) => (t <= 0 ? 1 : Math.exp(-rate * t)), mean: 1 / rate, scale: 1 / rate }, options.times, ps);
    }
    case 'phase-type-ode': {
      const d1 = model.selection === 'jsq' ? model : ({ ...model, selection: 'random', d: 1 } as const);
      return functionLaw(named, phaseTypeLaw(phaseTypeJsqFixedPoint(d1), d1.d), options.times, ps);
    }
    case 'lwl-closed-form': {
      const c = lwlExponentialClosedForm(model.lambda, model.d);
      const f = {
        at: (t: number) => (t <= 0 ? 1 : lwlExponentialResponseCcdf(model.lambda, model.d, t)),
        mean: c.meanResponseTime,
        scale: 1,
      };
      return functionLaw(named, f, options.times, ps);
    }
    case 'lwl-fpe':
    case 'mg1-fpe': {
      const lwl = id === 'lwl-fpe' ? model : ({ ...model, selection: 'lwl', d: 1 } as const);
      const r = lwlFixedPoint(lwl);
      const f = gridLaw(r.responseTimeCcdf.times, r.responseTimeCcdf.ccdf, r.diagnostics.gridErrorBound);
      return { ...functionLaw(named, f, options.times, ps), meanResponseTime: r.meanResponseTime };
    }
    case 'jsq-cavity': {
      // JSQ(d) + PS (the mean is insensitive, the law is not) and M/G/1 at d = 1 go through the same cavity
      const jsq = model.selection === 'jsq' ? model : ({ ...model, selection: 'random', d: 1 } as const);
      const restarts = 4;
      const sample = new ResponseTimeSample(restarts);
      jsqCavity(jsq, { seed, restarts, ...horizon, ...progressOf('JSQ cavity') }, sample);
      return sampleResponseTimeLaw(named, sample.sortedUnits(), options.times, ps);
    }
    case 'lwl-cavity': {
      const batches = 25;
      const w = lwlWorkloadCcdf(model);
      const sample = new ResponseTimeSample(batches);
      lwlCavity(
        model,
        {
          seed,
          batches,
          horizon: options.cavityHorizon ?? 2e5,
          workloadCcdf: { grid: w.grid, ccdf: w.workloadCcdf },
          ...progressOf('LWL cavity'),
        },
        sample,
      );
      return sampleResponseTimeLaw(named, sample.sortedUnits(), options.times, ps);
    }
    case 'lpw-cavity': {
      const restarts = 4;
      const sample = new ResponseTimeSample(restarts);
      lpwCavity(model, { seed, restarts, ...horizon, ...progressOf('LPW cavity') }, sample);
      return sampleResponseTimeLaw(named, sample.sortedUnits(), options.times, ps);
    }
    case 'hetero-cavity': {
      const restarts = 4;
      const sample = new ResponseTimeSample(restarts);
      heteroCavity(model, { seed, restarts, ...horizon, ...progressOf('cavity per class (speeds)') }, sample);
      return sampleResponseTimeLaw(named, sample.sortedUnits(), options.times, ps);
    }
    case 'hetero-lwl-cavity': {
      const batches = 25;
      const sample = new ResponseTimeSample(batches);
      heteroLwlCavity(
        model,
        { seed, batches, horizon: options.cavityHorizon ?? 2e5, ...progressOf('LWL cavity per class (speeds)') },
        sample,
      );
      return sampleResponseTimeLaw(named, sample.sortedUnits(), options.times, ps);
    }
    case 'memory-reduction':
      return memoryLaw(model, named, options, ps);
    case 'hetero-mg1':
      return functionLaw(named, heteroMg1FifoLaw(model), options.times, ps);
    case 'redundancy-independent':
    case 'redundancy-identical': {
      // theory.md §16 in mean service times at load ρ = λE[S]; time rescaled by E[S]
      const mean = model.service.mean;
      const rho = model.lambda * mean;
      const f =
        id === 'redundancy-independent'
          ? {
              at: (t: number) => (t <= 0 ? 1 : independentRedundancyCcdf(rho, model.d, t / mean)),
              mean: independentRedundancy(rho, model.d).meanResponseTime * mean,
              scale: mean,
            }
          : (() => {
              const r = identicalRedundancyCcdf(rho, model.d);
              return { at: (t: number) => r.at(t / mean), mean: r.mean * mean, scale: mean, numericalError: r.numericalError };
            })();
      return functionLaw(named, f, options.times, ps);
    }
    default:
      return unknownPolicy(id, 'response-time solver');
  }
}

/**
 * The M/G/1 FIFO law of a homogeneous model at d = 1 (random selection): T ~ Exp(μ − λ) for exponential sizes, the
 * phase-type law for PH sizes, the LWL(1) workload FPE (Takács) on its grid for other laws of finite variance.
 */
function mg1FifoLaw(d1: SupermarketModel): CcdfFunction {
  const size = serviceDistribution(d1.service);
  switch (d1.service.kind) {
    case 'exponential': {
      const rate = 1 / size.mean - d1.lambda;
      return { at: (t) => (t <= 0 ? 1 : Math.exp(-rate * t)), mean: 1 / rate, scale: 1 / rate };
    }
    case 'erlang':
    case 'hyperexponential':
      return phaseTypeLaw(phaseTypeJsqFixedPoint(d1), 1);
    default: {
      const r = lwlFixedPoint({ ...d1, selection: 'lwl', d: 1 });
      const f = gridLaw(r.responseTimeCcdf.times, r.responseTimeCcdf.ccdf, r.diagnostics.gridErrorBound);
      return { ...f, mean: r.meanResponseTime };
    }
  }
}

/**
 * Random selection with server speeds, FIFO (hetero/mg1.ts): P(T > t) = Σ_c p_c P(T′_c > v_c t), T′_c the class's
 * M/G/1 FIFO response time in its own work units (`heteroMg1ClassModel`), E[T] = Σ_c p_c E[T′_c]/v_c.
 */
function heteroMg1FifoLaw(model: SupermarketModel): CcdfFunction {
  const servers = model.servers;
  if (servers === undefined) throw new InvalidModelError('the per-class M/G/1 law needs server classes (--speeds)');
  const p = classSamplingProbabilities(servers);
  const laws = servers.speeds.map((_, c) => mg1FifoLaw(heteroMg1ClassModel(model, c)));
  const mean = laws.reduce((a, f, c) => a + (p[c] * f.mean) / servers.speeds[c], 0);
  const errors = laws.map((f) => f.numericalError ?? 0);
  return {
    at: (t) => laws.reduce((a, f, c) => a + p[c] * f.at(t * servers.speeds[c]), 0),
    mean,
    scale: mean,
    ...(errors.some((e) => e > 0) ? { numericalError: Math.max(...errors) } : {}),
  };
}

/**
 * A model with dispatcher memory (theory.md §12, reduction theorem): the law of the same model without memory at rate
 * λπ₀^{1/d} (reduction.ts `reducedModel`), its solver named with the reduction; π₀ = 0 (classic JIQ, CP with
 * d ≥ 1/(1 − ρ)): every job joins an idle server, so T = S, the size law itself (exact).
 */
function memoryLaw(
  model: SupermarketModel,
  named: { kind: SolutionKind; solver: string; source: string },
  options: ResponseTimeOptions,
  ps: number[],
): ResponseTimeLaw {
  const reduction = memoryReduction(model);
  const memory = describeMemory(reduction.memory);
  if (reduction.pi0 === 0) {
    reducedModel(model, reduction); // the same refusals as π₀ > 0
    const size = serviceDistribution(model.service);
    const idle = {
      kind: 'exact' as const,
      solver: `memory ${memory} never empty (π₀ = 0): every job joins an idle server, T = S`,
      source: 'theory.md §12 (Hellemans 2021, ch. 6): π₀ = 0, so T = S, the size law',
    };
    const law = functionLaw(idle, { at: (t) => (t <= 0 ? 1 : size.ccdf(t)), mean: size.mean, scale: size.mean }, options.times, ps);
    return { ...law, quantiles: ps.map((p) => ({ p, value: size.quantile(p) })) };
  }
  const base = solveResponseTime(reducedModel(model, reduction), options);
  return {
    ...base,
    kind: named.kind,
    solver: `${base.solver} at the reduced rate λπ₀^{1/d} = ${reduction.reducedLambda.toPrecision(6)} (memory ${memory}, π₀ = ${reduction.pi0.toPrecision(6)})`,
    source: named.source,
  };
}

/**
 * The two-moment PH fit's response-time law (`phaseTypeFit`): the phase-type law of T on the fitted model, each
 * quantile's relative error at the ends of the JSQ cavity's 95 % interval, and the ccdf's largest distance from the
 * cavity's band. The fit alone has no error bound (fitError.ts), so the cavity answers the same question in this call.
 * @throws {InvalidModelError} where the fit is unavailable, or when the cavity refuses (no error could be measured).
 */
function phaseTypeFitLaw(model: SupermarketModel, options: ResponseTimeOptions, ps: number[]): ResponseTimeLaw {
  const fit = meanFieldCapabilities(model).phaseTypeFit;
  if (!fit.available) throw new InvalidModelError(fit.reason);
  const named = { kind: fit.kind, solver: `${fit.name}: phase-type law of T by uniformisation`, source: fit.source };
  const law = functionLaw(named, phaseTypeLaw(phaseTypeJsqFixedPoint(model), model.d), options.times, ps);
  let reference: ResponseTimeLaw;
  try {
    reference = solveResponseTime(model, { ...options, phaseTypeFit: false, quantiles: ps, times: law.times });
  } catch (error) {
    if (!(error instanceof ConvergenceError)) throw error;
    throw new InvalidModelError(
      `the PH fit's response-time law has no measured error here: its reference, the JSQ cavity, refused (${error.message})`,
    );
  }
  const quantiles = law.quantiles.map((q, i) => {
    const r = reference.quantiles[i].estimate;
    if (!r) throw new InvalidModelError(`the PH fit's reference ${reference.solver} gave no interval for p = ${q.p}`);
    const [lo, hi] = r.ci95;
    return {
      ...q,
      measuredError: { low: (q.value - hi) / hi, high: (q.value - lo) / lo, reference: reference.solver, referenceEstimate: r },
    };
  });
  const band = reference.ccdfCi95;
  const ccdfMeasuredError =
    law.times.length > 0 && band ? Math.max(0, ...law.ccdf.map((c, j) => Math.max(band[j][0] - c, c - band[j][1]))) : undefined;
  return {
    ...law,
    quantiles,
    ...(fit.measuredError ? { measuredError: fit.measuredError } : {}),
    ...(ccdfMeasuredError !== undefined ? { ccdfMeasuredError } : {}),
  };
}
