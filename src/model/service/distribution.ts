/**
 * The runtime service-time distribution interface: what the simulator samples and what the mean-field and M/G/1
 * formulas integrate against. Time is in the units of `spec.mean` (mean service times when spec.mean = 1).
 * Source: theory.md §1 "Sizes", §3 (phase-type fits).
 */
import type { ServiceSpec } from '../model.ts';

export type { ServiceSpec };

/** Source of uniforms; the simulator's Rng (src/sim/rng.ts) satisfies it structurally. */
export interface UniformSource {
  /** Uniform on [0, 1). */
  nextDouble(): number;
  /** Uniform on the open interval (0, 1). */
  nextOpen(): number;
  /** Exponential with mean 1. */
  nextExp(): number;
}

/**
 * Phase-type law PH(α, A): the absorption time of a continuous-time Markov chain with m transient phases.
 * `alpha[i]` is the probability of starting in phase i (length m, sums to 1); `A` is the m×m sub-generator
 * (row i: rates out of phase i; A[i][i] < 0; exit rate of phase i is −Σ_j A[i][j]).
 */
export interface PhaseType {
  readonly alpha: number[];
  readonly A: number[][];
}

/** A service-time distribution, rescaled so its mean is `spec.mean`. */
export interface ServiceDistribution {
  readonly spec: ServiceSpec;
  /** E[S] (equals spec.mean). */
  readonly mean: number;
  /** E[S²]. */
  readonly secondMoment: number;
  /** Squared coefficient of variation Var[S]/E[S]². */
  readonly scv: number;
  /** P(S > x). */
  ccdf(x: number): number;
  /** P(S ≤ x). */
  cdf(x: number): number;
  /** Density at x; NaN for distributions with atoms (deterministic, empirical). */
  density(x: number): number;
  /** Point masses (deterministic and empirical): sorted by x, distinct x, weights sum to 1. */
  readonly atoms?: readonly { readonly x: number; readonly p: number }[];
  /** Smallest x with P(S ≤ x) ≥ p, for p in [0, 1]. */
  quantile(p: number): number;
  /** E[S^k · 1(S ≤ x)] for k = 0, 1, 2 (closed form where one exists). */
  partialMoment(k: 0 | 1 | 2, x: number): number;
  /** One draw of S. */
  sample(rng: UniformSource): number;
  /** Exact phase-type representation (exponential, erlang, hyperexponential) or undefined. */
  readonly phaseType?: PhaseType;
  /** Upper end of the support (Infinity if unbounded). */
  readonly supportMax: number;
}

/** The spec of one service kind K, e.g. `ServiceSpecOf<'weibull'>` = { kind: 'weibull', shape, mean }. */
export type ServiceSpecOf<K extends ServiceSpec['kind']> = Extract<ServiceSpec, { kind: K }>;

/** The moments every law states once (time units): E[S], E[S²], the SCV, and the end of the support (default +∞). */
export interface LawMoments {
  readonly mean: number;
  readonly secondMoment: number;
  readonly scv: number;
  readonly supportMax?: number;
}

/**
 * The part every service law shares: its spec and its moments, fixed once by the law's constructor through
 * `super(spec, moments)` (after it has checked the parameters, the mean by `requireMean`); each law adds its own
 * parameters and formulas.
 */
export abstract class ServiceLaw<K extends ServiceSpec['kind']> {
  readonly mean: number;
  readonly secondMoment: number;
  readonly scv: number;
  readonly supportMax: number;

  protected constructor(
    readonly spec: ServiceSpecOf<K>,
    moments: LawMoments,
  ) {
    this.mean = moments.mean;
    this.secondMoment = moments.secondMoment;
    this.scv = moments.scv;
    this.supportMax = moments.supportMax ?? Infinity;
  }
}
