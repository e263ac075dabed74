/**
 * Mean field of redundancy-d, cancel-on-complete, FIFO servers, exponential sizes (theory.md §16). Time in mean
 * service times (rate 1), λ per server; the caller rescales by E[S].
 *
 * The cavity state of a queue is U, the time until every replica it now holds has left (completed or removed). With
 * FIFO a job's response time is fixed at its arrival: replica i starts at Uᵢ and would end at Uᵢ + Xᵢ, so
 * T = minᵢ (Uᵢ + Xᵢ), and each sampled queue moves to max(Uᵢ, T). Replicas reach a queue at rate λd, the other d − 1
 * queues are independent draws of U (the mean-field limit), and level crossing gives, for F̄(w) = P(U > w):
 *   −F̄′(w) = λd · P(U < w < max(U, T)).
 * - Independent replicas, Xᵢ iid Exp(1) (Gardner, Harchol-Balter, Scheller-Wolf, Velednitsky & Zbarsky, "Redundancy-d:
 *   the power of d choices for redundancy", Oper. Res. 65(4), 2017; restated in Hellemans' thesis): with
 *   H(w) = P(U + X > w), H′ = λH^d − H, H(0) = 1 and F̄ = λH^d, so
 *   P(T > t) = H(t)^d = (λ + (1 − λ)e^{(d−1)t})^{−d/(d−1)},  E[T] = ∫₀¹ z^{d−1} (1 − λ + λz^{d−1})^{−d/(d−1)} dz
 *   (z = e^{−t}), stable for λ < 1, busy fraction F̄(0) = λ.
 * - Identical replicas, one X ~ Exp(1) per job (T. Hellemans, PhD thesis, Univ. Antwerp 2021, ch. 3; Hellemans &
 *   Van Houdt): T = X + minᵢ Uᵢ, and with Q_k(w) = P(X + min of k draws of U > w) (Q_k′ = F̄^k − Q_k, Q_k(0) = 1)
 *   −F̄′ = λd (Q_d − F̄·Q_{d−1}),  F̄(0) = x unknown,
 *   a delay-free form of the thesis's integro-differential equation for exponential sizes. x is found by shooting
 *   (x too small: F̄ crosses 0; too large: F̄ levels off above 0), E[T] = 1 + ∫₀^∞ F̄^d, P(T > t) = Q_d(t). The busy
 *   fraction x exceeds λ (cancelled replicas' service is wasted) and must stay below 1: the largest stable load
 *   λ_max(d) is where x reaches 1, found by bisection on λ.
 */
import { UnstableModelError } from '../errors.ts';
import { integrate } from '../numerics/quadrature.ts';

/** The redundancy fixed point in mean service times: E[T], replicas per server, busy fraction, work per job. */
export interface RedundancyFixedPoint {
  readonly meanResponseTime: number;
  /** Replicas per server E[Q] = λ·d·E[T] (every replica of a job leaves at its response time). */
  readonly meanQueueLength: number;
  /** Fraction of busy servers F̄(0) (= λ·E[W]). */
  readonly busyFraction: number;
  /** Service the job's replicas receive, E[W] = F̄(0)/λ. */
  readonly workPerJob: number;
  /** Bound on the error of E[T] (quadrature or step halving). */
  readonly numericalError: number;
  /** The largest stable load (1 for independent exponential replicas). */
  readonly lambdaMax: number;
}

/**
 * Independent exponential replicas: the closed form of Gardner et al. (module docstring), E[T] by adaptive
 * Gauss–Kronrod on z ∈ [0, 1] (a smooth integrand), d = 1 M/M/1.
 * @param lambda load per server in (0, 1). @param d replicas ≥ 1.
 * @throws {UnstableModelError} for λ ≥ 1.
 */
export function independentRedundancy(lambda: number, d: number): RedundancyFixedPoint {
  if (!(lambda > 0 && lambda < 1))
    throw new UnstableModelError(`redundancy-d with independent exponential replicas is stable for λ < 1, got λ = ${lambda}`);
  let mean: number;
  let error = 0;
  if (d === 1) mean = 1 / (1 - lambda);
  else {
    const e = -d / (d - 1);
    // the mass sits near z = 0 when λ → 1 (width (1 − λ)^{1/(d−1)}): breakpoints there
    const width = (1 - lambda) ** (1 / (d - 1));
    const breaks = [0.5, 2, 8, 32].map((k) => k * width).filter((z) => z < 1);
    const r = integrate((z) => z ** (d - 1) * (1 - lambda + lambda * z ** (d - 1)) ** e, 0, 1, {
      breakpoints: breaks,
      relTolerance: 1e-12,
      absTolerance: 1e-14,
    });
    mean = r.value;
    error = r.error;
  }
  return {
    meanResponseTime: mean,
    meanQueueLength: lambda * d * mean,
    busyFraction: lambda,
    workPerJob: 1,
    numericalError: error,
    lambdaMax: 1,
  };
}

