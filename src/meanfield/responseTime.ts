/**
 * Response-time law of SQ(d) FIFO with exponential sizes in the mean-field limit. A job that joins a server
 * holding m jobs waits for m + 1 exponential services (Erlang(m + 1)), and it joins a server with at least m jobs
 * with probability s_m^d, so P(T > t) = Σ_{m≥0} e^{−μt} (μt)^m/m! · (s_m*)^d, μ = 1/E[S].
 * Source: theory.md §2; Mitzenmacher, IEEE TPDS 12(10), 2001.
 */
import { InvalidModelError } from '../errors.ts';
import type { FixedPointResult } from './fixedPoint.ts';

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
