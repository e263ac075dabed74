/**
 * Prediction models Y of a job's size S = x, drawn once per job at arrival (theory.md §1 "Predictions", §7):
 * exact Y = x; exponential Y ~ Exp(mean x); α-uniform Y ~ U[(1 − α)x, (1 + α)x]; log-normal Y = x·exp(σZ + m),
 * m = 0 ('median', as in Dell'Amico's schedsim) or −σ²/2 ('mean'); trace: the per-job column, in order (cyclic).
 */
import { InvalidModelError, SupermarketError } from '../../errors.ts';
import { byKind, type KindTable, type PredictionSpec } from '../model.ts';
import type { UniformSource } from '../service/distribution.ts';
import { normalCdf, standardNormal } from '../service/support.ts';

export interface PredictionModel {
  readonly spec: PredictionSpec;
  /** Draws Y given the true size x (for 'trace' use `sampleAt(index)` instead; throws there). */
  sample(x: number, rng: UniformSource): number;
  /** P(Y < y | S = x) for exact, exponential, uniform, lognormal (theory.md §7 'Predictions'); throws for trace. */
  cdfGiven(y: number, x: number): number;
  /** For 'trace': the prediction of job number `index` (cyclic), else undefined. */
  sampleAt?(index: number): number;
}

/** P(Y < y) for the point mass Y = x. */
function step(y: number, x: number): number {
  return x < y ? 1 : 0;
}

class ExactPrediction implements PredictionModel {
  constructor(readonly spec: PredictionSpec) {}
  sample(x: number, _rng: UniformSource): number {
    return x;
  }
  cdfGiven(y: number, x: number): number {
    return step(y, x);
  }
}

/** Y = x·E, E ~ Exp(1): P(Y < y | x) = 1 − e^{−y/x}. */
class ExponentialPrediction implements PredictionModel {
  constructor(readonly spec: PredictionSpec) {}
  sample(x: number, rng: UniformSource): number {
    return x * rng.nextExp();
  }
  cdfGiven(y: number, x: number): number {
    if (x <= 0) return step(y, x);
    return y <= 0 ? 0 : -Math.expm1(-y / x);
  }
}

/** Y = x·(1 − α + 2αU): P(Y < y | x) = clip((y − (1 − α)x)/(2αx), 0, 1); α = 0 is exact. */
class UniformPrediction implements PredictionModel {
  private readonly alpha: number;
  constructor(readonly spec: Extract<PredictionSpec, { kind: 'uniform' }>) {
    const a = spec.alpha;
    if (!(a >= 0 && a <= 1)) throw new InvalidModelError(`uniform prediction alpha must be in [0, 1], got ${a}`);
    this.alpha = a;
  }
  sample(x: number, rng: UniformSource): number {
    return x * (1 - this.alpha + 2 * this.alpha * rng.nextDouble());
  }
  cdfGiven(y: number, x: number): number {
    if (this.alpha === 0 || x <= 0) return step(y, x);
    return Math.min(1, Math.max(0, (y - (1 - this.alpha) * x) / (2 * this.alpha * x)));
  }
}

/** Y = x·exp(σZ + m): P(Y < y | x) = Φ((ln(y/x) − m)/σ); σ = 0 is exact. */
class LognormalPrediction implements PredictionModel {
  private readonly sigma: number;
  private readonly shift: number;
  constructor(readonly spec: Extract<PredictionSpec, { kind: 'lognormal' }>) {
    const s = spec.sigma;
    if (!(s >= 0 && Number.isFinite(s))) throw new InvalidModelError(`lognormal prediction sigma must be a finite number ≥ 0, got ${s}`);
    if (spec.bias !== 'median' && spec.bias !== 'mean') {
      throw new InvalidModelError(`lognormal prediction bias must be one of: median, mean, got ${JSON.stringify(spec.bias)}`);
    }
    this.sigma = s;
    this.shift = spec.bias === 'mean' ? -0.5 * s * s : 0;
  }
  sample(x: number, rng: UniformSource): number {
    if (this.sigma === 0) return x;
    return x * Math.exp(this.sigma * standardNormal(rng) + this.shift);
  }
  cdfGiven(y: number, x: number): number {
    if (this.sigma === 0 || x <= 0) return step(y, x);
    if (y <= 0) return 0;
    return normalCdf((Math.log(y / x) - this.shift) / this.sigma);
  }
}

/** The trace column: job number i gets values[i mod length]. */
class TracePrediction implements PredictionModel {
  private readonly values: Float64Array;
  constructor(readonly spec: Extract<PredictionSpec, { kind: 'trace' }>) {
    if (spec.values.length === 0) throw new InvalidModelError('trace prediction values must be a non-empty array, got length 0');
    this.values = Float64Array.from(spec.values);
    this.values.forEach((v, i) => {
      if (!Number.isFinite(v)) throw new InvalidModelError(`trace prediction #${i + 1} must be a finite number, got ${v}`);
    });
  }
  sample(_x: number, _rng: UniformSource): number {
    throw new SupermarketError(`trace predictions (${this.spec.source}) are per job: use sampleAt(index), not sample(x, rng)`);
  }
  cdfGiven(_y: number, _x: number): number {
    throw new SupermarketError(`trace predictions (${this.spec.source}) have no conditional law P(Y < y | S = x)`);
  }
  sampleAt(index: number): number {
    const n = this.values.length;
    return this.values[((index % n) + n) % n];
  }
}

/**
 * The runtime prediction model of a prediction spec.
 * @param spec a validated `PredictionSpec` (as produced by `parseModel`); checked again here.
 * @returns a `PredictionModel`: `sample(x, rng)` (one `nextExp` for exponential, one `nextDouble` for uniform,
 *   one `nextExp` + one `nextDouble` for lognormal, none for exact) and `cdfGiven(y, x)` = P(Y < y | S = x);
 *   for 'trace', `sampleAt(index)` instead (the other two throw `SupermarketError`).
 * @throws {InvalidModelError} on an out-of-range parameter (uniform α ∉ [0, 1], lognormal σ < 0, unknown bias,
 *   empty or non-finite trace) or an unknown kind.
 * @example predictionModel({ kind: 'uniform', alpha: 0.5 }).cdfGiven(1, 1) // 0.5
 */
export function predictionModel(spec: PredictionSpec): PredictionModel {
  return byKind('prediction', PREDICTION_MODELS, spec);
}

/** The model of each prediction kind, in the order of PREDICTION_KINDS (the error message lists them so). */
const PREDICTION_MODELS: KindTable<PredictionSpec, PredictionModel> = {
  exact: ExactPrediction,
  exponential: ExponentialPrediction,
  uniform: UniformPrediction,
  lognormal: LognormalPrediction,
  trace: TracePrediction,
};