/** P(T > t) for independent exponential replicas: (λ + (1 − λ)e^{(d−1)t})^{−d/(d−1)} (d = 1: e^{−(1−λ)t}). */
export function independentRedundancyCcdf(lambda: number, d: number, t: number): number {
  if (d === 1) return Math.exp(-(1 - lambda) * t);
  return (lambda + (1 - lambda) * Math.exp((d - 1) * t)) ** (-d / (d - 1));
}

/** Outcome of one shot from F̄(0) = x: whether F̄ crossed 0 (x too small), and ∫F̄^d, F̄ reached. */
interface Shot {
  readonly low: boolean;
  readonly integral: number;
}

const MAX_HORIZON = 2000;

/**
 * One shot of the identical-replica equations (module docstring) from F̄(0) = x, classic RK4 with step h, until F̄
 * crosses 0 (low), stops decreasing (high) or the horizon ends (high).
 */
function shoot(lambda: number, d: number, x: number, h: number, record?: (t: number, qd: number) => void): Shot {
  let F = x;
  let Qd = 1;
  let Qd1 = 1;
  let I = 0;
  const c = lambda * d;
  // k = d − 1 = 0: the minimum of no draws is +∞, so Q_0 ≡ 1
  const rhs = (f: number, qd: number, qd1: number, out: Float64Array) => {
    const fd1 = d === 1 ? 1 : f ** (d - 1);
    out[0] = -c * (qd - f * qd1);
    out[1] = fd1 * f - qd;
    out[2] = d === 1 ? 0 : fd1 - qd1;
    out[3] = fd1 * f;
  };
  const k1 = new Float64Array(4);
  const k2 = new Float64Array(4);
  const k3 = new Float64Array(4);
  const k4 = new Float64Array(4);
  const steps = Math.ceil(MAX_HORIZON / h);
  for (let i = 0; i < steps; i++) {
    record?.(i * h, Qd);
    rhs(F, Qd, Qd1, k1);
    // levelled off above 0 (a relative decay below 1e-9 per time unit), or at the root to within 1e-14: high
    // (not before w = 2: from x = 1, F̄′(0) = 0)
    if ((!(k1[0] < -1e-9 * F) && i * h > 2) || F < 1e-14) return { low: false, integral: I };
    rhs(F + 0.5 * h * k1[0], Qd + 0.5 * h * k1[1], Qd1 + 0.5 * h * k1[2], k2);
    rhs(F + 0.5 * h * k2[0], Qd + 0.5 * h * k2[1], Qd1 + 0.5 * h * k2[2], k3);
    rhs(F + h * k3[0], Qd + h * k3[1], Qd1 + h * k3[2], k4);
    F += (h / 6) * (k1[0] + 2 * k2[0] + 2 * k3[0] + k4[0]);
    Qd += (h / 6) * (k1[1] + 2 * k2[1] + 2 * k3[1] + k4[1]);
    Qd1 += (h / 6) * (k1[2] + 2 * k2[2] + 2 * k3[2] + k4[2]);
    I += (h / 6) * (k1[3] + 2 * k2[3] + 2 * k3[3] + k4[3]);
    if (F < 0) return { low: true, integral: I };
  }
  return { low: false, integral: I };
}

/** F̄(0) by bisection on x ∈ (0, 1] (the shot's side), with ∫F̄^d of the last shot above the root. */
function busyFraction(lambda: number, d: number, h: number): { x: number; integral: number } {
  let lo = lambda; // F̄(0) ≥ λ: the replicas' work is at least the job's
  let hi = 1;
  let integral = NaN;
  if (shoot(lambda, d, hi, h).low) return { x: Infinity, integral };
  for (let i = 0; i < 60 && hi - lo > 1e-15; i++) {
    const mid = 0.5 * (lo + hi);
    const s = shoot(lambda, d, mid, h);
    if (s.low) lo = mid;
    else {
      hi = mid;
      integral = s.integral;
    }
  }
  if (Number.isNaN(integral)) integral = shoot(lambda, d, hi, h).integral;
  return { x: hi, integral };
}

/**
 * P(T > t) of identical exponential replicas in mean service times: Q_d(t) of the shot from the busy fraction F̄(0)
 * (module docstring), RK4 with step 1/64 tabulated at every step; past the shot's end (F̄ ≈ 0, so Q_d′ = −Q_d) the
 * tail e^{−(t − t_end)}Q_d(t_end). The error bound is the largest change of Q_d from step 1/32 to 1/64 on the common
 * points (fourth order), plus the linear interpolation's max|Δ²Q_d|/8, plus 1e−9.
 * @param lambda load per server in (0, λ_max(d)). @param d replicas ≥ 1 (d = 1: M/M/1, e^{−(1−λ)t}).
 * @returns the ccdf as a function of t ≥ 0, its mean E[T] = ∫P(T > t)dt and the error bound of its values.
 * @throws {UnstableModelError} for λ ≥ λ_max(d).
 */
