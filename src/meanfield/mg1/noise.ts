/**
 * Every supported prediction model is multiplicative, Y = S·R with R independent of S (theory.md §1 "Predictions"):
 * exact R = 1; exponential R ~ Exp(1); α-uniform R ~ U[1 − α, 1 + α]; log-normal R = exp(σZ + m). This file gives
 * the law of R as the M/G/1 integrals need it: P(R < r) (from the prediction model's `cdfGiven(r, 1)`), P(R ≤ r),
 * density, and the closed-form j(c) = E[(1 + c − R)²·1(c < R < 1 + c)] behind the SPRPT term
 * E[((S − (Y − y))^+)²·1(Y > y) | S = s] = s²·j(y/s) (theory.md §7: for Exp, (1 − 2/e)e^{−c}).
 */
import { InvalidModelError } from '../../errors.ts';
import type { PredictionSpec } from '../../model/model.ts';
import { predictionIsExact } from '../../model/moments.ts';
import { predictionModel } from '../../model/prediction/index.ts';
import { normalCdf } from '../../model/service/index.ts';

export interface NoiseLaw {
  readonly spec: PredictionSpec;
  /** R ≡ 1 (exact, uniform α = 0, log-normal σ = 0): Y = S. */
  readonly pointMass: boolean;
  /** P(R < r). */
  cdfStrict(r: number): number;
  /** P(R ≤ r). */
  cdf(r: number): number;
  /** P(R > r), accurate in the upper tail. */
  ccdf(r: number): number;
  /** Density of R (0 for the point mass). */
  density(r: number): number;
  /** j(c) = E[(1 + c − R)²·1(c < R < 1 + c)], c ≥ 0. */
  j(c: number): number;
  /** E[(1 − R)^+]. */
  readonly meanShortfall: number;
  /** Values of r where the density (or cdf) is not smooth. */
  readonly breakpoints: readonly number[];
  /** Truncated support [rLo, rHi]: P(R < rLo) and P(R > rHi) below 1e-17; `rMid` a central value (median). */
  readonly rLo: number;
  readonly rHi: number;
  readonly rMid: number;
}

/** Φ(ub) − Φ(ua) for ua ≤ ub without cancellation in the upper tail. */
function normalDiff(ua: number, ub: number): number {
  return ua > 0 ? normalCdf(-ua) - normalCdf(-ub) : normalCdf(ub) - normalCdf(ua);
}

/**
 * The law of R = Y/S for a prediction spec.
 * @throws {InvalidModelError} for trace predictions (no conditional law P(Y < y | S = x)).
 */
export function noiseLaw(spec: PredictionSpec): NoiseLaw {
  if (spec.kind === 'trace') {
    throw new InvalidModelError(
      `the M/G/1 formulas need a prediction law P(Y < y | S = x); trace predictions (${spec.source}) have none: use exact, exp, uniform:ALPHA or lognormal:SIGMA`,
    );
  }
  const model = predictionModel(spec);
  const cdfStrict = (r: number) => model.cdfGiven(r, 1);
  const pointMass = predictionIsExact(spec);
  if (pointMass) {
    return {
      spec,
      pointMass,
      cdfStrict,
      cdf: (r) => (r >= 1 ? 1 : 0),
      ccdf: (r) => (r >= 1 ? 0 : 1),
      density: () => 0,
      j: (c) => (c < 1 ? c * c : 0),
      meanShortfall: 0,
      breakpoints: [1],
      rLo: 1,
      rHi: 1,
      rMid: 1,
    };
  }
  switch (spec.kind) {
    case 'exponential': {
      const k = 1 - 2 / Math.E;
      return {
        spec,
        pointMass,
        cdfStrict,
        cdf: cdfStrict,
        ccdf: (r) => (r <= 0 ? 1 : Math.exp(-r)),
        density: (r) => (r < 0 ? 0 : Math.exp(-r)),
        j: (c) => k * Math.exp(-c),
        meanShortfall: 1 / Math.E,
        breakpoints: [],
        rLo: 1e-17,
        rHi: 45,
        rMid: Math.LN2,
      };
    }
    case 'uniform': {
      const a = spec.alpha;
      const lo = 1 - a,
        hi = 1 + a;
      const j = (c: number) => {
        const u = Math.max(c, lo),
          v = Math.min(1 + c, hi);
        if (!(u < v)) return 0;
        return ((1 + c - u) ** 3 - (1 + c - v) ** 3) / (6 * a);
      };
      // E[(1 − R)^+] = ∫_{1−α}^{1} (1 − r)/(2α) dr = α/4
      return {
        spec,
        pointMass,
        cdfStrict,
        cdf: cdfStrict,
        ccdf: (r) => 1 - cdfStrict(r),
        density: (r) => (r >= lo && r <= hi ? 1 / (2 * a) : 0),
        j,
        meanShortfall: a / 4,
        breakpoints: [lo, hi],
        rLo: lo > 0 ? lo : 1e-17,
        rHi: hi,
        rMid: 1,
      };
    }
    case 'lognormal': {
      const s = spec.sigma;
      const m = spec.bias === 'mean' ? -0.5 * s * s : 0;
      const u = (r: number, k: number) => (Math.log(r) - m - k * s * s) / s;
      /** E[R^k·1(a < R < b)] = e^{km + k²σ²/2}·(Φ(u_k(b)) − Φ(u_k(a))). */
      const partial = (k: number, a: number, b: number) =>
        Math.exp(k * m + 0.5 * k * k * s * s) * normalDiff(a > 0 ? u(a, k) : -Infinity, u(b, k));
      const j = (c: number) => {
        const p0 = partial(0, c, 1 + c),
          p1 = partial(1, c, 1 + c),
          p2 = partial(2, c, 1 + c);
        return Math.max(0, (1 + c) * (1 + c) * p0 - 2 * (1 + c) * p1 + p2);
      };
      const density = (r: number) => (r <= 0 ? 0 : Math.exp(-0.5 * u(r, 0) ** 2) / (r * s * Math.sqrt(2 * Math.PI)));
      return {
        spec,
        pointMass,
        cdfStrict,
        cdf: cdfStrict,
        ccdf: (r) => (r <= 0 ? 1 : normalCdf(-u(r, 0))),
        density,
        j,
        meanShortfall: partial(0, 0, 1) - partial(1, 0, 1),
        breakpoints: [],
        rLo: Math.exp(m - 9 * s),
        rHi: Math.exp(m + 9 * s),
        rMid: Math.exp(m),
      };
    }
    default:
      throw new InvalidModelError(`unknown prediction kind ${JSON.stringify((spec as { kind: unknown }).kind)}`);
  }
}