export function identicalRedundancyCcdf(lambda: number, d: number): { at(t: number): number; mean: number; numericalError: number } {
  const fp = identicalRedundancy(lambda, d);
  if (d === 1) return { at: (t) => independentRedundancyCcdf(lambda, 1, t), mean: fp.meanResponseTime, numericalError: 0 };
  const table = (h: number): number[] => {
    const qd: number[] = [];
    shoot(lambda, d, busyFraction(lambda, d, h).x, h, (_t, q) => qd.push(q));
    return qd;
  };
  const h = 1 / 64;
  const fine = table(h);
  const coarse = table(2 * h);
  let error = 1e-9;
  for (let j = 0; j < coarse.length && 2 * j < fine.length; j++) error = Math.max(error, Math.abs(coarse[j] - fine[2 * j]));
  // linear interpolation between steps: at most max|Δ²Q_d|/8
  let curvature = 0;
  for (let j = 1; j + 1 < fine.length; j++) curvature = Math.max(curvature, Math.abs(fine[j + 1] - 2 * fine[j] + fine[j - 1]));
  error += curvature / 8;
  const last = fine.length - 1;
  const at = (t: number): number => {
    if (t <= 0) return 1;
    const u = t / h;
    if (u >= last) return fine[last] * Math.exp(-(t - last * h));
    const j = Math.floor(u);
    return fine[j] + (u - j) * (fine[j + 1] - fine[j]);
  };
  return { at, mean: fp.meanResponseTime, numericalError: error };
}

/** The one-line refusal of a load at or above λ_max (λ and λ_max in the model's units). */
function aboveLambdaMax(lambda: number, d: number, lambdaMax: number): string {
  return `redundancy-d with identical replicas (d = ${d}, exponential sizes) is stable only for λ < λ_max = ${lambdaMax.toFixed(6)}, got λ = ${lambda} (theory.md §16)`;
}

/**
 * Refuses a redundancy-d model with identical exponential replicas at λ ≥ λ_max(d)/E[S] (every entry that runs a
 * model: simulate as well as the mean field); other models pass (their region is λE[S] < 1 or unknown).
 * @throws {UnstableModelError} one line naming λ_max.
 */
export function requireRedundancyStable(model: {
  readonly lambda: number;
  readonly d: number;
  readonly service: { readonly kind: string; readonly mean: number };
  readonly redundancy?: { readonly replicas: string };
}): void {
  if (model.redundancy?.replicas !== 'identical' || model.service.kind !== 'exponential' || model.d === 1) return;
  const max = identicalRedundancyLambdaMax(model.d) / model.service.mean;
  if (!(model.lambda < max)) throw new UnstableModelError(aboveLambdaMax(model.lambda, model.d, max));
}

const lambdaMaxCache = new Map<number, number>();
/** The λ_max search shoots from F̄(0) = 1 − LAMBDA_MAX_GAP. */
const LAMBDA_MAX_GAP = 1e-6;

/**
 * The largest stable load λ_max(d) of identical exponential replicas: the λ where the busy fraction F̄(0) reaches 1
 * (the shot from x = 1 stops crossing 0), by bisection to 1e-6; d = 1: 1 (M/M/1).
 */
export function identicalRedundancyLambdaMax(d: number, gap = LAMBDA_MAX_GAP): number {
  if (d === 1) return 1;
  const cached = gap === LAMBDA_MAX_GAP ? lambdaMaxCache.get(d) : undefined;
  if (cached !== undefined) return cached;
  // F̄ ≡ 1 is an equilibrium of the equations, so the shot starts just below it: stable iff F̄(0) = 1 − gap is above the root
  let lo = 0.01;
  let hi = 1;
  while (hi - lo > 1e-7) {
    const mid = 0.5 * (lo + hi);
    if (shoot(mid, d, 1 - gap, 1 / 64).low) hi = mid;
    else lo = mid;
  }
  if (gap !== LAMBDA_MAX_GAP) return lo;
  lambdaMaxCache.set(d, lo);
  return lo;
}

/**
 * Identical exponential replicas (module docstring): E[T] = 1 + ∫₀^∞ F̄^d with F̄ from the shooting on F̄(0);
 * the error bar is the change from step 1/32 to 1/64 (RK4, fourth order).
 * @throws {UnstableModelError} one line naming λ_max(d) when λ ≥ λ_max(d).
 */
export function identicalRedundancy(lambda: number, d: number): RedundancyFixedPoint {
  const lambdaMax = identicalRedundancyLambdaMax(d);
  if (!(lambda > 0 && lambda < lambdaMax)) throw new UnstableModelError(aboveLambdaMax(lambda, d, lambdaMax));
  if (d === 1) return { ...independentRedundancy(lambda, 1), lambdaMax };
  const fine = busyFraction(lambda, d, 1 / 64);
  const coarse = busyFraction(lambda, d, 1 / 32);
  const mean = 1 + fine.integral;
  return {
    meanResponseTime: mean,
    meanQueueLength: lambda * d * mean,
    busyFraction: fine.x,
    workPerJob: fine.x / lambda,
    numericalError: Math.abs(fine.integral - coarse.integral) + 1e-9,
    lambdaMax,
  };
}
